"""A wild whose multiplier is drawn at each spin: ``W = {kind = "wild", multiplier = {v = w}}``.

Real cabinets draw the wild's multiplier per reel and spin (slotopol's CT Smiley
x Wild: reels 2 and 4 each draw one, a line multiplies those of its wilds).
Oracles: hand calculations in the docstrings (exact fractions), the published
figure of a real game, the pure-Python twin (tests/twins/lines.py ``windows``:
its own enumeration of the draws), and simulation inside the exact interval.
"""

from __future__ import annotations

import math

import pytest
import test_twin_rules as T
from testpaths import DATA
from twins.check import assert_exact_equals_twin

from certify.engine import compile_machine, simulate
from certify.errors import ModelError
from certify.exact import compute_exact
from certify.model import load_machine
from certify.outcomes.record import record_outcomes
from certify.outcomes.verify import _machine_model
from certify.stats import z_value
from reports.paytable import render_pay_glass

SMILEY = DATA / "real" / "ct_smiley_x_wild.toml"


def body(draws: str = "{2 = 1, 3 = 1}") -> str:
    """A A A pays 1; W substitutes A with a multiplier drawn from ``draws``."""
    return f"""
[symbols]
A = {{kind = "regular"}}
W = {{kind = "wild", multiplier = {draws}}}
[[pays]]
combo = ["A", "A", "A"]
pays = 1
"""


def test_one_reel_by_hand(tmp_path):
    """Reels [A], [A, W], [A], one line. A A A (1/2) pays 1; A W A (1/2) pays 2 or 3
    (1/2 each). Mean 1/2 + 1/2 x 5/2 = 7/4; E[X^2] = 1/2 + 1/2 x 13/2 = 15/4;
    variance 15/4 - 49/16 = 11/16."""
    m = T.game(tmp_path, body(), 'strips = [["A"], ["A", "W"], ["A"]]')
    lvl = compute_exact(m).levels[0]
    assert lvl.rtp == pytest.approx(7 / 4, rel=1e-14)
    assert lvl.variance == pytest.approx(11 / 16, rel=1e-14)


def test_one_draw_per_reel_by_hand(tmp_path):
    """Two rows, two lines, reels [A], [W], [A] with W drawing 1 or 3: both lines pay
    1 x M with the same M (one draw per reel). Spin X = 2M: mean 4, E[X^2] = 4 x 5 = 20,
    variance 4; per total bet 2: return 2, variance 1. (Independent draws per cell
    would give variance 2 / 4 = 1/2.)"""
    reels = 'strips = [["A"], ["W"], ["A"]]\npaylines = [[0, 0, 0], [1, 1, 1]]'
    text = T.HEAD.format(id="G", bet="lines = 2\nbet_levels = [1]", reels=reels)
    path = tmp_path / "g.toml"
    path.write_text(text.replace("rows = 1", "rows = 2") + body("{1 = 1, 3 = 1}"))
    lvl = compute_exact(load_machine(path)).levels[0]
    assert lvl.rtp == pytest.approx(2.0, rel=1e-14)
    assert lvl.variance == pytest.approx(1.0, rel=1e-14)


def test_smiley_x_wild_published_figure():
    """CT Smiley x Wild, reel set "88.827460" of slotopol's smileyxwild_data.yaml:
    "RTP = 85.489(lined) + 3.3383(scatter) = 88.827460%" (tests/data/real/SOURCES.md)."""
    m = load_machine(SMILEY)
    for lvl in compute_exact(m).levels:
        assert round(lvl.rtp * 100, 6) == 88.827460


@pytest.mark.parametrize("rule", ["product", "max", "sum"])
def test_exact_equals_twin(tmp_path, rule):
    """Wilds drawing on every reel, a literal W W W entry, scatters and free spins
    (x2, retrigger, cap): return, variance, hit frequency and award probabilities
    equal the twin's brute force to 1e-12, under each wild_multiplier rule."""
    text = (
        body("{1 = 1, 2 = 2, 5 = 1}")
        + """
[[pays]]
combo = ["W", "W", "W"]
pays = 7
[[pays]]
combo = ["B", "B"]
pays = 1
[[scatter_pays]]
symbol = "S"
count = 2
pays = 1
[free_spins]
trigger = {symbol = "S", count = 2}
spins = 2
multiplier = 2
retrigger = true
max_spins = 6
strips = [["W", "S", "A"], ["A", "B", "S"], ["W", "B", "A"]]
"""
    )
    text = text.replace(
        'A = {kind = "regular"}',
        'A = {kind = "regular"}\nB = {kind = "regular"}\nS = {kind = "scatter"}',
    )
    reels = 'strips = [["A", "W", "B", "S"], ["W", "A", "B"], ["B", "W", "A", "S"]]'
    m = T.game(tmp_path, text, reels, bet="lines = 1\nbet_levels = [1, 2]", wild_multiplier=rule)
    assert_exact_equals_twin(m, awards=True)


def test_simulation_inside_the_exact_interval():
    """Smiley x Wild: the kernels draw the reels' multipliers; the simulated return
    lies within z(0.999) sigma / sqrt(n) of the exact one."""
    tables = compile_machine(load_machine(SMILEY))
    exact = compute_exact(tables).levels[0]
    n = 400_000
    sim = simulate(tables, 0, n, seed=13)
    assert abs(sim.rtp - exact.rtp) < z_value(0.999) * exact.sigma / math.sqrt(n)


def test_outcome_replay_says_it_cannot_replay_the_draw(tmp_path):
    """The log format has no field for a reel's drawn multiplier: record refuses such a
    game, naming why, and verify counts its screens as not replayed (its stops are still
    tested), as for reels of variable height (docs/OUTCOMES.md)."""
    from certify.errors import UsageError

    T.game(tmp_path, body(), 'strips = [["A", "W"], ["A", "W"], ["A", "W"]]')
    rm = _machine_model(tmp_path / "g.toml")
    assert "drawn multipliers" in rm.not_replayed
    with pytest.raises(UsageError, match="drawn multipliers"):
        record_outcomes(rm, 10, 1, tmp_path / "log.jsonl")


def test_pay_glass_states_the_draw():
    text = render_pay_glass(load_machine(SMILEY))
    assert "cada rolo sorteia um multiplicador para o seu W" in text
    assert "x1 (20.00%), x2 (20.00%), x3 (20.00%), x4 (20.00%), x5 (20.00%)" in text


@pytest.mark.parametrize(
    ("draws", "message"),
    [("{0 = 1}", "key must be a multiplier >= 1"), ("{2 = 0}", "must be at least 1"), ("{}", "")],
)
def test_bad_draws_are_located(tmp_path, draws, message):
    with pytest.raises(ModelError) as err:
        T.game(tmp_path, body(draws), 'strips = [["A", "W"], ["A"], ["A"]]')
    assert "symbols.W.multiplier" in str(err.value) and message in str(err.value)


def test_screen_games_refuse_the_draw(tmp_path):
    from certify.engine.tables import refuse_unsupported

    m = T.game(
        tmp_path, body() + '[cascade]\nrefill = "strip"\n', 'strips = [["A", "W"], ["A"], ["A"]]'
    )
    with pytest.raises(ModelError) as err:
        refuse_unsupported(m)
    assert "symbols.W.multiplier" in str(err.value)


def test_draw_weights_that_overflow_are_located(tmp_path):
    """Two draw weights of 2^63 - 1: before, an internal OverflowError while building the
    reels; now the weight bound names the wild's key (the reel total includes the draw)."""
    big = "{2 = 9223372036854775807, 3 = 9223372036854775807}"
    m = T.game(tmp_path, body(big), 'strips = [["A", "W"], ["A"], ["A"]]')
    with pytest.raises(ModelError) as err:
        compile_machine(m)
    assert "symbols.W.multiplier" in str(err.value) and "2^63 - 1" in str(err.value)
