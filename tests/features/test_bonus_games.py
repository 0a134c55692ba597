"""Bonus games written by their rules (``[[bonus.stages]]``: pick, wheel, multiplier).

Oracles: the figures slotopol's sources state for two real bonus games (NetEnt
Diamond Dogs' bonus, Megajack Champagne's bottles), hand counts, the twin
(tests/twins/bonusgame.py plays every order of the hidden *items* and every
wheel sequence, where the loader's pass counts prizes by value) on random
stages, the whole-game twin, and simulation inside the exact interval.
"""

from __future__ import annotations

import tomllib
from collections import defaultdict
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_features_property import assert_twin_equals_exact
from twins.bonusgame import bonus_prize_moments, plays

from certify.engine import compile_machine, simulate
from certify.errors import ModelError
from certify.exact import compute_exact
from certify.model import load_machine
from certify.model.bonusgame import ladder_law, pick_law, prize_law, stage_law, wheel_law
from certify.model.loader import parse_machine
from certify.model.schema import (
    Bonus,
    LadderStage,
    MultiplierStage,
    PickStage,
    Trigger,
    WheelSegment,
    WheelStage,
)
from certify.stats import z_value
from reports.paytable import glass_in
from reports.translations import translation

RULES = Path(__file__).parents[1] / "data" / "rules"
F = Fraction


def mean(law: dict[int, Fraction]) -> Fraction:
    return sum((k * p for k, p in law.items()), F(0))


def test_diamond_dogs_bonus_pays_the_servers_300():
    """slotopol game/slot/netent/diamonddogs/bonus.go: 9 prizes (10, 20, 20, 40, 40,
    80, 120, 120, 450; mean M = 100) and 3 zeros; the first is always a prize, the
    rest shuffled, summed until a zero: "E = 3*M = 3*100 = 300".

    By hand: the first pick's mean is 900/9 = 100. Of the 8 prizes left and 3
    stops, each prize comes before every stop with probability 1/4, so 2 more
    prizes on average, each of mean 100 (by symmetry): 100 + 200 = 300."""
    stage = PickStage((10, 20, 20, 40, 40, 80, 120, 120, 450, None, None, None), None, safe=1)
    law = pick_law(stage)
    assert sum(law.values()) == 1
    assert mean(law) == 300
    assert min(law) == 10 and max(law) == 900  # never 0 (a safe first pick); at most all 9


def test_champagne_bottles_pay_the_servers_168():
    """slotopol game/slot/megajack/champagne/fizz.go: bottles 10, 10, 20, 150, 150
    shuffled, the first two paid, doubled when equal: "avr bottle gain = 68, M = 168".

    By hand, over the 10 equally likely pairs: (10,10) 20x2 = 40; (10,20) x2: 30
    each; (10,150) x4: 160 each; (20,150) x2: 170 each; (150,150) 300x2 = 600.
    Sum 40 + 60 + 640 + 340 + 600 = 1680; mean 168."""
    law = pick_law(PickStage((10, 10, 20, 150, 150), picks=2, match_multiplier=2))
    assert law == {40: F(1, 10), 30: F(2, 10), 160: F(4, 10), 170: F(2, 10), 600: F(1, 10)}
    assert mean(law) == 168


def test_laws_by_hand():
    """Pick 2 of [1, 2, 3]: sums 3, 4, 5 with 1/3 each.
    Items 1, 1 and a stop, until the stop, a match x3: the 6 orders equally likely;
    the stop first (2 of 6) pays 0, one 1 then the stop (2 of 6) pays 1, both 1s
    (2 of 6) pay 2 x 3 = 6.
    A wheel of 3 x "5" and 1 x "again 1", at most 10 spins: every spin but an
    again ends it with 5, so 0 only after 10 agains: E = 5 (1 - 4^-10); then a
    multiplier x1 (3) or x2 (1), E[M] = 5/4."""
    assert pick_law(PickStage((1, 2, 3), picks=2)) == {3: F(1, 3), 4: F(1, 3), 5: F(1, 3)}
    law = pick_law(PickStage((1, 1, None), None, match_multiplier=3))
    assert law == {0: F(1, 3), 1: F(1, 3), 6: F(1, 3)}
    wheel = WheelStage((WheelSegment(5, 0, 3), WheelSegment(0, 1, 1)), 1, 10)
    assert wheel_law(wheel) == {5: 1 - F(1, 4**10), 0: F(1, 4**10)}
    law = prize_law([wheel, MultiplierStage(((1, 3), (2, 1)))])
    assert mean(law) == 5 * (1 - F(1, 4**10)) * F(5, 4)


def test_a_ladder_by_hand():
    """Rungs 5, 10, 50; climb 2, collect 1, lose 1 (of 4). From rung 1: collect 5
    (1/4), lose (1/4), climb (1/2); from rung 2: collect 10 (1/8), lose (1/8), climb
    to the top, 50 (1/4). So 0: 3/8, 5: 1/4, 10: 1/8, 50: 1/4; mean 5/4 + 10/8 +
    50/4 = 15. Without `lose` (climb 1, collect 1): 5 (1/2), 10 (1/4), 50 (1/4)."""
    law = ladder_law(LadderStage((5, 10, 50), 2, 1, 1))
    assert law == {0: F(3, 8), 5: F(1, 4), 10: F(1, 8), 50: F(1, 4)}
    assert mean(law) == 15
    assert ladder_law(LadderStage((5, 10, 50), 1, 1)) == {5: F(1, 2), 10: F(1, 4), 50: F(1, 4)}
    assert ladder_law(LadderStage((7,), 0, 0)) == {7: F(1)}


@st.composite
def stages(draw):
    """A pick stage (1-6 items, stops or not, picks or until a stop, safe picks,
    a match multiplier), a wheel (1-3 segments, again or not, a cap), a ladder
    (1-4 rungs, losing or not) and maybe a multiplier stage."""
    prizes = draw(st.lists(st.integers(0, 6), min_size=1, max_size=4))
    stops = draw(st.integers(0, 2))
    items = tuple(prizes) + (None,) * stops
    picks = draw(st.one_of(st.none(), st.integers(1, len(items)))) if stops else len(prizes)
    picks = draw(st.integers(1, len(items))) if picks is None and not stops else picks
    safe = draw(st.integers(0, min(len(prizes), picks or len(items))))
    pick = PickStage(items, picks, safe, draw(st.integers(1, 3)))
    segments = tuple(
        WheelSegment(draw(st.integers(0, 5)), draw(st.integers(0, 2)), draw(st.integers(1, 3)))
        for _ in range(draw(st.integers(1, 3)))
    )
    spins = draw(st.integers(1, 2))
    wheel = WheelStage(segments, spins, spins + draw(st.integers(0, 2)))
    rungs = tuple(draw(st.lists(st.integers(0, 9), min_size=1, max_size=4)))
    ladder = LadderStage(
        rungs, draw(st.integers(1, 3)), draw(st.integers(1, 3)), draw(st.integers(0, 2))
    )
    out = [pick, wheel, ladder]
    if draw(st.booleans()):
        values = draw(st.lists(st.integers(1, 4), min_size=1, max_size=3, unique=True))
        out.append(MultiplierStage(tuple((v, draw(st.integers(1, 3))) for v in values)))
    return out


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(stages())
def test_the_compiled_law_equals_every_play(drawn):
    """Each stage's law equals the twin's plays, item by item; the whole prize's
    first two moments equal the twin's."""
    for stage in drawn[:3]:
        twin: dict[int, Fraction] = defaultdict(Fraction)
        for p, prize in plays(stage):
            twin[prize] += p
        assert stage_law(stage) == {k: v for k, v in twin.items() if v}
    law = prize_law(drawn)
    bonus = Bonus(Trigger("B", 1), (), "total_bet", tuple(drawn))
    e1, e2 = bonus_prize_moments(bonus)
    assert mean(law) == e1
    assert sum((k * k * p for k, p in law.items()), F(0)) == e2


def test_the_game_file_equals_its_twin():
    """tests/data/rules/bonus_games.toml (pick, wheel and multiplier stages, x the
    line bet, with free spins and retriggers): exact = twin to 1e-12."""
    assert_twin_equals_exact(load_machine(RULES / "bonus_games.toml"))


def test_the_game_file_simulates_inside_the_interval():
    """The kernels draw from the compiled awards: 400,000 spins fall within
    z(0.999) standard errors of the exact return."""
    tables = compile_machine(load_machine(RULES / "bonus_games.toml"))
    ex = compute_exact(tables)
    assert ex is not None
    sim = simulate(tables, 0, 400_000, 11)
    assert abs(sim.rtp - ex.levels[0].rtp) <= z_value(0.999) * sim.std_error


GAME = """
schema = "slotcert/machine@1"
[machine]
id = "X"
name = "x"
[bet]
denomination = "0.01"
currency = "EUR"
lines = 5
duplicate_lines = "allow"
bet_levels = [1, 2]
[symbols]
A = {kind = "regular"}
B = {kind = "bonus"}
[reels]
rows = 1
strips = [["A", "B"], ["A", "B"], ["A", "B"]]
paylines = [[0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0]]
[[pays]]
combo = ["A", "A", "A"]
pays = 0
[bonus]
trigger = {symbol = "B", count = 3}
"""


def _game(extra: str):
    return parse_machine(tomllib.loads(GAME + extra), "<t>")[0]


@pytest.mark.parametrize(("unit", "rtp"), [("line_bet", F(3, 8)), ("total_bet", F(15, 8))])
def test_the_unit_by_hand(unit, rtp):
    """3 B on 3 two-stop reels: 1/8 of spins. The bonus picks 1 of [10, 20]: mean 15.
    x the line bet (1 credit per level of 5 lines): 15/8 credits on a total bet of 5,
    return 3/8; x the total bet: 15/8. The same at both levels."""
    m = _game(f'unit = "{unit}"\n[[bonus.stages]]\nkind = "pick"\nprizes = [10, 20]\npicks = 1\n')
    ex = compute_exact(m)
    assert ex is not None
    for level in ex.levels:
        assert level.rtp == pytest.approx(float(rtp), rel=1e-14)
        assert level.bonus_probability == pytest.approx(1 / 8, rel=1e-14)


@pytest.mark.parametrize(
    ("extra", "path", "code"),
    [
        ("", "bonus", "missing_key"),
        (
            "awards = [{pays = 1, weight = 1}]\n[[bonus.stages]]\nkind = 'pick'\nprizes = [1]\n",
            "bonus",
            "missing_key",
        ),
        (
            "[[bonus.stages]]\nkind = 'pick'\nprizes = [1, 2]\npicks = 3\n",
            "bonus.stages[0].picks",
            "range",
        ),
        ("[[bonus.stages]]\nkind = 'pick'\nprizes = [1, 2]\n", "bonus.stages[0]", "missing_key"),
        (
            "[[bonus.stages]]\nkind = 'pick'\nprizes = [1, 'x']\npicks = 1\n",
            "bonus.stages[0].prizes[1]",
            "type",
        ),
        (
            "[[bonus.stages]]\nkind = 'pick'\nprizes = [1, 'stop']\nsafe = 2\n",
            "bonus.stages[0].safe",
            "range",
        ),
        (
            "[[bonus.stages]]\nkind = 'wheel'\nsegments = [{pays = 1, again = 1, weight = 1}]\n",
            "bonus.stages[0].max_spins",
            "missing_key",
        ),
        ("[[bonus.stages]]\nkind = 'trail'\n", "bonus.stages[0].kind", "choice"),
        (
            "[[bonus.stages]]\nkind = 'ladder'\nrungs = [1, 2]\nclimb = 1\ncollect = 0\n",
            "bonus.stages[0]",
            "range",
        ),
        (
            "[[bonus.stages]]\nkind = 'multiplier'\nvalues = [{multiplier = 2, weight = 1}]\n",
            "bonus.stages",
            "type",
        ),
        (
            "[[bonus.stages]]\nkind = 'pick'\nprizes = "
            + str(list(range(1, 41)))
            + "\npicks = 20\n",
            "bonus.stages",
            "range",
        ),
        ('unit = "coin"\nawards = [{pays = 1, weight = 1}]\n', "bonus.unit", "choice"),
    ],
)
def test_bad_stages_are_located(extra, path, code):
    with pytest.raises(ModelError) as err:
        _game(extra)
    where = [(p.path, p.code) for p in err.value.problems]
    assert (path, code) in where, where


def test_the_pay_glass_tells_the_rules():
    """The pay-glass states each stage in the player's words, and the largest and
    average prize (the largest 105: (19 + 8 + 8) x 3; the mean: the twin's)."""
    m = load_machine(RULES / "bonus_games.toml")
    e1, _ = bonus_prize_moments(m.bonus)
    glass = glass_in(m, translation("en"))
    text = " ".join(" ".join(s.paragraphs) for s in glass.sections)
    assert (
        "Pick the hidden items one at a time until a stop shows: 2, 2, 5, 10, and 2 stops." in text
    )
    assert "The first pick always shows a prize." in text
    assert "0 and 2 more spins (1 in 5)" in text
    assert "At most 4 spins in all." in text
    assert "×3 (1 in 4)" in text
    assert f"the average prize is {float(e1):.2f} × the bet per line" in text
    assert "The largest prize is 105 × the bet per line" in text
