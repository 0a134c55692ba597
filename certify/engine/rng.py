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


def chunk_states(seed: int, first: int, count: int, stream: int = 0) -> np.ndarray:
    """xoshiro256** states (count, 4) for chunks ``first .. first + count - 1``.

    ``stream`` separates independent runs under one seed (e.g. bet levels).
    """
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
