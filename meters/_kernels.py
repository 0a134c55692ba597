"""numba kernels of the sequence rules (one pass over sorted rows, no temporaries).

Each kernel has a NumPy twin in :mod:`meters.sequence` that states the rule
with whole-array operations; the tests run both on the same rows and
compare. Arrays only: ``values`` is the (rows, meters) float64 matrix of the
normalised frame, ``order`` the kept rows sorted by machine and time,
``mcode`` the machine code and ``modulus`` the meter modulus of each row.
"""

from __future__ import annotations

import numpy as np

from certify._numba import jit


@jit
def _behind(a: float, b: float, modulus: float) -> bool:
    """``b`` is behind ``a`` (a decrease that is not a rollover); NaN never is."""
    d = b - a
    half = modulus / 2
    return d >= half or (d < 0 and d >= -half)


@jit
def _time_error(values, times, order, p, x, j, mod) -> float:
    """How far the row at ``x`` is stamped from where its meter ``j`` places it.

    The place is the linear interpolation of meter ``j`` between the rows at
    ``p - 1`` and ``p + 2`` (the neighbours of the pair ``p, p + 1``).
    """
    a, d = order[p - 1], order[p + 2]
    span = values[d, j] - values[a, j]
    if span < 0:
        span += mod
    if not span > 0:
        return 0.0
    step = values[order[x], j] - values[a, j]
    if step < 0:
        step += mod
    at = times[a] + step / span * (times[d] - times[a])
    return abs(times[order[x]] - at)


@jit
def _spike_wins(values, times, order, mcode, p, j, mod) -> bool:
    """Rows ``p - 1 .. p + 2`` (one machine) tie on meter ``j`` and the row at ``p`` loses.

    A tie: the row at ``p`` is a spike and the one at ``p + 1`` a dip (either
    alone explains the meters). The row at ``p`` loses when it is stamped
    farther from where meter ``j`` places it than the row at ``p + 1``.
    """
    n = order.shape[0]
    if j < 0 or p < 1 or p + 2 >= n:
        return False
    m = mcode[order[p]]
    if mcode[order[p - 1]] != m or mcode[order[p + 1]] != m or mcode[order[p + 2]] != m:
        return False
    a, b = values[order[p - 1], j], values[order[p], j]
    c, d = values[order[p + 1], j], values[order[p + 2], j]
    tie = (
        not _behind(a, c, mod)
        and not _behind(a, b, mod)
        and _behind(b, c, mod)
        and not _behind(b, d, mod)
    )
    return tie and _time_error(values, times, order, p, p, j, mod) > _time_error(
        values, times, order, p, p + 1, j, mod
    )


@jit
def out_of_sequence(values, order, mcode, modulus, key, flag, on_key, culprit, times):
    """Mark dips and spikes among the rows ``order`` (one pass).

    Writes ``flag`` (row out of sequence), ``on_key`` (the sequence meter
    shows it) and ``culprit`` (the meter that shows it) for each position.
    A spike at ``p`` followed by a dip at ``p + 1`` is a tie: either row
    alone explains the meters. On the sequence meter the tie goes to the row
    stamped farther from where its meter places it between the pair's
    neighbours (``times``: int64 ns of every row); otherwise to the dip.
    """
    n = order.shape[0]
    k = values.shape[1]
    for p in range(n):
        flag[p] = False
        on_key[p] = False
        culprit[p] = 0
        if p == 0 or p == n - 1:
            continue
        r0, r1, r2 = order[p - 1], order[p], order[p + 1]
        m = mcode[r1]
        if mcode[r0] != m or mcode[r2] != m:
            continue
        has3 = p + 2 < n and mcode[order[p + 2]] == m
        mod = modulus[m]
        # ties decided on the sequence meter hold for every meter of the pair
        spike_here = _spike_wins(values, times, order, mcode, p, key[m], mod)
        spike_before = _spike_wins(values, times, order, mcode, p - 1, key[m], mod)
        first = -1
        for j in range(k):
            a, b, c = values[r0, j], values[r1, j], values[r2, j]
            if _behind(a, c, mod):
                continue
            bad = _behind(a, b, mod)
            if not bad and _behind(b, c, mod):
                bad = not (has3 and not _behind(b, values[order[p + 2], j], mod)) or spike_here
            elif bad and spike_before:  # this dip is the tie's innocent half
                bad = False
            if bad:
                if first < 0:
                    first = j
                if j == key[m]:
                    on_key[p] = True
        if first >= 0:
            flag[p] = True
            culprit[p] = key[m] if on_key[p] else first


@jit
def interval_deltas(values, order, mcode, modulus, pair, delta, reset, rolled):
    """Deltas between consecutive rows of ``order`` of the same machine.

    ``pair`` holds the positions (in ``order``) closing each interval; writes
    ``delta`` (modular, NaN when missing or on a reset), ``reset`` and
    ``rolled``.
    """
    k = values.shape[1]
    for q in range(pair.shape[0]):
        r0, r1 = order[pair[q] - 1], order[pair[q]]
        mod = modulus[mcode[r1]]
        is_reset = False
        for j in range(k):
            if _behind(values[r0, j], values[r1, j], mod):
                is_reset = True
        reset[q] = is_reset
        for j in range(k):
            d = values[r1, j] - values[r0, j]
            rolled[q, j] = (not is_reset) and d < 0
            if is_reset:
                delta[q, j] = np.nan
            elif d < 0:
                delta[q, j] = d + mod
            else:
                delta[q, j] = d


@jit
def reported(values, mcode, usable, out):
    """``out[m, j]`` is True when machine ``m`` has a value of meter ``j`` in a usable row."""
    n, k = values.shape
    for i in range(n):
        if not usable[i]:
            continue
        m = mcode[i]
        for j in range(k):
            if not out[m, j] and values[i, j] == values[i, j]:
                out[m, j] = True


@jit
def segment_sums(values, first, sums, seen):
    """Per segment starting at ``first[s]``: sum and count of non-NaN values per column."""
    n, k = values.shape
    segments = first.shape[0]
    for s in range(segments):
        end = first[s + 1] if s + 1 < segments else n
        for i in range(first[s], end):
            for j in range(k):
                x = values[i, j]
                if x == x:
                    sums[s, j] += x
                    seen[s, j] += 1


@jit
def fill_rows(src, out, wrong):
    """Transpose a (meters, rows) block of values into the (rows, meters) block ``out``.

    Impossible values (negative, not whole or beyond 9e15) become NaN and are
    marked in ``wrong`` (meters, rows). ``src`` rows are contiguous copies of
    the columns, so both sides stream through memory once.
    """
    k, n = src.shape
    for j in range(k):
        for i in range(n):
            x = src[j, i]
            # no short-circuit: the test compiles without branches (NaN fails every one)
            bad = (x < 0.0) | (x > 9.0e15) | ((x != np.floor(x)) & (x == x))
            wrong[j, i] = bad
            out[i, j] = np.nan if bad else x


@jit
def incomplete(values, mcode, reported, modulus, usable, missing, over):
    """Per usable row: first reported meter without a value, first meter too wide (-1: none)."""
    n, k = values.shape
    for i in range(n):
        missing[i] = -1
        over[i] = -1
        if not usable[i]:
            continue
        m = mcode[i]
        for j in range(k):
            x = values[i, j]
            if x != x:
                if reported[m, j] and missing[i] < 0:
                    missing[i] = j
            elif x >= modulus[m] and over[i] < 0:
                over[i] = j
