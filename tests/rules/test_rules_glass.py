"""The pay-glass states every rule of real games in words, in Portuguese and English."""

from __future__ import annotations

import pytest
from rule_games import game, pays

from reports.paytable import pay_glass

R = "{kind = 'regular'}"
SC = "{kind = 'scatter'}"
WILD = "{kind = 'wild', multiplier = 2}"


def glass_text(machine, lang: str) -> str:
    glass = next(g for g in pay_glass(machine) if g.lang == lang)
    parts = []
    for section in glass.sections:
        parts += [*section.paragraphs, *section.items]
        parts += [" ".join(row.sequence) for row in section.rows]
    return "\n".join(parts)


def rules_game():
    strips = [["A", "W", "S", "T"]] * 3
    symbols = {"A": R, "W": WILD, "S": SC, "T": SC}
    extra = (
        '[[scatter_pays]]\nsymbol = "S"\ncount = 3\npays = 5\n'
        '[[scatter_pays]]\nsymbol = "T"\ncount = 3\npays = 2\n'
        "[free_spins]\ntrigger = {symbol = 'S', count = 3}\nretrigger = \"once\"\n"
        "[[free_spins.options]]\nspins = 10\nmultiplier = 2\n"
        "[[free_spins.options]]\nspins = 5\nmultiplier = 5\n"
        '[rules]\nwild_multiplier = "max"\npure_wild_line = "wild_award"\ndirection = "both"\n'
        'scatter_unit = "line_bet"\nexclusive_scatters = ["S", "T"]\nwin_cap = 5000\n'
    )
    table = pays("A A A = 10 unmultiplied", "A A = 2 anywhere", "W W W = 50")
    machine = game(strips, symbols, table, extra, bet="lines = 1")
    return machine


@pytest.mark.parametrize(
    "lang,phrases",
    [
        (
            "pt",
            [
                "uma só vez",  # wild_multiplier = max
                "apenas por símbolos selvagens",  # wild_award
                "nos dois sentidos",  # both ways
                "aposta por linha",  # scatter unit
                "De S, T paga apenas o primeiro",  # exclusive scatters
                "limitado a 5",  # win cap
                "◊",
                "‡",
                "uma única vez",  # retrigger once
                "o jogador escolhe",  # options
            ],
        ),
        (
            "en",
            [
                "once, however many",
                "only of wild symbols",
                "both ways",
                "bet per line",
                "Of S, T only the first",
                "limited to 5",
                "◊",
                "‡",
                "retriggered once",
                "the player chooses",
            ],
        ),
    ],
)
def test_every_rule_in_words(lang, phrases):
    text = glass_text(rules_game(), lang)
    for phrase in phrases:
        assert phrase in text, phrase
