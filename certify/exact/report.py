"""The ``slotcert exact MODEL --json`` document of a machine."""

from __future__ import annotations

from typing import Any

from certify.admission import admit
from certify.engine import compile_machine
from certify.exact.calculator import compute_exact, exact_refusal
from certify.exact.cycle import cycle_size, enumerated_size
from certify.exact.decompose import mean_return
from certify.jackpot_return import jackpot_rtp
from certify.model.schema import Machine

DEFAULT_CONFIDENCE = 0.99


def exact_report(
    machine: Machine, confidence: float = DEFAULT_CONFIDENCE, budget_s: float | None = None
) -> dict[str, Any]:
    """Exact figures per bet level (``exact`` is null where not feasible, with the reason).

    A game with free-spin options gets one document per option under
    ``free_spin_options``; its own ``bet_levels`` are those of the worst option.
    ``budget_s``: seconds of work a screen game's cycle may take (default
    :data:`certify.bounds.EXACT_BUDGET_S`).
    """
    # what validate, simulate and certify refuse, refused here too
    variants = admit(machine, budget_s=budget_s)
    if len(variants) > 1:
        options = [_variant_report(v, confidence, budget_s) for v in variants]
        worst = min(options, key=_lowest_rtp)
        return {**worst, "free_spin_options": options}
    return _variant_report(machine, confidence, budget_s)


def _lowest_rtp(report: dict[str, Any]) -> float:
    rtps = [lv["exact"]["base_rtp"] for lv in report["bet_levels"] if lv["exact"]]
    return min(rtps, default=float("inf"))


def _variant_report(
    machine: Machine, confidence: float, budget_s: float | None = None
) -> dict[str, Any]:
    tables = compile_machine(machine)
    refused = exact_refusal(tables, budget_s)
    result = None if refused else compute_exact(tables, budget_s=budget_s)
    levels = []
    for lt in tables.levels:
        ex = result.levels[lt.level_index] if result else None
        jack = jackpot_rtp(machine, lt.level_index, ex)
        decomposed = mean_return(tables, lt)
        entry: dict[str, Any] = {
            "level": lt.level,
            "total_bet": lt.total_bet,
            "exact": None,
            "decomposed_base_rtp": decomposed,
        }
        if ex is not None:
            entry["exact"] = {
                "rtp": ex.rtp + jack,
                "base_rtp": ex.rtp,
                "jackpot_rtp": jack,
                "line_rtp": ex.line_rtp,
                "scatter_rtp": ex.scatter_rtp,
                "free_spins_rtp": ex.free_spins_rtp,
                "bonus_rtp": ex.bonus_rtp,
                **({"win_cap_rtp": ex.win_cap_rtp} if ex.win_cap_rtp else {}),
                "hit_frequency": ex.hit_frequency,
                "variance": ex.variance,
                "volatility_index": ex.volatility_index(confidence),
                "awards": _awards(tables, lt, ex),
            }
        levels.append(entry)
    return {
        "machine": {
            "id": machine.id,
            "name": machine.name,
            "cycle": cycle_size(tables),
            "combinations": enumerated_size(tables),
            "method": result.method if result else None,
            **({"option": machine.option_label} if machine.option_label else {}),
            "exact_infeasible": refused,
        },
        "bet_levels": levels,
    }


def _awards(tables: Any, lt: Any, ex: Any) -> list[dict[str, Any]]:
    """The level's awards with their ``rtp_contribution`` where the PAR rows give one.

    An award's contribution is the sum of the PAR rows of its kind and combo
    (:mod:`certify.exact.contributions`: the certificate's award table, wild
    multipliers included); a free-spin or bonus trigger carries its whole
    feature's return. Where the rows are not per entry (feature games whose
    rows are per part) an award's is null.
    """
    shares = _shares(tables, lt, ex)
    return [
        {
            "kind": a.kind,
            "combo": list(a.combo),
            "pays": a.pays,
            "probability": a.probability,
            "one_in": a.one_in if a.probability > 0 else None,
            "rtp_contribution": shares.get((a.kind, tuple(a.combo))),
        }
        for a in ex.awards
    ]


def _shares(tables: Any, lt: Any, ex: Any) -> dict[tuple[str, tuple[str, ...]], float]:
    from certify.exact.contributions import level_contributions, per_entry_applies

    if not per_entry_applies(tables):
        return {}
    shares: dict[tuple[str, tuple[str, ...]], float] = {}
    for row in level_contributions(tables, lt).base:
        key = (row.kind, tuple(row.combo))
        shares[key] = shares.get(key, 0.0) + row.rtp
    for a in ex.awards:
        if a.kind == "free_spins":
            shares[(a.kind, tuple(a.combo))] = ex.free_spins_rtp
        elif a.kind == "bonus":
            shares[(a.kind, tuple(a.combo))] = ex.bonus_rtp
    return shares
