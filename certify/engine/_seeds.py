"""NumPy's ``SeedSequence`` hashing for many chunks at once, compiled.

:func:`certify.engine.rng.chunk_states` gives chunk ``i`` of stream ``t``
the state ``SeedSequence(seed, spawn_key=(t, i)).generate_state(4, uint64)``.
Built one ``SeedSequence`` at a time that takes 10-40 us a chunk, which a
run of millions of small chunks (a GPU run: 2.4M chunks of 4096 spins for
1e10 spins) cannot afford. :func:`seed_states` computes the same words with
the same algorithm (O'Neill's ``seed_seq`` hash as NumPy implements it:
``mix_entropy`` of the assembled entropy into a pool of four 32-bit words,
then ``generate_state``), in 32-bit arithmetic held in uint64; the tests
compare it with ``numpy.random.SeedSequence`` itself.
"""

from __future__ import annotations

import numpy as np

from certify._numba import jit

POOL = 4
M32 = np.uint64(0xFFFFFFFF)
INIT_A = np.uint64(0x43B0D7E5)
MULT_A = np.uint64(0x931E8875)
INIT_B = np.uint64(0x8B51F9DD)
MULT_B = np.uint64(0x58F38DED)
MIX_MULT_L = np.uint64(0xCA01F9DD)
MIX_MULT_R = np.uint64(0x4973F715)
XSHIFT = np.uint64(16)


@jit(inline="always")
def hashmix(value, hash_const):
    """NumPy's ``hashmix``: (mixed value, next hash constant), 32-bit words."""
    value ^= hash_const
    hash_const = (hash_const * MULT_A) & M32
    value = (value * hash_const) & M32
    value ^= value >> XSHIFT
    return value, hash_const


@jit(inline="always")
def mix(x, y):
    """NumPy's ``mix`` of two 32-bit words."""
    result = ((MIX_MULT_L * x) - (MIX_MULT_R * y)) & M32
    result ^= result >> XSHIFT
    return result


@jit
def seed_states(entropy, n_fixed, first, count, out):
    """States of chunks ``first .. first + count - 1`` into ``out`` (count, 4) uint64.

    ``entropy[:n_fixed]``: the assembled entropy's words before the chunk
    index (the seed's words padded to the pool size, then the stream's); the
    chunk index ``i`` adds one word, or two from 2^32 on. ``entropy`` has
    room for those two words.
    """
    pool = np.zeros(POOL, dtype=np.uint64)
    words = entropy.copy()
    for k in range(count):
        i = np.uint64(first + k)
        n = n_fixed
        words[n] = i & M32
        n += 1
        if i > M32:
            words[n] = i >> np.uint64(32)
            n += 1
        hc = INIT_A
        for j in range(POOL):
            v = words[j] if j < n else np.uint64(0)
            pool[j], hc = hashmix(v, hc)
        for src in range(POOL):
            for dst in range(POOL):
                if src != dst:
                    h, hc = hashmix(pool[src], hc)
                    pool[dst] = mix(pool[dst], h)
        for src in range(POOL, n):
            for dst in range(POOL):
                h, hc = hashmix(words[src], hc)
                pool[dst] = mix(pool[dst], h)
        hb = INIT_B
        for w in range(4):
            half = np.zeros(2, dtype=np.uint64)
            for h in range(2):
                v = pool[(2 * w + h) % POOL] ^ hb
                hb = (hb * MULT_B) & M32
                v = (v * hb) & M32
                v ^= v >> XSHIFT
                half[h] = v
            out[k, w] = half[0] | (half[1] << np.uint64(32))
        if out[k, 0] == 0 and out[k, 1] == 0 and out[k, 2] == 0 and out[k, 3] == 0:
            out[k, 0] = 1  # the all-zero state is the one xoshiro cannot leave
