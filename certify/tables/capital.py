"""Banker capital limit of three-card poker and Pai Kao, by simulation.

Seed 001 art. 5.3 and seed 002 art. 5.c: "em caso algum poderá o ganho ou
perda do banqueiro exceder o montante do seu capital em cada jogada".  Each
round deals every seat; the banker's result of the round is kept within
[-capital, +capital] (mode ``gain_and_loss``, the seeds' rule) or only above
-capital (mode ``payout``: the banker's payout is limited by his capital plus
what he collects).  Who goes short is decided by the settlement order, from
the seat the four dice select, counter-clockwise; see ``_kernels.settle``.  The same
rounds are settled without the cap, so the change in the players' return is
measured on common random numbers.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import Decimal

import numpy as np

from certify.stats import z_value
from certify.tables import _kernels
from certify.tables._records import CapitalRule
from certify.tables.duel import duel_space
from certify.tables.montecarlo import chunk_streams, duel_hands, split_rounds
from certify.tables.schema import Table

#: ``payout``: only the banker's loss is capped (winners paid while capital
#: lasts); ``gain_and_loss``: the seeds' rule, his gain is capped too.
MODES = ("payout", "gain_and_loss")


@dataclass(frozen=True)
class CapitalRow:
    """Players' return per unit staked for one banker capital."""

    capital: Decimal
    mode: str
    rounds: int
    rtp_capped: float
    rtp_uncapped: float
    change: float
    change_ci: tuple[float, float]
    uncapped_ci: tuple[float, float]
    binds: float


def capital_study(
    table: Table,
    rounds: int | None = None,
    seed: int | None = None,
    chunks: int = 16,
    confidence: float = 0.99,
) -> list[CapitalRow]:
    """Simulate the table's ``[capital]`` study, one row per capital.

    Parameters
    ----------
    table : Table
        A three-card poker or Pai Kao table with a ``[capital]`` section.
    rounds, seed : int, optional
        Override the section's settings.
    chunks : int
        Independent random streams.
    confidence : float
        Level of the intervals.

    Returns
    -------
    list of CapitalRow

    """
    if table.capital is None:
        raise ValueError(f"{table.game.id}: no [capital] section")
    study = table.capital
    if len(study.stakes) != table.seats - 1:
        raise ValueError(
            f"{table.game.id}: {len(study.stakes)} stake{'s' if len(study.stakes) != 1 else ''} "
            f"for {table.seats - 1} player seat{'s' if table.seats != 2 else ''}"
        )
    space = duel_space(table)
    seeds = chunk_streams(study.seed if seed is None else seed, chunks)
    per = split_rounds(rounds or study.rounds, chunks)
    stakes = np.array([float(s) for s in study.stakes])
    z = z_value(confidence)
    hands = duel_hands(table, space)
    rows = []
    for cap in study.capitals:
        for mode in MODES:
            out = np.zeros((chunks, 5))
            rule = CapitalRule(stakes, float(cap), float(table.commission), mode == "gain_and_loss")
            _kernels.mc_capital(seeds, per, table.seats, hands, rule, out)
            rows.append(_row(cap, mode, out.sum(axis=0), int(per.sum()), float(stakes.sum()), z))
    return rows


def _row(cap: Decimal, mode: str, sums: np.ndarray, n: int, staked: float, z: float) -> CapitalRow:
    capped, free, diff_sq, binds, free_sq = (float(x) for x in sums)
    mean_d = (capped - free) / n
    se_d = math.sqrt(max(diff_sq / n - mean_d**2, 0.0) / n) / staked
    mean_f = free / n
    se_f = math.sqrt(max(free_sq / n - mean_f**2, 0.0) / n) / staked
    change = mean_d / staked
    rtp_free = mean_f / staked
    return CapitalRow(
        capital=cap,
        mode=mode,
        rounds=n,
        rtp_capped=capped / n / staked,
        rtp_uncapped=rtp_free,
        change=change,
        change_ci=(change - z * se_d, change + z * se_d),
        uncapped_ci=(rtp_free - z * se_f, rtp_free + z * se_f),
        binds=binds / n,
    )


def capital_report(table: Table, rounds: int | None = None, seed: int | None = None) -> dict:
    """The capital study as JSON-ready rows (see :func:`capital_study`)."""
    rows = capital_study(table, rounds, seed)
    return {
        "game": table.game.id,
        "stakes": [str(s) for s in table.capital.stakes] if table.capital else [],
        "rows": [
            {
                "capital": str(r.capital),
                "mode": r.mode,
                "rounds": r.rounds,
                "rtp_capped": r.rtp_capped,
                "rtp_uncapped": r.rtp_uncapped,
                "change": r.change,
                "change_ci": list(r.change_ci),
                "uncapped_ci": list(r.uncapped_ci),
                "cap_binds": r.binds,
            }
            for r in rows
        ],
    }
