"""The statistics every package shares: the normal quantile, intervals, verdicts (SPEC 4).

One normal quantile (:func:`normal_quantile`, the standard library's
``NormalDist().inv_cdf``, Wichura's AS 241 to double precision) serves the
slot verdicts, the table games' intervals and the meter reconciler's bands;
no package writes its own.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np

from certify.percent import compared, points
from certify.verdicts import Verdict

# An "engine defect" is a strong claim: simulation vs exact is checked at
# 99.9% at least, so a correct engine raises a false alarm at most 1 time in
# 1,000 simulated levels (at 99% it would be 1 in 100, and heavy-tailed pay
# tables make the normal interval optimistic at a few million spins).
AGREEMENT_CONFIDENCE = 0.999
_STANDARD_NORMAL = NormalDist()


def normal_quantile(p: float) -> float:
    """The standard normal quantile: ``x`` with ``P(Z <= x) = p``, for ``0 < p < 1``.

    Parameters
    ----------
    p : float
        A probability strictly between 0 and 1.

    Returns
    -------
    float
        The quantile (0.975 -> 1.959964).

    """
    return _STANDARD_NORMAL.inv_cdf(p)


def normal_cdf(x: np.ndarray) -> np.ndarray:
    """The standard normal distribution function ``P(Z <= x)`` (scipy's ``ndtr``), elementwise."""
    from scipy.special import ndtr

    return np.asarray(ndtr(x), dtype=float)


def two_sided_p(z: float) -> float:
    """The two-sided normal p-value ``P(|Z| >= |z|)`` (scipy's ``ndtr`` of ``-|z|``, doubled)."""
    from scipy.special import ndtr

    return float(2.0 * ndtr(-abs(z)))


def z_value(confidence: float) -> float:
    """Two-sided normal quantile for a confidence level (0.99 -> 2.5758)."""
    return normal_quantile(0.5 + confidence / 2)


def interval(mean: float, std_error: float, confidence: float) -> tuple[float, float]:
    """Normal confidence interval ``mean +/- z std_error``."""
    half = z_value(confidence) * std_error
    return mean - half, mean + half


@dataclass(frozen=True)
class LevelVerdict:
    """A bet level's verdict and why."""

    verdict: str
    reason: str
    more_spins: int | None = None


def level_verdict(
    minimum: float,
    confidence: float,
    exact_rtp: float | None,
    exact_sigma: float | None,
    sim_rtp: float | None,
    sim_se: float | None,
    spins: int,
    jackpot_rtp: float = 0.0,
) -> LevelVerdict:
    """Verdict of one bet level on the return that counts.

    ``jackpot_rtp`` is added to both figures when the jurisdiction counts it.
    """
    z = z_value(confidence)
    if exact_rtp is not None:
        counted = exact_rtp + jackpot_rtp
        if sim_rtp is not None and spins > 0:
            agree = max(confidence, AGREEMENT_CONFIDENCE)
            band = z_value(agree) * (exact_sigma or 0.0) / math.sqrt(spins)
            if abs(sim_rtp - exact_rtp) > band:
                shown_sim, shown_exact = compared(sim_rtp, exact_rtp, digits=4)
                return LevelVerdict(
                    Verdict.ERROR,
                    f"simulation {shown_sim} disagrees with exact {shown_exact} beyond its "
                    f"{agree:.1%} band +/-{points(band, 4)}: engine defect",
                )
        return _against(counted, minimum, "exact return", counted >= minimum)
    if sim_rtp is None or sim_se is None:
        return LevelVerdict(Verdict.ERROR, "no exact figure and no simulation")
    low, high = interval(sim_rtp + jackpot_rtp, sim_se, confidence)
    if low >= minimum:
        return _against(low, minimum, "lower bound of the simulated return", True)
    if high < minimum:
        return _against(high, minimum, "upper bound of the simulated return", False)
    gap = abs(sim_rtp + jackpot_rtp - minimum)
    sigma = sim_se * math.sqrt(max(spins, 1))
    need = math.inf if gap == 0 else (z * sigma / gap) ** 2
    more = None if math.isinf(need) else max(int(math.ceil(need)) - spins, 1)
    shown_low, shown_high, shown_min = compared(low, high, minimum)
    return LevelVerdict(
        Verdict.INCONCLUSIVE,
        f"interval [{shown_low}, {shown_high}] contains the minimum {shown_min}"
        + (f"; about {more:,} more spins would decide" if more else ""),
        more,
    )


def _against(figure: float, minimum: float, what: str, passes: bool) -> LevelVerdict:
    """``exact return 73.88% < minimum 80.00%``: a figure against the minimum, in percent."""
    shown, shown_min = compared(figure, minimum)
    if passes:
        return LevelVerdict(Verdict.PASS, f"{what} {shown} >= minimum {shown_min}")
    return LevelVerdict(Verdict.FAIL, f"{what} {shown} < minimum {shown_min}")
