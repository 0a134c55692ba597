"""The statistical tests of outcome verification, each written once (SPEC 10).

scipy.stats does the distributions and the tests it has (``chisquare``,
``power_divergence`` for the G-test, ``chi2_contingency``, ``binomtest``,
``kstest``); what it lacks is here: bins merged in strip order, the runs and
gap tests on a reel's stops, the Holm correction. Every function is checked
against a worked example or a closed form in ``tests/outcomes/test_stattests.py``.

A hand-computed example (the docstring example of :func:`goodness_of_fit`): a
3-reel log of 30 screens whose first reel has three equally weighted stops,
observed 14, 8 and 8 times. Expected 10 each, so

    chi2 = (14-10)^2/10 + (8-10)^2/10 + (8-10)^2/10 = 1.6 + 0.4 + 0.4 = 2.4, df = 2,

and with two degrees of freedom the chi-square survival function is
``exp(-x/2)``: p = exp(-1.2) = 0.301194.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from certify.stats import two_sided_p

MIN_EXPECTED = 5.0


@dataclass(frozen=True)
class TestResult:
    """One test's statistic, degrees of freedom and p-value (nan when it could not run)."""

    statistic: float
    df: float
    p_value: float
    note: str = ""


NOT_RUN = TestResult(float("nan"), float("nan"), float("nan"), "too few observations")


def merge_bins(expected: np.ndarray, minimum: float = MIN_EXPECTED) -> np.ndarray:
    """Group labels of bins merged in their order until each group expects ``minimum``.

    Bins are taken in strip order and added to the current group until its
    expected count reaches ``minimum``; a short last group joins the one before.

    >>> merge_bins(np.array([2.0, 4.0, 6.0, 1.0])).tolist()
    [0, 0, 1, 1]
    """
    labels = np.zeros(expected.shape[0], dtype=np.int64)
    group, acc = 0, 0.0
    for i, e in enumerate(expected):
        labels[i] = group
        acc += float(e)
        if acc >= minimum:
            group, acc = group + 1, 0.0
    if acc > 0 and acc < minimum and group > 0:
        labels[labels == group] = group - 1
    return labels


def _merged(observed: np.ndarray, expected: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    labels = merge_bins(expected)
    k = int(labels.max()) + 1
    return np.bincount(labels, observed, k), np.bincount(labels, expected, k)


def goodness_of_fit(observed: np.ndarray, probability: np.ndarray) -> TestResult:
    """Pearson's chi-square of stop counts against the model's stop probabilities.

    Bins merged in strip order to an expected count of at least 5
    (:func:`merge_bins`); ``scipy.stats.chisquare``, df = merged bins - 1.

    >>> r = goodness_of_fit(np.array([14, 8, 8]), np.array([1, 1, 1]) / 3)
    >>> round(r.statistic, 6), r.df, round(r.p_value, 6)
    (2.4, 2.0, 0.301194)
    """
    from scipy import stats

    n = float(observed.sum())
    obs, exp = _merged(observed.astype(np.float64), n * probability / probability.sum())
    if obs.shape[0] < 2:
        return NOT_RUN
    res = stats.chisquare(obs, exp)
    return TestResult(float(res.statistic), float(obs.shape[0] - 1), float(res.pvalue))


def g_test(observed: np.ndarray, probability: np.ndarray) -> TestResult:
    """The G-test (log-likelihood ratio) on the same merged bins as :func:`goodness_of_fit`.

    ``scipy.stats.power_divergence(lambda_="log-likelihood")``:
    G = 2 sum O ln(O / E), df = merged bins - 1.
    """
    from scipy import stats

    n = float(observed.sum())
    obs, exp = _merged(observed.astype(np.float64), n * probability / probability.sum())
    if obs.shape[0] < 2:
        return NOT_RUN
    res = stats.power_divergence(obs, exp, lambda_="log-likelihood")
    return TestResult(float(res.statistic), float(obs.shape[0] - 1), float(res.pvalue))


def class_labels(probability: np.ndarray, n: float) -> np.ndarray:
    """Stops merged in strip order into classes each expecting sqrt(5 n) of ``n`` draws.

    Then every cell of a pair table of ``n`` pairs expects at least 5 under
    independence (class probability q >= sqrt(5 / n), so n q q' >= 5).
    """
    p = probability / probability.sum()
    return merge_bins(p * math.sqrt(max(n, 1.0) / MIN_EXPECTED), 1.0)


def pair_independence(table: np.ndarray, p_row: np.ndarray, p_col: np.ndarray) -> TestResult:
    """Chi-square test of independence of a pair table (serial pairs, neighbouring reels).

    Rows and columns merged in strip order (:func:`class_labels`), rows or
    columns that never occur dropped, then ``scipy.stats.chi2_contingency``
    without continuity correction: df = (rows - 1)(columns - 1).
    """
    from scipy import stats

    n = float(table.sum())
    rows, cols = class_labels(p_row, n), class_labels(p_col, n)
    merged = np.zeros((int(rows.max()) + 1, int(cols.max()) + 1))
    np.add.at(merged, (rows[:, None], cols[None, :]), table)
    merged = merged[merged.sum(axis=1) > 0][:, merged.sum(axis=0) > 0]
    if merged.shape[0] < 2 or merged.shape[1] < 2:
        return NOT_RUN
    res = stats.chi2_contingency(merged, correction=False)
    return TestResult(float(res.statistic), float(res.dof), float(res.pvalue))


def runs_moments(n1: int, n2: int) -> tuple[float, float]:
    """Mean and variance of the number of runs of n1 ones and n2 zeros in random order.

    Wald and Wolfowitz (1940): mean = 2 n1 n2 / n + 1,
    variance = 2 n1 n2 (2 n1 n2 - n) / (n^2 (n - 1)), n = n1 + n2.
    """
    n = n1 + n2
    if n < 2:
        return float(n), 0.0
    mean = 2.0 * n1 * n2 / n + 1.0
    var = 2.0 * n1 * n2 * (2.0 * n1 * n2 - n) / (n * n * (n - 1.0))
    return mean, var


def runs_test(runs: int, mean: float, var: float) -> TestResult:
    """Two-sided normal test of an observed number of runs against its mean and variance.

    The runs are summed over files and so are the means and variances (each
    file's own n1, n2: :func:`runs_moments`); z = (R - mean) / sqrt(var).
    """
    if var <= 0:
        return NOT_RUN
    z = (runs - mean) / math.sqrt(var)
    return TestResult(z, float("nan"), two_sided_p(z))


def gap_expected(gaps: int, p: float, length: int) -> np.ndarray:
    """Expected gap counts 0 .. length - 2 and ``>= length - 1`` (Knuth's gap test).

    A gap is the number of draws outside the set A (probability ``p``) between
    two draws in A: P(gap = k) = p (1 - p)^k, P(gap >= t) = (1 - p)^t.
    """
    k = np.arange(length - 1)
    out = np.empty(length)
    out[:-1] = gaps * p * (1 - p) ** k
    out[-1] = gaps * (1 - p) ** (length - 1)
    return out


def gap_test(histogram: np.ndarray, p: float) -> TestResult:
    """Chi-square of a gap-length histogram (last bin: that length or more) vs :func:`gap_expected`.

    Bins merged in order to an expected count of at least 5; df = bins - 1.
    """
    from scipy import stats

    gaps = int(histogram.sum())
    if gaps == 0 or not 0 < p < 1:
        return NOT_RUN
    exp = gap_expected(gaps, p, histogram.shape[0])
    obs, e = _merged(histogram.astype(np.float64), exp)
    if obs.shape[0] < 2:
        return NOT_RUN
    res = stats.chisquare(obs, e)
    return TestResult(float(res.statistic), float(obs.shape[0] - 1), float(res.pvalue))


def mean_test(total: float, n: int, mean: float, sigma: float) -> TestResult:
    """Two-sided normal test of a sum of ``n`` draws against mean ``mean``, sd ``sigma``."""
    if n < 2 or sigma <= 0:
        return NOT_RUN
    z = (total / n - mean) / (sigma / math.sqrt(n))
    return TestResult(z, float("nan"), two_sided_p(z))


def proportion_test(hits: int, n: int, p: float) -> TestResult:
    """Exact two-sided binomial test (``scipy.stats.binomtest``); statistic = observed share."""
    from scipy import stats

    if n == 0 or not 0 <= p <= 1:
        return NOT_RUN
    return TestResult(hits / n, float("nan"), float(stats.binomtest(hits, n, p).pvalue))


def proportion_interval(hits: int, n: int, confidence: float = 0.99) -> tuple[float, float]:
    """Clopper-Pearson interval of a proportion.

    The beta quantiles ``binomtest(...).proportion_ci`` uses (``method="exact"``),
    called directly (one call instead of a root search).
    """
    from scipy.special import betaincinv

    if n == 0:
        return float("nan"), float("nan")
    a = (1 - confidence) / 2
    low = 0.0 if hits == 0 else float(betaincinv(hits, n - hits + 1, a))
    high = 1.0 if hits == n else float(betaincinv(hits + 1, n - hits, 1 - a))
    return low, high


def holm(p_values: list[float]) -> list[float]:
    """Holm's step-down adjusted p-values (Holm 1979); nan stays nan and is not counted.

    Sorted ascending, the i-th smallest (0-based) of m is multiplied by m - i,
    the running maximum taken, and capped at 1. A test fails at level alpha
    when its adjusted p-value is below alpha.

    >>> [round(x, 3) for x in holm([0.01, 0.04, 0.03, 0.005])]
    [0.03, 0.06, 0.06, 0.02]
    """
    p = np.array(p_values, dtype=np.float64)
    ok = np.flatnonzero(~np.isnan(p))
    out = np.full(p.shape[0], np.nan)
    m = ok.shape[0]
    order = ok[np.argsort(p[ok], kind="stable")]
    running = 0.0
    for i, j in enumerate(order):
        running = max(running, min(1.0, (m - i) * p[j]))
        out[j] = running
    return out.tolist()


def uniformity(p_values: list[float]) -> TestResult:
    """Kolmogorov-Smirnov test of the family's p-values against U(0, 1) (reported only)."""
    from scipy import stats

    p = np.array([x for x in p_values if not math.isnan(x)])
    if p.shape[0] < 2:
        return NOT_RUN
    res = stats.kstest(p, "uniform")
    return TestResult(float(res.statistic), float(p.shape[0]), float(res.pvalue))
