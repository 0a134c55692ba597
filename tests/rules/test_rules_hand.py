"""Every rule of real games (SPEC 3.1a) on a tiny game counted by hand.

Each test states its hand count; the exact calculator must equal it to 1e-12
and the simulation must fall within 5 standard errors of it. Symbols:
``R`` regular, ``W`` wild; every strip stop has weight 1, one row, one line,
bet level 1, so a return is credits per spin divided by the total bet.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from rule_games import game, pays

from certify.engine import compile_machine, simulate
from certify.exact import compute_exact
from certify.exact.decompose import mean_return

R = "{kind = 'regular'}"
SC = "{kind = 'scatter'}"


def check(machine, expected: Fraction, spins: int = 300_000) -> None:
    """Exact = the hand figure to 1e-12; decomposition too; simulation within 5 sigma."""
    tables = compile_machine(machine)
    ex = compute_exact(tables)
    assert ex is not None
    assert ex.levels[0].rtp == pytest.approx(float(expected), abs=1e-12)
    decomposed = mean_return(tables, tables.levels[0])
    if decomposed is not None:
        assert decomposed == pytest.approx(float(expected), abs=1e-12)
    sim = simulate(tables, 0, spins, 5)
    assert abs(sim.rtp - float(expected)) <= 5 * sim.std_error + 1e-12


def wild_game(rule: str):
    strips = [["A", "W2", "W3"]] * 3
    symbols = {
        "A": R,
        "W2": "{kind = 'wild', multiplier = 2}",
        "W3": "{kind = 'wild', multiplier = 3}",
    }
    return game(strips, symbols, pays("A A A = 1"), f'[rules]\nwild_multiplier = "{rule}"')


def test_wild_multiplier_product():
    """Each reel shows A (x1), W2 (x2) or W3 (x3), each 1/3; every line pays A A A = 1.

    product: E = (E m)^3 = ((1 + 2 + 3) / 3)^3 = 8."""
    check(wild_game("product"), Fraction(8))


def test_wild_multiplier_max():
    """max: P(max <= 1) = 1/27, P(max <= 2) = 8/27: E = (1 + 2*7 + 3*19) / 27 = 72/27."""
    check(wild_game("max"), Fraction(72, 27))


def test_wild_multiplier_sum():
    """sum of the multipliers above 1 (1 when no wild): E = 3 * (2 + 3)/3 + 1/27 = 136/27."""
    check(wild_game("sum"), Fraction(136, 27))


def wild_award_game(rule: str):
    strips = [["A", "W", "X"]] * 3
    symbols = {"A": R, "X": R, "W": "{kind = 'wild'}"}
    return game(
        strips, symbols, pays("A A A = 50", "W W W = 20"), f'[rules]\npure_wild_line = "{rule}"'
    )


def test_pure_wild_line_highest():
    """A A A (50) matches when every reel shows A or W: 8 of 27 lines, W W W included: 400/27."""
    check(wild_award_game("highest"), Fraction(400, 27))


def test_pure_wild_line_wild_award():
    """wild_award: W W W pays its own 20, not A A A's 50: (7 * 50 + 20) / 27 = 370/27."""
    check(wild_award_game("wild_award"), Fraction(370, 27))


def test_anywhere_cherries():
    """Double Diamond cherries: each reel shows CH with 1/4; k cherries ~ Binomial(3, 1/4).

    any 1 pays 2, any 2 pay 5, CH CH CH (a run) pays 10 (the highest entry):
    E = 2 * 27/64 + 5 * 9/64 + 10 * 1/64 = 109/64."""
    strips = [["CH", "X", "Y", "Z"]] * 3
    symbols = {"CH": R, "X": R, "Y": R, "Z": R}
    machine = game(strips, symbols, pays("CH = 2 anywhere", "CH CH = 5 anywhere", "CH CH CH = 10"))
    check(machine, Fraction(109, 64))


def test_anywhere_double_diamond_wild_award():
    """DD (wild x2) substitutes for B1 and CH, each reel DD/B1/CH/BL with 1/4 (64 lines).

    Entries: DD DD DD 100, B1 B1 B1 10, CH CH CH 10, any 2 CH 5, any 1 CH 2;
    pure_wild_line = "wild_award" (a line of wilds only pays DD DD DD; an
    anywhere count needs one real cherry). Counted by line type:
    DD DD DD: 100 (1 line). Runs of B1/DD with at least one B1: k DD give
    10 * 2^k: k=0: 1 line (10), k=1: 3 (20 each), k=2: 3 (40): 190; the
    same for CH/DD runs: 190. Lines with >= 1 CH not all CH/DD: the
    cherries plus the DD (doubling each) count: one CH, no DD, others from
    {B1, BL} (2 CH... enumerated): 1 CH + 2 of {B1,BL}: 3*4 = 12 lines x 2
    = 24; 1 CH + 1 DD + 1 of {B1,BL}: 6*2 = 12 lines, count 2 x2 = 10 each
    = 120; 2 CH + 1 of {B1,BL}: 3*2 = 6 lines x 5 = 30. Total 100 + 190 +
    190 + 24 + 120 + 30 = 654: E = 654/64."""
    strips = [["DD", "B1", "CH", "BL"]] * 3
    symbols = {"DD": "{kind = 'wild', multiplier = 2}", "B1": R, "CH": R, "BL": "{kind = 'blank'}"}
    table = pays(
        "DD DD DD = 100",
        "B1 B1 B1 = 10",
        "CH CH CH = 10",
        "CH CH = 5 anywhere",
        "CH = 2 anywhere",
    )
    machine = game(strips, symbols, table, '[rules]\npure_wild_line = "wild_award"')
    check(machine, Fraction(654, 64))


def both_ways_game(direction: str):
    strips = [["A", "B"]] * 5
    symbols = {"A": R, "B": R}
    return game(
        strips, symbols, pays("A A = 1", "A A A A A = 10"), f'[rules]\ndirection = "{direction}"'
    )


def test_direction_left():
    """Left only: A A from reel 1 on 8 of 32 lines, one of them A A A A A (10): (7 + 10)/32."""
    check(both_ways_game("left"), Fraction(17, 32))


def test_direction_both():
    """Both ways: 7 lines pay A A from the left, 7 from the right (A A B A A pays both),
    A A A A A pays 10 once: (7 + 7 + 10) / 32 = 24/32."""
    check(both_ways_game("both"), Fraction(24, 32))


def test_both_ways_counts_both_entries():
    """The award counts see a line paying two entries: A A is paid 14 times over the
    32 lines (7 from the left, 7 from the right; A A B A A pays it twice)."""
    ex = compute_exact(both_ways_game("both"))
    assert ex is not None
    aa = next(a for a in ex.levels[0].awards if a.combo == ("A", "A"))
    assert aa.probability == pytest.approx(14 / 32, abs=1e-15)


def test_scatter_line_bet_on_a_ways_game():
    """A ways game with cost 5: 2+ scatters (each reel S with 1/2: P = 1/2) pay 3 x level;
    X X X (1/8) pays 1 way x 1 credit. Return = (1/2 * 3 + 1/8) / 5 = 13/40."""
    strips = [["S", "X"]] * 3
    symbols = {"S": SC, "X": R}
    extra = (
        '[[scatter_pays]]\nsymbol = "S"\ncount = 2\npays = 3\n[rules]\nscatter_unit = "line_bet"'
    )
    machine = game(strips, symbols, pays("X X X = 1"), extra, bet="ways = 1\ncost = 5")
    check(machine, Fraction(13, 40))


def test_exclusive_scatters():
    """Each reel S1, S2 or X (1/3 each); S1 anywhere pays 1, S2 anywhere 2 (x total bet);
    exclusive: S2 pays only without S1. P(S1) = 19/27, P(no S1, some S2) = 8/27 - 1/27:
    E = 19/27 + 2 * 7/27 = 33/27 (without the rule 3 * 19/27)."""
    strips = [["S1", "S2", "X"]] * 3
    symbols = {"S1": SC, "S2": SC, "X": R}
    extra = (
        '[[scatter_pays]]\nsymbol = "S1"\ncount = 1\npays = 1\n'
        '[[scatter_pays]]\nsymbol = "S2"\ncount = 1\npays = 2\n'
        '[rules]\nexclusive_scatters = ["S1", "S2"]'
    )
    check(game(strips, symbols, pays("X X X = 0"), extra), Fraction(33, 27))


def fs_game(unmultiplied: bool, retrigger: str = "false", spins: int = 1):
    strips = [["A", "S", "X"]] * 3
    symbols = {"A": R, "S": SC, "X": R}
    flag = " unmultiplied" if unmultiplied else ""
    extra = (
        f"[free_spins]\ntrigger = {{symbol = 'S', count = 3}}\nspins = {spins}\n"
        f"multiplier = 3\nretrigger = {retrigger}"
    )
    return game(strips, symbols, pays(f"A A A = 9{flag}", "X X X = 3"), extra)


def test_free_spins_multiplier_false():
    """A A A (9, free_spins_multiplier = false), X X X (3), S S S starts 1 free spin x3.

    Free spin: 9 + 3*3 = 18 over 27 lines: 2/3. Base: (9 + 3)/27 + (1/27)(2/3) = 38/81
    (with both multiplied: 12/27 + (1/27)(36/27) = 40/81)."""
    check(fs_game(True), Fraction(38, 81))
    check(fs_game(False), Fraction(40, 81))


def retrigger_game(retrigger: str):
    strips = [["S", "X"]] * 3
    symbols = {"S": SC, "X": R}
    extra = (
        f"[free_spins]\ntrigger = {{symbol = 'S', count = 3}}\nspins = 2\nretrigger = {retrigger}"
    )
    return game(strips, symbols, pays("X X X = 8"), extra)


def test_retrigger_unlimited():
    """X X X (1/8) pays 8: a spin's mean win is 1; S S S (1/8) starts 2 spins (+2 each retrigger).

    Unlimited: E[F] = 2 * 1 / (1 - 2/8) = 8/3; return 1 + (1/8)(8/3) = 4/3."""
    check(retrigger_game("true"), Fraction(4, 3))


def test_retrigger_once():
    """Once: V(r) = spins left before the one retrigger; after it r spins are worth r.

    V(1) = 1 + (1/8) 2 = 5/4; V(2) = 1 + (1/8) 3 + (7/8)(5/4) = 79/32; return 1 + 79/256."""
    check(retrigger_game('"once"'), Fraction(335, 256))


def test_win_cap():
    """A A A (1/8) pays 20 x total bet, capped at 10: return 10/8; the cap takes off 10/8."""
    machine = game([["A", "X"]] * 3, {"A": R, "X": R}, pays("A A A = 20"), "[rules]\nwin_cap = 10")
    check(machine, Fraction(10, 8))
    ex = compute_exact(machine)
    assert ex is not None
    assert ex.levels[0].win_cap_rtp == pytest.approx(-10 / 8, abs=1e-12)
    assert ex.levels[0].line_rtp == pytest.approx(20 / 8, abs=1e-12)


def test_win_cap_with_features_is_not_exact():
    """A cap on a game with free spins: exact is None with a reason naming the cap."""
    from certify.exact.cycle import infeasible_reason

    machine = fs_game(False)
    import dataclasses

    from certify.model.schema import Rules

    capped = dataclasses.replace(machine, rules=Rules(win_cap=5))
    tables = compile_machine(capped)
    assert compute_exact(tables) is None
    assert "win_cap = 5" in (infeasible_reason(tables) or "")


def test_free_spin_options():
    """Options: 1 spin x3 or 2 spins x1 (no retrigger) on the free-spin game of
    test_free_spins_multiplier_false (a free spin at x1 is worth (9 + 3)/27 = 4/9,
    at x3 36/27 = 4/3). Option 1: 12/27 + (1/27)(4/3) = 40/81; option 2:
    12/27 + (1/27)(8/9) = 116/243. Each certified alone."""
    strips = [["A", "S", "X"]] * 3
    symbols = {"A": R, "S": SC, "X": R}
    extra = (
        "[free_spins]\ntrigger = {symbol = 'S', count = 3}\n"
        "[[free_spins.options]]\nspins = 1\nmultiplier = 3\n"
        "[[free_spins.options]]\nspins = 2\nmultiplier = 1\n"
    )
    machine = game(strips, symbols, pays("A A A = 9", "X X X = 3"), extra)
    variants = machine.option_variants()
    assert [v.option_label for v in variants] == ["option 1", "option 2"]
    check(variants[0], Fraction(40, 81))
    check(variants[1], Fraction(116, 243))
