"""Window features (SPEC 3.1a symbols, 3.1b heights) on tiny games counted by hand.

Exact = the hand figure to 1e-12 (and the per-reel decomposition where it
applies); simulation within 5 standard errors.
"""

from __future__ import annotations

import sys
from fractions import Fraction
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "rules"))
from rule_games import pays  # noqa: E402

from certify.engine import compile_machine, simulate  # noqa: E402
from certify.exact import compute_exact  # noqa: E402
from certify.exact.decompose import mean_return  # noqa: E402
from certify.model.loader import parse_machine  # noqa: E402

R = "{kind = 'regular'}"
SC = "{kind = 'scatter'}"


def machine_from(strips, symbols, table, extra="", rows=1, bet="lines = 1", lines=None):
    import tomllib

    strip_text = ", ".join("[" + ", ".join(f'"{s}"' for s in strip) + "]" for strip in strips)
    symbol_text = "\n".join(f"{n} = {spec}" for n, spec in symbols.items())
    reels = "paylines = [[" + ", ".join("0" for _ in strips) + "]]" if lines is None else lines
    text = f"""
schema = "slotcert/machine@1"
[machine]
id = "FEATURE-TEST"
name = "feature test"
[bet]
denomination = "0.01"
currency = "EUR"
{bet}
bet_levels = [1]
[symbols]
{symbol_text}
[reels]
rows = {rows}
strips = [{strip_text}]
{reels}
{table}
{extra}
"""
    machine, _ = parse_machine(tomllib.loads(text), "<feature test>")
    return machine


def check(machine, expected: Fraction, spins: int = 300_000) -> None:
    tables = compile_machine(machine)
    ex = compute_exact(tables)
    assert ex is not None
    assert ex.levels[0].rtp == pytest.approx(float(expected), abs=1e-12)
    decomposed = mean_return(tables, tables.levels[0])
    if decomposed is not None:
        assert decomposed == pytest.approx(float(expected), abs=1e-12)
    sim = simulate(tables, 0, spins, 3)
    assert abs(sim.rtp - float(expected)) <= 5 * sim.std_error + 1e-12


def expanding(expands: str):
    symbols = {"A": R, "X": R, "W": "{kind = 'wild'" + expands + "}"}
    return machine_from([["W", "A", "X"]] * 3, symbols, pays("A A A = 1"), rows=2)


def test_expanding_wild_fills_its_reel():
    """3 reels x 2 rows, strips W A X, the line on the top row. Stop 0 shows (W, A), stop 1
    (A, X), stop 2 (X, W). An expanding W fills its column, so the top row shows W, A, W:
    every reel matches A A A: return 1. Without expansion stop 2 shows X: (2/3)^3 = 8/27."""
    check(expanding(", expands = true"), Fraction(1))
    check(expanding(""), Fraction(8, 27))


def test_wild_in_free_spins():
    """Strips A X S (1 row); A A A pays 1; S S S (1/27) starts 1 free spin in which X plays
    as a wild: there A A A pays when each reel shows A or X: 8/27. Return 1/27 + (1/27)(8/27)
    = 35/729."""
    symbols = {"A": R, "X": "{kind = 'regular', wild_in_free_spins = true}", "S": SC}
    extra = "[free_spins]\ntrigger = {symbol = 'S', count = 3}\nspins = 1\n"
    check(machine_from([["A", "X", "S"]] * 3, symbols, pays("A A A = 1"), extra), Fraction(35, 729))


def test_wild_that_is_a_scatter():
    """BK is a wild and a scatter (Book of Ra): strips A BK X; A A A pays 1 when every reel
    shows A or BK (8/27); 3 BK anywhere pay 2 x total bet (1/27). Return 8/27 + 2/27."""
    symbols = {"A": R, "X": R, "BK": "{kind = 'wild', scatter = true}"}
    extra = '[[scatter_pays]]\nsymbol = "BK"\ncount = 3\npays = 2\n'
    check(machine_from([["A", "BK", "X"]] * 3, symbols, pays("A A A = 1"), extra), Fraction(10, 27))


def test_variable_heights():
    """A 2-reel ways game, strips A X, each reel 1 or 2 rows (weights 1, 1). Ways of A per
    reel: height 1: 1 (stop 0) or 0; height 2: 1 either way: mean 3/4. A A pays 1 per way,
    cost 1: return (3/4)^2 = 9/16."""
    symbols = {"A": R, "X": R}
    heights = (
        "heights = [[{rows = 1, weight = 1}, {rows = 2, weight = 1}],"
        " [{rows = 1, weight = 1}, {rows = 2, weight = 1}]]"
    )
    machine = machine_from(
        [["A", "X"]] * 2,
        symbols,
        pays("A A = 1"),
        rows=2,
        bet="ways = 4\ncost = 1",
        lines='evaluation = "ways"\n' + heights,
    )
    check(machine, Fraction(9, 16))


def test_hold_and_spin_in_the_cycle():
    """2 reels x 1 row, strips COIN X; 1 coin starts hold and spin with 1 respin, p = 1/2,
    every coin pays 1 x total bet, a full window (2 cells) pays GRAND = 10 as well; X X pays 1.

    COIN COIN (1/4): full at once: 2 + 10 = 12. One coin (1/2): the empty cell locks with
    1/2 (then full: 12) else the feature ends with 1 coin (1): 13/2. X X (1/4): 1.
    Return 12/4 + (1/2)(13/2) + 1/4 = 13/2."""
    symbols = {"COIN": "{kind = 'bonus'}", "X": R}
    extra = (
        "[hold_and_spin]\ntrigger = {symbol = 'COIN', count = 1}\nrespins = 1\n"
        'cell_probability = "0.5"\nvalues = [{pays = 1, weight = 1}]\n'
        'full_window = "GRAND"\njackpots = {GRAND = 10}\n'
    )
    machine = machine_from([["COIN", "X"]] * 2, symbols, pays("X X = 1"), extra)
    check(machine, Fraction(13, 2))


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
    table = pays("A A A = 1", "X X X = 2")
    check(machine_from([["A", "BK", "X"]] * 3, symbols, table, extra), Fraction(287, 324))


@pytest.mark.parametrize(
    "name,phrase",
    [
        ("reelwild-5x3-20", "fills its whole reel"),
        ("book-5x3-10", "one symbol is drawn"),
        ("hold-5x3-20", "start the respins"),
        ("cascade-5x3-10", "Winning symbols vanish"),
        ("cluster-7x7", "Groups of equal symbols"),
        ("heights-4r", "between 2 and 4 symbols"),
    ],
)
def test_pay_glass_explains_each_feature(name, phrase):
    """Each shipped feature game's pay-glass states its feature in words (en and pt)."""
    from testpaths import MACHINES

    from certify.model import load_machine
    from reports.paytable import pay_glass

    glasses = {g.lang: g for g in pay_glass(load_machine(MACHINES / f"{name}.toml"))}
    assert {"pt", "en"} <= set(glasses)
    text = " ".join(p for s in glasses["en"].sections for p in s.paragraphs)
    assert phrase in text
    pt = next(s for s in glasses["pt"].sections if s.heading == "Funcionalidades")
    assert pt.paragraphs
