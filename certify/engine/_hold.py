"""numba kernels of the hold-and-spin feature (SPEC 3.1b): arrays and scalars only.

:func:`hold_spin` plays one feature inline on the caller's xoshiro256**
stream (the state in four scalars, as in :mod:`certify.engine._kernels`);
:func:`simulate_hold` runs many features per stream, a test hook that checks
the feature against :mod:`certify.exact.hold` without the main kernel.
:mod:`certify.engine.hold` builds the arrays from a model.

Draw order (part of the reproducibility contract): first one value per coin
of the triggering screen; then, per respin, one draw per empty cell
(``bounded(p_den) < p_num``: a coin, exactly with probability
``p_num / p_den``), each coin's value drawn right after the draw that showed
it.
"""

from __future__ import annotations

import numpy as np

from certify._numba import jit, prange
from certify.engine._rng import bounded

ST_SUM, ST_SQ, ST_FOURTH, ST_COUNT, ST_COUNT_SQ, ST_FULL = range(6)
N_STATS = 6


@jit(inline="always")
def hold_coin(feature, out_hits, s0, s1, s2, s3):
    """Draw one coin's value by weight: (credits, s0, s1, s2, s3); counts its jackpot hit."""
    cum = feature.value_cum
    u, s0, s1, s2, s3 = bounded(cum[cum.shape[0] - 1], s0, s1, s2, s3)
    k = 0
    while cum[k] <= u:
        k += 1
    j = feature.value_jackpot[k]
    if j >= 0:
        out_hits[j] += 1
    return feature.value_pay[k], s0, s1, s2, s3


@jit(inline="always")
def hold_spin(start, feature, out_hits, s0, s1, s2, s3):
    """Play one hold-and-spin feature on the stream ``(s0, s1, s2, s3)``.

    Parameters
    ----------
    start : int
        Coins locked by the triggering screen (``1 <= start <= feature.cells``).
    feature : HoldFeature
        The feature at this bet (:class:`certify.engine.spin_records.HoldFeature`):
        its cells, respins, cell probability ``p_num / p_den`` (``0 < p_num <
        p_den < 2**32``), coin values (running weights below 2**32, credits,
        progressive pools as 0; jackpot column or -1), and the full window's
        credits and jackpot column.
    out_hits : int64 array
        Jackpot hit counts, incremented in place.
    s0, s1, s2, s3 : uint64
        The stream's state.

    Returns
    -------
    tuple
        ``(credits, n_locked, s0, s1, s2, s3)``: the feature's whole award in
        credits, the final number of locked coins and the new state.

    """
    win = np.int64(0)
    for _ in range(start):
        pay, s0, s1, s2, s3 = hold_coin(feature, out_hits, s0, s1, s2, s3)
        win += pay
    locked = start
    left = feature.respins
    while left > 0 and locked < feature.cells:
        new = 0
        for _ in range(feature.cells - locked):
            u, s0, s1, s2, s3 = bounded(feature.p_den, s0, s1, s2, s3)
            if u < feature.p_num:
                new += 1
                pay, s0, s1, s2, s3 = hold_coin(feature, out_hits, s0, s1, s2, s3)
                win += pay
        if new > 0:
            locked += new
            left = feature.respins
        else:
            left -= 1
    if locked >= feature.cells:
        win += feature.full_pay
        if feature.full_jackpot >= 0:
            out_hits[feature.full_jackpot] += 1
    return win, locked, s0, s1, s2, s3


@jit(parallel=True)
def simulate_hold(states, n, start, feature, out_stats, out_hits):
    """Play ``n`` features per stream: a test hook for :func:`hold_spin`.

    ``states`` (streams, 4) uint64 is advanced in place. Per stream ``c``,
    ``out_stats[c]`` (float64, ``N_STATS`` wide) receives the sums of the
    award ``A`` (credits), ``A^2``, ``A^4``, the final count ``N``, ``N^2``
    and the number of full windows (columns ``ST_*``); ``out_hits[c]``
    (int64, one column per jackpot index) is incremented by the hits.
    ``start`` and ``feature`` are :func:`hold_spin`'s.
    """
    cells = feature.cells
    for c in prange(states.shape[0]):
        s0, s1, s2, s3 = states[c, 0], states[c, 1], states[c, 2], states[c, 3]
        hits = out_hits[c]
        total, sq, fourth, count, count_sq, full = 0.0, 0.0, 0.0, 0.0, 0.0, 0.0
        for _ in range(n):
            win, locked, s0, s1, s2, s3 = hold_spin(start, feature, hits, s0, s1, s2, s3)
            a = float(win)
            total += a
            sq += a * a
            fourth += a * a * a * a
            count += locked
            count_sq += locked * locked
            if locked >= cells:
                full += 1.0
        out_stats[c, ST_SUM] = total
        out_stats[c, ST_SQ] = sq
        out_stats[c, ST_FOURTH] = fourth
        out_stats[c, ST_COUNT] = count
        out_stats[c, ST_COUNT_SQ] = count_sq
        out_stats[c, ST_FULL] = full
        states[c, 0], states[c, 1], states[c, 2], states[c, 3] = s0, s1, s2, s3
