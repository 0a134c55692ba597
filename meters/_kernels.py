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
def out_of_sequence(values, order, mcode, modulus, key, flag, on_key, culprit):
    """Mark dips and spikes among the rows ``order`` (one pass).

    Writes ``flag`` (row out of sequence), ``on_key`` (the sequence meter
    shows it) and ``culprit`` (the meter that shows it) for each position.
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
        first = -1
        for j in range(k):
            a, b, c = values[r0, j], values[r1, j], values[r2, j]
            if _behind(a, c, mod):
                continue
            bad = _behind(a, b, mod)
            if not bad and _behind(b, c, mod):
                bad = not (has3 and not _behind(b, values[order[p + 2], j], mod))
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
