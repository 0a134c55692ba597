"""Figures of a pool run next to their closed forms."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from certify.jackpot_return import expected_amount, expected_amount_mixed
from certify.pools import _kernels as K
from certify.pools.simulate import PoolRun, PoolSpec

QUANTILES = (0.5, 0.9, 0.99)


def closed_form(spec: PoolSpec) -> dict[str, Any]:
    """Expected amount at hit, group spins and days between hits, diverted money.

    Days between hits are exponential with rate ``sum(rate x p)``; group spins
    between hits (the winning spin included) have mean ``sum(rate) /
    sum(rate x p)`` (geometric for one machine). The amount is exact for one
    stake and the exponential approximation for a mixed group when capped.
    """
    rate, stake, p_hit = spec.arrays()
    hits = float((rate * p_hit).sum())
    if hits <= 0:
        return {
            "hits_per_day": 0.0,
            "amount": None,
            "spins": None,
            "days": None,
            "diverted_per_hit": None,
            "method": "never hit",
        }
    one_stake = np.unique(stake).size == 1 and np.unique(p_hit).size == 1
    if one_stake:
        amount, diverted = expected_amount(
            spec.reset, spec.contribution, spec.cap, spec.overflow, float(stake[0]), float(p_hit[0])
        )
    else:
        amount, diverted = expected_amount_mixed(
            spec.reset, spec.contribution, spec.cap, spec.overflow, hits / spec.coin_in_per_day
        )
    return {
        "hits_per_day": hits,
        "amount": amount,
        "spins": float(rate.sum()) / hits,
        "days": 1.0 / hits,
        "diverted_per_hit": diverted,
        "method": "exact"
        if one_stake or spec.cap is None
        else "exponential approximation (mixed group)",
    }


def summarize(run: PoolRun, quantiles: tuple[float, ...] = QUANTILES) -> dict[str, Any]:
    """Simulated distributions, liability percentiles and the closed forms they check."""
    q = list(quantiles)
    liability = run.liability
    totals = run.totals.sum(axis=0)
    return {
        "pool": run.spec.id,
        "paths": run.paths,
        "days": run.days,
        "seed": run.seed,
        "hits": run.hits_in_horizon,
        "cycles": int(run.amounts.size),
        "amount_at_hit": _dist(run.amounts, q),
        "spins_between_hits": _dist(run.spins.astype(float), q),
        "days_between_hits": _dist(run.days_between, q),
        "liability_at_horizon": _quantiles(liability[:, -1], q),
        "liability_max_over_horizon": _quantiles(liability.max(axis=1), q),
        "reserve_at_horizon": _quantiles(run.daily[:, -1, K.D_RESERVE], q),
        "carry_at_horizon": _quantiles(run.daily[:, -1, K.D_CARRY], q),
        "totals": {
            "contributions": totals[K.T_CONTRIB],
            "paid": totals[K.T_PAID],
            "operator_funding": totals[K.T_SEED],
            "diverted": totals[K.T_DIVERTED],
            "reserve_inflow": totals[K.T_RESERVE_IN],
        },
        "wins": _wins(run),
        "balance_error": run.balance_error(),
        "closed_form": closed_form(run.spec),
    }


def _dist(x: np.ndarray, q: list[float]) -> dict[str, Any]:
    if x.size == 0:
        return {"n": 0, "mean": None, "std_error": None, "quantiles": {}}
    se = float(x.std(ddof=1) / math.sqrt(x.size)) if x.size > 1 else None
    return {
        "n": int(x.size),
        "mean": float(x.mean()),
        "std_error": se,
        "quantiles": _quantiles(x, q),
    }


def _quantiles(x: np.ndarray, q: list[float]) -> dict[str, float]:
    return {f"p{round(100 * v, 3):g}": float(np.quantile(x, v)) for v in q} if x.size else {}


def _wins(run: PoolRun) -> dict[str, dict[str, int]]:
    """Hits in the horizon by machine and by casino."""
    counts = np.bincount(run.winners[run.in_horizon], minlength=len(run.spec.players))
    machines: dict[str, int] = {}
    casinos: dict[str, int] = {}
    for player, n in zip(run.spec.players, counts, strict=True):
        machines[player.machine_id] = int(n)
        casinos[player.casino or "-"] = casinos.get(player.casino or "-", 0) + int(n)
    return {"by_machine": machines, "by_casino": casinos}
