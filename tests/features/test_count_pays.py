"""Count pays of regular and wild symbols, and more than 8 counted symbols.

CT Interactive Caribbean Adventure (slotopol ``ct/caribbeanadventure``, ScanBonScat):
in its free spins every symbol, the wild as itself, pays by its count anywhere in
the window, and no line pays. A ``[[scatter_pays]]`` entry may name a regular or
wild symbol: counted as it landed (one a cell, a wild as itself only), still
playing on the lines. Such a game counts 13 symbols: the packed counts word
(8 bits a symbol up to 8 symbols) narrows its fields (4 bits for 13 to 16).
Oracles: a hand count, the pure-Python twin (tests/twins), simulation inside the
exact interval, outcome replay; the real game's printed figures are in
tests/exact/test_real_games.py.
"""

from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
import test_twin_rules as T
from rule_checks import replay_files_tell_apart
from twins import lines as twin
from twins.check import assert_exact_equals_twin

from certify.engine import compile_machine, simulate
from certify.engine.kernel_inputs import alarm_words, game_inputs
from certify.engine.prefix import count_width, pack_counts
from certify.errors import ModelError
from certify.exact import compute_exact
from certify.model import load_machine
from certify.stats import z_value
from reports.paytable import render_pay_glass

ROOT = Path(__file__).resolve().parents[2]
MANY = ROOT / "tests/data/rules/count_pays_many.toml"
REF = ROOT / "models/machines/ref-5x3-20.toml"

HAND = """
[symbols]
A = {kind = "regular"}
B = {kind = "regular"}
W = {kind = "wild"}
[[pays]]
combo = ["A", "A", "A"]
pays = 2
[[scatter_pays]]
symbol = "A"
count = 2
pays = 1
[[scatter_pays]]
symbol = "W"
count = 2
pays = 4
"""
HAND_REELS = 'strips = [["A", "W"], ["A", "W"], ["A", "B"]]'


def test_count_pays_by_hand(tmp_path):
    """One line, reels [A, W], [A, W], [A, B] (8 windows, each 1/8, total bet 1 credit).
    A A A pays 2 on the line (W stands for A); 2 or more A anywhere pay 1; 2 W pay 4.
    A A A: 2 + 1 = 3; A A B: 0 + 1 = 1; A W A: 2 + 1 = 3; A W B: 0; W A A: 2 + 1 = 3;
    W A B: 0; W W A: 2 + 4 = 6; W W B: 4. Sum 20: return 20/8 = 5/2. A wild counts as
    itself only: were it counted as A too, A W B, W A B, W W A and W W B would reach
    2 A and add 1 each (24/8 = 3)."""
    m = T.game(tmp_path, HAND, HAND_REELS)
    assert compute_exact(m).levels[0].rtp == pytest.approx(2.5, rel=1e-14)
    assert twin.brute_force(m, 0)["rtp"] == Fraction(5, 2)


def test_many_counted_symbols_exact_equals_the_twin():
    """13 counted symbols (4-bit fields), count pays of the wild and 11 regular symbols,
    mostly in the free spins: return, variance and hit rate equal the twin's."""
    assert_exact_equals_twin(load_machine(MANY))


def test_many_counted_symbols_simulated_inside_the_exact_interval():
    """The kernels read 4-bit counts (the alarm testing each field's high bits): the
    simulated return lies within z(0.999) sigma / sqrt(n) of the exact one."""
    tables = compile_machine(load_machine(MANY))
    exact = compute_exact(tables).levels[0]
    n = 400_000
    sim = simulate(tables, 0, n, seed=17)
    assert abs(sim.rtp - exact.rtp) < z_value(0.999) * exact.sigma / math.sqrt(n)


def test_the_packed_width_follows_the_game():
    """8 bits a count up to 8 counted symbols (every existing game's word as it was:
    ``sum(count_k << 8k)``), 64 // n bits beyond; the reference game keeps 8."""
    assert [count_width(n) for n in (0, 1, 8, 9, 10, 12, 13, 16, 17)] == [8, 8, 8, 7, 6, 5, 4, 4, 3]
    counts = np.random.default_rng(5).integers(0, 128, size=(50, 8))
    old = sum(counts[:, k].astype(np.uint64) << np.uint64(8 * k) for k in range(8))
    assert np.array_equal(pack_counts(counts), old)
    assert game_inputs(compile_machine(load_machine(REF))).count_width == 8
    t = compile_machine(load_machine(MANY))
    assert len(t.counted_names) == 13 and game_inputs(t).count_width == 4


def test_the_alarm_fires_at_every_paying_count_of_a_4_bit_field():
    """Every count of a field from its lowest paying or triggering count up sets the
    alarm; no field's test carries into the next (each field alone, 0 to 15)."""
    t = compile_machine(load_machine(MANY))
    level = t.levels[0]
    add, mask = (int(x) for x in alarm_words(level, t))
    for c, name in enumerate(t.counted_names):
        paying = np.nonzero(level.scatter_pay[c] | level.scatter_pay_fs[c])[0]
        low = min([int(paying[0])] if paying.size else [99])
        low = min(low, t.fs_min) if c == t.fs_counted else low
        for k in range(16):
            word = k << (4 * c)
            fired = ((word + add) & mask) != 0
            if k >= low:
                assert fired, (name, k)
            assert ((word + add) >> (4 * (c + 1))) == (add >> (4 * (c + 1))), (name, k)


def test_outcome_replay_holds_the_machine_to_the_count_pays(tmp_path):
    """A log recorded by the game passes against its model and fails the payout check,
    in the free spins, against the same game whose G count pays nothing there."""
    (tmp_path / "on").mkdir()
    (tmp_path / "off").mkdir()
    text = MANY.read_text()
    (tmp_path / "on" / "g.toml").write_text(text)
    g = 'symbol = "G"\ncount = 1\npays = 0\nfree_spins_pays = 1'
    assert g in text
    (tmp_path / "off" / "g.toml").write_text(text.replace(g, g[:-1] + "0"))
    bad = replay_files_tell_apart(tmp_path, tmp_path / "on" / "g.toml", tmp_path / "off" / "g.toml")
    assert {m["kind"] for m in bad.mismatches} == {"payout"}
    assert {m["phase"] for m in bad.mismatches} == {"free"}


WITH_S = HAND.replace('W = {kind = "wild"}', 'W = {kind = "wild"}\nS = {kind = "scatter"}') + (
    '[[scatter_pays]]\nsymbol = "S"\ncount = 2\npays = 1\n'
)
REFUSED = {
    "a blank symbol": (
        HAND.replace('W = {kind = "wild"}', 'W = {kind = "wild"}\n_ = {kind = "blank"}').replace(
            'symbol = "A"', 'symbol = "_"'
        ),
        "scatter_pays[0].symbol",
        "'_' is blank",
    ),
    "a cascade": (
        HAND + '[cascade]\nrefill = "strip"\nmax_screens = 5\n',
        "scatter_pays[0].symbol",
        "not played in screen games",
    ),
    "an exclusive group": (WITH_S, "rules.exclusive_scatters", "not ranked with the scatters"),
    "a bonus game": (
        HAND.replace("count = 2\npays = 1", "count = 2\npays = 1\nbonus = true")
        + "[bonus]\nawards = [{pays = 1, weight = 1}]\n",
        "scatter_pays[0].bonus",
        "does not play a bonus game",
    ),
}


@pytest.mark.parametrize("label", list(REFUSED))
def test_a_count_pay_where_it_is_not_played_is_a_located_error(tmp_path, label):
    text, where, message = REFUSED[label]
    rules = {"exclusive_scatters": ["A", "S"]} if label == "an exclusive group" else {}
    with pytest.raises(ModelError) as err:
        T.game(tmp_path, text, HAND_REELS, **rules)
    assert where in str(err.value) and message in str(err.value)


def test_counts_that_do_not_fit_their_fields_are_a_located_error(tmp_path):
    """13 counted symbols pack 4 bits each (counts up to 15); a 5 x 4 window counts up
    to 20: refused by the engine's limits, located at scatter_pays."""
    path = tmp_path / "g.toml"
    path.write_text(MANY.read_text().replace("rows = 3", "rows = 4"))
    with pytest.raises(ModelError) as err:
        compile_machine(load_machine(path))
    text = str(err.value)
    assert "scatter_pays" in text and "4 bits" in text and "up to 20" in text


def test_the_pay_glass_tells_each_count_pay():
    """The pay-glass's scatter rules: A pays by its count in the base game too (9 or
    more: 1), besides its lines; B only in the free spins (``pays = 0``); the scatter S
    keeps its own rule, no count-pay sentence."""
    text = render_pay_glass(load_machine(MANY))
    assert "A also pays by its count in any position" in text
    assert "A pays by its count in any position during the free spins only" not in text
    assert "B pays by its count in any position during the free spins only" in text
    assert "S pays by its count" not in text and "S also pays by its count" not in text
