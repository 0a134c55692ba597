"""Small screen games for the tests, built as parsed TOML dictionaries."""

from __future__ import annotations

import dataclasses
from typing import Any

from certify.model.loader import parse_machine
from certify.model.schema import Machine
from certify.model.screens import Cascade, ClusterPay


def lines_data(
    strips: list[list[str]],
    rows: int,
    paylines: list[list[int]],
    pays: list[tuple[list[str], int]],
    symbols: dict[str, dict[str, Any]] | None = None,
    scatter_pays: list[tuple[str, int, int]] = (),  # type: ignore[assignment]
    weights: list[list[int]] | None = None,
    extra: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A lines machine as parsed TOML."""
    syms = symbols or {"A": {"kind": "regular"}, "K": {"kind": "regular"}}
    reels: dict[str, Any] = {"rows": rows, "strips": strips, "paylines": paylines}
    if weights is not None:
        reels["weights"] = weights
    data: dict[str, Any] = {
        "schema": "slotcert/machine@1",
        "machine": {"id": "SCREENS-TEST", "name": "Screens test"},
        "bet": {
            "denomination": "0.01",
            "currency": "EUR",
            "lines": len(paylines),
            "bet_levels": [1, 2],
        },
        "symbols": syms,
        "reels": reels,
        "pays": [{"combo": c, "pays": p} for c, p in pays],
    }
    if scatter_pays:
        data["scatter_pays"] = [{"symbol": s, "count": c, "pays": p} for s, c, p in scatter_pays]
    data.update(extra or {})
    return data


def ways_data(strips: list[list[str]], rows: int, pays, symbols=None, scatter_pays=()) -> dict:
    """A ways machine as parsed TOML (cost 3 per level)."""
    data = lines_data(strips, rows, [[0] * len(strips)], pays, symbols, scatter_pays)
    data["bet"] = {
        "denomination": "0.01",
        "currency": "EUR",
        "ways": rows ** len(strips),
        "cost": 3,
        "bet_levels": [1, 2],
    }
    del data["reels"]["paylines"]
    data["reels"]["evaluation"] = "ways"
    return data


def machine_of(data: dict[str, Any], cascade: Cascade | None = None, **changes: Any) -> Machine:
    """Parse ``data`` and attach a cascade (the loader does not read it yet)."""
    machine, _ = parse_machine(data, "test.toml")
    return dataclasses.replace(machine, cascade=cascade, **changes)


def cluster_machine(
    strips: list[list[str]],
    rows: int,
    cluster_pays: list[tuple[str, int, int]],
    symbols: dict[str, dict[str, Any]] | None = None,
    cascade: Cascade | None = None,
    scatter_pays: list[tuple[str, int, int]] = (),  # type: ignore[assignment]
    weights: list[list[int]] | None = None,
    extra: dict[str, Any] | None = None,
) -> Machine:
    """A cluster machine (parsed as a one-line lines game, then turned into a cluster game)."""
    syms = symbols or {"A": {"kind": "regular"}, "K": {"kind": "regular"}}
    first = next(n for n, s in syms.items() if s["kind"] == "regular")
    data = lines_data(
        strips,
        rows,
        [[0] * len(strips)],
        [([first] * len(strips), 1)],
        syms,
        scatter_pays,
        weights,
        extra,
    )
    machine, _ = parse_machine(data, "test.toml")
    return dataclasses.replace(
        machine,
        evaluation="cluster",
        pays=(),
        lines=None,
        paylines=(),
        cost=1,
        cascade=cascade,
        cluster_pays=tuple(ClusterPay(s, n, p) for s, n, p in cluster_pays),
    )
