"""Fantan: exact returns against hand calculations from Portaria 211/80/M."""

from fractions import Fraction as F

import pytest
from tables_support import FANTAN, write_variant

from certify.errors import ModelError
from certify.tables import exact_results, load_table


def test_exact_returns_match_hand_calculations():
    """Hand calculation, results 1-4 equally likely, prize net of 5% commission.

    - Fan (1 number, pays 3):   1/4 (1 + 3 x 0.95)                 = 0.9625
    - Nim (win 1, tie 1, 2):    1/4 (1 + 2 x 0.95) + 1/4           = 0.975
    - Nga (win 2, tie 1, 1/2):  2/4 (1 + 0.5 x 0.95) + 1/4         = 0.9875
    - Sé-Sam-Hong (3, 1/3):     3/4 (1 + 0.95 / 3)                 = 0.9875
    - Kuoc (2 numbers, 1):      2/4 (1 + 0.95)                     = 0.975
    """
    hand = {
        "fan": F("0.9625"),
        "nim": F("0.975"),
        "nga": F("0.9875"),
        "se_sam_hong": F("0.9875"),
        "kuoc": F("0.975"),
    }
    win_tie = {
        "fan": (F(1, 4), 0),
        "nim": (F(1, 4), F(1, 4)),
        "nga": (F(1, 2), F(1, 4)),
        "se_sam_hong": (F(3, 4), 0),
        "kuoc": (F(1, 2), 0),
    }
    results = exact_results(load_table(FANTAN))
    assert {r.bet.type for r in results} == set(hand)
    for r in results:
        lose, push, win = r.probabilities
        assert (win, push) == win_tie[r.bet.type]
        assert r.rtp == hand[r.bet.type], r.bet.name


@pytest.mark.parametrize(
    "edit, message",
    [
        (
            ("win = [1]\ntie = [2]", "win = [1]\ntie = [1]"),
            "bets[2]: win [1] / tie [1] is not a nim (a nim has 1 different winning and 1 tying "
            "numbers, none shared)",
        ),
        (("win = [1, 2, 3]", "win = [1, 2, 5]"), "bets[4].win[2]: 5 is not a number 1–4"),
        (
            ('commission = "0.05"', "commission = 0.05"),
            'rules.commission: must be a decimal or fraction string such as "0.5" or "1/3", '
            "got 0.05",
        ),
        (
            ("results = [1, 2, 3, 4]", "results = [0, 1, 2, 3]"),
            "rules.results[0]: 0 is not a number 1–4",
        ),
    ],
)
def test_invalid_fantan_files(tmp_path, edit, message):
    path = write_variant(tmp_path, FANTAN, edit)
    with pytest.raises(ModelError) as info:
        load_table(path)
    assert f"{path}: {message}" in [str(p) for p in info.value.problems]
