"""Mean return by per-reel decomposition: an independent check of the full cycle.

Reels stop independently, so each payline's expected win follows from pushing
a probability vector over the line automaton's states through one reel at a
time; scatter counts are convolutions of per-reel count distributions; the
free-spins mean follows from Wald's identity. This takes milliseconds, needs
no enumeration, and shares no kernel with the cycle it checks.
"""

from __future__ import annotations

import numpy as np

from certify.engine.tables import GameTables, LevelTables, ReelSet
from certify.exact.features import RecursionTooLong, bonus_moments, feature_moments


def symbol_distribution(reels: ReelSet, reel: int, row: int, n_symbols: int) -> np.ndarray:
    """P(symbol) at ``row`` of ``reel``, weighted by stop weights."""
    n = int(reels.length[reel])
    p = np.bincount(
        reels.window[reel, :n, row], weights=reels.weight[reel, :n], minlength=n_symbols
    )
    return p / reels.total_weight[reel]


def line_mean(tables: GameTables, reels: ReelSet, lt: LevelTables) -> float:
    """Expected credits won on all paylines per spin."""
    n_symbols = len(tables.symbol_ids)
    n_states = lt.trans.shape[0]
    total = 0.0
    for line in tables.paylines:
        p = np.zeros(n_states)
        p[0] = 1.0
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


def scatter_mean(tables: GameTables, reels: ReelSet, lt: LevelTables) -> float:
    """Expected scatter pay (credits) per spin."""
    total = 0.0
    for c in range(len(tables.counted_names)):
        dist = count_distribution(reels, c)
        total += float(dist @ lt.scatter_pay[c, : dist.shape[0]])
    return total


def trigger_probability(reels: ReelSet, counted: int, minimum: int) -> float:
    """P(at least ``minimum`` counted symbols)."""
    return float(count_distribution(reels, counted)[minimum:].sum())


def mean_return(tables: GameTables, lt: LevelTables) -> float | None:
    """Exact mean return per unit wagered, or None for ways games (not decomposed).

    None too when the capped free-spin recursion is too long (see
    :mod:`certify.engine.limits`).
    """
    if tables.is_ways:
        return None
    try:
        return _mean_return(tables, lt)
    except RecursionTooLong:
        return None


def _mean_return(tables: GameTables, lt: LevelTables) -> float:
    eb = 0.0
    if tables.bonus_counted >= 0:
        weights = np.diff(np.concatenate([[0], tables.bonus_weight_cum])).astype(float)
        eb = bonus_moments(lt.bonus_pay, weights)[0]

    def spin_mean(reels: ReelSet) -> float:
        mean = line_mean(tables, reels, lt) + scatter_mean(tables, reels, lt)
        return mean

    def bonus_mean(reels: ReelSet) -> float:
        if tables.bonus_counted < 0:
            return 0.0
        return trigger_probability(reels, tables.bonus_counted, tables.bonus_min) * eb

    mean = spin_mean(tables.base) + bonus_mean(tables.base)
    if tables.fs_counted >= 0:
        ex = tables.fs_mult * spin_mean(tables.free) + bonus_mean(tables.free)
        fs_dist = count_distribution(tables.free, tables.fs_counted)
        classes: dict[int, tuple[float, float, float]] = {}
        for count, q in enumerate(fs_dist):
            a = int(tables.fs_spins[count]) if tables.fs_retrigger else 0
            old = classes.get(a, (0.0, 0.0, 0.0))
            classes[a] = (old[0] + q, old[1] + q * ex, 0.0)
        base_dist = count_distribution(tables.base, tables.fs_counted)
        for count in range(tables.fs_min, base_dist.shape[0]):
            ef = feature_moments(classes, int(tables.fs_spins[count]), tables.fs_max)[0]
            mean += base_dist[count] * ef
    return mean / lt.total_bet
