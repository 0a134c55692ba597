"""xoshiro256** for the numba kernels, its state held in four scalars.

Kernels keep the state ``(s0, s1, s2, s3)`` in local variables (registers)
and thread it through these inlined functions, which return the new state
with their result: an array-held state costs a load and a store per draw.

Bounded draws use Lemire's multiply-shift on 32-bit halves of each 64-bit
output, with the rejection step that makes them exactly uniform. A spin's
stops take the high then the low half of one output for reels 1-2, of the
next output for reels 3-4, and so on; a rejected draw is redrawn from the
high half of a fresh output. Stream seeding: :mod:`certify.engine.rng`.

A bound of 2^32 or more (a reel's or a bonus table's total weight) cannot
go through a 32-bit half: it takes :func:`bounded_wide` (whole outputs,
masked rejection), and a reel drawn that way leaves the next reel a fresh
output. Bounds below 2^32 draw exactly as before (the figures of every
existing model are unchanged); totals beyond 2^63 - 1 are refused by
:mod:`certify.engine.limits`.
"""

from __future__ import annotations

import numpy as np

from certify._numba import jit

MASK32 = np.uint64(0xFFFFFFFF)
TWO32 = np.uint64(1 << 32)


@jit(inline="always")
def rotl(x, k):
    """Rotate a uint64 left by ``k`` bits."""
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@jit(inline="always")
def xo_next(s0, s1, s2, s3):
    """One xoshiro256** step: (output, s0, s1, s2, s3)."""
    result = rotl(s1 * np.uint64(5), 7) * np.uint64(9)
    t = s1 << np.uint64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = rotl(s3, 45)
    return result, s0, s1, s2, s3


@jit(inline="always")
def finish_bounded(m, n, s0, s1, s2, s3):
    """Lemire's step for ``m = u32 * n``: (value in [0, n), s0, s1, s2, s3)."""
    if (m & MASK32) < n:
        threshold = (TWO32 - n) % n
        while (m & MASK32) < threshold:
            x, s0, s1, s2, s3 = xo_next(s0, s1, s2, s3)
            m = (x >> np.uint64(32)) * n
    return np.int64(m >> np.uint64(32)), s0, s1, s2, s3


@jit(inline="always")
def bounded_wide(n, s0, s1, s2, s3):
    """A uniform integer in [0, n) for 2**32 <= n < 2**63: (value, s0, s1, s2, s3).

    The top ``k`` bits of whole outputs, ``k`` the bit length of ``n - 1``,
    until one is below ``n`` (fewer than two outputs on average): exactly
    uniform, and no product that could overflow 64 bits.
    """
    k = 0
    m = n - np.uint64(1)
    while m != np.uint64(0):
        m >>= np.uint64(1)
        k += 1
    shift = np.uint64(64 - k)
    while True:
        x, s0, s1, s2, s3 = xo_next(s0, s1, s2, s3)
        v = x >> shift
        if v < n:
            return np.int64(v), s0, s1, s2, s3


@jit(inline="always")
def bounded(n, s0, s1, s2, s3):
    """A uniform integer in [0, n) for 0 < n < 2**63 (below 2**32: a fresh output's high half)."""
    un = np.uint64(n)
    if un > MASK32:
        return bounded_wide(un, s0, s1, s2, s3)
    x, s0, s1, s2, s3 = xo_next(s0, s1, s2, s3)
    return finish_bounded((x >> np.uint64(32)) * un, un, s0, s1, s2, s3)


@jit(inline="always")
def draw_spin(s0, s1, s2, s3, ps, total_weight, lookup, cumulative, mode, stops):
    """Draw one stop per reel of reel set ``ps`` into ``stops``; return the new state.

    ``mode`` 0: uniform stops (``total_weight`` = strip length); 1: weighted,
    through the draw -> stop ``lookup``; 2: weighted, binary search over
    ``cumulative``. A reel whose total weight is 2^32 or more draws with
    :func:`bounded_wide` (then ``mode`` is 2: no lookup table is that large).
    """
    x = np.uint64(0)
    for r in range(stops.shape[0]):
        n = np.uint64(total_weight[ps, r])
        if n > MASK32:
            v, s0, s1, s2, s3 = bounded_wide(n, s0, s1, s2, s3)
            if r & 1 == 0:  # the next reel takes this output's low half, as usual
                x, s0, s1, s2, s3 = xo_next(s0, s1, s2, s3)
        else:
            if r & 1 == 0:
                x, s0, s1, s2, s3 = xo_next(s0, s1, s2, s3)
                u = x >> np.uint64(32)
            else:
                u = x & MASK32
            v, s0, s1, s2, s3 = finish_bounded(u * n, n, s0, s1, s2, s3)
        if mode == 0:
            stops[r] = v
        elif mode == 1:
            stops[r] = lookup[ps, r, v]
        else:
            lo, hi = 0, cumulative.shape[2] - 1
            while lo < hi:
                mid = (lo + hi) >> 1
                if cumulative[ps, r, mid] > v:
                    hi = mid
                else:
                    lo = mid + 1
            stops[r] = lo
    return s0, s1, s2, s3


@jit(inline="always")
def draw_prefix_and_tail(n_rows, n_pairs, s0, s1, s2, s3):
    """Uniform stops as (prefix row, tail pair) from the two halves of one output.

    With uniform strips the stops of the first reels are uniform over the
    prefix rows (their product), and those of the last two over the stop
    pairs: two bounded draws instead of one per reel. Returns (row, pair,
    s0, s1, s2, s3); see :func:`decode_stops`.
    """
    x, s0, s1, s2, s3 = xo_next(s0, s1, s2, s3)
    rows, pairs = np.uint64(n_rows), np.uint64(n_pairs)
    row, s0, s1, s2, s3 = finish_bounded((x >> np.uint64(32)) * rows, rows, s0, s1, s2, s3)
    pair, s0, s1, s2, s3 = finish_bounded((x & MASK32) * pairs, pairs, s0, s1, s2, s3)
    return row, pair, s0, s1, s2, s3


@jit(inline="always")
def decode_stops(row, pair, depth, length, stops):
    """The stops of a (prefix row, tail pair) draw, reel by reel (for tests and replays)."""
    n = stops.shape[0]
    for r in range(depth - 1, -1, -1):
        stops[r] = row % length[r]
        row //= length[r]
    stops[n - 2] = pair // length[n - 1]
    stops[n - 1] = pair % length[n - 1]


@jit(inline="always")
def next_u64(rng):
    """Advance a state held in ``rng[0:4]`` and return its output (non-hot kernels)."""
    x, rng[0], rng[1], rng[2], rng[3] = xo_next(rng[0], rng[1], rng[2], rng[3])
    return x


@jit(inline="always")
def next_below(rng, n):
    """A uniform integer in [0, n) from a state held in ``rng[0:4]`` (non-hot kernels).

    The same draw as :func:`bounded` (Lemire on a fresh output's high half below
    2^32), for kernels that keep one stream per chunk in an array: the table
    games deal and spin from it, the pools through :func:`next_u64`.
    """
    v, rng[0], rng[1], rng[2], rng[3] = bounded(n, rng[0], rng[1], rng[2], rng[3])
    return v
