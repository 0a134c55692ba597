"""Theoretical return and standard deviation per unit bet, for meter checks."""

from __future__ import annotations

from functools import lru_cache

from certify.errors import EngineError
from certify.exact.calculator import compute_exact
from certify.exact.cycle import ExactResult
from certify.model.schema import Machine


@lru_cache(maxsize=32)
def _exact(machine: Machine) -> ExactResult | None:
    """Exact figures of a machine, computed once per distinct model.

    A floor has many machines of one model; ``Machine`` is a frozen, hashable
    dataclass (its source path excluded), so every row of that model shares
    one enumeration.
    """
    return compute_exact(machine)


def theory(machine: Machine, level_index: int) -> tuple[float, float]:
    """(rtp, sigma per unit bet) of one bet level, from the exact calculator.

    Raises
    ------
    EngineError
        When the cycle is too large to enumerate.

    """
    result = _exact(machine)
    if result is None:
        raise EngineError(f"{machine.id}: cycle too large for exact figures")
    level = result.levels[level_index]
    return level.rtp, level.sigma
