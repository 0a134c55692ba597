"""Chunk seeding: the compiled SeedSequence hash equals numpy's, and the merge adds in order."""

from __future__ import annotations

import numpy as np
import pytest

from certify.engine.rng import chunk_states, chunk_states_reference
from certify.engine.simulate import SimulationResult


@pytest.mark.parametrize(
    ("seed", "stream", "first", "count"),
    [
        (0, 0, 0, 64),  # a zero seed: one word, padded to the pool
        (1, 0, 0, 64),
        (2026, 7, 1000, 32),
        (2**32 + 5, 1, 2**32 - 3, 8),  # the chunk index takes a second word from 2^32 on
        (12345678901234567890, 2**33, 2**40, 6),  # a two-word seed and stream
        (2**70, 2, 5, 5),  # a seed beyond 2^64: numpy's SeedSequence itself
        (3, 0, 2**64 - 3, 3),
    ],
)
def test_chunk_states_are_numpys_seed_sequence(seed, stream, first, count):
    """Second method: ``SeedSequence(seed, spawn_key=(stream, i)).generate_state(4, uint64)``."""
    fast = chunk_states(seed, first, count, stream)
    assert fast.dtype == np.uint64 and fast.shape == (count, 4)
    assert np.array_equal(fast, chunk_states_reference(seed, first, count, stream))


def test_random_seeds_match_numpy():
    rng = np.random.default_rng(5)
    for _ in range(40):
        seed = int(rng.integers(0, 2**63)) >> int(rng.integers(0, 63))
        stream, first = int(rng.integers(0, 50)), int(rng.integers(0, 2**40))
        assert np.array_equal(
            chunk_states(seed, first, 3, stream), chunk_states_reference(seed, first, 3, stream)
        )


def test_merge_adds_in_chunk_order():
    """The merge's figures equal a chunk-by-chunk loop's (float sum in order, bit for bit)."""
    rng = np.random.default_rng(1)
    n = 1000
    stats = rng.integers(0, 10**6, size=(n, 23))
    sq = rng.random(n) * 10.0 ** rng.integers(-3, 12, size=n)
    awards = rng.integers(0, 9, size=(n, 4))
    hist = rng.integers(0, 9, size=(n, 32))
    merged = SimulationResult(total_bet=10, n_awards=4, sum_sq=0.1)
    merged.merge(stats[:600], sq[:600], awards[:600], hist[:600])
    merged.merge(stats[600:], sq[600:], awards[600:], hist[600:])
    total = 0.1
    for x in sq:
        total += float(x)
    assert merged.sum_sq.hex() == total.hex()
    assert merged.spins == int(stats[:, 0].sum()) and merged.max_win == int(stats[:, 3].max())
    assert np.array_equal(merged.award_counts, awards.sum(axis=0))
