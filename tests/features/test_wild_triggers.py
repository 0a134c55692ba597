"""Free spins awarded by wilds, and a scatter that plays wild in the free spins.

Real cabinets award free spins for wilds anywhere (slotopol's Playtech Dolphin
Reef: 2 or more wilds anywhere award 5 free games) and turn their scatter wild
in the feature. ``free_spins.trigger.symbol`` may name a wild; ``wild_in_free_spins``
may be set on a scatter (it keeps counting and paying as a scatter). Oracles:
hand calculations in the docstrings and the feature twin's brute force
(tests/twins/features.py, its own ``free_view``).
"""

from __future__ import annotations

from fractions import Fraction

import pytest
import test_twin_rules as T
from twins import features as twin
from twins.check import assert_exact_equals_twin

from certify.errors import ModelError
from certify.exact import compute_exact

AW = 'strips = [["A", "W"], ["A", "W"], ["A", "W"]]'
AS = 'strips = [["A", "S"], ["A", "S"], ["A", "S"]]'

WILD_TRIGGER = """
[symbols]
A = {kind = "regular"}
W = {kind = "wild"}
[[pays]]
combo = ["A", "A", "A"]
pays = 1
[free_spins]
trigger = {symbol = "W", count = 2}
spins = 1
multiplier = 2
"""

SCATTER_WILD = """
[symbols]
A = {kind = "regular"}
S = {kind = "scatter", wild_in_free_spins = true}
[[pays]]
combo = ["A", "A", "A"]
pays = 1
[[scatter_pays]]
symbol = "S"
count = 3
pays = 2
[free_spins]
trigger = {symbol = "S", count = 3}
spins = 1
"""


def test_free_spins_by_wilds_by_hand(tmp_path):
    """Reels [A, W] x3, one line, W substitutes A: every window pays A A A (1; W W W
    too, the default reading). 2 or more W (4 of 8 windows) start 1 free spin x2, worth
    2. Return = 1 + 1/2 x 2 = 2."""
    m = T.game(tmp_path, WILD_TRIGGER, AW)
    assert compute_exact(m).levels[0].rtp == pytest.approx(2.0, rel=1e-14)
    assert twin.brute_force(m, 0)["rtp"] == 2


def test_scatter_plays_wild_in_free_spins_by_hand(tmp_path):
    """Reels [A, S] x3, one line: A A A pays 1, 3 S pay 2 and start 1 free spin.
    Base: A A A (1/8) 1, S S S (1/8) 2: 3/8. In the free spin S substitutes A, so all
    8 windows pay A A A (1) and S S S still pays 2 as a scatter: 1 + 2/8 = 5/4.
    Return = 3/8 + 1/8 x 5/4 = 17/32."""
    m = T.game(tmp_path, SCATTER_WILD, AS)
    assert compute_exact(m).levels[0].rtp == pytest.approx(17 / 32, rel=1e-14)
    assert twin.brute_force(m, 0)["rtp"] == Fraction(17, 32)


@pytest.mark.parametrize(
    "reels",
    [
        'strips = [["A", "W", "B", "S"], ["W", "A", "B", "S"], ["B", "S", "A", "W"]]',
        'strips = [["A", "S", "S", "B"], ["W", "A", "B"], ["S", "B", "A", "W"]]',
    ],
)
def test_exact_equals_twin(tmp_path, reels):
    """A x2 wild that triggers (and retriggers, capped) the free spins, in which the
    scatter plays wild: return, variance and hit frequency equal the twin's brute force
    to 1e-12 at both levels."""
    text = """
[symbols]
A = {kind = "regular"}
B = {kind = "regular"}
W = {kind = "wild", multiplier = 2}
S = {kind = "scatter", wild_in_free_spins = true}
[[pays]]
combo = ["A", "A", "A"]
pays = 5
[[pays]]
combo = ["B", "B"]
pays = 1
[[scatter_pays]]
symbol = "S"
count = 2
pays = 1
[free_spins]
trigger = {symbol = "W", count = 2}
spins = {2 = 1, 3 = 2}
multiplier = 3
retrigger = true
max_spins = 5
"""
    m = T.game(tmp_path, text, reels, bet="lines = 1\nbet_levels = [1, 2]")
    assert_exact_equals_twin(m, twin.brute_force)


def test_still_refused_where_no_cabinet_does_it(tmp_path):
    """A bonus started by a plain wild, and a wild that is wild in free spins: located."""
    bonus = WILD_TRIGGER.replace("[free_spins]", "[bonus]").replace(
        "spins = 1\nmultiplier = 2", "awards = [{pays = 1, weight = 1}]"
    )
    with pytest.raises(ModelError) as err:
        T.game(tmp_path, bonus, AW)
    assert "bonus.trigger.symbol" in str(err.value) and "'W' is wild" in str(err.value)
    wild = WILD_TRIGGER.replace(
        'W = {kind = "wild"}', 'W = {kind = "wild", wild_in_free_spins = true}'
    )
    with pytest.raises(ModelError) as err:
        T.game(tmp_path, wild, AW)
    assert "symbols.W.wild_in_free_spins" in str(err.value)
