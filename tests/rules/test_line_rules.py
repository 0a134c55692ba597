"""``[rules] both_ways = "better"`` and ``line_pays = "longest"``: two line readings of
real cabinets (slotopol's catalogue: a both-ways game that pays the better run, and a
game whose line pays its run's exact length). Oracles: hand counts in the docstrings
and the pure-Python twin (tests/twins/lines.py, its own reading of each rule).
"""

from __future__ import annotations

from fractions import Fraction

import pytest
import test_twin_rules as T
from twins import lines as twin
from twins.check import assert_exact_equals_twin

from certify.errors import ModelError
from certify.exact import compute_exact
from certify.model.fingerprint import canonical_form, canonical_json
from reports.paytable import render_pay_glass

AB = 'strips = [["A", "B"], ["A", "B"], ["A", "B"]]'
PAIRS = """
[symbols]
A = {kind = "regular"}
B = {kind = "regular"}
[[pays]]
combo = ["A", "A"]
pays = 2
[[pays]]
combo = ["B", "B"]
pays = 3
"""
RUNS = """
[symbols]
A = {kind = "regular"}
B = {kind = "regular"}
[[pays]]
combo = ["A", "A", "A"]
pays = 1
[[pays]]
combo = ["A", "A"]
pays = 5
"""


@pytest.mark.parametrize(
    ("rule", "figure"), [("sum", Fraction(20, 8)), ("better", Fraction(15, 8))]
)
def test_both_ways_by_hand(tmp_path, rule, figure):
    """Reels [A, B] x3, one line, A A pays 2, B B pays 3, read both ways. The 8 windows:
    AAA: left A A 2, right A A 2 (sum 4, better 2); AAB: 2; ABA: 0; ABB: right B B 3;
    BAA: right A A 2; BAB: 0; BBA: left B B 3; BBB: 3 + 3 (sum 6, better 3).
    sum: (4 + 2 + 3 + 2 + 3 + 6) / 8 = 20/8; better: (2 + 2 + 3 + 2 + 3 + 3) / 8 = 15/8."""
    m = T.game(tmp_path, PAIRS, AB, direction="both", both_ways=rule)
    assert compute_exact(m).levels[0].rtp == pytest.approx(float(figure), rel=1e-14)
    assert twin.brute_force(m, 0)["rtp"] == figure


@pytest.mark.parametrize(
    ("rule", "figure"), [("best", Fraction(10, 8)), ("longest", Fraction(6, 8))]
)
def test_line_pays_by_hand(tmp_path, rule, figure):
    """Reels [A, B] x3, one line, A A A pays 1, A A pays 5. AAA: best pays A A (5),
    longest pays A A A (1); AAB: A A (5) either way; the other 6 windows pay nothing.
    best: 10/8; longest: 6/8."""
    m = T.game(tmp_path, RUNS, AB, line_pays=rule)
    assert compute_exact(m).levels[0].rtp == pytest.approx(float(figure), rel=1e-14)
    assert twin.brute_force(m, 0)["rtp"] == figure


WILDS = """
[symbols]
A = {kind = "regular"}
B = {kind = "regular"}
W = {kind = "wild", multiplier = 2}
[[pays]]
combo = ["A", "A", "A"]
pays = 3
[[pays]]
combo = ["A", "A"]
pays = 4
[[pays]]
combo = ["B", "B", "B"]
pays = 10
[[pays]]
combo = ["B", "B"]
pays = 1
[[pays]]
combo = ["W", "W"]
pays = 6
"""


@pytest.mark.parametrize(
    "rules",
    [
        {"direction": "both", "both_ways": "better"},
        {"direction": "both", "both_ways": "better", "line_pays": "longest"},
        {"line_pays": "longest", "wild_multiplier": "max"},
        {"line_pays": "longest", "pure_wild_line": "wild_award"},
    ],
    ids=["better", "better+longest", "longest+max", "longest+wild_award"],
)
def test_exact_equals_twin_with_wilds(tmp_path, rules):
    """Wilds (x2), overlapping runs, two levels: return, variance, hit frequency and
    award probabilities equal the twin's brute force to 1e-12."""
    reels = 'strips = [["A", "W", "B"], ["A", "B", "W", "A"], ["B", "W", "A"]]'
    m = T.game(tmp_path, WILDS, reels, bet="lines = 1\nbet_levels = [1, 2]", **rules)
    assert_exact_equals_twin(m)


def test_both_ways_needs_direction_both(tmp_path):
    """``both_ways`` without ``direction = "both"`` is a located error."""
    with pytest.raises(ModelError) as err:
        T.game(tmp_path, PAIRS, AB, both_ways="better")
    assert "rules.both_ways" in str(err.value) and 'direction = "both"' in str(err.value)


def test_defaults_keep_the_fingerprint_and_the_text_names_the_rule(tmp_path):
    """The defaults add nothing to the canonical form; a set rule is in it and on the glass."""
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    plain = T.game(tmp_path / "a", PAIRS, AB, direction="both")
    better = T.game(tmp_path / "b", PAIRS, AB, direction="both", both_ways="better")
    assert "both_ways" not in canonical_json(canonical_form(plain))
    assert '"both_ways":"better"' in canonical_json(canonical_form(better))
    assert "apenas a melhor das suas duas sequências" in render_pay_glass(better)
