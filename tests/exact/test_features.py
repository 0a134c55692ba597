"""Free-spin moments: closed forms against recursions and hand figures."""

from __future__ import annotations

import pytest

from certify.errors import EngineError
from certify.exact.features import feature_moments


def test_no_retrigger_is_n_independent_spins():
    """Without retrigger, F = X1 + ... + Xn: E[F] = n m, E[F^2] = n v2 + n(n-1) m^2.

    One class: a = 0, P = 1, E[X] = 3, E[X^2] = 20 -> n = 4: E[F] = 12,
    E[F^2] = 4 x 20 + 12 x 9 = 188.
    """
    classes = {0: (1.0, 3.0, 20.0)}
    assert feature_moments(classes, 4, 0) == pytest.approx((12.0, 188.0, 4.0))
    assert feature_moments(classes, 4, 100) == pytest.approx((12.0, 188.0, 4.0))


def test_uncapped_closed_form_is_the_limit_of_the_capped_recursion():
    """Two independent methods: the branching closed form and the capped DP as cap grows."""
    classes = {0: (0.9, 1.2, 9.0), 2: (0.1, 0.5, 4.0)}
    closed = feature_moments(classes, 5, 0)
    capped = feature_moments(classes, 5, 400)
    assert capped == pytest.approx(closed, rel=1e-9)


def test_expected_spins_geometric_by_hand():
    """Each spin adds 1 spin with probability 1/2: E[N] = n / (1 - 1/2) = 2n."""
    classes = {0: (0.5, 0.0, 0.0), 1: (0.5, 0.0, 0.0)}
    assert feature_moments(classes, 3, 0)[2] == pytest.approx(6.0)


def test_endless_feature_is_refused():
    """rho = 1 x 1 >= 1: the feature never ends without a cap."""
    with pytest.raises(EngineError, match="never ends"):
        feature_moments({3: (1.0, 1.0, 1.0)}, 10, 0)
