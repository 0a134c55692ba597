"""Sticky wilds (SPEC 3.1a ``sticky``) on a tiny game counted by hand.

Reading (docs/MODELS.md): a sticky wild that lands *during* free spins stays on
its cell until the feature ends; wilds of the triggering base spin do not stay.
Exact (the chain over held cells) = the hand figure to 1e-12; simulation within
5 standard errors of it.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from test_window_features import SC, R, check, machine_from, pays

from certify.engine import compile_machine
from certify.errors import ModelError
from certify.exact import compute_exact, exact_refusal

FREE = (
    "[free_spins]\ntrigger = {symbol = 'S', count = 3}\nspins = {3 = 2}\n"
    "retrigger = false\nstrips = [['A', 'W', 'X'], ['A', 'W', 'X'], ['A', 'W', 'X']]\n"
)


def game(sticky: bool = True, free: str = FREE):
    wild = "{kind = 'wild', sticky = true}" if sticky else "{kind = 'wild'}"
    symbols = {"A": R, "X": R, "S": SC, "W": wild}
    return machine_from([["A", "S", "X"]] * 3, symbols, pays("A A A = 10"), free)


def test_sticky_wilds_hand_count():
    """3 reels x 1 row, 1 line; base strips A S X: A A A pays 10 (1/27), S S S (1/27)
    starts 2 free spins on strips A W X (no retrigger), W wild and sticky.
    Free spin 1: pays 10 when every cell is A or W: 8/27, E = 80/27. A W of spin 1 stays;
    spin 2 pays 10 when each cell not held is A or W. Each cell is held with 1/3, so
    E[spin 2] = 10 x (1/3 + (2/3)(2/3))^3 = 10 x 343/729. E[F] = 80/27 + 3430/729 = 5590/729.
    Return 10/27 + (1/27)(5590/729) = 12880/19683."""
    check(game(), Fraction(12880, 19683))


def test_without_sticky_the_spins_are_independent():
    """The same game without `sticky`: E[F] = 2 x 80/27; return 10/27 + 160/729 = 430/729."""
    check(game(sticky=False), Fraction(430, 729))


def test_sticky_with_retrigger_is_simulation_only():
    """Retriggers with held cells: the exact figure is refused, naming the feature."""
    tables = compile_machine(game(free=FREE.replace("retrigger = false", "retrigger = true")))
    assert "sticky" in (exact_refusal(tables) or "")
    assert compute_exact(tables) is None


def test_one_sticky_wild_per_game():
    symbols = {
        "A": R,
        "X": R,
        "S": SC,
        "W": "{kind = 'wild', sticky = true}",
        "V": "{kind = 'wild', sticky = true}",
    }
    with pytest.raises(ModelError, match="one sticky wild per game"):
        machine_from([["A", "S", "X", "V"]] * 3, symbols, pays("A A A = 10"), FREE)
