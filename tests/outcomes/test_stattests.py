"""The stop, return and family statistics against closed forms and hand computations."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from scipy import stats

from certify.outcomes import stattests as st


def test_goodness_of_fit_hand_example():
    """Module docstring: counts 14, 8, 8 on three equal stops: chi2 = 2.4, df = 2,
    p = exp(-1.2) (the chi-square survival function with 2 df is exp(-x/2))."""
    r = st.goodness_of_fit(np.array([14, 8, 8]), np.ones(3))
    assert r.statistic == pytest.approx(2.4)
    assert r.df == 2
    assert r.p_value == pytest.approx(math.exp(-1.2), rel=1e-12)


def test_bins_merged_in_strip_order():
    """Expected 2, 4, 6, 1 (x 1): [2 + 4] = 6 >= 5, then [6]; the short [1] joins the last."""
    assert st.merge_bins(np.array([2.0, 4.0, 6.0, 1.0])).tolist() == [0, 0, 1, 1]
    # 20 draws on weights 1, 1, 2, 6 (expected 2, 2, 4, 12): groups [2+2+4], [12]
    r = st.goodness_of_fit(np.array([4, 4, 2, 10]), np.array([1.0, 1, 2, 6]))
    assert r.df == 1
    assert r.statistic == pytest.approx((10 - 8) ** 2 / 8 + (10 - 12) ** 2 / 12)


def test_g_test_closed_form():
    """G = 2 sum O ln(O / E) on the same bins; df 2: p = exp(-G / 2)."""
    obs = np.array([14, 8, 8])
    g = 2 * sum(o * math.log(o / 10) for o in obs)
    r = st.g_test(obs, np.ones(3))
    assert r.statistic == pytest.approx(g)
    assert r.p_value == pytest.approx(math.exp(-g / 2))


def test_runs_moments_by_enumeration():
    """Wald-Wolfowitz mean and variance equal the exact moments over every arrangement
    of n1 ones and n2 zeros (brute force over C(n, n1) sequences)."""
    for n1, n2 in ((3, 3), (4, 2), (5, 7)):
        runs = []
        for ones in itertools.combinations(range(n1 + n2), n1):
            seq = np.zeros(n1 + n2, dtype=int)
            seq[list(ones)] = 1
            runs.append(1 + int((seq[1:] != seq[:-1]).sum()))
        mean, var = st.runs_moments(n1, n2)
        assert mean == pytest.approx(np.mean(runs))
        assert var == pytest.approx(np.var(runs))


def test_gap_expected_closed_form():
    """P(gap = k) = p q^k, P(gap >= t) = q^t: the expected counts add up to the gaps."""
    e = st.gap_expected(1000, 0.25, 6)
    assert e[:5].tolist() == pytest.approx([1000 * 0.25 * 0.75**k for k in range(5)])
    assert e[5] == pytest.approx(1000 * 0.75**5)
    assert e.sum() == pytest.approx(1000)


def test_holm_example():
    """Holm (1979) by hand: p = .01, .04, .03, .005 (m = 4): sorted .005 x 4 = .02,
    .01 x 3 = .03, .03 x 2 = .06, .04 x 1 = .04 -> running max .06."""
    assert st.holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert math.isnan(st.holm([0.2, float("nan")])[1])


def test_pair_independence_is_scipys_contingency_test():
    """Classes of a 4-stop strip with 400 pairs each expect >= sqrt(5 / 400): no merge, and
    the statistic is chi2_contingency's on the raw table."""
    rng = np.random.default_rng(3)
    table = rng.integers(20, 30, (4, 4))
    p = np.ones(4) / 4
    r = st.pair_independence(table, p, p)
    ref = stats.chi2_contingency(table, correction=False)
    assert r.statistic == pytest.approx(ref.statistic)
    assert r.df == 9


def test_mean_and_proportion_tests():
    """z = (mean - mu) / (sigma / sqrt(n)): 100 draws summing 120, mu 1, sigma 1: z = 2."""
    r = st.mean_test(120, 100, 1.0, 1.0)
    assert r.statistic == pytest.approx(2.0)
    assert r.p_value == pytest.approx(math.erfc(2 / math.sqrt(2)))
    # binomial: 0 hits of 10 at p = 0.5: two-sided p = 2 x 0.5^10
    assert st.proportion_test(0, 10, 0.5).p_value == pytest.approx(2 * 0.5**10)


def test_clopper_pearson_is_scipys():
    """The interval equals ``binomtest(...).proportion_ci(method="exact")``."""
    for hits, n in ((0, 50), (3, 50), (50, 50), (417, 1000)):
        ci = stats.binomtest(hits, n).proportion_ci(0.99, method="exact")
        assert st.proportion_interval(hits, n) == pytest.approx((ci.low, ci.high), abs=1e-12)


def test_hand_computed_chi_square_of_a_3_reel_log(tmp_path):
    """A 40-screen log of TINY-3X1 (3 reels of 4 equally weighted stops) whose first reel
    shows its stops 12, 8, 10 and 10 times. By hand: every stop expects 40 / 4 = 10 (no
    merging), chi2 = (4 + 4 + 0 + 0) / 10 = 0.8 with 3 df, and the chi-square survival
    function with 3 df is erfc(sqrt(x/2)) + sqrt(2x/pi) exp(-x/2) = 0.849467 at x = 0.8."""
    from testpaths import DATA
    from twins import lines as twin

    from certify.model import load_machine
    from certify.outcomes.verify import verify_outcomes

    m = load_machine(DATA / "tiny_lines.toml")
    rng = np.random.default_rng(9)
    first = np.repeat([0, 1, 2, 3], [12, 8, 10, 10])
    rng.shuffle(first)
    lines = ["game,phase,level,stop_1,stop_2,stop_3,win"]
    for g, s1 in enumerate(first.tolist()):
        stops = [s1, int(rng.integers(0, 4)), int(rng.integers(0, 4))]
        win = twin.spin_value(m, twin.window(m.strips, stops, m.rows), 0)[0]
        lines.append(f"{g},base,1,{stops[0]},{stops[1]},{stops[2]},{win}")
    log = tmp_path / "log.csv"
    log.write_text("\n".join(lines) + "\n")
    r = verify_outcomes(log, DATA / "tiny_lines.toml")
    chi = next(t for t in r.tests if t["name"] == "chi-square" and t["reel"] == 1)
    x = 0.8
    closed = math.erfc(math.sqrt(x / 2)) + math.sqrt(2 * x / math.pi) * math.exp(-x / 2)
    assert chi["statistic"] == pytest.approx(0.8)
    assert chi["df"] == 3
    assert chi["p_value"] == pytest.approx(closed, rel=1e-12)
    assert closed == pytest.approx(0.849467, abs=1e-6)
    assert r.mismatch_count == 0
