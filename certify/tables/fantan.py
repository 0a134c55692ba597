"""Fantan (Portaria 211/80/M): the remainder of the covered buttons divided by 4.

A remainder of 0 counts as 4 (art. 3), so the results are 1, 2, 3, 4, taken as
equally likely.  Bets (art. 6-7): Fan (one number, pays 3), Nim (one number
wins, one ties, pays 2), Nga (two win, one ties, pays 1/2), Sé-Sam-Hong (three
numbers, pays 1/3), Kuoc (two numbers, pays 1).  A tie returns the stake
(art. 8); 5% of every prize goes to the bank (art. 9).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from certify.codes import Code
from certify.model.reader import Reader, join
from certify.tables.fields import array_of_tables, commission, int_list, ratio, section
from certify.tables.schema import Bet, Game, Table

#: (numbers that win, numbers that tie) per bet type, art. 6.
SHAPES: dict[str, tuple[int, int]] = {
    "fan": (1, 0),
    "nim": (1, 1),
    "nga": (2, 1),
    "se_sam_hong": (3, 0),
    "kuoc": (2, 0),
}
#: Prizes of art. 7, "x times the stake".
SEED_PAYS: dict[str, Fraction] = {
    "fan": Fraction(3),
    "nim": Fraction(2),
    "nga": Fraction(1, 2),
    "se_sam_hong": Fraction(1, 3),
    "kuoc": Fraction(1),
}
RESULTS = (1, 2, 3, 4)


def parse_fantan(rd: Reader, data: dict[str, Any], game: Game) -> Table:
    """Read the ``[rules]`` and ``[[bets]]`` of a Fantan file."""
    rules = section(rd, data, "rules", ("commission",), ("results",))
    results = tuple(int_list(rd, rules.get("results", list(RESULTS)), "rules.results", 1, 4))
    if sorted(results) != list(RESULTS):
        rd.error(
            "rules.results",
            f"must be the remainders 1, 2, 3, 4 (0 counts as 4), got {list(results)}",
            Code.FANTAN_RESULTS,
        )
    raw = array_of_tables(rd, data, "bets")
    bets = [b for i, spec in enumerate(raw) if (b := _bet(rd, spec, join("bets", i)))]
    return Table(game=game, bets=tuple(bets), commission=commission(rd, rules), outcomes=RESULTS)


def _bet(rd: Reader, spec: Any, where: str) -> Bet | None:
    t = rd.table(spec, where, ("name", "type", "win", "pays"), ("tie",))
    name = rd.string(t, "name", where)
    kind = rd.string(t, "type", where, tuple(SHAPES))
    pays = ratio(rd, t.get("pays"), join(where, "pays")) if "pays" in t else None
    before = len(rd.errors)
    win = int_list(rd, t.get("win", []), join(where, "win"), 1, 4)
    tie = int_list(rd, t.get("tie", []), join(where, "tie"), 1, 4)
    if name is None or kind is None or pays is None or len(rd.errors) > before:
        return None
    if pays != SEED_PAYS[kind]:
        rd.warn(
            join(where, "pays"),
            f"{t['pays']!r} differs from Portaria 211/80/M art. 7 ({SEED_PAYS[kind]} for {kind})",
            Code.PAYS_DIFFER,
        )
    n_win, n_tie = SHAPES[kind]
    ok = (
        len(set(win)) == len(win) == n_win
        and len(set(tie)) == len(tie) == n_tie
        and not set(win) & set(tie)
    )
    if not ok:
        rd.error(
            where,
            f"win {win} / tie {tie} is not a {kind} (a {kind} has {n_win} "
            f"different winning and {n_tie} tying numbers, none shared)",
            Code.BAD_SHAPE,
        )
        return None
    return Bet(name=name, type=kind, pays=pays, win=tuple(win), tie=tuple(tie))
