"""Theoretical return and standard deviation per unit bet, for meter checks."""

from __future__ import annotations

from certify.exact.cycle import compute_exact
from certify.model.schema import Machine


def theory(machine: Machine, level_index: int) -> tuple[float, float]:
    """(rtp, sigma per unit bet) of one bet level, from the exact calculator.

    Raises
    ------
    EngineError
        When the cycle is too large to enumerate.

    """
    from certify.errors import EngineError

    result = compute_exact(machine)
    if result is None:
        raise EngineError(f"{machine.id}: cycle too large for exact figures")
    level = result.levels[level_index]
    return level.rtp, level.sigma
