"""Load ``slotcert/table@1`` files: the parts every table game shares.

The game-specific sections are read by :mod:`certify.tables.roulette`,
:mod:`certify.tables.fantan` and :mod:`certify.tables.duel`; every problem of
a file is collected by one :class:`~certify.model.reader.Reader` and raised
once as a :class:`~certify.errors.ModelError`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

from certify.model.loader import read_toml
from certify.model.reader import Reader, join
from certify.tables.schema import KINDS, TABLE_SCHEMA, Capital, Game, Simulation, Table

_RATIO = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(?:/\s*(\d+))?\s*$")
_SECTIONS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "roulette": (("wheel", "bets"), ("limits", "simulation")),
    "fantan": (("rules", "bets"), ("simulation",)),
    "three_card_poker": (("deck", "rules", "bets"), ("simulation", "capital")),
    "pai_kao": (("tiles", "rules", "bets"), ("simulation", "capital")),
}


def load_table(path: str | Path) -> Table:
    """Load, validate and return the table game in ``path``.

    Parameters
    ----------
    path : str or Path
        A ``slotcert/table@1`` TOML file.

    Returns
    -------
    Table
        The frozen game; warning-level findings are in ``Table.warnings``.

    Raises
    ------
    ModelError
        With every error (and warning) found in the file.

    """
    file = str(path)
    data = read_toml(path)
    rd = Reader(file)
    game = _game(rd, data.get("game"))
    required, optional = _SECTIONS.get(
        game.kind, ((), tuple(k for v in _SECTIONS.values() for k in v[0] + v[1]))
    )
    rd.table(data, "", ("schema", "game", *required), optional)
    if "schema" in data and data["schema"] != TABLE_SCHEMA:
        rd.error("schema", f"must be {TABLE_SCHEMA!r}, got {data['schema']!r}", "schema")
    simulation = _simulation(rd, data.get("simulation", {}))
    parse = _parser(game.kind)
    table = parse(rd, data, game) if parse else None
    _unique_names(rd, data.get("bets"))
    rd.raise_if_errors()
    assert table is not None
    return replace(table, simulation=simulation, warnings=tuple(rd.problems))


def _unique_names(rd: Reader, raw: Any) -> None:
    """A bet's name identifies it in reports: two bets may not share one."""
    seen: dict[str, int] = {}
    for i, spec in enumerate(raw if isinstance(raw, list) else []):
        name = spec.get("name") if isinstance(spec, dict) else None
        if isinstance(name, str) and name in seen:
            rd.error(
                join(join("bets", i), "name"),
                f"{name!r} is already the name of bets[{seen[name]}]",
                "duplicate_name",
            )
        elif isinstance(name, str):
            seen[name] = i


def _parser(kind: str) -> Callable[[Reader, dict[str, Any], Game], Table] | None:
    if kind == "roulette":
        from certify.tables.roulette import parse_roulette

        return parse_roulette
    if kind == "fantan":
        from certify.tables.fantan import parse_fantan

        return parse_fantan
    if kind in ("three_card_poker", "pai_kao"):
        from certify.tables.duel import parse_duel

        return parse_duel
    return None


def _game(rd: Reader, raw: Any) -> Game:
    if raw is None:  # reported once, as a missing top-level key
        return Game("", "", "", "")
    t = rd.table(raw, "game", ("id", "name", "kind", "source"))
    return Game(
        id=rd.string(t, "id", "game") or "",
        name=rd.string(t, "name", "game") or "",
        kind=rd.string(t, "kind", "game", KINDS) or "",
        source=rd.string(t, "source", "game") or "",
    )


def _simulation(rd: Reader, raw: Any) -> Simulation:
    t = rd.table(raw, "simulation", (), ("rounds", "seed", "chunks"))
    default = Simulation()
    return Simulation(
        rounds=rd.integer(t, "rounds", "simulation", 1, default.rounds) or 1,
        seed=rd.integer(t, "seed", "simulation", 0, default.seed) or 0,
        chunks=rd.integer(t, "chunks", "simulation", 1, default.chunks) or 1,
    )


def section(
    rd: Reader,
    data: dict[str, Any],
    key: str,
    required: tuple[str, ...],
    optional: tuple[str, ...] = (),
) -> dict[str, Any]:
    """Check the top-level table ``key``; an absent one (already reported) reads as empty."""
    raw = data.get(key)
    return {} if raw is None else rd.table(raw, key, required, optional)


def array_of_tables(rd: Reader, data: dict[str, Any], key: str) -> list[Any]:
    """The top-level array ``key`` (e.g. ``[[bets]]``); absent (already reported) is empty."""
    raw = data.get(key)
    if raw is None:
        return []
    if not isinstance(raw, list) or not raw:
        rd.error(key, "must be a non-empty array of tables", "type")
        return []
    return raw


def ratio(rd: Reader, value: Any, where: str) -> Fraction | None:
    """Parse a pay or rate: a decimal string (``"0.5"``) or a fraction (``"1/3"``).

    ``None`` (a missing key, already reported by ``Reader.table``) gives None.
    """
    if value is None:
        return None
    match = _RATIO.match(value) if isinstance(value, str) else None
    if match is None:
        rd.error(
            where,
            f'must be a decimal or fraction string such as "0.5" or "1/3", got {value!r}',
            "not_decimal",
        )
        return None
    number = Fraction(Decimal(match.group(1)))
    if match.group(2) is not None:
        if int(match.group(2)) == 0:
            rd.error(where, f"divides by zero: {value!r}", "range")
            return None
        number /= int(match.group(2))
    return number


def commission(rd: Reader, rules: dict[str, Any]) -> Fraction:
    """The house's share of every prize, ``rules.commission``, in [0, 1)."""
    rate = ratio(rd, rules.get("commission"), "rules.commission")
    if rate is not None and rate >= 1:
        rd.error("rules.commission", f"must be below 1, got {rules['commission']!r}", "range")
    return rate if rate is not None and rate < 1 else Fraction(0)


def int_list(rd: Reader, raw: Any, where: str, low: int, high: int) -> list[int]:
    """Read an array of integers in ``[low, high]``; bad entries are reported and dropped."""
    if not isinstance(raw, list):
        rd.error(where, f"must be an array of integers, got {raw!r}", "type")
        return []
    out = []
    for i, value in enumerate(raw):
        number = rd.check_int(value, join(where, i))
        if number is None:
            continue
        if not low <= number <= high:
            rd.error(join(where, i), f"{number} is not a number {low}–{high}", "range")
            continue
        out.append(number)
    return out


def capital(rd: Reader, raw: Any, seats: int = 0) -> Capital | None:
    """Read the optional ``[capital]`` study of a banked game (one stake per player seat)."""
    if raw is None:
        return None
    path = "capital"
    t = rd.table(raw, path, ("stakes", "capitals"), ("rounds", "seed"))
    stakes = _money_list(rd, t, "stakes", path)
    capitals = _money_list(rd, t, "capitals", path)
    if seats and isinstance(t.get("stakes"), list) and len(t["stakes"]) != seats - 1:
        rd.error(
            join(path, "stakes"),
            f"has {_n(len(t['stakes']), 'stake')}; the table has {_n(seats - 1, 'player seat')}",
            "stakes",
        )
    return Capital(
        stakes=tuple(stakes),
        capitals=tuple(capitals),
        rounds=rd.integer(t, "rounds", path, 1, 200_000) or 1,
        seed=rd.integer(t, "seed", path, 0, 1) or 0,
    )


def _n(count: int, noun: str) -> str:
    """``1 stake``, ``2 stakes``."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def _money_list(rd: Reader, t: dict[str, Any], key: str, path: str) -> list[Decimal]:
    values = rd.array(t, key, path) or []
    out = []
    for i, value in enumerate(values):
        number = rd.decimal(value, join(join(path, key), i))
        if number is not None and number <= 0:
            rd.error(join(join(path, key), i), f"must be positive, got {value!r}", "range")
        elif number is not None:
            out.append(number)
    return out
