"""Statistical tests of the per-chunk RNG streams (99.9% acceptance levels)."""

from __future__ import annotations

import numpy as np
from scipy import stats

from certify.engine import _kernels as k
from certify.engine.rng import chunk_states

STREAMS, DRAWS, BOUND = 256, 40_000, 52


def _sample(seed: int):
    states = chunk_states(seed, 0, STREAMS)
    sums = np.zeros(STREAMS)
    squares = np.zeros(STREAMS)
    counts = np.zeros((STREAMS, BOUND), dtype=np.int64)
    k.stream_sample(states, DRAWS, BOUND, sums, squares, counts)
    return sums, squares, counts


def test_chunk_means_and_variances_match_uniform():
    """Per-stream means are N(mu, var/n): a KS test over 256 streams; variances near var.

    Uniform on 0..51: mu = 25.5, var = (52^2 - 1) / 12 = 225.25.
    """
    sums, squares, _ = _sample(2024)
    mu, var = 25.5, (BOUND**2 - 1) / 12
    z = (sums / DRAWS - mu) / np.sqrt(var / DRAWS)
    assert stats.kstest(z, "norm").pvalue > 0.001
    sample_var = squares / DRAWS - (sums / DRAWS) ** 2
    assert np.all(np.abs(sample_var - var) < 6 * var * np.sqrt(2 / DRAWS) * 1.1)


def test_stop_frequencies_chi_square():
    """Pooled and per-stream chi-square of the 52 stop frequencies."""
    _, _, counts = _sample(7)
    expected = DRAWS / BOUND
    pooled = counts.sum(axis=0)
    assert stats.chisquare(pooled).pvalue > 0.001
    per_stream = ((counts - expected) ** 2 / expected).sum(axis=1)
    # the per-stream statistics are chi2(51): their p-values must be uniform
    p = stats.chi2.sf(per_stream, BOUND - 1)
    assert stats.kstest(p, "uniform").pvalue > 0.001


def test_neighbouring_streams_are_uncorrelated():
    """Means of stream i and i+1 show no correlation (|r| < 4 / sqrt(n))."""
    sums, _, _ = _sample(99)
    r = np.corrcoef(sums[:-1], sums[1:])[0, 1]
    assert abs(r) < 4 / np.sqrt(STREAMS)
