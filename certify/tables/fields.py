"""Readers of the values every table game's sections share: ratios, lists, ``[capital]``.

Used by the loader (:mod:`certify.tables.loader`) and by the game parsers
(:mod:`certify.tables.roulette`, :mod:`certify.tables.fantan`,
:mod:`certify.tables.duel`), which the loader imports: the parsers never
import the loader back.
"""

from __future__ import annotations

import re
from decimal import Decimal
from fractions import Fraction
from typing import Any

from certify.codes import Code
from certify.model.reader import Reader, join
from certify.tables.schema import Capital

_RATIO = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(?:/\s*(\d+))?\s*$")


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
        rd.error(key, "must be a non-empty array of tables", Code.TYPE)
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
            Code.NOT_DECIMAL,
        )
        return None
    number = Fraction(Decimal(match.group(1)))
    if match.group(2) is not None:
        if int(match.group(2)) == 0:
            rd.error(where, f"divides by zero: {value!r}", Code.RANGE)
            return None
        number /= int(match.group(2))
    return number


def commission(rd: Reader, rules: dict[str, Any]) -> Fraction:
    """The house's share of every prize, ``rules.commission``, in [0, 1)."""
    rate = ratio(rd, rules.get("commission"), "rules.commission")
    if rate is not None and rate >= 1:
        rd.error("rules.commission", f"must be below 1, got {rules['commission']!r}", Code.RANGE)
    return rate if rate is not None and rate < 1 else Fraction(0)


def int_list(rd: Reader, raw: Any, where: str, low: int, high: int) -> list[int]:
    """Read an array of integers in ``[low, high]``; bad entries are reported and dropped."""
    if not isinstance(raw, list):
        rd.error(where, f"must be an array of integers, got {raw!r}", Code.TYPE)
        return []
    out = []
    for i, value in enumerate(raw):
        number = rd.check_int(value, join(where, i))
        if number is None:
            continue
        if not low <= number <= high:
            rd.error(join(where, i), f"{number} is not a number {low}–{high}", Code.RANGE)
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
            Code.STAKES,
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
            rd.error(join(join(path, key), i), f"must be positive, got {value!r}", Code.RANGE)
        elif number is not None:
            out.append(number)
    return out
