"""``consecutive = n`` and ``free_spins.multiplier_by_count`` (Novomatic Jaguar Moon).

A scatter counted only on the reels in a row from reel 1 that show it (its
cells there), and only where at least ``n`` reels in a row do; the free spins
multiplied by the count that started them. The reel sets are split into parts
by which leading reels show the scatter (``certify/engine/runs.py``), each an
ordinary set counting its own run. Oracles: a hand count (docstrings), the
twin's brute force (``tests/twins/lines.py counted``, ``features.py _by_count``,
written from the rule's text) on random games, the simulation inside the exact
interval, an outcome log told apart from the game without the rule, and
slotopol's own brute force for Jaguar Moon (tests/exact/test_real_games.py).
"""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
import test_twin_rules as T
from hypothesis import given
from hypothesis import strategies as st
from rule_checks import RULE_SETTINGS, assert_replay_tells_apart, three_strips, two_row_game
from testpaths import DATA
from twins import features as twin

from certify.engine import compile_machine, simulate
from certify.errors import ModelError
from certify.exact import compute_exact
from certify.exact.contributions import level_contributions
from certify.exact.decompose import mean_return
from certify.model import load_machine
from certify.outcomes.model import replay_model
from certify.stats import z_value

PAYS = """[[pays]]
combo = ["A", "A", "A"]
pays = 2
[[scatter_pays]]
symbol = "S"
count = 2
pays = 1
[[scatter_pays]]
symbol = "S"
count = 3
pays = 5
"""
PLAIN = '[symbols]\nA = {kind = "regular"}\nS = {kind = "scatter"}\n' + PAYS
BODY = PLAIN.replace('{kind = "scatter"}', '{kind = "scatter", consecutive = 2}')
FREE = """[free_spins]
trigger = {symbol = "S", count = 2}
spins = 1
multiplier_by_count = {2 = 2, 3 = 3}
"""
HAND = 'strips = [["S", "A"], ["S", "A"], ["S", "A"]]'


def test_the_rules_by_hand(tmp_path):
    """Reels [S, A] x 3, one row and line. A A A (1/8) pays 2. Counted on consecutive
    reels (2 at least): S S A (1/8) counts 2 and pays 1, S S S (1/8) counts 3 and pays
    5; S A S and A S S count nothing: E[X] = 2/8 + 1/8 + 5/8 = 1. Counted anywhere
    the 3 spins with two S pay 1: E[X] = 2/8 + 3/8 + 5/8 = 5/4. With 1 free spin on
    the same reels (worth 1 at x1) multiplied by the count that started it (x2 for 2,
    x3 for 3): E[X] = 1 + 1/8 x 2 + 1/8 x 3 = 13/8."""
    on = compile_machine(T.game(tmp_path, BODY, HAND))
    assert compute_exact(on).levels[0].rtp == pytest.approx(1.0, rel=1e-14)
    assert twin.brute_force(on.machine, 0)["rtp"] == 1
    (tmp_path / "p").mkdir()
    plain = compute_exact(compile_machine(T.game(tmp_path / "p", PLAIN, HAND))).levels[0]
    assert plain.rtp == pytest.approx(5 / 4, rel=1e-14)
    (tmp_path / "f").mkdir()
    free = compile_machine(T.game(tmp_path / "f", BODY + FREE, HAND))
    lvl = compute_exact(free).levels[0]
    assert lvl.rtp == pytest.approx(13 / 8, rel=1e-14)
    assert twin.brute_force(free.machine, 0)["rtp"] == Fraction(13, 8)
    par = level_contributions(free, free.levels[0])  # the PAR's rows add up to it
    assert par.base_rtp == pytest.approx(13 / 8, rel=1e-14)
    assert mean_return(free, free.levels[0]) is None  # not decomposed: said, not guessed


@RULE_SETTINGS
@given(three_strips(), st.integers(1, 3), st.booleans())
def test_exact_equals_the_twin(tmp_path_factory, strips, least, by_count):
    """Random reels of A, B, a wild W and a scatter S, two rows and two lines, S
    counted on ``least`` or more consecutive reels (its pays and the free spins it
    starts, 2 or 3 of them on their own strips, x2 or x3 by count or x2 for any):
    return, variance and hit frequency equal the twin's brute force to 1e-12."""
    body = BODY.replace("consecutive = 2", f"consecutive = {least}")
    body = body.replace('A = {kind = "regular"}', 'A = {kind = "regular"}\nB = {kind = "regular"}')
    body = body.replace("S = {kind", 'W = {kind = "wild"}\nS = {kind')
    free = FREE.replace("spins = 1", "spins = {2 = 2, 3 = 3}")
    if not by_count:
        free = free.replace("multiplier_by_count = {2 = 2, 3 = 3}", "multiplier = 2")
    free += 'strips = [["A", "S", "B"], ["W", "S"], ["S", "A", "B", "W"]]\n'
    m = two_row_game(tmp_path_factory, strips, body + free)
    ref = twin.brute_force(m, 0)
    lvl = compute_exact(m).levels[0]
    assert lvl.rtp == pytest.approx(float(ref["rtp"]), rel=1e-12)
    assert lvl.variance == pytest.approx(float(ref["variance"]), rel=1e-12, abs=1e-12)
    assert lvl.hit_frequency == pytest.approx(float(ref["hit_frequency"]), rel=1e-12)
    assert lvl.free_spins_rtp == pytest.approx(float(ref["free_spins_rtp"]), rel=1e-12, abs=1e-15)


def test_the_rules_model_equals_the_twin():
    """tests/data/rules/consecutive_scatters.toml (S stacked on reels 1 and 3, 4 reels,
    free spins x2/x3/x5 by count): every bet level equals the twin to 1e-12, and the
    rules' figures differ from the same game counted anywhere at x1."""
    m = load_machine(DATA / "rules" / "consecutive_scatters.toml")
    ex = compute_exact(m)
    for li, lvl in enumerate(ex.levels):
        ref = twin.brute_force(m, li)
        assert lvl.rtp == pytest.approx(float(ref["rtp"]), rel=1e-12)
        assert lvl.variance == pytest.approx(float(ref["variance"]), rel=1e-12)
        assert lvl.fs_probability == pytest.approx(float(ref["fs_probability"]), rel=1e-12)


def test_the_simulation_lies_in_the_exact_interval(tmp_path):
    """The hand game with its free spins (E[X] = 13/8): the simulation lies within
    z(0.999) sigma / sqrt(n) of it, and far from the game counted anywhere."""
    tables = compile_machine(T.game(tmp_path, BODY + FREE, HAND))
    exact = compute_exact(tables).levels[0]
    n = 2_000_000
    sim = simulate(tables, 0, n, seed=9)
    half = z_value(0.999) * exact.sigma / math.sqrt(n)
    assert abs(sim.rtp - exact.rtp) < half
    (tmp_path / "p").mkdir()
    plain = compute_exact(compile_machine(T.game(tmp_path / "p", PLAIN + FREE, HAND))).levels[0]
    assert abs(plain.rtp - exact.rtp) > 5 * half


def test_a_ways_game_in_parts_simulates_inside_the_exact_interval():
    """Jaguar Moon (243 ways, its base game split into 8 parts by which of reels 1-3
    show the scatter): 2,000,000 simulated spins lie within z(0.999) sigma / sqrt(n)
    of the exact figure (the server's printed 96.146762%, tests/exact/test_real_games.py).

    The ways kernels once read the group-draw count of a part past the per-phase
    array (garbage counts: the simulation never finished).
    """
    tables = compile_machine(load_machine(DATA / "real" / "novomatic_jaguar_moon.toml"))
    exact = compute_exact(tables).levels[0]
    assert exact.rtp == pytest.approx(0.96146762, abs=5e-9)
    n = 2_000_000
    sim = simulate(tables, 0, n, seed=5)
    assert abs(sim.rtp - exact.rtp) < z_value(0.999) * exact.sigma / math.sqrt(n)


def test_outcome_replay_holds_the_machine_to_the_rule(tmp_path):
    """A log of the machine passes against its model and fails against the game that
    counts S anywhere (its S A S spins paid 1 there)."""
    assert_replay_tells_apart(tmp_path, BODY, PLAIN, HAND)


def test_free_spins_by_count_are_not_replayed(tmp_path):
    """A free spin's multiplier is its feature's start, which a replayed spin does not
    carry: the replay says so instead of guessing."""
    model = replay_model(T.game(tmp_path, BODY + FREE, HAND))
    assert "trigger's count" in model.not_replayed


@pytest.mark.parametrize(
    ("body", "path"),
    [
        (BODY.replace('A = {kind = "regular"}', 'A = {kind = "regular", consecutive = 2}'), "A"),
        (BODY.replace("consecutive = 2", "consecutive = 0"), "S"),
        (BODY.replace("consecutive = 2", "consecutive = 4"), "S"),
        (BODY.replace("consecutive = 2", "consecutive = 2, wilds_count = true"), "S"),
        (BODY + FREE.replace("spins = 1", "spins = 1\nmultiplier = 2"), "free_spins"),
        (BODY + FREE.replace("{2 = 2, ", "{"), "free_spins.multiplier_by_count"),
    ],
    ids=["regular", "zero", "beyond-reels", "wilds-count", "with-multiplier", "no-count-key"],
)
def test_a_bad_value_is_located(tmp_path, body, path):
    """``consecutive`` on a regular symbol, below 1, beyond the reels or with
    ``wilds_count``; ``multiplier_by_count`` with a ``multiplier``, or with no entry
    at the trigger's count: located errors."""
    with pytest.raises(ModelError) as err:
        T.game(tmp_path, body, HAND)
    assert any(path in p.path for p in err.value.problems)


@pytest.mark.parametrize(
    ("extra", "key"),
    [
        ("retrigger = true\n", "free_spins.multiplier_by_count"),
        ('strips = [["S", "A"], ["S", "A"], ["S", "A"]]\n[cascade]\nrefill = "strip"\n', "S"),
    ],
    ids=["retrigger", "cascade"],
)
def test_an_unplayed_combination_is_refused(tmp_path, extra, key):
    """A retrigger with multipliers by count (cabinets keep the multiplier or take the
    new count's) and a consecutive scatter in a cascade: ``unsupported``, located."""
    body = BODY + FREE + extra
    with pytest.raises(ModelError) as err:
        compile_machine(T.game(tmp_path, body, HAND))
    assert any(key in p.path and p.code == "unsupported" for p in err.value.problems)
