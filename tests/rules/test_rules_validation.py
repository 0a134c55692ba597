"""Validation of the rules of real games (SPEC 3.1a): located errors, one per bad key."""

from __future__ import annotations

import pytest
from rule_games import game, pays

from certify.errors import ModelError

R = "{kind = 'regular'}"
SC = "{kind = 'scatter'}"
LINES = [["A", "S", "X"]] * 3
SYMBOLS = {"A": R, "S": SC, "X": R}
SCATTER = '[[scatter_pays]]\nsymbol = "S"\ncount = 3\npays = 5\n'
FREE = "[free_spins]\ntrigger = {symbol = 'S', count = 3}\nspins = 5\n"


def problems(table: str, extra: str = "", bet: str = "lines = 1") -> list[str]:
    with pytest.raises(ModelError) as err:
        game(LINES, SYMBOLS, table, extra, bet=bet)
    return [f"{p.path}: {p.message}" for p in err.value.problems if p.severity == "error"]


@pytest.mark.parametrize(
    "extra,bet,expected",
    [
        (
            '[rules]\ndirection = "both"',
            "ways = 1\ncost = 5",
            "rules.direction: 'both' applies to lines games; this is a ways game",
        ),
        (
            '[rules]\nwild_multiplier = "max"',
            "ways = 1\ncost = 5",
            "rules.wild_multiplier: 'max' applies to lines games; this is a ways game",
        ),
        ('[rules]\ndirection = "right"', "lines = 1", "rules.direction: must be one of"),
        ('[rules]\nscatter_unit = "line_bet"', "lines = 1", "rules.scatter_unit: the game has no"),
        (
            SCATTER + '[rules]\nexclusive_scatters = ["S", "X"]',
            "lines = 1",
            'rules.exclusive_scatters[1]: "X" has no scatter pays',
        ),
        ("[rules]\nwin_cap = 0", "lines = 1", "rules.win_cap: must be at least 1"),
        ("[rules]\nwin_kap = 10", "lines = 1", "rules.win_kap: unknown key 'win_kap'"),
        (
            FREE + 'retrigger = "twice"',
            "lines = 1",
            "free_spins.retrigger: must be true, false or \"once\", got 'twice'",
        ),
        (
            "[free_spins]\ntrigger = {symbol = 'S', count = 3}\nmultiplier = 2\n"
            "[[free_spins.options]]\nspins = 5\nmultiplier = 3\n",
            "lines = 1",
            "free_spins.multiplier: each of free_spins.options sets its own multiplier",
        ),
        (
            "[free_spins]\ntrigger = {symbol = 'S', count = 3}\n"
            "[[free_spins.options]]\nmultiplier = 3\n",
            "lines = 1",
            "free_spins.options[0].spins: is required",
        ),
    ],
)
def test_rule_errors(extra, bet, expected):
    found = problems(pays("A A A = 5"), extra, bet)
    assert any(expected in p for p in found), found


def test_free_spins_multiplier_needs_free_spins():
    found = problems(pays("A A A = 5 unmultiplied"))
    assert any("pays[0].free_spins_multiplier: the game has no free spins" in p for p in found)


def test_anywhere_needs_a_lines_game_and_one_symbol():
    assert any(
        "pays[0].anywhere: applies to lines games; this is a ways game" in p
        for p in problems(pays("A A = 5 anywhere"), bet="ways = 1\ncost = 5")
    )
    assert any(
        "pays[0].anywhere: needs one symbol or group repeated" in p
        for p in problems(pays("A X = 5 anywhere"))
    )


def test_anywhere_and_run_of_the_same_combo_may_both_exist():
    machine = game(LINES, SYMBOLS, pays("A A = 5 anywhere", "A A = 3"))
    assert [e.anywhere for e in machine.pays] == [True, False]


def test_spins_may_be_one_number():
    machine = game(LINES, SYMBOLS, pays("A A A = 5"), FREE)
    assert machine.free_spins is not None and machine.free_spins.spins == ((3, 5),)
