"""Theoretical return and standard deviation per unit bet, for meter checks."""

from __future__ import annotations

from functools import lru_cache

from certify.admission import admit
from certify.errors import EngineError
from certify.exact.calculator import compute_exact
from certify.exact.cycle import ExactResult
from certify.model.schema import Machine


@lru_cache(maxsize=32)
def _exact(machine: Machine) -> ExactResult | None:
    """Exact figures of a machine, computed once per distinct model.

    A floor has many machines of one model; ``Machine`` is a frozen, hashable
    dataclass (its source path excluded), so every row of that model shares
    one enumeration. A game with free-spin options is each option's own game
    (:func:`certify.admission.admit`): its theory is the option of the lowest
    return at the first level, the one its certificate is judged by (a player
    may always choose it), never a mix of the options.
    """
    results = [compute_exact(v) for v in admit(machine)]
    if any(r is None for r in results):
        return None
    return min(results, key=lambda r: min((lv.rtp for lv in r.levels), default=0.0) if r else 0.0)


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
