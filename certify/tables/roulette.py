"""Roulette tables (Portaria 1441/95, sections IX and X): wheel, bets, limits.

Checks, each reported with file, key path and value:

- the wheel sequence is a permutation of 0-36 (duplicated and missing numbers
  named); the red numbers are the standard red set, 0 has no colour; colours
  that do not alternate around the wheel (X.7) are a warning;
- every bet's numbers form the named shape on the layout (``layout.shapes``);
  a pay that differs from X.20 is a warning;
- the limits table keeps the max/min ratios of X.27.
"""

from __future__ import annotations

from collections import Counter
from decimal import Decimal
from fractions import Fraction
from typing import Any

from certify.codes import Code
from certify.model.reader import Reader, join
from certify.tables import layout
from certify.tables.fields import array_of_tables, int_list, ratio, section
from certify.tables.schema import Bet, Game, Limit, Table

_TIMES = {2: "twice", 3: "three times"}


def parse_roulette(rd: Reader, data: dict[str, Any], game: Game) -> Table:
    """Read the ``[wheel]``, ``[[bets]]`` and ``[limits]`` of a roulette file."""
    wheel = section(rd, data, "wheel", ("sequence", "red"))
    sequence = _sequence(rd, wheel["sequence"]) if "sequence" in wheel else []
    red = _red(rd, wheel["red"]) if "red" in wheel else set()
    if sequence and not rd.errors:
        _alternation(rd, sequence)
    bets = [
        b
        for i, spec in enumerate(array_of_tables(rd, data, "bets"))
        if (b := _bet(rd, spec, join("bets", i)))
    ]
    limits = _limits(rd, section(rd, data, "limits", (), layout.BET_TYPES))
    return Table(
        game=game,
        bets=tuple(bets),
        outcomes=tuple(sequence),
        red=tuple(sorted(red)),
        limits=tuple(limits),
    )


def permutation_problem(numbers: list[int], size: int = layout.POCKETS) -> str | None:
    """Describe how ``numbers`` fails to be a permutation of ``0..size-1`` (None if it is).

    >>> permutation_problem([0, 1, 1])
    '1 appears twice; missing 2'
    """
    counts = Counter(numbers)
    repeated = [
        f"{n} appears {_TIMES.get(k, f'{k} times')}" for n, k in sorted(counts.items()) if k > 1
    ]
    missing = [str(n) for n in range(size) if n not in counts]
    parts = []
    if repeated:
        parts.append(", ".join(repeated))
    if missing:
        parts.append("missing " + ", ".join(missing))
    if not parts and len(numbers) != size:
        noun = "number" if len(numbers) == 1 else "numbers"
        parts.append(f"has {len(numbers)} {noun}, must have {size}")
    return "; ".join(parts) or None


def _sequence(rd: Reader, raw: Any) -> list[int]:
    numbers = int_list(rd, raw, "wheel.sequence", 0, layout.POCKETS - 1)
    if len(numbers) == len(raw if isinstance(raw, list) else []):
        problem = permutation_problem(numbers)
        if problem:
            rd.error("wheel.sequence", problem, Code.NOT_PERMUTATION)
    return numbers


def _red(rd: Reader, raw: Any) -> set[int]:
    red = set(int_list(rd, raw, "wheel.red", 0, layout.POCKETS - 1))
    if 0 in red:
        rd.error("wheel.red", "0 has no colour (Portaria 1441/95 X.8)", Code.COLOUR)
    black = sorted(red & layout.BLACK)
    absent = sorted(layout.RED - red)
    parts = []
    if black:
        parts.append(
            ", ".join(map(str, black))
            + (" is" if len(black) == 1 else " are")
            + " black on the standard layout"
        )
    if absent:
        parts.append("missing red " + ", ".join(map(str, absent)))
    if parts:
        rd.error("wheel.red", "; ".join(parts), Code.COLOUR)
    return red - {0}


def _alternation(rd: Reader, sequence: list[int]) -> None:
    """Warn where neighbouring pockets share a colour (X.7: red and black alternate)."""
    for i, number in enumerate(sequence):
        after = sequence[(i + 1) % len(sequence)]
        if number and after and (number in layout.RED) == (after in layout.RED):
            colour = "red" if number in layout.RED else "black"
            rd.warn(
                "wheel.sequence",
                f"colours do not alternate: {number} and {after} are "
                f"neighbours and both {colour} (Portaria 1441/95 X.7)",
                Code.COLOUR_ALTERNATION,
            )


def _bet(rd: Reader, spec: Any, where: str) -> Bet | None:
    t = rd.table(spec, where, ("name", "type", "pays"), ("numbers",))
    name = rd.string(t, "name", where)
    kind = rd.string(t, "type", where, layout.BET_TYPES)
    pays = ratio(rd, t.get("pays"), join(where, "pays")) if "pays" in t else None
    if kind is None or name is None or pays is None:
        return None
    if pays != layout.SEED_PAYS[kind]:
        rd.warn(
            join(where, "pays"),
            f"{t['pays']!r} differs from Portaria 1441/95 X.20 "
            f"({layout.SEED_PAYS[kind]} for {kind})",
            Code.PAYS_DIFFER,
        )
    numbers = _numbers(rd, t, where, kind)
    return None if numbers is None else Bet(name=name, type=kind, pays=pays, win=numbers)


def _numbers(rd: Reader, t: dict[str, Any], where: str, kind: str) -> tuple[int, ...] | None:
    fixed = layout.fixed_numbers(kind)
    if "numbers" not in t:
        if fixed is None:
            rd.error(join(where, "numbers"), f"is required for a {kind}", Code.MISSING_KEY)
            return None
        return tuple(sorted(fixed))
    at = join(where, "numbers")
    raw = t["numbers"]
    numbers = int_list(rd, raw, at, 0, layout.POCKETS - 1)
    if len(numbers) != len(raw if isinstance(raw, list) else [None]):
        return None
    if len(set(numbers)) != len(numbers) or frozenset(numbers) not in layout.shapes(kind):
        rd.error(
            at,
            f"{numbers} is not a {kind} on the layout (a {kind} is {layout.DESCRIPTIONS[kind]})",
            Code.BAD_SHAPE,
        )
        return None
    return tuple(sorted(numbers))


def _limits(rd: Reader, t: dict[str, Any]) -> list[Limit]:
    limits = []
    for kind, spec in t.items():
        if kind not in layout.BET_TYPES:
            continue
        where = join("limits", kind)
        pair = rd.table(spec, where, ("min", "max"))
        low, high = rd.money(pair, "min", where), rd.money(pair, "max", where)
        if low is None or high is None:
            continue
        if low <= 0:
            rd.error(join(where, "min"), f'must be positive, got "{low}"', Code.RANGE)
            continue
        limits.append(Limit(kind, low, high))
        _check_ratio(rd, where, kind, low, high)
    return limits


def _check_ratio(rd: Reader, where: str, kind: str, low: Decimal, high: Decimal) -> None:
    wanted = layout.SEED_RATIOS.get(kind)
    if wanted is None:
        rd.warn(
            where,
            f"Portaria 1441/95 X.27 sets no max/min ratio for {kind}; "
            f"max/min = {high / low} not checked",
            Code.NO_RATIO,
        )
    elif high != wanted * low:
        rd.error(
            where,
            f'max "{high}" / min "{low}" = {Fraction(high) / Fraction(low)}; '
            f"Portaria 1441/95 X.27 requires {wanted}",
            Code.LIMIT_RATIO,
        )
