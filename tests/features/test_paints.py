"""``paints``: a symbol that turns the block of cells around where it lands into a wild.

CT Interactive's Cherry Crown and Colibri Wild (a wild on reel 1 turns reels 1-3,
from its row down, wild), Money Pipe (the same, with free spins) and Chilli Bomb
(a chilli on reel 3 turns the 3x3 block around it wild). The block crosses
reels, so the engine plays each phase as one reel set per combination of the
painting reels' signatures (``certify/engine/paint.py``) and the exact
calculator adds their cycles up. Oracles: slotopol's brute-force figures for the
four real games (tests/exact/test_real_games.py), a hand count (docstring), the twin's brute force
(``tests/twins/lines.py painted``: its own reading of the window) on random
games, and the simulation inside the exact interval.
"""

from __future__ import annotations

import math

import pytest
import test_twin_rules as T
from hypothesis import given
from hypothesis import strategies as st
from rule_checks import (
    RULE_SETTINGS,
    assert_exact_equals_twin,
    assert_replay_tells_apart,
    three_strips,
    two_row_game,
)
from twins import lines as twin

from certify.engine import compile_machine, simulate
from certify.errors import ModelError
from certify.exact import compute_exact
from certify.exact.contributions import level_contributions
from certify.exact.decompose import mean_return
from certify.stats import z_value

BODY = """
[symbols]
A = {kind = "regular"}
B = {kind = "regular"}
W = {kind = "wild", paints = {reels = [1], right = 2}}
S = {kind = "scatter"}
[[pays]]
combo = ["A", "A", "A"]
pays = 2
[[pays]]
combo = ["B", "B", "B"]
pays = 3
[[pays]]
combo = ["W", "W", "W"]
pays = 10
[[scatter_pays]]
symbol = "S"
count = 2
pays = 1
"""
HAND = 'strips = [["W", "A", "B"], ["A", "B", "S"], ["A", "B", "S"]]'


def test_the_block_by_hand(tmp_path):
    """Reels [W, A, B], [A, B, S], [A, B, S], one row and line; a W on reel 1 turns
    reels 1-3 wild except S. W first (9): W W W pays 10 for the 4 windows without S,
    W S S's two S pay 1, the 4 with one S nothing; A first: A A A 2, A S S 1; B first:
    B B B 3, B S S 1. E[X] = (40 + 1 + 3 + 4) / 27 = 48/27; E[X^2] = (400 + 1 + 5 +
    10) / 27 = 416/27, variance 416/27 - (48/27)^2 = 8928/729; hit 9/27. Unpainted,
    W A A and W B B pay 2 and 3: 13/27."""
    tables = compile_machine(T.game(tmp_path, BODY, HAND))
    lvl = compute_exact(tables).levels[0]
    assert lvl.rtp == pytest.approx(48 / 27, rel=1e-14)
    assert lvl.variance == pytest.approx(8928 / 729, rel=1e-13)
    assert lvl.hit_frequency == pytest.approx(1 / 3, rel=1e-14)
    assert mean_return(tables, tables.levels[0]) == pytest.approx(48 / 27, rel=1e-14)
    rows = {r.combo: r for r in level_contributions(tables, tables.levels[0]).base}
    assert rows[("W", "W", "W")].probability == pytest.approx(4 / 27, rel=1e-14)
    assert rows[("A", "A", "A")].probability == pytest.approx(1 / 27, rel=1e-14)


FREE = """[free_spins]
trigger = {symbol = "S", count = 2}
spins = 2
retrigger = true
max_spins = 6
"""


@RULE_SETTINGS
@given(
    three_strips(("A", "B", "C", "W", "S")),
    st.lists(st.integers(1, 3), min_size=1, max_size=2, unique=True),
    st.tuples(*[st.integers(0, 2)] * 4),
    st.booleans(),
)
def test_exact_equals_the_twin(tmp_path_factory, strips, reels, block, free):
    """Random reels of A, B, a wild W and a scatter, where C paints W on the given
    reels over a random block (three reels, two rows, two lines), with and without
    retriggered free spins: return, variance and hit frequency equal the twin's brute
    force to 1e-12."""
    left, right, up, down = block
    paint = f"{{reels = {reels}, into = 'W', left = {left}, right = {right}, up = {up}, "
    paint += f"down = {down}}}"
    body = f"""
[symbols]
A = {{kind = "regular"}}
B = {{kind = "regular"}}
C = {{kind = "regular", paints = {paint}}}
W = {{kind = "wild"}}
S = {{kind = "scatter"}}
[[pays]]
combo = ["A", "A", "A"]
pays = 3
[[pays]]
combo = ["B", "B"]
pays = 1
[[pays]]
combo = ["W", "W", "W"]
pays = 7
[[scatter_pays]]
symbol = "S"
count = 2
pays = 2
"""
    body += FREE if free else ""
    m = two_row_game(tmp_path_factory, strips, body)
    assert_exact_equals_twin(m, twin.brute_force(m, 0))


def test_the_simulation_paints(tmp_path):
    """The hand game (E[X] = 48/27): the simulation lies within z(0.999) sigma /
    sqrt(n) of it, while the unpainted game's 13/27 is dozens of intervals away."""
    tables = compile_machine(T.game(tmp_path, BODY, HAND))
    exact = compute_exact(tables).levels[0]
    n = 1_000_000
    sim = simulate(tables, 0, n, seed=11)
    half = z_value(0.999) * exact.sigma / math.sqrt(n)
    assert abs(sim.rtp - exact.rtp) < half
    assert abs(exact.rtp - 13 / 27) > 20 * half


def test_outcome_replay_holds_the_machine_to_the_block(tmp_path):
    """A log of the painting machine passes against its model and fails against the
    same game whose wild paints nothing."""
    off = BODY.replace(", paints = {reels = [1], right = 2}", "") + FREE
    assert_replay_tells_apart(tmp_path, BODY + FREE, off, HAND)


@pytest.mark.parametrize(
    ("old", "new", "path"),
    [
        ("right = 2}", "right = 2, into = 'A'}", "symbols.W.paints.into"),
        ("right = 2}", "right = 2, into = 'Z'}", "symbols.W.paints.into"),
        ("reels = [1]", "reels = [4]", "symbols.W.paints.reels"),
        ("reels = [1]", "reels = []", "symbols.W.paints.reels"),
        ("right = 2}", "right = -1}", "symbols.W.paints.right"),
        ("right = 2}", "right = 2, size = 3}", "symbols.W.paints.size"),
        ('kind = "wild", paints', 'kind = "wild", expands = true, paints', "symbols.W.paints"),
    ],
    ids=[
        "into-regular",
        "into-unknown",
        "reel-beyond",
        "no-reel",
        "negative",
        "unknown-key",
        "with-expands",
    ],
)
def test_a_bad_block_is_located(tmp_path, old, new, path):
    """A block into a symbol that is not a wild, on a reel the game lacks, with a
    negative or unknown key, or with a feature it is not played with (``expands``) is
    a located error."""
    body = BODY.replace(old, new, 1)
    assert body != BODY
    with pytest.raises(ModelError) as err:
        T.game(tmp_path, body, HAND)
    assert path in {p.path for p in err.value.problems}
