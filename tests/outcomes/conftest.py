"""Shared fixtures of the outcome-verification tests: models compiled once per session."""

from __future__ import annotations

import pytest
from testpaths import DATA, MACHINES

from certify.outcomes.verify import _machine_model


@pytest.fixture(scope="session")
def small():
    """SMALL-FEATURES: 3 weighted reels, scatters, free spins on own strips (x2,
    retrigger, cap 9), a bonus: the 3-reel game of the fault and false-alarm tests."""
    return _machine_model(DATA / "small_features.toml")


@pytest.fixture(scope="session")
def tiny():
    """TINY-3X1: 3 reels of 4 and 4 stops, one row, one line, a scatter; no features."""
    return _machine_model(DATA / "tiny_lines.toml")


@pytest.fixture(scope="session")
def ref():
    """REF-5X3-20, the reference 5x3 20-line game."""
    return _machine_model(MACHINES / "ref-5x3-20.toml")
