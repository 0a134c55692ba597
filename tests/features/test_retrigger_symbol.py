"""``free_spins.retrigger_symbol``: free spins retriggered by another symbol than the trigger.

IGT Rich Girl: 3 diamonds start 3 free spins, and during them every free spin
showing a wild adds one (``retrigger_symbol = "W"``, ``retrigger_spins = {1 = 1}``).
The free spins' reel set counts the retrigger symbol in the trigger's place
(``certify/engine/tables.py``, ``recount``), so every engine reads it where it
reads a retrigger. Oracles: slotopol's brute-force figures for Rich Girl
(tests/exact/test_real_games.py), a hand count (docstring), the twin's brute
force (``tests/twins/lines.py``, counting the retrigger symbol itself) on random
games, and the simulation inside the exact interval.
"""

from __future__ import annotations

import math
from fractions import Fraction

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
from certify.exact.contributions import expected_free_spins
from certify.exact.decompose import mean_return
from certify.stats import z_value

FREE = """[free_spins]
trigger = {symbol = "S", count = 2}
spins = 1
retrigger = true
retrigger_symbol = "W"
retrigger_spins = {1 = 1}
max_spins = 3
"""
BODY = (
    """
[symbols]
A = {kind = "regular"}
W = {kind = "wild"}
S = {kind = "scatter"}
[[pays]]
combo = ["A", "A", "A"]
pays = 2
"""
    + FREE
)
BY_S = BODY.replace(
    'retrigger_symbol = "W"\nretrigger_spins = {1 = 1}', "retrigger_spins = {2 = 1}"
)
HAND = 'strips = [["A", "S"], ["A", "S"], ["A", "W"]]'


def test_the_feature_by_hand(tmp_path):
    """Reels [A, S], [A, S], [A, W], one row and line. A A (A or W) pays 2: 1/4, so a
    spin's line return is 1/2. S S (1/4) starts 1 free spin on the same reels; each free
    spin showing the W (1/2) adds one, at most 3 in all: E[N] = 1 + 1/2 + 1/4 = 7/4
    free spins of 1/2 each. E[X] = 1/2 + 1/4 x 7/4 x 1/2 = 23/32. Retriggered by S S
    instead (1/4 a spin): E[N] = 1 + 1/4 + 1/16 = 21/16, E[X] = 1/2 + 21/128."""
    tables = compile_machine(T.game(tmp_path, BODY, HAND))
    lvl = compute_exact(tables).levels[0]
    assert lvl.rtp == pytest.approx(23 / 32, rel=1e-14)
    assert mean_return(tables, tables.levels[0]) == pytest.approx(23 / 32, rel=1e-14)
    assert twin.brute_force(tables.machine, 0)["rtp"] == Fraction(23, 32)
    p_trigger, n_spins = expected_free_spins(tables)
    assert p_trigger == pytest.approx(1 / 4, rel=1e-14)
    assert n_spins == pytest.approx(1 / 4 * 7 / 4, rel=1e-14)
    (tmp_path / "s").mkdir()
    other = compute_exact(compile_machine(T.game(tmp_path / "s", BY_S, HAND))).levels[0]
    assert other.rtp == pytest.approx(1 / 2 + 21 / 128, rel=1e-14)


@RULE_SETTINGS
@given(
    three_strips(),
    st.integers(1, 2),
    st.integers(1, 2),
    st.booleans(),
)
def test_exact_equals_the_twin(tmp_path_factory, strips, least, adds, own):
    """Random reels of A, B, a wild W and a scatter S, two rows and two lines; 2+ S
    give 2 free spins (on their own strips or the base game's) and a free spin showing
    ``least`` or more W adds ``adds``, at most 6: return, variance and hit frequency
    equal the twin's brute force to 1e-12."""
    free = FREE.replace("spins = 1\n", "spins = 2\n").replace("max_spins = 3", "max_spins = 6")
    free = free.replace("{1 = 1}", f"{{{least} = {adds}}}")
    if own:
        free += 'strips = [["A", "W", "B"], ["W", "B", "S"], ["A", "B"]]\n'
    body = BODY.replace(FREE, free) + '[[pays]]\ncombo = ["B", "B"]\npays = 1\n'
    body = body.replace('W = {kind = "wild"}', 'W = {kind = "wild"}\nB = {kind = "regular"}')
    m = two_row_game(tmp_path_factory, strips, body)
    assert_exact_equals_twin(m, twin.brute_force(m, 0))


def test_the_simulation_counts_the_other_symbol(tmp_path):
    """The hand game (E[X] = 23/32): the simulation lies within z(0.999) sigma /
    sqrt(n) of it."""
    tables = compile_machine(T.game(tmp_path, BODY, HAND))
    exact = compute_exact(tables).levels[0]
    n = 2_000_000
    sim = simulate(tables, 0, n, seed=5)
    half = z_value(0.999) * exact.sigma / math.sqrt(n)
    assert abs(sim.rtp - exact.rtp) < half
    assert abs(exact.rtp - (1 / 2 + 21 / 128)) > 5 * half


def test_outcome_replay_holds_the_machine_to_the_retrigger(tmp_path):
    """A log of the machine passes against its model and fails against the game
    retriggered by the trigger symbol (its free screens with a W and no second S
    were not awarded there)."""
    assert_replay_tells_apart(tmp_path, BODY, BY_S, HAND)


@pytest.mark.parametrize(
    ("old", "new", "path"),
    [
        ('retrigger_symbol = "W"', 'retrigger_symbol = "Z"', "free_spins.retrigger_symbol"),
        ('retrigger_symbol = "W"', 'retrigger_symbol = "A"', "free_spins.retrigger_symbol"),
        ("retrigger_spins = {1 = 1}\n", "", "free_spins.retrigger_symbol"),
        ("retrigger = true\n", "", "free_spins.retrigger_spins"),
        (
            "max_spins = 3\n",
            'max_spins = 3\n[[scatter_pays]]\nsymbol = "S"\ncount = 2\npays = 1\n',
            "free_spins.retrigger_symbol",
        ),
    ],
    ids=["unknown", "regular", "no-table", "no-retrigger", "trigger-pays"],
)
def test_a_bad_retrigger_symbol_is_located(tmp_path, old, new, path):
    """An unknown or regular symbol, no table of what its counts add, no retrigger, or
    a trigger symbol that also pays as a scatter (the free spins count the retrigger
    symbol in its place) is a located error."""
    body = BODY.replace(old, new, 1)
    assert body != BODY
    with pytest.raises(ModelError) as err:
        T.game(tmp_path, body, HAND)
    assert path in {p.path for p in err.value.problems}
