"""Megajack's Eldorado wheel and Monopoly board, as slotopol/server plays them.

Both are read from the server's own tables (slotopol/server
game/slot/megajack/slotopol/), not from slotcert, so that a test can hold the
models ``tests/data/real/megajack_slotopol.toml`` and
``megajack_slotopol_deluxe.toml`` to them:

- ``eldorado.go``: ``Eldorado``, the wheel's 20 segments, each x the line bet;
  ``EldoradoSpawn(bet, spins)`` draws ``spins`` segments uniformly and
  independently (``rand.N(len(Eldorado))``) and pays their sum; the mean of one
  spin is 2120 / 20 = 106 ("Average gain = 106").
- ``monopoly.go``: ``Monopoly``, the board's 20 cells ``{Mult, Jump, Dice}``;
  ``MonopolySpawn(bet)`` throws a die 7 times from ``pos = 0``, moving
  ``pos = (pos + dice) % 20`` (the first die lands on cell index ``dice``, cell
  number ``dice + 1``). A cell with ``Jump > 0`` pays the ``Mult`` of cell
  ``Jump`` (1-based) and moves the token there; a cell with ``Dice`` pays its
  ``Mult`` x the die just thrown. The 7 throws' mults add up to ``cash``;
  ``cash == 0`` pays 5000 instead. Paid ``bet x cash`` (x the line bet).
  ``ExpMonopoly`` in ``slotopol_scan.go`` walks the same board 1-based from
  ``pos = 1`` (``pos = (pos + dice - 1) % 20 + 1``; a jump sets ``pos = Jump``),
  the same moves; monopoly.go's comment prints its result: "count = 279936,
  sum = 80231330, avr = 286.60597422268, zerocount = 1".
"""

from __future__ import annotations

from itertools import product

ELDORADO = (1000, 10, 25, 100, 10, 50, 300, 10, 50, 200, 10, 25, 100, 25, 10, 100, 10, 50, 10, 25)
"""eldorado.go ``Eldorado``: the 20 segments in order (segment 1 first), x the line bet."""

MONOPOLY = (
    (5, 0, False),  # 1
    (15, 0, False),  # 2
    (15, 0, False),  # 3
    (30, 0, False),  # 4
    (30, 0, False),  # 5
    (10, 0, True),  # 6
    (0, 0, False),  # 7
    (0, 1, False),  # 8
    (50, 0, False),  # 9
    (50, 0, False),  # 10
    (0, 0, False),  # 11
    (20, 0, True),  # 12
    (0, 4, False),  # 13
    (80, 0, False),  # 14
    (80, 0, False),  # 15
    (30, 0, True),  # 16
    (0, 7, False),  # 17
    (120, 0, False),  # 18
    (120, 0, False),  # 19
    (200, 0, False),  # 20
)
"""monopoly.go ``Monopoly``: cells 1 to 20 as ``(Mult, Jump, Dice)``."""

THROWS = 7
"""MonopolySpawn's ``var res [7]WinMonCell``: seven throws of one die."""

ZERO_CASH_PAYS = 5000
"""MonopolySpawn: ``if cash == 0 { cash = 5000 }``."""


def monopoly_cash(dice: tuple[int, ...]) -> int:
    """MonopolySpawn's ``cash`` (x the line bet) for one sequence of throws."""
    cash = 0
    pos = 0
    for die in dice:
        pos = (pos + die) % len(MONOPOLY)
        mult, jump, on_dice = MONOPOLY[pos]
        if jump > 0:
            mult = MONOPOLY[jump - 1][0]
        if on_dice:
            mult *= die
        cash += mult
        if jump > 0:
            pos = jump - 1
    return ZERO_CASH_PAYS if cash == 0 else cash


def monopoly_law() -> dict[int, int]:
    """The law of MonopolySpawn's cash: value -> number of the 6^7 equally likely
    throw sequences paying it (the counts add up to 279936), values ascending."""
    counts: dict[int, int] = {}
    for dice in product(range(1, 7), repeat=THROWS):
        cash = monopoly_cash(dice)
        counts[cash] = counts.get(cash, 0) + 1
    return dict(sorted(counts.items()))


def eldorado_mean() -> float:
    """ExpEldorado's ``Emje``: one wheel spin's mean, 106."""
    return sum(ELDORADO) / len(ELDORADO)


if __name__ == "__main__":
    law = monopoly_law()
    total = sum(law.values())
    cash_sum = sum(v * n for v, n in law.items())
    zero = sum(1 for d in product(range(1, 7), repeat=THROWS) if monopoly_cash(d) == ZERO_CASH_PAYS)
    print(f"count = {total}, sum = {cash_sum}, avr = {cash_sum / total!r}, zerocount = {zero}")
    print(f"{len(law)} values: {law}")
    print(f"eldorado: {len(ELDORADO)} segments, mean {eldorado_mean()}")
