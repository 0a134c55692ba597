"""Run the Monte Carlo engine: chunks of spins into mergeable statistics."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numba
import numpy as np

from certify.engine import _kernels as k
from certify.engine.prefix import PrefixTables, cached_prefix_tables, pack_counts
from certify.engine.rng import CHUNK_SPINS, chunk_plan, chunk_states
from certify.engine.tables import (
    HIST_BINS,
    GameTables,
    LevelTables,
    ReelSet,
    compile_machine,
    ways_sums,
)
from certify.model.schema import Machine

SMALL_WINS = 4096  # wins below this many credits find their histogram bin in a table


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
        """Add per-chunk kernel outputs, in chunk order (deterministic)."""
        for row in range(stats.shape[0]):
            self.spins += int(stats[row, k.OUT_SPINS])
            self.total_win += int(stats[row, k.OUT_WIN])
            self.hits += int(stats[row, k.OUT_HITS])
            self.max_win = max(self.max_win, int(stats[row, k.OUT_MAX]))
            self.fs_triggers += int(stats[row, k.OUT_FS])
            self.bonus_triggers += int(stats[row, k.OUT_BONUS])
            self.fs_spins += int(stats[row, k.OUT_FS_SPINS])
            self.sum_sq += float(sq[row])
        self.award_counts = self.award_counts + awards.sum(axis=0)
        self.histogram = self.histogram + hist.sum(axis=0)


def reel_sets(t: GameTables) -> list[ReelSet]:
    """The distinct reel sets of a game: base, then the free-spin strips if their own."""
    return [t.base] if t.free is t.base else [t.base, t.free]


def _stack(arrays: list[np.ndarray]) -> np.ndarray:
    """Stack per-set arrays, zero-padding the trailing axes to a common shape."""
    shape = np.max([a.shape for a in arrays], axis=0)
    out = np.zeros((len(arrays), *shape), dtype=arrays[0].dtype)
    for i, a in enumerate(arrays):
        out[i][tuple(slice(0, n) for n in a.shape)] = a
    return out


def reel_args(t: GameTables) -> tuple:
    """The reel-set tuple the kernels take, every set stacked on a first axis.

    (set of base / free spins, window, length, total weight, draw -> stop
    lookup, cumulative weights, packed counted symbols, draw mode, ways per
    reel, stop and entry of a ways game).
    """
    sets = reel_sets(t)
    weighted = any(s.weighted for s in sets)
    mode = 0 if not weighted else (1 if all(s.lookup.shape[1] > 1 for s in sets) else 2)
    cumulative = _stack([s.cumulative for s in sets])
    for i, s in enumerate(sets):  # padding must sort after every draw
        cumulative[i, :, s.cumulative.shape[1] :] = s.total_weight[:, None]
    return (
        np.array([0, len(sets) - 1], dtype=np.int64),
        _stack([s.window for s in sets]),
        _stack([s.length for s in sets]),
        _stack([s.total_weight for s in sets]),
        _stack([s.lookup for s in sets]),
        cumulative,
        _stack([pack_counts(np.moveaxis(s.counted, 0, -1)) for s in sets]),
        mode,
        _stack(
            [
                ways_sums(s.window, t.ways_match)
                if t.is_ways
                else np.zeros((1, 1, 1), dtype=np.int64)
                for s in sets
            ]
        ),
    )


def level_args(level: LevelTables, t: GameTables) -> tuple:
    """The bet-level tuple the kernels take (flat: parallel loops take no nested tuples)."""
    return (
        level.trans,
        level.live,
        level.state_win,
        level.state_entry,
        level.credits,
        level.scatter_pay,
        level.bonus_pay,
        level.total_bet,
        *level.finishing,
        *alarm_words(level, t),
    )


def alarm_words(level: LevelTables, t: GameTables) -> tuple[np.uint64, np.uint64]:
    """Words (add, mask) that flag a spin whose counted symbols may pay or trigger.

    ``(packed + add) & mask`` is non-zero when some counted symbol reaches a
    count that pays a scatter or triggers the bonus or free spins.
    Each 8-bit count field gets 128 - threshold added, so its top bit is set
    exactly when count >= threshold (counts stay below 128: no carries).
    """
    add, mask = 0, 0
    for c in range(len(t.counted_names)):
        paying = np.nonzero(level.scatter_pay[c])[0]
        limits = [int(paying[0])] if paying.size else []
        limits += [t.bonus_min] if c == t.bonus_counted else []
        limits += [t.fs_min] if c == t.fs_counted else []
        if limits:
            add |= (128 - min(limits)) << (8 * c)
            mask |= 128 << (8 * c)
    return np.uint64(add), np.uint64(mask)


def prefix_tables(t: GameTables, level_index: int) -> PrefixTables:
    """The prefix tables of a level (built once per game and level, then cached)."""
    if level_index not in t.prefix_cache:
        lt = t.levels[level_index]
        sets = [(s.window, s.length, s.counted) for s in reel_sets(t)]
        t.prefix_cache[level_index] = cached_prefix_tables(
            sets,
            t.paylines,
            lt.trans,
            lt.live,
            lt.state_win,
            lt.state_entry,
            len(t.machine.pays),
            depth=0 if t.is_ways else None,
            pairs=lt.finishing[1].shape[1] > 1,
        )
    return t.prefix_cache[level_index]


def hist_edges(total_bet: int) -> np.ndarray:
    """Smallest win (credits) of each histogram bin.

    Bin k >= 1 holds wins in [2^(k-11), 2^(k-10)) x total bet; bin 1 also
    takes anything smaller, the last bin anything larger.
    """
    edges = np.zeros(HIST_BINS, dtype=np.int64)
    for b in range(1, HIST_BINS):
        edges[b] = -(-(total_bet << max(b - 11, 0)) // (1 << max(11 - b, 0)))
    edges[1] = 1
    return edges


def hist_args(total_bet: int) -> tuple:
    """(edges, bin of every win below 4096 credits): the histogram tuple of the kernel."""
    edges = hist_edges(total_bet)
    small = np.searchsorted(edges, np.arange(SMALL_WINS), side="right") - 1
    small[0] = 0
    return edges, small.astype(np.uint8)


def fast_flag(t: GameTables, px: PrefixTables) -> int | None:
    """1 when every reel set of a lines game takes the two-draw fast path, else None.

    The path needs uniform strips and prefix tables that end two reels before
    the end with tail tables (see ``simulate_chunks``).
    """
    n_reels = t.base.length.shape[0]
    ok = (
        not t.is_ways
        and not any(s.weighted for s in reel_sets(t))
        and bool(px.finishes_by_tail(n_reels).all())
    )
    return 1 if ok else None


def ways_flag(t: GameTables) -> int | None:
    """None for a lines game, 1 for a ways game: lets numba prune the other branch."""
    return 1 if t.is_ways else None


def game_args(t: GameTables) -> tuple:
    """The game tuple the kernels take."""
    return (
        t.paylines,
        t.is_ways,
        t.ways_match,
        t.entry_len,
        t.ways_family,
        t.fs_counted,
        t.fs_min,
        t.fs_spins,
        t.fs_mult,
        t.fs_retrigger,
        t.fs_max,
        t.bonus_counted,
        t.bonus_min,
        t.bonus_weight_cum,
        int(t.ways_family.max(initial=0)) + 1,
    )


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
    n = sizes.shape[0]
    px = prefix_tables(tables, level_index)
    n_entries = len(tables.machine.pays)
    states = chunk_states(seed, first_chunk, n, stream)
    out = np.zeros((n, k.N_OUT), dtype=np.int64)
    sq = np.zeros(n, dtype=np.float64)
    classes = np.zeros((n, 2 * px.n_classes), dtype=np.int64)
    awards = np.zeros((n, 2 * (n_entries + 1)), dtype=np.int64)
    hist = np.zeros((n, HIST_BINS), dtype=np.int64)
    k.simulate_chunks(
        states,
        sizes,
        reel_args(tables),
        px.as_tuple(),
        level_args(tables.levels[level_index], tables),
        game_args(tables),
        hist_args(tables.levels[level_index].total_bet),
        out,
        sq,
        classes,
        awards,
        hist,
        ways_flag(tables),
        fast_flag(tables, px),
    )
    base_awards = awards[:, 1 : n_entries + 1] + classes[:, : px.n_classes] @ px.class_entries
    return out, sq, base_awards, hist


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
        Where the chunks run (see :mod:`certify.cluster`): an object whose
        ``batches(tables, level_index, seed, stream, sizes, batch)`` yields
        ``(first, run_chunks outputs)`` for chunks ``first .. first + batch - 1``
        in chunk order. Default: :func:`run_chunks` in this process. Batches
        are merged in chunk order, so the result is bit-identical whatever
        the runner.

    """
    tables = machine if isinstance(machine, GameTables) else compile_machine(machine)
    level = tables.levels[level_index]
    result = SimulationResult(level.total_bet, len(tables.machine.pays))
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
