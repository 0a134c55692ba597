"""``expands = {chance = [k, n]}``: a wild that fills its reel in a spin drawn with chance k/n.

CT Interactive's Groovy Powers: each spin is drawn in "bonus mode" with chance
1/15, where a wild on reels 2-4 fills its reel; otherwise it stays a plain wild.
The engine plays each phase as two parts, plain and expanding, weighted by the
chance (``certify/engine/modes.py``). Oracles: slotopol's brute-force figure for
Groovy Powers (tests/exact/test_real_games.py), a hand count (docstring), the
features twin's brute force (``tests/twins/features.py modes``: the mode drawn per
spin, scatters counted as landed) on random games, and the simulation inside the
exact interval.
"""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
import test_twin_rules as T
from hypothesis import given
from hypothesis import strategies as st
from rule_checks import RULE_SETTINGS, assert_exact_equals_twin, three_strips, two_row_game
from twins import features as twin

from certify.engine import compile_machine, simulate
from certify.errors import ModelError
from certify.exact import compute_exact
from certify.exact.decompose import mean_return
from certify.model import load_machine
from certify.outcomes.verify import _machine_model
from certify.stats import z_value

BODY = """
[symbols]
A = {kind = "regular"}
B = {kind = "regular"}
W = {kind = "wild", expands = {chance = [1, 4]}}
[[pays]]
combo = ["A", "A", "A"]
pays = 6
"""
HAND = 'strips = [["A", "A"], ["B", "W", "B"], ["A", "A"]]'


def _two_rows(tmp_path, body: str, reels: str):
    head = T.HEAD.format(id="T", bet=T.LINES, reels="").replace("rows = 1", "rows = 2")
    path = tmp_path / "g.toml"
    path.write_text(head + reels + "\npaylines = [[0, 0, 0]]\n" + body)
    return load_machine(path)


def test_the_mode_by_hand(tmp_path):
    """Two rows, the line on the top row: reels [A, A], [B, W, B], [A, A]; A A A pays 6.
    Reel 2 shows (B, W), (W, B), (B, B). Plain, only stop 1 puts W on the line: 6 x 1/3
    = 2. Expanding (1/4 of spins), stops 0 and 1 fill reel 2 with W: 6 x 2/3 = 4. E[X] =
    3/4 x 2 + 1/4 x 4 = 5/2; E[X^2] = 3/4 x 36/3 + 1/4 x 72/3 = 15, variance 15 - 25/4
    = 35/4; hit 3/4 x 1/3 + 1/4 x 2/3 = 5/12."""
    tables = compile_machine(_two_rows(tmp_path, BODY, HAND))
    lvl = compute_exact(tables).levels[0]
    assert lvl.rtp == pytest.approx(5 / 2, rel=1e-14)
    assert lvl.variance == pytest.approx(35 / 4, rel=1e-14)
    assert lvl.hit_frequency == pytest.approx(5 / 12, rel=1e-14)
    assert mean_return(tables, tables.levels[0]) == pytest.approx(5 / 2, rel=1e-14)
    assert twin.brute_force(tables.machine, 0)["rtp"] == Fraction(5, 2)


FREE = """[[scatter_pays]]
symbol = "S"
count = 2
pays = 1
[free_spins]
trigger = {symbol = "S", count = 2}
spins = 2
retrigger = true
max_spins = 6
"""


@RULE_SETTINGS
@given(
    three_strips(),
    st.integers(1, 5),
    st.integers(6, 9),
    st.booleans(),
)
def test_exact_equals_the_twin(tmp_path_factory, strips, k, n, free):
    """Random reels of A, B, a wild W expanding with chance k/n and a scatter S, two
    rows and two lines, with and without retriggered free spins (the mode drawn for
    each free spin too): return, variance and hit frequency equal the twin's brute
    force to 1e-12."""
    body = BODY.replace("[1, 4]", f"[{k}, {n}]").replace(
        "W = {kind", 'S = {kind = "scatter"}\nW = {kind'
    )
    body += '[[pays]]\ncombo = ["B", "B"]\npays = 1\n' + (FREE if free else "")
    m = two_row_game(tmp_path_factory, strips, body)
    assert_exact_equals_twin(m, twin.brute_force(m, 0))


def test_the_simulation_draws_the_mode(tmp_path):
    """The hand game (E[X] = 5/2): the simulation lies within z(0.999) sigma / sqrt(n)
    of it, and far from the plain game's 2 and the always-expanding game's 4."""
    tables = compile_machine(_two_rows(tmp_path, BODY, HAND))
    exact = compute_exact(tables).levels[0]
    n = 1_000_000
    sim = simulate(tables, 0, n, seed=3)
    half = z_value(0.999) * exact.sigma / math.sqrt(n)
    assert abs(sim.rtp - exact.rtp) < half
    assert min(abs(exact.rtp - 2), abs(exact.rtp - 4)) > 20 * half


def test_outcome_logs_are_not_replayed(tmp_path):
    """The mode is not in the stops: the replay model says why it does not replay."""
    _two_rows(tmp_path, BODY, HAND)
    model = _machine_model(tmp_path / "g.toml")
    assert "mode drawn for each spin" in model.not_replayed


@pytest.mark.parametrize(
    ("new", "path"),
    [
        ("expands = {chance = [4, 4]}", "symbols.W.expands.chance"),
        ("expands = {chance = [0, 4]}", "symbols.W.expands.chance[0]"),
        ("expands = {chance = 4}", "symbols.W.expands.chance"),
        ("expands = {odds = [1, 4]}", "symbols.W.expands.odds"),
        ("expands = {chance = [1, 4]}, sticky = true", "symbols.W.expands"),
    ],
    ids=["certain", "zero", "not-a-pair", "unknown-key", "with-sticky"],
)
def test_a_bad_chance_is_located(tmp_path, new, path):
    """A chance of 1 or 0, not a pair, an unknown key, or a rule it is not played with
    (sticky wilds) is a located error."""
    body = BODY.replace("expands = {chance = [1, 4]}", new, 1)
    assert body != BODY
    with pytest.raises(ModelError) as err:
        _two_rows(tmp_path, body, HAND)
    assert path in {p.path for p in err.value.problems}
