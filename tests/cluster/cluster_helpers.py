"""Shared helpers of the cluster tests."""

from __future__ import annotations

import numpy as np
from sim_figures import figures

from certify.engine import SimulationResult


def assert_identical(a: SimulationResult, b: SimulationResult) -> None:
    assert figures(a) == figures(b)
    assert np.array_equal(a.award_counts, b.award_counts)
