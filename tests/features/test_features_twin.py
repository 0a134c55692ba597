"""The twin's window features on games counted by hand (SPEC 3.1a/3.1b).

Each figure is worked out in the docstring (the first five are the hand counts
of tests/features/test_window_features.py, there checked against the engine);
the twin must give it exactly, as a Fraction. Full-window pays and sticky wilds
are also checked against the exact calculator.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from feature_games import R, machine_of, pays_of
from hypothesis import given, settings
from hypothesis import strategies as st
from twins import features as twin
from twins import lines

from certify.exact import compute_exact

ONE_LINE = {"bet": "lines = 1", "reels": "paylines = [[0, 0, 0]]"}


def rtp(machine) -> Fraction:
    return twin.brute_force(machine, 0)["rtp"]


@pytest.mark.parametrize(
    ("expands", "expected"), [(", expands = true", Fraction(1)), ("", Fraction(8, 27))]
)
def test_expanding_wild_fills_its_reel(expands, expected):
    """3 reels x 2 rows, strips W A X, the line on the top row. Stop 0 shows (W, A), stop 1
    (A, X), stop 2 (X, W). An expanding W fills its column, so the top row shows W, A, W:
    every reel matches A A A: return 1. Without expansion stop 2 shows X: (2/3)^3 = 8/27."""
    symbols = {"A": R, "X": R, "W": "{kind = 'wild'" + expands + "}"}
    m = machine_of([["W", "A", "X"]] * 3, symbols, pays_of([("AAA", 1)]), **ONE_LINE)
    assert rtp(m) == expected


def test_wild_in_free_spins():
    """Strips A X S (1 row); A A A pays 1; S S S (1/27) starts 1 free spin in which X plays
    as a wild: there A A A pays when each reel shows A or X: 8/27. Return 1/27 + (1/27)(8/27)
    = 35/729."""
    symbols = {
        "A": R,
        "X": "{kind = 'regular', wild_in_free_spins = true}",
        "S": "{kind = 'scatter'}",
    }
    extra = "[free_spins]\ntrigger = {symbol = 'S', count = 3}\nspins = 1\n"
    m = machine_of([["A", "X", "S"]] * 3, symbols, pays_of([("AAA", 1)]), extra, 1, **ONE_LINE)
    assert rtp(m) == Fraction(35, 729)


def test_wild_that_is_a_scatter():
    """BK is a wild and a scatter (Book of Ra): strips A BK X; A A A pays 1 when every reel
    shows A or BK (8/27); 3 BK anywhere pay 2 x total bet (1/27). Return 8/27 + 2/27."""
    symbols = {"A": R, "X": R, "BK": "{kind = 'wild', scatter = true}"}
    extra = "[[scatter_pays]]\nsymbol = 'BK'\ncount = 3\npays = 2\n"
    m = machine_of([["A", "BK", "X"]] * 3, symbols, pays_of([("AAA", 1)]), extra, 1, **ONE_LINE)
    assert rtp(m) == Fraction(10, 27)


def test_variable_heights():
    """A 2-reel ways game, strips A X, each reel 1 or 2 rows (weights 1, 1). Ways of A per
    reel: height 1: 1 (stop 0) or 0; height 2: 1 either way: mean 3/4. A A pays 1 per way,
    cost 1: return (3/4)^2 = 9/16."""
    heights = "[{rows = 1, weight = 1}, {rows = 2, weight = 1}]"
    reels = f"evaluation = 'ways'\nheights = [{heights}, {heights}]"
    m = machine_of(
        [["A", "X"]] * 2, {"A": R, "X": R}, pays_of([("AA", 1)]), "", 2, "ways = 4\ncost = 1", reels
    )
    assert rtp(m) == Fraction(9, 16)


def test_book_of_ra_expanding_symbol():
    """Book of Ra: BK is a wild and the scatter (3 anywhere start 1 free spin); strips A BK X,
    A A A pays 1, X X X pays 2. Line wins per spin: 7 lines of A/BK pay 1, 8 of X/BK pay 2
    (BK BK BK pays its best, 2): 23/27. In the free spin one symbol is drawn, A (weight 1) or
    X (3); shown as landed on all 3 reels (1/27) it pays its entry once more on the line:
    extra = (1/4)(1/27) + (3/4)(2/27) = 7/108. Free spin 23/27 + 7/108 = 11/12; return
    23/27 + (1/27)(11/12) = 287/324."""
    symbols = {"A": R, "X": R, "BK": "{kind = 'wild', scatter = true}"}
    extra = (
        "[free_spins]\ntrigger = {symbol = 'BK', count = 3}\nspins = 1\n"
        "expanding_symbol = {A = 1, X = 3}\n"
    )
    table = pays_of([("AAA", 1), ("XXX", 2)])
    m = machine_of([["A", "BK", "X"]] * 3, symbols, table, extra, 1, **ONE_LINE)
    assert rtp(m) == Fraction(287, 324)


def test_book_symbol_pays_as_if_adjacent_on_every_line():
    """3 reels x 2 rows, 2 lines, strips [X, A] [A, X] [X, X]: reel 1 shows (X, A), reel 2
    (A, X) or (X, A) at its stops, reel 3 always (X, X); A A pays 3, X X X pays 1; no scatter
    lands, so the feature is played by hand: A drawn, the landed window (X A | A X | X X) shows
    A on reels 1 and 2 (not adjacent on one line: the top line reads X A X). A's shortest pay
    is 2 reels: it fills reels 1-2 and pays A A (3) on both lines: 6, besides the normal wins.
    Here: the twin's book_extra on that window, and 0 on a window showing A on one reel."""
    symbols = {"A": R, "X": R, "BK": "{kind = 'wild', scatter = true}"}
    extra = "[free_spins]\ntrigger = {symbol = 'BK', count = 3}\nspins = 1\n"
    extra += "expanding_symbol = {A = 1}\n"
    m = machine_of(
        [["X", "A"], ["A", "X"], ["X", "X"]], symbols, pays_of([("AA", 3), ("XXX", 1)]), extra
    )
    assert twin.book_extra(m, [["X", "A"], ["A", "X"], ["X", "X"]], 0, "A") == 6
    assert twin.book_extra(m, [["X", "A"], ["X", "X"], ["X", "X"]], 0, "A") == 0
    assert twin.book_extra(m, [["BK", "X"], ["A", "X"], ["X", "X"]], 0, "A") == 0


def full_window_game():
    """2 reels x 1 row, strips A B W, A A pays 2, B B pays 1, a full window of A pays x5."""
    symbols = {"A": R, "B": R, "W": "{kind = 'wild'}"}
    extra = "[[full_window_pays]]\nsymbol = 'A'\nmultiplier = 5\n"
    return machine_of(
        [["A", "B", "W"]] * 2,
        symbols,
        pays_of([("AA", 2), ("BB", 1)]),
        extra,
        1,
        "lines = 1",
        "paylines = [[0, 0]]",
    )


def test_full_window_pays_by_hand():
    """The 9 windows of full_window_game: A A, A W, W A, W W pay A A (2; W W substitutes
    too) and fill the window with A, wilds counting as it: x5 = 10 each; B B, B W, W B pay
    B B (1) and are not all A; A B, B A pay nothing. Return (4 x 10 + 3 x 1) / 9 = 43/9
    (without the full-window pay: (4 x 2 + 3) / 9 = 11/9)."""
    assert rtp(full_window_game()) == Fraction(43, 9)


def test_full_window_pays_exact():
    """The exact calculator on full_window_game: 43/9 (hand count above)."""
    exact = compute_exact(full_window_game())
    assert exact is not None
    assert exact.levels[0].rtp == pytest.approx(43 / 9, abs=1e-12)


def sticky_game(sticky: bool):
    """2 reels x 1 row, strips A W S, A A pays 1, S S starts 2 free spins (x1, no retrigger)."""
    symbols = {"A": R, "S": "{kind = 'scatter'}"}
    symbols["W"] = "{kind = 'wild'" + (", sticky = true" if sticky else "") + "}"
    extra = "[free_spins]\ntrigger = {symbol = 'S', count = 2}\nspins = 2\n"
    return machine_of(
        [["A", "W", "S"]] * 2,
        symbols,
        pays_of([("AA", 1)]),
        extra,
        1,
        "lines = 1",
        "paylines = [[0, 0]]",
    )


def test_sticky_wilds_by_hand():
    """sticky_game: a spin pays 1 when both cells show A or W: (2/3)^2 = 4/9; S S (1/9) starts
    2 free spins. Reading of SPEC 3.1a "in free spins it stays where it landed until the feature
    ends": a W that lands in a free spin holds its cell for the later free spins; W landing on the
    triggering base spin does not stay. First free spin: 4/9. After it each reel holds W with
    1/3, so in the second a reel matches with 1/3 + (2/3)(2/3) = 7/9: (7/9)^2 = 49/81. Feature
    4/9 + 49/81 = 85/81; return 4/9 + (1/9)(85/81) = 409/729. Not sticky: 4/9 + (1/9)(8/9)
    = 396/729."""
    assert rtp(sticky_game(True)) == Fraction(409, 729)
    assert rtp(sticky_game(False)) == Fraction(396, 729)


def test_sticky_wilds_exact():
    """The exact calculator on sticky_game: 409/729 (hand count above)."""
    exact = compute_exact(sticky_game(True))
    assert exact is not None
    assert exact.levels[0].rtp == pytest.approx(409 / 729, abs=1e-12)


@settings(max_examples=30, deadline=None)
@given(
    strips=st.lists(
        st.lists(st.sampled_from("ABWS"), min_size=1, max_size=3), min_size=3, max_size=3
    ),
    spins=st.integers(1, 2),
    retrigger=st.booleans(),
)
def test_without_features_the_twin_is_the_lines_twin(strips, spins, retrigger):
    """On games using none of the window features, the feature twin = tests/twins/lines.py
    (an independent recursion for the free spins) in exact fractions."""
    symbols = {"A": R, "B": R, "W": "{kind = 'wild', multiplier = 2}", "S": "{kind = 'scatter'}"}
    extra = (
        f"[free_spins]\ntrigger = {{symbol = 'S', count = 2}}\nspins = {spins}\nmultiplier = 2\n"
        f"retrigger = {str(retrigger).lower()}\nmax_spins = 5\n"
        "[[scatter_pays]]\nsymbol = 'S'\ncount = 2\npays = 1\n"
    )
    m = machine_of(strips, symbols, pays_of([("AA", 1), ("AAA", 4), ("BBB", 2)]), extra)
    mine, ref = twin.brute_force(m, 1), lines.brute_force(m, 1)
    for key in ("rtp", "hit_frequency", "variance"):
        assert mine[key] == ref[key]


def test_sticky_recursion_agrees_with_playing_the_feature():
    """The twin's exact sticky recursion against the feature played spin by spin with
    Python's RNG (20,000 features of 3 free spins on 3 reels x 1 row, a x2 sticky wild):
    the mean within 5 standard errors, and the second moment within 5 of its own."""
    import random

    symbols = {"A": R, "B": R, "S": "{kind = 'scatter'}"}
    symbols["W"] = "{kind = 'wild', multiplier = 2, sticky = true}"
    extra = "[free_spins]\ntrigger = {symbol = 'S', count = 2}\nspins = 3\nmultiplier = 2\n"
    strips = [["A", "W", "B", "S"], ["A", "B", "W"], ["W", "A", "B", "B"]]
    table = pays_of([("AA", 1), ("AAA", 5), ("BBB", 3)])
    m = machine_of(strips, symbols, table, extra, 1, "lines = 1", "paylines = [[0, 0, 0]]")
    f1, f2 = twin.feature_moments(m, 0)(3)
    rng = random.Random(5)
    xs = []
    for _ in range(20_000):
        held: dict[int, str] = {}
        total = 0
        for _ in range(3):
            landed = [[held.get(r, rng.choice(s))] for r, s in enumerate(strips)]
            value, fixed = twin.spin(m, landed, 0, True)
            total += 2 * (value - fixed) + fixed
            held.update({r: col[0] for r, col in enumerate(landed) if col[0] == "W"})
        xs.append(total)
    n = len(xs)
    mean = sum(xs) / n
    m2 = sum(x * x for x in xs) / n
    sd1 = (m2 - mean**2) ** 0.5 / n**0.5
    sd2 = ((sum(x**4 for x in xs) / n - m2**2) / n) ** 0.5
    assert abs(mean - float(f1)) < 5 * sd1
    assert abs(m2 - float(f2)) < 5 * sd2


@pytest.mark.parametrize(
    ("window", "expected"),
    [
        ([["A"], ["B"], ["W"]], 3),  # the group AB (members mix, a wild counts): x3
        ([["A"], ["A"], ["W"]], 4),  # A (x2), AB (x3) and ANY (x4) apply: the largest
        ([["C"], ["W"], ["C"]], 4),  # ANY: C with a wild substituting for it
        ([["W"], ["W"], ["W"]], 4),  # ANY: every cell a wild (and A, AB: wilds count)
        ([["C"], ["B"], ["C"]], 1),  # two symbols: nothing applies
        ([["S"], ["S"], ["W"]], 4),  # ANY: "the same symbol or a wild", any wild
        ([["S"], ["A"], ["W"]], 1),  # two symbols again
    ],
)
def test_full_window_readings(window, expected):
    """SPEC 3.1a "for a group, every cell shows a member (members may mix) or a wild that
    substitutes for it; for ANY, every cell shows the same symbol or a wild", with entries
    A x2, group AB x3, ANY x4 ("where several entries apply, the largest")."""
    symbols = {"A": R, "B": R, "C": R, "W": "{kind = 'wild'}", "S": "{kind = 'scatter'}"}
    extra = "[groups]\nAB = ['A', 'B']\n" + "".join(
        f"[[full_window_pays]]\nsymbol = '{s}'\nmultiplier = {k}\n"
        for s, k in (("A", 2), ("AB", 3), ("ANY", 4))
    )
    m = machine_of([["A", "B", "C", "W", "S"]] * 3, symbols, pays_of([("AAA", 1)]), extra)
    assert twin.full_window_multiplier(m, window) == expected
