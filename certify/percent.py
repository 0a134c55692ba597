"""Returns as people read them: percentages (JSON keeps fractions).

Every message, console line and text output that shows a return, a hit
frequency or an interval formats it here, so ``0.957285`` reads ``95.73%``
everywhere and a comparison never prints two equal-looking figures
(``80.00% < 80.00%``): :func:`compared` adds digits until they differ.
"""

from __future__ import annotations

MOST_DIGITS = 8  # past this a double's difference is noise, not a figure


def pct(value: float, digits: int = 2) -> str:
    """``value`` (a fraction) as a percentage: ``pct(0.957285) == "95.73%"``.

    Parameters
    ----------
    value : float
        A fraction (1.0 is 100%).
    digits : int, optional
        Decimal places of the percentage (default 2).

    Returns
    -------
    str
        The percentage with its sign, e.g. ``"294.81%"`` for 2.948052.

    """
    return f"{value * 100:.{digits}f}%"


def points(value: float, digits: int = 2) -> str:
    """A difference of two returns in percentage points: ``points(0.0003) == "0.03 points"``."""
    return f"{value * 100:.{digits}f} points"


def compared(*values: float, digits: int = 2) -> tuple[str, ...]:
    """The figures as percentages with the fewest digits (at least ``digits``) that tell them apart.

    ``compared(0.79996, 0.8) == ("79.996%", "80.000%")``: a reader of
    ``79.996% < 80.000%`` sees why, where ``80.00% < 80.00%`` would puzzle.
    Every figure gets the same number of digits; equal figures keep ``digits``.
    """
    distinct = sorted(set(values))
    for d in range(digits, MOST_DIGITS + 1):
        if len({pct(v, d) for v in distinct}) == len(distinct):
            return tuple(pct(v, d) for v in values)
    return tuple(pct(v, MOST_DIGITS) for v in values)
