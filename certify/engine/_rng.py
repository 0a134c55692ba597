"""xoshiro256** for the numba kernels, its state held in four scalars.

Kernels keep the state ``(s0, s1, s2, s3)`` in local variables (registers)
and thread it through these inlined functions, which return the new state
with their result: an array-held state costs a load and a store per draw.

Bounded draws use Lemire's multiply-shift on 32-bit halves of each 64-bit
output, with the rejection step that makes them exactly uniform. A spin's
stops take the high then the low half of one output for reels 1-2, of the
next output for reels 3-4, and so on; a rejected draw is redrawn from the
high half of a fresh output. Stream seeding: :mod:`certify.engine.rng`.
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
def bounded(n, s0, s1, s2, s3):
    """A uniform integer in [0, n) for 0 < n < 2**32 from a fresh output's high half."""
    un = np.uint64(n)
    x, s0, s1, s2, s3 = xo_next(s0, s1, s2, s3)
    return finish_bounded((x >> np.uint64(32)) * un, un, s0, s1, s2, s3)


@jit(inline="always")
def draw_spin(s0, s1, s2, s3, ps, total_weight, lookup, cumulative, mode, stops):
    """Draw one stop per reel of reel set ``ps`` into ``stops``; return the new state.

    ``mode`` 0: uniform stops (``total_weight`` = strip length); 1: weighted,
    through the draw -> stop ``lookup``; 2: weighted, binary search over
    ``cumulative``.
    """
    x = np.uint64(0)
    for r in range(stops.shape[0]):
        if r & 1 == 0:
            x, s0, s1, s2, s3 = xo_next(s0, s1, s2, s3)
            u = x >> np.uint64(32)
        else:
            u = x & MASK32
        n = np.uint64(total_weight[ps, r])
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
