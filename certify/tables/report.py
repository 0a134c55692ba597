"""The SPEC section 6 table form of ``slotcert exact TABLE --json``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from certify.tables.exact import BetResult, exact_results
from certify.tables.loader import load_table
from certify.tables.schema import Table


def exact_report(path: str | Path) -> dict[str, Any]:
    """Exact per-bet figures of the table game in ``path``.

    Parameters
    ----------
    path : str or Path
        A ``slotcert/table@1`` file.

    Returns
    -------
    dict
        ``{"game": {...}, "bets": [{"bet", "rtp", "house_edge", "win", "push",
        "lose", ...}], "findings": [...]}``; ``rtp_exact`` holds the return as
        an exact fraction string.

    Raises
    ------
    ModelError
        When the file is invalid.

    """
    table = load_table(path)
    return table_report(table)


def table_report(table: Table) -> dict[str, Any]:
    """The report of an already loaded table."""
    game = table.game
    return {
        "game": {
            "id": game.id,
            "name": game.name,
            "kind": game.kind,
            "source": game.source,
            "commission": float(table.commission),
        },
        "bets": [_bet_row(r) for r in exact_results(table)],
        "findings": [
            {"severity": p.severity, "code": p.code, "message": str(p)} for p in table.warnings
        ],
    }


def _bet_row(result: BetResult) -> dict[str, Any]:
    lose, push, win = result.probabilities
    return {
        "bet": result.bet.name,
        "type": result.bet.type,
        "pays": str(result.bet.pays),
        "rtp": float(result.rtp),
        "house_edge": float(1 - result.rtp),
        "win": float(win),
        "push": float(push),
        "lose": float(lose),
        "variance": float(result.variance),
        "rtp_exact": str(result.rtp),
    }


def simulation_report(
    table: Table, rounds: int | None = None, seed: int | None = None
) -> dict[str, Any]:
    """Monte Carlo cross-check of every bet against its exact return.

    Each bet gets its 99% interval; ``agrees`` uses the interval widened for
    the number of bets (Bonferroni), since all bets of a table share one
    stream of rounds and are judged together.
    """
    from certify.tables.montecarlo import estimate, simulate_counts

    counts = simulate_counts(table, rounds, seed)
    results = exact_results(table)
    family = 1 - 0.01 / max(len(results), 1)
    rows = []
    for r, c in zip(results, counts):
        est = estimate(c, r.returns, 0.99)
        rows.append(
            {
                "bet": r.bet.name,
                "exact_rtp": float(r.rtp),
                "rtp": est.rtp,
                "std_error": est.std_error,
                "ci": list(est.ci),
                "agrees": estimate(c, r.returns, family).covers(float(r.rtp)),
                "counts": {"lose": est.counts[0], "push": est.counts[1], "win": est.counts[2]},
            }
        )
    sim = table.simulation
    return {
        "game": table.game.id,
        "rounds": int(counts[0].sum()) if len(counts) else 0,
        "seed": sim.seed if seed is None else seed,
        "chunks": sim.chunks,
        "bets": rows,
    }
