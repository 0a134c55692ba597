"""Read and check the rules of real games (SPEC 3.1a): ``[rules]`` and its pay-entry keys.

Each rule is optional and defaults to the SPEC 3.1 behaviour. A rule that
does not apply to the game (``direction`` in a ways game, a scatter rule
without scatter pays, ``free_spins_multiplier`` without free spins) is a
located error.
"""

from __future__ import annotations

from typing import Any

from certify.codes import Code
from certify.model.features import read_drawn_multipliers
from certify.model.reader import Reader, join
from certify.model.schema import (
    ANY,
    BOTH_WAYS_RULES,
    DIRECTIONS,
    LEADING_WILDS_RULES,
    LINE_PAYS_RULES,
    PURE_WILD_LINE_RULES,
    SCATTER_UNITS,
    WILD_MULTIPLIER_RULES,
    FreeSpins,
    PayEntry,
    Rules,
    ScatterPay,
)

RULE_KEYS = (
    "wild_multiplier",
    "pure_wild_line",
    "direction",
    "scatter_unit",
    "exclusive_scatters",
    "win_cap",
    "both_ways",
    "line_pays",
    "leading_wilds",
    "spin_multiplier",
)
LINES_ONLY = (
    "wild_multiplier",
    "pure_wild_line",
    "direction",
    "both_ways",
    "line_pays",
    "leading_wilds",
)


def read_rules(rd: Reader, raw: Any, evaluation: str) -> Rules:
    """The ``[rules]`` table (defaults when absent)."""
    if raw is None:
        return Rules()
    where = "rules"
    t = rd.table(raw, where, (), RULE_KEYS)
    for key in LINES_ONLY:
        default = getattr(Rules(), key)
        if key in t and evaluation != "lines" and t[key] != default:
            rd.error(
                join(where, key),
                f"{t[key]!r} applies to lines games; this is a {evaluation} game",
                Code.RULE_NOT_APPLICABLE,
            )
    names = rd.array(t, "exclusive_scatters", where, default=None) or []
    for i, name in enumerate(names):
        if not isinstance(name, str):
            rd.error(
                join(join(where, "exclusive_scatters"), i),
                f"must be a symbol, got {name!r}",
                Code.TYPE,
            )
    return Rules(
        wild_multiplier=_choice(rd, t, "wild_multiplier", WILD_MULTIPLIER_RULES),
        pure_wild_line=_choice(rd, t, "pure_wild_line", PURE_WILD_LINE_RULES),
        direction=_choice(rd, t, "direction", DIRECTIONS),
        scatter_unit=_choice(rd, t, "scatter_unit", SCATTER_UNITS),
        exclusive_scatters=tuple(n for n in names if isinstance(n, str)),
        win_cap=rd.integer(t, "win_cap", where, 1, default=None),
        both_ways=_both_ways(rd, t),
        line_pays=_choice(rd, t, "line_pays", LINE_PAYS_RULES),
        leading_wilds=_choice(rd, t, "leading_wilds", LEADING_WILDS_RULES),
        spin_multipliers=_spin_multipliers(rd, t),
    )


def _spin_multipliers(rd: Reader, t: dict[str, Any]) -> tuple[tuple[int, int], ...]:
    """``spin_multiplier = {1 = 24, 3 = 1}``: the multiplier each paid spin draws."""
    raw = t.get("spin_multiplier")
    if raw is None:
        return ()
    at = "rules.spin_multiplier"
    if not isinstance(raw, dict):
        rd.error(at, "must be a table of value = weight, such as {1 = 24, 3 = 1}", Code.TYPE)
        return ()
    return read_drawn_multipliers(rd, raw, at)


def _both_ways(rd: Reader, t: dict[str, Any]) -> str:
    """``both_ways``: how a line read both ways pays its two runs (needs direction both)."""
    rule = _choice(rd, t, "both_ways", BOTH_WAYS_RULES)
    if "both_ways" in t and t.get("direction") != "both":
        rd.error("rules.both_ways", 'needs rules.direction = "both"', Code.RULE_NOT_APPLICABLE)
    return rule


def _choice(rd: Reader, t: dict[str, Any], key: str, allowed: tuple[str, ...]) -> str:
    return rd.string(t, key, "rules", allowed, default=allowed[0]) or allowed[0]


def check_rules(
    rd: Reader,
    rules: Rules,
    pays: tuple[PayEntry, ...],
    scatter: tuple[ScatterPay, ...],
    free: FreeSpins | None,
) -> None:
    """Located errors for rules that do not apply to the game they are written in."""
    paying = [s.symbol for s in scatter]
    if rules.scatter_unit != "total_bet" and not scatter:
        rd.error("rules.scatter_unit", "the game has no scatter pays", Code.RULE_NOT_APPLICABLE)
    seen: set[str] = set()
    for i, name in enumerate(rules.exclusive_scatters):
        at = join("rules.exclusive_scatters", i)
        if name not in paying:
            rd.error(at, f'"{name}" has no scatter pays', Code.RULE_NOT_APPLICABLE)
        if name in seen:
            rd.error(at, f'"{name}" is listed twice', Code.DUPLICATE)
        seen.add(name)
    if rules.exclusive_scatters and len(seen) < 2:
        rd.error(
            "rules.exclusive_scatters",
            "needs at least two scatter symbols",
            Code.RULE_NOT_APPLICABLE,
        )
    _check_leading_wilds(rd, rules, pays)
    for entry in pays:
        where = join("pays", entry.index)
        if not entry.free_spins_multiplier and free is None:
            rd.error(
                join(where, "free_spins_multiplier"),
                "the game has no free spins",
                Code.RULE_NOT_APPLICABLE,
            )
        if entry.free_spins_pays is not None and free is None:
            rd.error(
                join(where, "free_spins_pays"),
                "the game has no free spins",
                Code.RULE_NOT_APPLICABLE,
            )
    for i, sp in enumerate(scatter):
        if sp.free_spins_pays is not None and free is None:
            rd.error(
                join(join("scatter_pays", i), "free_spins_pays"),
                "the game has no free spins",
                Code.RULE_NOT_APPLICABLE,
            )


def _check_leading_wilds(rd: Reader, rules: Rules, pays: tuple[PayEntry, ...]) -> None:
    """Refuse ``leading_wilds = "one_kind"`` where a line is not read from reel 1 only.

    Not with lines read both ways, nor with ``anywhere`` entries (which count the
    whole line).
    """
    if rules.leading_wilds != "one_kind":
        return
    at = "rules.leading_wilds"
    if rules.direction == "both":
        rd.error(at, 'is not played with rules.direction = "both"', Code.UNSUPPORTED)
    if any(e.anywhere for e in pays):
        rd.error(at, "is not played with anywhere entries", Code.UNSUPPORTED)


def check_anywhere(rd: Reader, t: dict[str, Any], where: str, evaluation: str) -> bool:
    """Read a pay entry's ``anywhere`` flag; it needs a lines game and one repeated symbol."""
    anywhere = rd.boolean(t, "anywhere", where, False)
    if not anywhere:
        return False
    combo = t.get("combo") if isinstance(t.get("combo"), list) else []
    if evaluation != "lines":
        rd.error(
            join(where, "anywhere"),
            f"applies to lines games; this is a {evaluation} game",
            Code.RULE_NOT_APPLICABLE,
        )
    elif not combo or len(set(map(str, combo))) != 1 or combo[0] == ANY:
        rd.error(
            join(where, "anywhere"),
            f"needs one symbol or group repeated (the count), got {combo!r}",
            Code.ANYWHERE_COMBO,
        )
    return True
