"""Every figure of a simulation result, for bit-identity tests (importable from any test folder)."""

from __future__ import annotations

from certify.engine import SimulationResult


def figures(r: SimulationResult) -> tuple:
    """Every figure of a result, the float sum of squares by its exact bits."""
    return (
        r.total_bet,
        r.spins,
        r.total_win,
        r.sum_sq.hex(),
        r.hits,
        r.max_win,
        r.fs_triggers,
        r.bonus_triggers,
        r.fs_spins,
        tuple(r.award_counts.tolist()),
        tuple(r.histogram.tolist()),
    )
