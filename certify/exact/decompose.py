"""Mean return by per-reel decomposition: an independent check of the full cycle.

Reels stop independently, so each payline's expected win follows from pushing
a probability vector over the line automaton's states through one reel at a
time; scatter counts are convolutions of per-reel count distributions; the
free-spins mean follows from Wald's identity. This takes milliseconds, needs
no enumeration, and shares no kernel with the cycle it checks.
"""

from __future__ import annotations

import numpy as np

from certify.engine.kernel_inputs import phase_sets, reel_sets
from certify.engine.limits import hold_feasible
from certify.engine.runs import consecutive_symbol
from certify.engine.tables import GameTables, LevelTables, ReelSet, line_bonus_variant, pool_ids
from certify.exact.factors import tilt_ratio, tilted_set
from certify.exact.features import (
    RecursionTooLong,
    bonus_moments,
    feature_moments,
    law_moments,
)
from certify.exact.hold import hold_exact_by_start
from certify.model.screens import is_screen_game


def symbol_distribution(reels: ReelSet, reel: int, row: int, n_symbols: int) -> np.ndarray:
    """P(symbol) at ``row`` of ``reel``, weighted by stop weights."""
    n = int(reels.length[reel])
    p = np.bincount(
        reels.window[reel, :n, row], weights=reels.weight[reel, :n], minlength=n_symbols
    )
    return p / reels.total_weight[reel]


def line_mean(tables: GameTables, reels: ReelSet, lt: LevelTables, start: int = 0) -> float:
    """Expected credits won on all paylines per spin (lines starting in state ``start``)."""
    n_symbols = len(tables.symbol_ids)
    n_states = lt.trans.shape[0]
    total = 0.0
    for line in tables.paylines:
        p = np.zeros(n_states)
        p[start] = 1.0
        for reel, row in enumerate(line):
            dist = symbol_distribution(reels, reel, int(row), n_symbols)
            nxt = np.where(lt.live, 0.0, p)
            live = np.nonzero(lt.live & (p > 0))[0]
            for sym in np.nonzero(dist)[0]:
                np.add.at(nxt, lt.trans[live, sym], p[live] * dist[sym])
            p = nxt
        total += float(p @ lt.state_win)
    return total


def count_distribution(reels: ReelSet, counted: int) -> np.ndarray:
    """P(n symbols of counted index ``counted`` anywhere in the window), n = 0..max."""
    dist = np.array([1.0])
    for r in range(reels.length.shape[0]):
        n = int(reels.length[r])
        per = np.bincount(reels.counted[counted, r, :n], weights=reels.weight[r, :n])
        dist = np.convolve(dist, per / reels.total_weight[r])
    return dist


def phase_count_distribution(tables: GameTables, phase: int, counted: int) -> np.ndarray:
    """:func:`count_distribution` of a phase (0 base game, 1 free spins).

    Where a symbol counts on consecutive reels (``consecutive``), the phase's
    parts (:mod:`certify.engine.runs`), each counting its own run, mixed by
    their cycles; else its one reel set's.
    """
    parts = _counting_parts(tables, phase)
    if parts is None:
        return count_distribution(tables.base if phase == 0 else tables.free, counted)
    dists = [(share, count_distribution(s, counted)) for share, s in parts]
    out = np.zeros(max(d.shape[0] for _, d in dists))
    for share, d in dists:
        out[: d.shape[0]] += share * d
    return out


def phase_count_vectors(tables: GameTables, phase: int) -> dict[tuple[int, ...], float]:
    """:func:`count_vectors` of a phase, its parts mixed as in :func:`phase_count_distribution`."""
    parts = _counting_parts(tables, phase)
    if parts is None:
        return count_vectors(tables.base if phase == 0 else tables.free)
    out: dict[tuple[int, ...], float] = {}
    for share, s in parts:
        for key, p in count_vectors(s).items():
            out[key] = out.get(key, 0.0) + share * p
    return out


def _counting_parts(tables: GameTables, phase: int) -> list[tuple[float, ReelSet]] | None:
    """(cycle share, reel set) of a phase whose parts count differently, else None."""
    if not _counts_by_part(tables, phase):
        return None
    played = counting_sets(tables, phase)
    cycle = sum(s.cycle for s in played)
    return [(s.cycle / cycle, s) for s in played]


def _counts_by_part(tables: GameTables, phase: int) -> bool:
    """Whether a phase's parts count its symbols differently.

    A consecutive count, or the free spins' big symbols (a column showing a
    scatter, a reel only some symbols cover).
    """
    fs = tables.machine.free_spins
    big = phase == 1 and fs is not None and fs.big_symbol is not None
    return big or consecutive_symbol(tables.machine) is not None


def counting_sets(tables: GameTables, phase: int) -> list[ReelSet]:
    """The reel sets whose cycles add up to a phase's, as its counted symbols count.

    The phase's parts where a symbol counts on consecutive reels (each part its
    own run) or a big symbol covers reels, else its one reel set (parts that paint
    or draw count alike).
    """
    if not _counts_by_part(tables, phase):
        return [tables.base if phase == 0 else tables.free]
    sets = reel_sets(tables)
    return [sets[ps] for ps in phase_sets(tables, phase)]


def count_vectors(reels: ReelSet) -> dict[tuple[int, ...], float]:
    """Joint distribution of the counted symbols' counts anywhere in the window."""
    dist: dict[tuple[int, ...], float] = {(0,) * reels.counted.shape[0]: 1.0}
    for r in range(reels.length.shape[0]):
        per: dict[tuple[int, ...], float] = {}
        for stop in range(int(reels.length[r])):
            key = tuple(int(x) for x in reels.counted[:, r, stop])
            per[key] = per.get(key, 0.0) + float(reels.weight[r, stop]) / reels.total_weight[r]
        nxt: dict[tuple[int, ...], float] = {}
        for a, pa in dist.items():
            for b, pb in per.items():
                key = tuple(x + y for x, y in zip(a, b))
                nxt[key] = nxt.get(key, 0.0) + pa * pb
        dist = nxt
    return dist


def scatter_pays_of(counts: tuple[int, ...], scatter_pay: np.ndarray, excl: np.ndarray) -> list:
    """Credits each counted symbol's scatter pays at ``counts`` (exclusive scatters applied)."""
    out, taken = [], False
    for c, n in enumerate(counts):
        pay = int(scatter_pay[c, n])
        if excl[c]:
            pay, taken = (0 if taken else pay), taken or pay > 0
        out.append(pay)
    return out


def scatter_mean(
    tables: GameTables, reels: ReelSet, lt: LevelTables, scatter_pay: np.ndarray | None = None
) -> float:
    """Expected scatter pay (credits) per spin."""
    pay = lt.scatter_pay if scatter_pay is None else scatter_pay
    if tables.scatter_excl.any():  # exclusive scatters: their counts jointly
        return sum(
            p * sum(scatter_pays_of(key, pay, tables.scatter_excl))
            for key, p in count_vectors(reels).items()
        )
    total = 0.0
    for c in range(len(tables.counted_names)):
        dist = count_distribution(reels, c)
        total += float(dist @ pay[c, : dist.shape[0]])
    return total


def scatter_mean_tilted(tables: GameTables, lt: LevelTables) -> float:
    """E[F x scatter pay] of a base spin, ``F`` what the reels show multiplies it by.

    A consecutive count (no factors with it): its parts' means, by their cycles.
    """
    reels = tables.base
    parts = _counting_parts(tables, 0)
    if parts is not None:
        return sum(share * scatter_mean(tables, s, lt) for share, s in parts)
    if reels.factor is None:
        return scatter_mean(tables, reels, lt)
    return scatter_mean(tables, tilted_set(reels, 1)[0], lt) * tilt_ratio(reels)


def trigger_probability(reels: ReelSet, counted: int, minimum: int) -> float:
    """P(at least ``minimum`` counted symbols)."""
    return float(count_distribution(reels, counted)[minimum:].sum())


def mean_return(tables: GameTables, lt: LevelTables) -> float | None:
    """Exact mean return per unit wagered, or None where it does not decompose.

    Ways games, screen games (cascades, clusters), full-window pays, scatters counted
    on consecutive reels and free-spin multipliers by trigger count are not decomposed here,
    nor games with a win cap (the mean of
    a capped total is not a sum of per-reel means); None too when the capped
    free-spin recursion is too long, or the hold-and-spin chain's work is
    beyond its bound (see :mod:`certify.engine.limits`).
    """
    if (
        tables.is_ways
        or lt.cap > 0
        or tables.expand_symbols
        or tables.full_window_mult.size
        or is_screen_game(tables.machine)
        or consecutive_symbol(tables.machine) is not None
        or tables.fs_count_mult.shape[0] > 1
        or (
            tables.hold_on
            and not hold_feasible(
                tables.machine.hold_and_spin, tables.machine.rows * tables.machine.reels
            )
        )
    ):
        return None
    fs = tables.machine.free_spins
    if fs is not None and fs.options_drawn:  # the mixture of the options, each decomposed
        from certify.engine.tables import compile_machine

        total = sum(o.weight or 0 for o in fs.options)
        parts = []
        for option, variant in zip(fs.options, tables.machine.option_machines(), strict=True):
            t = compile_machine(variant)
            parts.append(((option.weight or 0) / total, mean_return(t, t.levels[lt.level_index])))
        if any(mean is None for _, mean in parts):
            return None
        return sum(share * (mean or 0.0) for share, mean in parts)
    try:
        return _mean_return(tables, lt)
    except RecursionTooLong:
        return None


def _phase_lines(tables: GameTables, reels: ReelSet, lt: LevelTables, phase: int) -> float:
    """A phase's expected line credits per spin (``paints``: its parts' means, by weight)."""
    start = int(lt.start[phase])
    if tables.base_parts is None:
        return line_mean(tables, reels, lt, start)
    sets = reel_sets(tables)
    played = [sets[ps] for ps in phase_sets(tables, phase)]
    cycle = sum(s.cycle for s in played)
    return sum(s.cycle / cycle * line_mean(tables, s, lt, start) for s in played)


def _phase_scatter_mean(
    tables: GameTables, reels: ReelSet, lt: LevelTables, table: np.ndarray, phase: int
) -> float:
    """:func:`scatter_mean` of a phase at ``table``.

    The free spins' big-symbol parts mixed by their cycles (each counts what its
    columns show), else ``reels``' own.
    """
    parts = _counting_parts(tables, 1) if phase == 1 else None
    if parts is None:
        return scatter_mean(tables, reels, lt, table)
    return sum(share * scatter_mean(tables, s, lt, table) for share, s in parts)


def _mean_return(tables: GameTables, lt: LevelTables) -> float:
    eb = 0.0
    hold_means: dict[int, float] = {}
    if tables.hold_on:
        hs, cells = tables.machine.hold_and_spin, tables.machine.rows * tables.machine.reels
        assert hs is not None  # hold_on: the machine has the feature
        hold_means = {
            start: float(h.mean) * lt.total_bet
            for start, h in hold_exact_by_start(hs, cells, pool_ids(tables.machine)).items()
        }
    elif tables.bonus_counted >= 0:
        weights = np.diff(np.concatenate([[0], tables.bonus_weight_cum])).astype(float)
        eb = bonus_moments(lt.bonus_pay, weights)[0]

    def spin_mean(reels: ReelSet, phase: int) -> float:
        scatter = lt.scatter_pay if phase == 0 else lt.scatter_pay_fs
        ratio = tilt_ratio(reels)  # what the reels show multiplies the spin: E[F]
        reels = tilted_set(reels, 1)[0]
        lines = _phase_lines(tables, reels, lt, phase)
        return ratio * (lines + _phase_scatter_mean(tables, reels, lt, scatter, phase))

    def bonus_mean(phase: int) -> float:
        if tables.bonus_counted < 0:
            return 0.0
        dist = phase_count_distribution(tables, phase, tables.bonus_counted)
        if hold_means:  # by the coins the triggering screen shows
            return sum(float(dist[c]) * m for c, m in hold_means.items() if c < dist.shape[0])
        return float(dist[tables.bonus_min :].sum()) * eb

    def lines_bonus(reels: ReelSet, phase: int) -> float:
        """The prizes of the bonus games a spin's lines play: E[bonus lines] x E[B]."""
        if not tables.machine.pays_play_bonus:
            return 0.0
        moments = law_moments(tables.law_cum, tables.law_off, lt.law_pay)
        total = 0.0
        for k, (mu, _) in enumerate(moments):  # game k's plays, 1 credit each, x its E[B]
            unit = tuple(int(j == k) for j in range(len(moments)))
            plain = line_bonus_variant(tables, "plain", unit)
            plt = plain.levels[lt.level_index]
            marks = plt.scatter_pay if phase == 0 else plt.scatter_pay_fs  # scatters that play it
            plays = _phase_lines(plain, reels, plt, phase)
            plays += _phase_scatter_mean(plain, reels, plt, marks, phase)
            total += plays * mu
        return total

    mean = tables.base_mult_moments[0] * spin_mean(tables.base, 0) + bonus_mean(0)
    mean += lines_bonus(tables.base, 0)
    if tables.fs_counted >= 0:
        ex = tables.fs_mult_moments[0] * spin_mean(tables.free, 1) + bonus_mean(1)
        ex += lines_bonus(tables.free, 1)
        fs_dist = phase_count_distribution(tables, 1, tables.fs_counted)
        classes: dict[int, tuple[float, float, float]] = {}
        for count, q in enumerate(fs_dist):
            a = int(tables.fs_respins[count])
            old = classes.get(a, (0.0, 0.0, 0.0))
            classes[a] = (old[0] + q, old[1] + q * ex, 0.0)
        base_dist = count_distribution(tables.base, tables.fs_counted)
        for count in range(tables.fs_min, base_dist.shape[0]):
            ef = feature_moments(
                classes, int(tables.fs_spins[count]), tables.fs_max, tables.fs_retrigger_once
            )[0]
            mean += base_dist[count] * ef
    return mean / lt.total_bet
