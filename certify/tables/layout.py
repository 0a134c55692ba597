"""The single-zero roulette layout and the shapes its bets may take.

Numbers 1-36 sit in 12 rows of 3 (row ``r`` holds ``3r+1, 3r+2, 3r+3``) and
three columns; 0 sits above 1, 2 and 3.  The bet names are the seed's
(Portaria 1441/95, section X, n.º 18).
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache

RED = frozenset({1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36})
BLACK = frozenset(range(1, 37)) - RED
POCKETS = 37

#: Pays of Portaria 1441/95 X.20, "x times the stake", by bet type.
SEED_PAYS: dict[str, Fraction] = {
    "pleno": Fraction(35),
    "cavalo": Fraction(17),
    "rua": Fraction(11),
    "quadro": Fraction(8),
    "linha": Fraction(5),
    "duzia": Fraction(2),
    "coluna": Fraction(2),
    "cavalo_de_duzia": Fraction(1, 2),
    "cavalo_de_coluna": Fraction(1, 2),
    "par": Fraction(1),
    "impar": Fraction(1),
    "menor": Fraction(1),
    "maior": Fraction(1),
    "encarnado": Fraction(1),
    "preto": Fraction(1),
}
#: Max/min stake ratios of Portaria 1441/95 X.27 (quadro has none in the text).
SEED_RATIOS: dict[str, int] = {
    "pleno": 10,
    "cavalo": 20,
    "rua": 30,
    "linha": 60,
    "duzia": 120,
    "coluna": 120,
    "par": 180,
    "impar": 180,
    "menor": 180,
    "maior": 180,
    "encarnado": 180,
    "preto": 180,
    "cavalo_de_duzia": 240,
    "cavalo_de_coluna": 240,
}
BET_TYPES = tuple(SEED_PAYS)
SIMPLE_CHANCES = ("par", "impar", "menor", "maior", "encarnado", "preto")

DESCRIPTIONS: dict[str, str] = {
    "pleno": "one number 0-36",
    "cavalo": "two adjacent numbers, or 0 with 1, 2 or 3",
    "rua": "a row of three (3r+1, 3r+2, 3r+3), or 0-1-2 or 0-2-3",
    "quadro": "four numbers meeting at a corner, or 0-1-2-3",
    "linha": "two adjacent rows (six numbers)",
    "duzia": "1-12, 13-24 or 25-36",
    "coluna": "one of the three columns",
    "cavalo_de_duzia": "two adjacent dozens (1-24 or 13-36)",
    "cavalo_de_coluna": "two adjacent columns",
    "par": "the even numbers 2-36",
    "impar": "the odd numbers 1-35",
    "menor": "numbers 1-18",
    "maior": "numbers 19-36",
    "encarnado": "the red numbers",
    "preto": "the black numbers",
}


def _row(r: int) -> frozenset[int]:
    return frozenset({3 * r + 1, 3 * r + 2, 3 * r + 3})


def _column(c: int) -> frozenset[int]:
    return frozenset(n for n in range(1, 37) if (n - 1) % 3 == c)


def _dozen(d: int) -> frozenset[int]:
    return frozenset(range(12 * d + 1, 12 * d + 13))


def _cavalos() -> list[frozenset[int]]:
    out = [frozenset({0, n}) for n in (1, 2, 3)]
    for n in range(1, 37):
        if (n - 1) % 3 < 2:
            out.append(frozenset({n, n + 1}))
        if n <= 33:
            out.append(frozenset({n, n + 3}))
    return out


def _quadros() -> list[frozenset[int]]:
    out = [frozenset({0, 1, 2, 3})]
    out += [frozenset({n, n + 1, n + 3, n + 4}) for n in range(1, 33) if (n - 1) % 3 < 2]
    return out


@cache
def shapes(bet_type: str) -> frozenset[frozenset[int]]:
    """Every set of numbers a bet of ``bet_type`` may cover on the layout.

    Parameters
    ----------
    bet_type : str
        One of :data:`BET_TYPES`.

    Returns
    -------
    frozenset of frozenset of int
        The legal number sets (empty for an unknown type).

    """
    table: dict[str, list[frozenset[int]]] = {
        "pleno": [frozenset({n}) for n in range(POCKETS)],
        "cavalo": _cavalos(),
        "rua": [_row(r) for r in range(12)] + [frozenset({0, 1, 2}), frozenset({0, 2, 3})],
        "quadro": _quadros(),
        "linha": [_row(r) | _row(r + 1) for r in range(11)],
        "duzia": [_dozen(d) for d in range(3)],
        "coluna": [_column(c) for c in range(3)],
        "cavalo_de_duzia": [_dozen(d) | _dozen(d + 1) for d in range(2)],
        "cavalo_de_coluna": [_column(c) | _column(c + 1) for c in range(2)],
        "par": [frozenset(range(2, 37, 2))],
        "impar": [frozenset(range(1, 36, 2))],
        "menor": [frozenset(range(1, 19))],
        "maior": [frozenset(range(19, 37))],
        "encarnado": [RED],
        "preto": [BLACK],
    }
    return frozenset(table.get(bet_type, []))


def fixed_numbers(bet_type: str) -> frozenset[int] | None:
    """The numbers of a bet type that has only one shape (simple chances), else None."""
    options = shapes(bet_type)
    return next(iter(options)) if len(options) == 1 else None
