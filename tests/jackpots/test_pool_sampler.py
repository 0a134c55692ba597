"""The kernel's Poisson sampler (inversion below 10, PTRS above) against SciPy.

Oracle: ``scipy.stats.poisson``; chi-square over cells of expected count >= 20,
p-value > 1e-3; 20,000 draws per mean, both branches and their boundary.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from certify.engine.rng import chunk_states
from certify.pools import _kernels as K

N = 20_000


def _draws(lam: float, seed: int) -> np.ndarray:
    rng = chunk_states(seed, 0, 1)[0].copy()
    return np.array([K.poisson(rng, lam) for _ in range(N)])


@pytest.mark.parametrize("lam", [0.3, 4.0, 9.99, 10.0, 37.5, 2500.0])
def test_poisson_draws_follow_the_poisson_law(lam):
    x = _draws(lam, seed=int(lam * 100))
    lo, hi = stats.poisson.ppf([1e-4, 1 - 1e-4], lam)
    edges = np.unique(np.concatenate([[-0.5], np.arange(lo, hi + 1) + 0.5, [np.inf]]))
    expected = np.diff(stats.poisson.cdf(edges, lam)) * N
    observed = np.histogram(x, edges)[0]
    # merge cells until each expects at least 20
    obs, exp, o, e = [], [], 0.0, 0.0
    for oi, ei in zip(observed, expected, strict=True):
        o, e = o + oi, e + ei
        if e >= 20:
            obs.append(o)
            exp.append(e)
            o, e = 0.0, 0.0
    obs[-1] += o
    exp[-1] += e
    exp = np.array(exp) * sum(obs) / sum(exp)
    assert stats.chisquare(obs, exp).pvalue > 1e-3


def test_uniform_and_exponential_helpers():
    rng = chunk_states(7, 0, 1)[0].copy()
    u = np.array([K.uniform(rng) for _ in range(N)])
    assert u.min() >= 0 and u.max() < 1
    assert stats.kstest(u, "uniform").pvalue > 1e-3
    e = np.array([K.exponential(rng) for _ in range(N)])
    assert stats.kstest(e, "expon").pvalue > 1e-3
