"""``[rules] leading_wilds = "one_kind"``: a line's leading run of wilds is of one wild.

CT Viking's Fun (slotopol ``ScanLinedBon``: "wilds can't substitute each others"):
in its free spins W and the two vikings are wilds; a line that starts with two
different wilds ends there and pays the first wild's own run. Oracles: a hand
count in the docstring, the pure-Python twins (``tests/twins/lines.py``
``leading_cut``: the line's cells cut where the rule ends it; the features twin
for wilds in free spins), the printed figures of the real game
(``tests/exact/test_real_games.py``) and an outcome log told apart from the game
without the rule.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
import test_twin_rules as T
from feature_games import R, machine_of, strips_of, with_symbols
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rule_checks import assert_replay_tells_apart
from test_features_property import assert_twin_equals_exact
from twins import features as features_twin
from twins import lines as twin

from certify.errors import ModelError
from certify.exact import compute_exact
from certify.model.fingerprint import canonical_form, canonical_json
from reports.paytable import render_pay_glass

TWO_WILDS = """
[symbols]
A = {kind = "regular"}
B = {kind = "regular"}
W = {kind = "wild"}
V = {kind = "wild"}
[[pays]]
combo = ["A", "A", "A"]
pays = 10
[[pays]]
combo = ["W", "W"]
pays = 4
[[pays]]
combo = ["V", "V"]
pays = 2
"""
REELS = 'strips = [["W", "V"], ["W", "V", "A"], ["A", "B"]]'


@pytest.mark.parametrize(
    ("rule", "figure"), [("mixed", Fraction(66, 12)), ("one_kind", Fraction(46, 12))]
)
def test_leading_wilds_by_hand(tmp_path, rule, figure):
    """Reels [W, V], [W, V, A], [A, B], one line; A A A pays 10, W W 4, V V 2; neither
    wild stands for the other's own entry. The 12 windows (reel 1 W, then V):
    W W A 10 (A A A beats W W), W W B 4, W V A 10 mixed / 0 one kind (the line ends at
    V), W V B 0, W A A 10, W A B 0; V W A 10 / 0, V W B 0, V V A 10, V V B 2, V A A 10,
    V A B 0. mixed: 24 + 10 + 22 + 10 = 66, 66/12; one kind: 24 + 22 = 46, 46/12."""
    m = T.game(tmp_path, TWO_WILDS, REELS, leading_wilds=rule)
    assert compute_exact(m).levels[0].rtp == pytest.approx(float(figure), rel=1e-14)
    assert twin.brute_force(m, 0)["rtp"] == figure


@st.composite
def one_kind_games(draw):
    """Two wilds (W with a multiplier, V), and in free spins a viking X that plays as a
    third wild; lines of three reels and two rows under random line rules."""
    symbols = {
        "A": R,
        "B": R,
        "X": "{kind = 'regular', wild_in_free_spins = true}",
        "S": "{kind = 'scatter'}",
        "W": f"{{kind = 'wild', multiplier = {draw(st.integers(1, 3))}}}",
        "V": "{kind = 'wild'}",
    }
    strips = with_symbols(draw, strips_of(draw, list(symbols), size=(1, 3)), ["S", "W", "V"])
    pays = ""
    for combo in (["A"] * 3, ["A"] * 2, ["B"] * 3, ["X"] * 2, ["W"] * 2, ["V"] * 3):
        tokens = ", ".join(f"'{t}'" for t in combo)
        pays += f"[[pays]]\ncombo = [{tokens}]\npays = {draw(st.integers(0, 9))}\n"
    rules = {
        "leading_wilds": "one_kind",
        "wild_multiplier": draw(st.sampled_from(["product", "max"])),
        "pure_wild_line": draw(st.sampled_from(["highest", "wild_award"])),
    }
    extra = (
        "[free_spins]\ntrigger = {symbol = 'S', count = 2}\nspins = 2\nmultiplier = "
        f"{draw(st.integers(1, 2))}\nretrigger = {str(draw(st.booleans())).lower()}\n"
        "max_spins = 6\n[rules]\n" + "".join(f"{k} = '{v}'\n" for k, v in rules.items())
    )
    return machine_of(strips, symbols, pays, extra)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(one_kind_games())
def test_exact_equals_twin_with_wilds_in_free_spins(machine):
    """Return, variance, hit frequency, free-spin return and trigger probability equal the
    features twin's brute force (its own free-spin view, the lines twin's cut) to 1e-12."""
    assert_twin_equals_exact(machine, features_twin.brute_force)


def test_replay_tells_the_rule_apart(tmp_path):
    """A log played under the rule passes against its model and fails against the game
    whose leading wilds mix (which pays W V A and V W A: 66/12 against 46/12)."""
    rules = '[rules]\nleading_wilds = "one_kind"\n'
    assert_replay_tells_apart(tmp_path, TWO_WILDS + rules, TWO_WILDS, REELS)


@pytest.mark.parametrize(
    ("extra", "rules", "message"),
    [
        ("", {"direction": "both"}, 'not played with rules.direction = "both"'),
        ("[[pays]]\ncombo = ['B', 'B']\nanywhere = true\npays = 1\n", {}, "anywhere entries"),
    ],
    ids=["both ways", "anywhere"],
)
def test_refused_where_a_line_is_not_read_from_reel_1(tmp_path, extra, rules, message):
    """Lines read both ways and ``anywhere`` entries are located ``unsupported`` errors."""
    with pytest.raises(ModelError) as err:
        T.game(tmp_path, TWO_WILDS + extra, REELS, leading_wilds="one_kind", **rules)
    assert ("rules.leading_wilds", "unsupported") in [(p.path, p.code) for p in err.value.problems]
    assert message in str(err.value)


def test_a_ways_game_is_told_the_rule_does_not_apply(tmp_path):
    """A ways game has no lines: ``rule_not_applicable``, located."""
    reels = 'strips = [["W", "V"], ["W", "A"], ["A", "B"]]\nevaluation = "ways"'
    with pytest.raises(ModelError) as err:
        T.game(
            tmp_path,
            TWO_WILDS,
            reels,
            bet="ways = 1\ncost = 1\nbet_levels = [1]",
            leading_wilds="one_kind",
        )
    where = [(p.path, p.code) for p in err.value.problems]
    assert ("rules.leading_wilds", "rule_not_applicable") in where


def test_default_keeps_the_fingerprint_and_the_glass_names_the_rule(tmp_path):
    """The default adds nothing to the canonical form; the rule is in it and on the glass."""
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    plain = T.game(tmp_path / "a", TWO_WILDS, REELS, leading_wilds="mixed")
    one = T.game(tmp_path / "b", TWO_WILDS, REELS, leading_wilds="one_kind")
    assert "leading_wilds" not in canonical_json(canonical_form(plain))
    assert '"leading_wilds":"one_kind"' in canonical_json(canonical_form(one))
    assert "um selvagem diferente termina" in render_pay_glass(one)
    assert "termina" not in render_pay_glass(plain)
