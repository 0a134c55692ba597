"""Fault injection for the floor simulator, one machine per fault kind.

Each injector changes the simulated meters, rows, floor or counts, and
returns the findings the reconciler must report for it: ``kind`` (the fault),
``machine_id``, ``code``, ``meter`` and the span ``period_start`` ..
``period_end`` (int64 ns UTC) the finding must overlap.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

DAY_NS = 86_400 * 10**9

FAULT_KINDS = (
    "reset",
    "rollover",
    "duplicate_row",
    "out_of_order",
    "malformed_row",
    "unknown_machine",
    "missing_meter",
    "stuck_meter",
    "identity_games",
    "identity_coins",
    "identity_prizes",
    "drop_variance",
    "hold_deviation",
    "progressive_contribution",
    "time_gap",
)


@dataclass
class Plan:
    """Which machine and which reading each requested fault goes to."""

    kinds: tuple[str, ...]
    machine: dict[str, int] = field(default_factory=dict)
    reading: dict[str, int] = field(default_factory=dict)
    expected: list[dict] = field(default_factory=list)

    def expect(self, kind: str, mid: str, code: str, meter: str, start: int, end: int) -> None:
        """Record a finding the reconciler must report."""
        self.expected.append(
            {
                "kind": kind,
                "machine_id": mid,
                "code": code,
                "meter": meter,
                "period_start": int(start),
                "period_end": int(end),
            }
        )


def check_kinds(kinds) -> tuple[str, ...]:
    """Validate fault kind names (``"all"`` means every kind)."""
    if kinds in ("all", ("all",), ["all"]):
        return FAULT_KINDS
    kinds = tuple(kinds)
    unknown = [k for k in kinds if k not in FAULT_KINDS]
    if unknown:
        raise ValueError(f"unknown fault kinds {unknown!r}; choose from {FAULT_KINDS!r}")
    return kinds


def assign(
    plan: Plan, mach: pd.DataFrame, drop_per_day: np.ndarray, n_int: int, rng: np.random.Generator
) -> None:
    """Give each fault kind its own machine (eligible for it) and reading index.

    ``drop_per_day`` is each machine's expected drop in money; faults that
    must show in the soft count go to machines dropping more than 300 a day.
    """
    if plan.kinds and n_int < 10:
        raise ValueError("fault injection needs at least 10 reading intervals")
    free = list(rng.permutation(len(mach)))
    pooled = mach["rate"].to_numpy() > 0
    busy = drop_per_day > 300
    need = {"progressive_contribution": pooled, "stuck_meter": busy, "drop_variance": busy}
    for kind in plan.kinds:
        ok = need.get(kind, np.ones(len(mach), dtype=bool))
        pick = next((i for i in free if ok[i]), None)
        if pick is None:
            raise ValueError(f"no machine is eligible for fault {kind!r}; simulate more machines")
        free.remove(pick)
        plan.machine[kind] = int(pick)
        plan.reading[kind] = int(rng.integers(4, n_int - 4))


def shift_to_wrap(cum: np.ndarray, i: int, k: int, modulus: int) -> None:
    """Move machine ``i``'s meter so it wraps between readings k-1 and k."""
    before, after = cum[i, k - 1], cum[i, k]
    cum[i] += modulus - before - max((after - before) // 2, 1)


def apply_meter_faults(
    plan: Plan, cum: dict[str, np.ndarray], times: np.ndarray, ids: np.ndarray, per_day: int
) -> None:
    """Inject resets, stuck meters, broken identities and progressive offsets."""
    offsets = {
        "identity_games": ("games_won", 5),
        "identity_coins": ("coins_to_hopper", 7),
        "identity_prizes": ("jackpot_handpaid", 13),
        "progressive_contribution": ("progressive_contrib", 50),
    }
    for kind, (meter, amount) in offsets.items():
        if kind in plan.machine:
            i, k = plan.machine[kind], plan.reading[kind]
            cum[meter][i, k:] += amount
            plan.expect(kind, ids[i], kind, meter, times[i, k - 1], times[i, k])
    if "reset" in plan.machine:
        i, k = plan.machine["reset"], plan.reading["reset"]
        for c in cum.values():
            clear = c[i, k - 1] + (c[i, k] - c[i, k - 1]) // 3
            c[i, k:] -= clear
        plan.expect("reset", ids[i], "reset", "games_played", times[i, k - 1], times[i, k])
    if "stuck_meter" in plan.machine:
        i, k = plan.machine["stuck_meter"], plan.reading["stuck_meter"]
        first, last = period_intervals(times[i], k)
        c = cum["coin_drop"]
        c[i, last:] -= c[i, last] - c[i, first - 1]
        plan.expect(
            "stuck_meter", ids[i], "stuck_meter", "coin_drop", times[i, first - 1], times[i, last]
        )
        plan.expect(
            "stuck_meter", ids[i], "drop_variance", "coin_drop", times[i, first - 1], times[i, last]
        )
        c[i, first:last] = c[i, first - 1]


def period_intervals(times: np.ndarray, k: int) -> tuple[int, int]:
    """First and last interval (by closing reading) in the UTC day of reading ``k``."""
    day = times // DAY_NS
    same = np.flatnonzero(day[1:] == day[k]) + 1
    return int(same[0]), int(same[-1])


def apply_row_faults(
    plan: Plan, rows: pd.DataFrame, times: np.ndarray, ids: np.ndarray
) -> pd.DataFrame:
    """Duplicated, swapped, corrupted, deleted rows and a blanked meter."""
    n = times.shape[1]
    pos = {kind: plan.machine[kind] * n + plan.reading[kind] for kind in plan.machine}
    if "malformed_row" in pos:
        i, k = plan.machine["malformed_row"], plan.reading["malformed_row"]
        rows.loc[pos["malformed_row"], "coin_in"] = -rows.loc[pos["malformed_row"], "coin_in"]
        plan.expect("malformed_row", ids[i], "malformed_row", "", times[i, k], times[i, k])
    if "out_of_order" in pos:
        i, k = plan.machine["out_of_order"], plan.reading["out_of_order"]
        a, b = pos["out_of_order"], pos["out_of_order"] + 3
        ta, tb = rows.loc[a, "read_at"], rows.loc[b, "read_at"]
        rows.loc[a, "read_at"], rows.loc[b, "read_at"] = tb, ta
        for t in (times[i, k], times[i, k + 3]):
            plan.expect("out_of_order", ids[i], "out_of_order", "", t, t)
    if "missing_meter" in plan.machine:
        i = plan.machine["missing_meter"]
        rows.loc[i * n : (i + 1) * n - 1, "coin_drop"] = pd.NA
        plan.expect(
            "missing_meter", ids[i], "missing_meter", "coin_drop", times[i, 0], times[i, -1]
        )
    if "duplicate_row" in pos:
        i, k = plan.machine["duplicate_row"], plan.reading["duplicate_row"]
        plan.expect("duplicate_row", ids[i], "duplicate_row", "", times[i, k], times[i, k])
        p = pos["duplicate_row"]
        rows = pd.concat([rows.loc[:p], rows.loc[[p]], rows.loc[p + 1 :]], ignore_index=True)
    if "time_gap" in plan.machine:
        i, k = plan.machine["time_gap"], plan.reading["time_gap"]
        drop = rows.index[
            (rows["machine_id"] == ids[i])
            & (rows["read_at"] == pd.Timestamp(times[i, k], tz="UTC"))
        ]
        rows = rows.drop(index=drop).reset_index(drop=True)
        plan.expect("time_gap", ids[i], "time_gap", "", times[i, k - 1], times[i, k + 1])
    return rows


def apply_floor_faults(
    plan: Plan, floor: pd.DataFrame, counts: pd.DataFrame, times: np.ndarray, ids: np.ndarray
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Inject an unknown machine (dropped from the floor) and a miscounted drop."""
    if "unknown_machine" in plan.machine:
        i = plan.machine["unknown_machine"]
        floor = floor[floor["machine_id"] != ids[i]].reset_index(drop=True)
        plan.expect("unknown_machine", ids[i], "unknown_machine", "", times[i, 0], times[i, -1])
    if "drop_variance" in plan.machine:
        i, k = plan.machine["drop_variance"], plan.reading["drop_variance"]
        t = times[i, k]
        start = counts["period_start"].astype("int64").to_numpy()
        end = counts["period_end"].astype("int64").to_numpy()
        hit = np.flatnonzero(
            (counts["machine_id"] == ids[i]).to_numpy() & (start < t) & (end >= t)
        )[0]
        counts = counts.copy()
        counts.loc[hit, "amount"] = round(counts.loc[hit, "amount"] * 1.3 + 150, 2)
        plan.expect("drop_variance", ids[i], "drop_variance", "coin_drop", start[hit], end[hit])
    return floor, counts


def natural_rollovers(
    plan: Plan, cum: dict[str, np.ndarray], times: np.ndarray, ids: np.ndarray, modulus: int
) -> None:
    """Expect a ``rollover`` wherever a meter passes a multiple of the modulus."""
    for meter, c in cum.items():
        wraps = np.argwhere(np.diff(c // modulus, axis=1) > 0)
        for i, j in wraps:
            kind = "rollover" if plan.machine.get("rollover") == i else "natural"
            plan.expect(kind, ids[i], "rollover", meter, times[i, j], times[i, j + 1])
