"""Full-window pays (SPEC 3.1a ``[[full_window_pays]]``) on tiny games counted by hand.

Exact = the hand figure to 1e-12; simulation within 5 standard errors.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from test_window_features import SC, R, check, machine_from, pays

from certify.engine import compile_machine
from certify.engine.fullwindow import full_window_targets
from certify.exact import compute_exact
from certify.exact.fullwindow import full_window_stops

W = "{kind = 'wild'}"
TABLE = pays("A A A = 10", "B B B = 5", "W W W = 20")


def game(entries: str, symbols=None, extra=""):
    """3 reels x 2 rows, every strip A B W, the line on the top row.

    Stop 0 shows (A, B), stop 1 (B, W), stop 2 (W, A): the column passes A
    (A or a wild) only at stop 2, B only at stop 1, "every cell a wild" never.
    """
    symbols = symbols or {"A": R, "B": R, "W": W}
    return machine_from([["A", "B", "W"]] * 3, symbols, TABLE, entries + extra, rows=2)


def test_any_doubles_the_full_windows():
    """Top row symbols per reel: A (stop 0), B (stop 1), W (stop 2), 27 combinations.
    Without the feature: 7 windows of A/W with an A pay 10, W W W pays 20, 7 windows of
    B/W with a B pay 5: 70 + 20 + 35 = 125. Full windows: stops (2,2,2) show W W W on top
    and A A A below (full of A): 20 -> 40; stops (1,1,1) show B B B over W W W (full of
    B): 5 -> 10. Return (125 + 20 + 5) / 27 = 150/27."""
    check(game("[[full_window_pays]]\nsymbol = 'ANY'\nmultiplier = 2\n"), Fraction(150, 27))


def test_the_largest_entry_applies():
    """As above with also B x3: the window full of B pays 5 x 3 = 15 (not x2):
    (125 + 20 + 10) / 27 = 155/27."""
    entries = (
        "[[full_window_pays]]\nsymbol = 'ANY'\nmultiplier = 2\n"
        "[[full_window_pays]]\nsymbol = 'B'\nmultiplier = 3\n"
    )
    check(game(entries), Fraction(155, 27))


def test_a_group_lets_members_mix():
    """Group AB = {A, B}, x4: a column passes when each cell is A, B or W: every stop.
    So every window is full: return 125 x 4 / 27 = 500/27."""
    entries = "[[full_window_pays]]\nsymbol = 'AB'\nmultiplier = 4\n"
    check(game(entries, extra="\n[groups]\nAB = ['A', 'B']\n"), Fraction(500, 27))


def test_scatter_pays_are_not_multiplied():
    """Strips A S (1 row, 2 reels, line 1): A A pays 2 (1/4), 2 S pay 3 x total bet (1/4).
    ANY x5: A A is a full window of A (2 -> 10), S S a full window of S, but the scatter
    pay is not a line win: (10 + 3) / 4 = 13/4."""
    m = machine_from(
        [["A", "S"]] * 2,
        {"A": R, "S": SC},
        pays("A A = 2") + "\n[[scatter_pays]]\nsymbol = 'S'\ncount = 2\npays = 3\n",
        "[[full_window_pays]]\nsymbol = 'ANY'\nmultiplier = 5\n",
    )
    check(m, Fraction(13, 4))


def test_the_full_windows_enumerated_are_a_product_set():
    """ANY on the A B W game: targets A, B (regular) and all-wild; full windows are
    (2,2,2) full of A and (1,1,1) full of B: nothing else."""
    tables = compile_machine(game("[[full_window_pays]]\nsymbol = 'ANY'\nmultiplier = 2\n"))
    labels = [t[0] for t in full_window_targets(tables.machine)]
    assert labels == ["ANY:A", "ANY:B", "ANY:wild"]
    stops, alive = full_window_stops(tables, 0)
    assert sorted(map(tuple, stops.tolist())) == [(1, 1, 1), (2, 2, 2)]
    assert set(alive.tolist()) == {1, 2}


def test_mask_dtype():
    tables = compile_machine(game("[[full_window_pays]]\nsymbol = 'B'\nmultiplier = 3\n"))
    assert tables.full_window_mask.dtype == np.uint64
    assert tables.full_window_mult.tolist() == [3]


def test_state_merging_adds_the_full_windows_too(monkeypatch):
    """The same hand count (150/27) when the cycle is summed by state merging."""
    from certify.exact import statedp

    monkeypatch.setattr(statedp, "DP_FROM", 0)
    tables = compile_machine(game("[[full_window_pays]]\nsymbol = 'ANY'\nmultiplier = 2\n"))
    assert statedp.uses_states(tables, 0)
    ex = compute_exact(tables)
    assert ex.levels[0].rtp == pytest.approx(150 / 27, abs=1e-12)
