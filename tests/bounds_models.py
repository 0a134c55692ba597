"""Small machine models at the engine's bounds, as TOML dictionaries (and text)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from certify.model.loader import parse_machine
from certify.model.schema import Machine


def three_reels(
    strips: list[list[str]],
    weights: list[list[int]] | None = None,
    pays: list[tuple[list[str], int]] = ((["A", "A", "A"], 4),),  # type: ignore[assignment]
    rows: int = 1,
    paylines: list[list[int]] | None = None,
    levels: list[int] = [1],  # noqa: B006
    symbols: dict[str, dict] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """A lines game (3 reels unless ``strips`` says otherwise) as a parsed-TOML dictionary."""
    paylines = paylines or [[0] * len(strips)]
    data: dict[str, Any] = {
        "schema": "slotcert/machine@1",
        "machine": {"id": "BOUNDS", "name": "Bounds"},
        "bet": {
            "denomination": "0.01",
            "currency": "EUR",
            "lines": len(paylines),
            "bet_levels": list(levels),
        },
        "symbols": symbols or {"A": {"kind": "regular"}, "B": {"kind": "regular"}},
        "reels": {"rows": rows, "strips": strips, "paylines": paylines},
        "pays": [{"combo": c, "pays": p} for c, p in pays],
    }
    if weights is not None:
        data["reels"]["weights"] = weights
    data.update(extra)
    return data


def sixteen_counted() -> dict[str, Any]:
    """Sixteen scatters (4-bit packed count fields, counts up to 15) on 3 reels of 6
    rows where S0 fills a reel's window: 18 S0 can show, more than a field holds."""
    names = [f"S{i}" for i in range(16)]
    return three_reels(
        [["A", *["S0"] * 6, *names]] * 3,
        rows=6,
        symbols={"A": {"kind": "regular"}, **{n: {"kind": "scatter"} for n in names}},
        scatter_pays=[{"symbol": n, "count": 3, "pays": 1} for n in names],
    )


def as_ways(data: dict[str, Any], cost: int = 10) -> dict[str, Any]:
    """A model dictionary from :func:`three_reels` turned into a ways game (all ways, one level)."""
    reels = data["reels"]
    reels["evaluation"] = "ways"
    del reels["paylines"]
    ways = reels["rows"] ** len(reels["strips"])
    data["bet"] = {
        "denomination": "0.01",
        "currency": "EUR",
        "ways": ways,
        "cost": cost,
        "bet_levels": [1],
    }
    return data


def machine(data: dict[str, Any], file: str = "m.toml") -> Machine:
    """Parse (and validate) a model dictionary."""
    return parse_machine(data, file)[0]


def _value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int | str):
        return json.dumps(v)
    if isinstance(v, list):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{_key(k)} = {_value(x)}" for k, x in v.items()) + "}"
    raise TypeError(v)


def _key(k: str) -> str:
    return k if k.replace("_", "").isalnum() and k.isascii() else json.dumps(k)


def toml_text(data: dict[str, Any]) -> str:
    """The dictionary as TOML: top-level scalars, then one table per key, arrays of tables."""
    lines = [f"{k} = {_value(v)}" for k, v in data.items() if not isinstance(v, dict | list)]
    for k, v in data.items():
        if isinstance(v, dict):
            lines.append(f"[{k}]")
            lines += [f"{_key(a)} = {_value(b)}" for a, b in v.items()]
        elif isinstance(v, list):
            for item in v:
                lines.append(f"[[{k}]]")
                lines += [f"{_key(a)} = {_value(b)}" for a, b in item.items()]
    return "\n".join(lines) + "\n"


def write(tmp: Path, data: dict[str, Any], name: str = "m.toml") -> Path:
    """Write the model to ``tmp / name``; return the path."""
    path = tmp / name
    path.write_text(toml_text(data))
    return path
