"""numba kernels against their NumPy twins (the rules in whole-array form)."""

import numpy as np
import pytest

from meters.sequence import deltas, deltas_numpy, dips_and_spikes, dips_and_spikes_numpy


def random_rows(seed, n=3000, k=5, machines=40):
    rng = np.random.default_rng(seed)
    mcode = np.sort(rng.integers(0, machines, n))
    modulus = 10.0 ** rng.choice([4, 8, 10], machines)
    steps = rng.integers(0, 50, (n, k)).astype(float)
    values = np.cumsum(steps, axis=0) % modulus[mcode][:, None]
    jumble = rng.random(n) < 0.05  # dips, spikes, resets, rollovers
    values[jumble] = rng.integers(0, 10**4, (jumble.sum(), k))
    values[rng.random((n, k)) < 0.02] = np.nan
    order = np.flatnonzero(rng.random(n) < 0.9)
    key = rng.integers(-1, k, machines)
    return values, order, mcode, modulus, key


@pytest.mark.parametrize("timed", [False, True])
@pytest.mark.parametrize("seed", range(5))
def test_dips_and_spikes_match_the_twin(seed, timed):
    values, order, mcode, modulus, key = random_rows(seed)
    rng = np.random.default_rng(seed + 100)
    # hourly times with jitter: ties between a spike and a dip are decided by them
    times = (np.arange(len(values)) * 3600 + rng.integers(-5000, 5000, len(values))) * 10**9
    times = times if timed else None
    fast = dips_and_spikes(values, order, mcode, modulus, key, times)
    slow = dips_and_spikes_numpy(values, order, mcode, modulus, key, times)
    for a, b in zip(fast, slow, strict=False):
        np.testing.assert_array_equal(a[fast[0]], b[fast[0]])
    np.testing.assert_array_equal(fast[0], slow[0])
    assert fast[0].any()


@pytest.mark.parametrize("seed", range(5))
def test_deltas_match_the_twin(seed):
    values, order, mcode, modulus, _ = random_rows(seed)
    fast = deltas(values, order, mcode, modulus)
    slow = deltas_numpy(values, order, mcode, modulus)
    for a, b in zip(fast, slow, strict=False):
        np.testing.assert_array_equal(a, b)
    assert fast[2].any() and fast[3].any()
    assert (fast[1][~np.isnan(fast[1])] >= 0).all()


@pytest.mark.parametrize("seed", range(3))
def test_small_kernels_match_their_twins(seed):
    from meters import _kernels, twins

    values, _, mcode, modulus, _ = random_rows(seed)
    rng = np.random.default_rng(seed)
    usable = rng.random(len(values)) < 0.9
    n = len(modulus)
    rep = np.zeros((n, values.shape[1]), dtype=bool)
    _kernels.reported(values, mcode, usable, rep)
    np.testing.assert_array_equal(rep, twins.reported(values, mcode, usable, n))

    wide = values * rng.choice([1, 10**6], values.shape)
    missing, over = np.empty(len(values), np.int64), np.empty(len(values), np.int64)
    _kernels.incomplete(wide, mcode, rep, modulus, usable, missing, over)
    expect = twins.incomplete(wide, mcode, rep, modulus, usable)
    np.testing.assert_array_equal(missing, expect[0])
    np.testing.assert_array_equal(over, expect[1])

    first = np.flatnonzero(np.r_[True, mcode[1:] != mcode[:-1]])
    sums, seen = np.zeros((len(first), values.shape[1])), np.zeros((len(first), values.shape[1]))
    _kernels.segment_sums(values, first, sums, seen)
    expect = twins.segment_sums(values, first)
    np.testing.assert_allclose(sums, expect[0])
    np.testing.assert_array_equal(seen, expect[1])

    src = np.vstack([values.T, rng.choice([-3.0, 2.5, 1e16, 7.0, np.nan], values.shape).T])
    out, wrong = np.empty(src.shape[::-1]), np.empty(src.shape, dtype=bool)
    _kernels.fill_rows(src, out, wrong)
    expect = twins.fill_rows(src)
    np.testing.assert_array_equal(out, expect[0])
    np.testing.assert_array_equal(wrong, expect[1])
    assert wrong.any() and np.isnan(out).any()
