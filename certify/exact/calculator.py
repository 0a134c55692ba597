"""The exact calculator's entry point: the full cycle, or the screen-by-screen cycle.

Games that play over several screens (cascades, cluster pays) are enumerated
by :mod:`certify.exact.screens`; every other game by :mod:`certify.exact.cycle`.
"""

from __future__ import annotations

from certify.engine.screens import is_screen_game
from certify.engine.tables import GameTables, compile_machine
from certify.errors import ModelError
from certify.exact import cycle
from certify.exact.options import drawn_exact
from certify.exact.screens import (
    cascade_cycle_problem,
    compute_screen_exact,
    screen_infeasible_reason,
)
from certify.model.schema import Machine


def check_screen_cycle(machine: Machine, budget_s: float | None = None) -> None:
    """A located error when a strip cascade's cycle can exceed ``cascade.max_screens``."""
    problem = cascade_cycle_problem(machine, machine.source or machine.id, budget_s=budget_s)
    if problem is not None:
        raise ModelError([problem])


def exact_refusal(tables: GameTables, budget_s: float | None = None) -> str | None:
    """Why the exact figures of ``tables`` cannot be computed (None: they can).

    ``budget_s``: seconds of work a screen game's cycle may take (default
    :data:`certify.bounds.EXACT_BUDGET_S`).
    """
    fs = tables.machine.free_spins
    if fs is not None and fs.options_drawn:  # each option alone, as compute_exact plays them
        machines = tables.machine.option_machines()
        reasons = (exact_refusal(compile_machine(m), budget_s) for m in machines)
        return next((r for r in reasons if r is not None), None)
    if is_screen_game(tables.machine):
        return screen_infeasible_reason(tables, budget_s=budget_s)
    return cycle.exact_infeasible(tables)


def compute_exact(
    machine: Machine | GameTables, max_cycle: int | None = None, budget_s: float | None = None
) -> cycle.ExactResult | None:
    """Exact figures of every bet level, or None when refused (:func:`exact_refusal`).

    ``max_cycle`` overrides the largest cycle enumerated (stop combinations);
    ``budget_s`` the seconds of work a screen game's cycle may take (default
    :data:`certify.bounds.EXACT_BUDGET_S`).
    """
    tables = machine if isinstance(machine, GameTables) else compile_machine(machine)
    fs = tables.machine.free_spins
    if fs is not None and fs.options_drawn:  # the mixture of the options played alone
        return drawn_exact(tables.machine, lambda m: compute_exact(m, max_cycle, budget_s))
    if is_screen_game(tables.machine):
        if max_cycle is None:
            return compute_screen_exact(tables, budget_s=budget_s)
        return compute_screen_exact(tables, max_cycle, budget_s)
    return cycle.compute_exact(tables, cycle.MAX_CYCLE if max_cycle is None else max_cycle)
