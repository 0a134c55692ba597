"""Run the Monte Carlo engine: chunks of spins into mergeable statistics."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numba
import numpy as np

from certify.engine import _chunk
from certify.engine import _kernels as k
from certify.engine.kernel_inputs import (
    game_inputs,
    hist_inputs,
    level_inputs,
    prefix_inputs,
    prefix_tables,
    reel_inputs,
    reel_sets,
)
from certify.engine.prefix import PrefixTables
from certify.engine.rng import CHUNK_SPINS, chunk_plan, chunk_states
from certify.engine.screens import is_screen_game, run_screen_chunks
from certify.engine.spin_records import ChunkOutputs
from certify.engine.tables import HIST_BINS, GameTables, compile_machine, line_bonus_variant
from certify.model.schema import Machine
from certify.model.screens import cluster_pays_of


@dataclass
class SimulationResult:
    """Sufficient statistics of a run, mergeable across chunks.

    Wins are in credits at the run's bet level; ``rtp`` and ``std_error`` are
    per unit wagered.
    """

    total_bet: int
    n_awards: int
    spins: int = 0
    total_win: int = 0
    sum_sq: float = 0.0
    hits: int = 0
    max_win: int = 0
    fs_triggers: int = 0
    bonus_triggers: int = 0
    fs_spins: int = 0
    award_counts: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    histogram: np.ndarray = field(default_factory=lambda: np.zeros(HIST_BINS, dtype=np.int64))

    def __post_init__(self) -> None:
        if self.award_counts.shape[0] != self.n_awards:
            self.award_counts = np.zeros(self.n_awards, dtype=np.int64)

    @property
    def rtp(self) -> float:
        """Mean return per unit wagered."""
        return self.total_win / (self.spins * self.total_bet) if self.spins else float("nan")

    @property
    def variance(self) -> float:
        """Sample variance of the win per spin, in units of total bet squared."""
        if self.spins < 2:
            return float("nan")
        mean = self.total_win / self.spins
        var = (self.sum_sq - self.spins * mean * mean) / (self.spins - 1)
        return max(var, 0.0) / self.total_bet**2

    @property
    def std_error(self) -> float:
        """Standard error of ``rtp``."""
        return float(np.sqrt(self.variance / self.spins)) if self.spins else float("nan")

    @property
    def hit_frequency(self) -> float:
        """Share of spins that won something or triggered a feature."""
        return self.hits / self.spins if self.spins else float("nan")

    def merge(
        self, stats: np.ndarray, sq: np.ndarray, awards: np.ndarray, hist: np.ndarray
    ) -> None:
        """Add per-chunk kernel outputs, in chunk order (deterministic).

        The sum of squares is added chunk after chunk (``np.add.accumulate``
        adds in order, as a loop would: the same double whatever the batch).
        """
        if stats.shape[0] == 0:
            return
        self.spins += int(stats[:, k.OUT_SPINS].sum())
        self.total_win += int(stats[:, k.OUT_WIN].sum())
        self.hits += int(stats[:, k.OUT_HITS].sum())
        self.max_win = max(self.max_win, int(stats[:, k.OUT_MAX].max()))
        self.fs_triggers += int(stats[:, k.OUT_FS].sum())
        self.bonus_triggers += int(stats[:, k.OUT_BONUS].sum())
        self.fs_spins += int(stats[:, k.OUT_FS_SPINS].sum())
        running = np.concatenate(([self.sum_sq], np.asarray(sq, dtype=np.float64)))
        self.sum_sq = float(np.add.accumulate(running)[-1])
        self.award_counts = self.award_counts + awards.sum(axis=0)
        self.histogram = self.histogram + hist.sum(axis=0)


def fast_flag(t: GameTables, px: PrefixTables) -> int | None:
    """1 when every reel set of a lines game takes the two-draw fast path, else None.

    The path needs uniform strips and prefix tables that end two reels before
    the end with tail tables (see ``simulate_chunks``). Ways games take their
    group draw (:func:`~certify.engine.kernel_inputs.ways_group_draw_on`) by a
    branch on the reel set instead, so one ways kernel serves both draws.
    """
    if t.is_ways:  # the ways group draw is chosen per reel set inside the kernel
        return None
    n_reels = t.base.length.shape[0]
    ok = (
        not t.expand_symbols  # the expanding symbol reads the free spins' stops
        and not t.full_window_mult.size  # so does the full-window test
        and not t.factor_on  # and the stops' factors
        and not any(s.weighted for s in reel_sets(t))
        and bool(px.finishes_by_tail(n_reels).all())
    )
    return 1 if ok else None


def extras_flag(t: GameTables) -> int | None:
    """1 when the game uses a rule the plain kernel prunes, else None.

    The win cap, exclusive scatters, free spins paying from their own scatter
    table, hold and spin, the Book-of-Ra symbol, full-window pays and drawn
    free-spin options: numba prunes their code
    from the kernel of a game that uses none (measured: the reference game
    lost 15-20% per spin with the branches compiled in).
    """
    uses = (
        t.levels[0].cap > 0
        or bool(t.scatter_excl.any())
        or t.fs_own_pays
        or t.hold_on
        or bool(t.expand_symbols)
        or bool(t.full_window_mult.size)
        or t.fs_draw_weights.shape[0] > 1
        or t.fs_each_mult.shape[0] > 1
        or t.base_each_mult.shape[0] > 1
        or t.factor_on
        or t.line_bonus_tag > 0
    )
    return 1 if uses else None


def ways_flag(t: GameTables) -> int | None:
    """None for a lines game, 1 for a ways game: lets numba prune the other branch."""
    return 1 if t.is_ways else None


def run_chunks(
    tables: GameTables,
    level_index: int,
    seed: int,
    first_chunk: int,
    sizes: np.ndarray,
    stream: int = 0,
) -> tuple:
    """Run chunks ``first_chunk ..`` of sizes ``sizes``; return the raw per-chunk outputs.

    (statistics, sums of squares, base-game award counts, histograms).
    """
    if is_screen_game(tables.machine):  # cascades, cluster pays: their own kernel
        return run_screen_chunks(tables, level_index, seed, first_chunk, sizes, stream)
    tables = line_bonus_variant(tables, "tag")  # a line bonus: its lines marked for the kernel
    n = sizes.shape[0]
    px = prefix_tables(tables, level_index)
    lt = tables.levels[level_index]
    n_keys = lt.n_keys  # award keys: the entries, then pairs a both-ways line pays
    states = chunk_states(seed, first_chunk, n, stream)
    out = np.zeros((n, k.N_OUT), dtype=np.int64)
    sq = np.zeros(n, dtype=np.float64)
    classes = np.zeros((n, 2 * px.n_classes), dtype=np.int64)
    awards = np.zeros((n, 2 * (n_keys + 1)), dtype=np.int64)
    hist = np.zeros((n, HIST_BINS), dtype=np.int64)
    _chunk.simulate_chunks(
        states,
        sizes,
        reel_inputs(tables),
        prefix_inputs(px),
        level_inputs(lt, tables),
        game_inputs(tables),
        hist_inputs(lt.total_bet),
        ChunkOutputs(out, sq, classes, awards, hist),
        ways_flag(tables),
        fast_flag(tables, px),
        extras_flag(tables),
    )
    base_keys = awards[:, 1 : n_keys + 1] + classes[:, : px.n_classes] @ px.class_entries
    return out, sq, base_keys @ lt.award_keys, hist


def award_columns(tables: GameTables) -> int:
    """Award counts a simulation keeps: per pay entry, or per ``cluster_pays`` entry."""
    if tables.machine.evaluation == "cluster":
        return len(cluster_pays_of(tables.machine))
    return len(tables.machine.pays)


def simulate(
    machine: Machine | GameTables,
    level_index: int,
    spins: int,
    seed: int,
    *,
    stream: int = 0,
    chunk_spins: int = CHUNK_SPINS,
    progress: Callable[[SimulationResult], None] | None = None,
    runner: Any = None,
) -> SimulationResult:
    """Simulate ``spins`` spins of one bet level with seed ``seed``.

    Parameters
    ----------
    machine : Machine or GameTables
        The model (compiled tables are reused when given).
    level_index : int
        Index into ``machine.bet_levels``.
    spins, seed : int
        Run size and seed; chunk ``i`` always uses stream ``(seed, stream, i)``.
    stream : int
        Separates independent runs under one seed.
    chunk_spins : int
        Spins per chunk (part of the reproducibility contract; default 2^20).
    progress : callable, optional
        Called with the running result after each batch of chunks.
    runner : object, optional
        Where the chunks run (see :mod:`certify.runners`): an object whose
        ``batches(tables, level_index, seed, stream, sizes, batch)`` yields
        ``(first, run_chunks outputs)`` for chunks ``first .. first + batch - 1``
        in chunk order. Default: :func:`run_chunks` in this process. Batches
        are merged in chunk order, so the result is bit-identical whatever
        the runner.

    """
    tables = machine if isinstance(machine, GameTables) else compile_machine(machine)
    level = tables.levels[level_index]
    result = SimulationResult(level.total_bet, award_columns(tables))
    sizes = chunk_plan(spins, chunk_spins)
    batch = max(2, -(-sizes.shape[0] // 16))  # runners checkpoint and report per batch
    if runner is None:
        # in this process, at least 8 chunks per thread and call: with 2 chunks per
        # thread the threads idled at the end of each call (40.6M vs 52.2M spins/s)
        batch = max(batch, 8 * numba.get_num_threads())
        batches = (
            (
                first,
                run_chunks(tables, level_index, seed, first, sizes[first : first + batch], stream),
            )
            for first in range(0, sizes.shape[0], batch)
        )
    else:
        batches = runner.batches(tables, level_index, seed, stream, sizes, batch)
    for _, arrays in batches:
        result.merge(*arrays)
        if progress is not None:
            progress(result)
    return result
