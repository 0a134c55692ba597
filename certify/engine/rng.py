"""Splittable random streams, one per chunk of spins.

Chunk ``i`` of a run with seed ``s`` always draws the same numbers, whatever
the threads, processes or machines.

Each chunk's xoshiro256** state is ``SeedSequence(s, spawn_key=(t, i))``, ``t``
being the stream (e.g. the bet level): the same hashing NumPy uses for
``SeedSequence(s).spawn``, so streams are statistically independent (no
nearby starting points of one generator).
"""

from __future__ import annotations

import numpy as np

CHUNK_SPINS = 1 << 20  # part of the reproducibility contract: do not change lightly


def _words(value: int) -> list[int]:
    """NumPy's 32-bit words of a non-negative int (``_coerce_to_uint32_array``): [0] for 0."""
    words = []
    while True:
        words.append(value & 0xFFFFFFFF)
        value >>= 32
        if not value:
            return words


def chunk_states(seed: int, first: int, count: int, stream: int = 0) -> np.ndarray:
    """xoshiro256** states (count, 4) for chunks ``first .. first + count - 1``.

    ``stream`` separates independent runs under one seed (e.g. bet levels).
    Computed by :func:`certify.engine._seeds.seed_states` (the same words as
    ``SeedSequence``, a hundred times faster) for non-negative ints below
    2^64; else one ``SeedSequence`` a chunk.
    """
    if min(seed, stream, first) >= 0 and max(seed, stream, first + count) < 1 << 64:
        from certify.engine._seeds import POOL, seed_states

        run = _words(seed)
        fixed = run + [0] * max(POOL - len(run), 0) + _words(stream)
        entropy = np.array(fixed + [0, 0], dtype=np.uint64)
        out = np.empty((count, 4), dtype=np.uint64)
        seed_states(entropy, len(fixed), first, count, out)
        return out
    return chunk_states_reference(seed, first, count, stream)


def chunk_states_reference(seed: int, first: int, count: int, stream: int = 0) -> np.ndarray:
    """:func:`chunk_states` through ``numpy.random.SeedSequence``, one chunk at a time."""
    out = np.empty((count, 4), dtype=np.uint64)
    for k in range(count):
        key = (stream, first + k)
        state = np.random.SeedSequence(seed, spawn_key=key).generate_state(4, np.uint64)
        if not state.any():  # the all-zero state is the one xoshiro cannot leave
            state[0] = 1
        out[k] = state
    return out


def chunk_plan(spins: int, chunk_spins: int = CHUNK_SPINS) -> np.ndarray:
    """Spins of each chunk: full chunks, then the remainder."""
    full, rest = divmod(spins, chunk_spins)
    sizes = [chunk_spins] * full + ([rest] if rest else [])
    return np.array(sizes, dtype=np.int64)
