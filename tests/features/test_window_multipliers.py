"""Symbols that multiply the spin by what the reels show.

``window_multiplier = k``: each cell showing the symbol (as landed) multiplies
the spin's line, ways and scatter wins by ``k`` (CT Interactive's Hell's Hot
7's: every wild in the window doubles every win). ``full_reel_multiplier``: a
reel whose cells all show the symbol multiplies them by a value, fixed or drawn
for that reel (CT Interactive's Rainbow Charm: x2, x2, x4 or x8). The exact
calculator enumerates the cycle with each stop's weight tilted by its factor
(``certify/exact/factors.py``). Oracles: slotopol's brute-force figures for the
two real games, hand counts (docstrings), the twin's brute force
(tests/twins/lines.py, its own reading of the window) on random games, and the
simulation inside the exact interval.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest
import test_twin_rules as T
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rule_checks import assert_replay_tells_apart
from twins import lines as twin

from certify.engine import compile_machine, simulate
from certify.errors import ModelError
from certify.exact import compute_exact
from certify.exact.decompose import mean_return
from certify.model import load_machine
from certify.outcomes.model import replay_model
from certify.stats import z_value

REAL = Path(__file__).parents[1] / "data" / "real"
CELLS = """
[symbols]
A = {kind = "regular"}
W = {kind = "wild", window_multiplier = 2}
S = {kind = "scatter"}
[[pays]]
combo = ["A", "A", "A"]
pays = 1
[[scatter_pays]]
symbol = "S"
count = 3
pays = 2
"""
AWS = 'strips = [["A", "W", "S"], ["A", "W", "S"], ["A", "W", "S"]]'
FULL = """
[symbols]
A = {kind = "regular"}
S = {kind = "scatter", full_reel_multiplier = {2 = 1, 4 = 1}}
[[pays]]
combo = ["A", "A", "A"]
pays = 1
[[scatter_pays]]
symbol = "S"
count = 2
pays = 1
[[scatter_pays]]
symbol = "S"
count = 3
pays = 5
"""
AS = 'strips = [["A", "S"], ["A", "S"], ["A", "S"]]'


def test_hells_hot_7s_reproduced():
    """CT Interactive Hell's Hot 7's, reel set "96.010262" of slotopol's
    hellshot7s_data.yaml (tests/data/real/SOURCES.md): "RTP = 89.022(lined) +
    6.9887(scatter) = 96.010262%", every wild in the window doubling the spin."""
    lvl = compute_exact(load_machine(REAL / "ct_hells_hot_7s.toml")).levels[0]
    assert lvl.line_rtp * 100 == pytest.approx(89.022, abs=5e-4)
    assert lvl.scatter_rtp * 100 == pytest.approx(6.9887, abs=5e-5)
    assert lvl.rtp * 100 == pytest.approx(96.010262, abs=5e-7)


def test_rainbow_charm_reproduced():
    """CT Interactive Rainbow Charm, reel set "92.016091" of slotopol's
    rainbowcharm_data.yaml: "RTP = 0(lined) + 92.016(scatter) = 92.016091%" (the
    server's scan puts the draws' mean 4 on every reel, which gives the same mean)."""
    lvl = compute_exact(load_machine(REAL / "ct_rainbow_charm.toml")).levels[0]
    assert lvl.rtp * 100 == pytest.approx(92.016091, abs=5e-7)
    assert lvl.line_rtp == 0.0  # no ways pays: all of it is scatters, not rounding
    assert lvl.scatter_rtp == pytest.approx(lvl.rtp, rel=1e-13)


def test_the_rules_data_file_equals_the_twin():
    """tests/data/rules/reel_multipliers.toml (every data-driven test plays it): all
    three multiplying rules and free games until 5 S, twin = exact to 1e-12."""
    m = load_machine(REAL.parent / "rules" / "reel_multipliers.toml")
    ex = compute_exact(m)
    for li in range(len(m.bet_levels)):
        ref, lvl = twin.brute_force(m, li), ex.levels[li]
        assert lvl.rtp == pytest.approx(float(ref["rtp"]), rel=1e-12)
        assert lvl.variance == pytest.approx(float(ref["variance"]), rel=1e-12)
        assert lvl.hit_frequency == pytest.approx(float(ref["hit_frequency"]), rel=1e-12)


def test_each_cell_multiplies_by_hand(tmp_path):
    """Reels [A, W, S] x 3, one row, one line: a window of A and W only (8 of 27) pays
    A A A (the wild standing in) = 1 credit x 2 per W, S S S pays 2, the rest 0.
    E[X] = (sum over the 8 of 2^#W + 2) / 27 = (3^3 + 2) / 27 = 29/27; E[X^2] =
    (5^3 + 4) / 27 = 129/27, variance 129/27 - (29/27)^2 = 2642/729; hit 9/27."""
    tables = compile_machine(T.game(tmp_path, CELLS, AWS))
    lvl = compute_exact(tables).levels[0]
    assert lvl.rtp == pytest.approx(29 / 27, rel=1e-14)
    assert lvl.variance == pytest.approx(2642 / 729, rel=1e-13)
    assert lvl.hit_frequency == pytest.approx(1 / 3, rel=1e-14)
    assert lvl.scatter_rtp == pytest.approx(2 / 27, rel=1e-13)
    assert mean_return(tables, tables.levels[0]) == pytest.approx(29 / 27, rel=1e-14)


def test_a_full_reel_draws_its_value_by_hand(tmp_path):
    """Reels [A, S] x 3, one row: a reel showing S is full of it and draws x2 or x4
    (E 3, E^2 10). A A A pays 1 (x1); two S (3 of 8) pay 1 x two draws (E 9, E^2
    100); S S S pays 5 x three draws (E 27, E^2 1000). E[X] = (1 + 27 + 135)/8 =
    163/8; E[X^2] = (1 + 300 + 25000)/8 = 25301/8; variance 25301/8 - (163/8)^2 =
    175839/64; hit 5/8."""
    tables = compile_machine(T.game(tmp_path, FULL, AS))
    lvl = compute_exact(tables).levels[0]
    assert lvl.rtp == pytest.approx(163 / 8, rel=1e-14)
    assert lvl.variance == pytest.approx(175839 / 64, rel=1e-13)
    assert lvl.hit_frequency == pytest.approx(5 / 8, rel=1e-14)
    assert mean_return(tables, tables.levels[0]) == pytest.approx(163 / 8, rel=1e-14)


FREE = """[free_spins]
trigger = {symbol = "S", count = 3}
spins = 2
retrigger = true
max_spins = 4
"""


@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    st.lists(
        st.lists(st.sampled_from(["A", "B", "W", "S"]), min_size=2, max_size=4),
        min_size=3,
        max_size=3,
    ),
    st.sampled_from([2, 3]),
    st.booleans(),
)
def test_exact_equals_the_twin(tmp_path_factory, strips, k, free):
    """Random reels of A, B, a x``k`` wild and a scatter drawing x2/x3 on a full reel
    (two rows, two lines), with and without retriggered free spins: return, variance
    and hit frequency equal the twin's brute force to 1e-12."""
    body = f"""
[symbols]
A = {{kind = "regular"}}
B = {{kind = "regular"}}
W = {{kind = "wild", window_multiplier = {k}}}
S = {{kind = "scatter", full_reel_multiplier = {{2 = 1, 3 = 2}}}}
[[pays]]
combo = ["A", "A", "A"]
pays = 3
[[pays]]
combo = ["B", "B"]
pays = 1
[[scatter_pays]]
symbol = "S"
count = 2
pays = 2
"""
    body += FREE if free else ""
    head = T.HEAD.format(id="T", bet=T.LINES.replace("1", "2", 1), reels="").replace(
        "rows = 1", "rows = 2"
    )
    reels = "strips = " + str(strips).replace("'", '"') + "\npaylines = [[0, 0, 0], [1, 0, 1]]\n"
    path = tmp_path_factory.mktemp("g") / "g.toml"
    path.write_text(head + reels + body)
    m = load_machine(path)
    ex = compute_exact(m)
    assert ex is not None
    lvl, ref = ex.levels[0], twin.brute_force(m, 0)
    assert lvl.rtp == pytest.approx(float(ref["rtp"]), rel=1e-12)
    assert lvl.variance == pytest.approx(float(ref["variance"]), rel=1e-12, abs=1e-12)
    assert lvl.hit_frequency == pytest.approx(float(ref["hit_frequency"]), rel=1e-12)


def test_the_simulation_multiplies(tmp_path):
    """The hand game of each cell (E[X] = 29/27): the simulation lies within z(0.999)
    sigma / sqrt(n) of it, while without the factor the return is 9/27 (every A/W
    window 1, S S S 2), dozens of intervals away."""
    tables = compile_machine(T.game(tmp_path, CELLS, AWS))
    exact = compute_exact(tables).levels[0]
    n = 1_000_000
    sim = simulate(tables, 0, n, seed=7)
    half = z_value(0.999) * exact.sigma / math.sqrt(n)
    assert abs(sim.rtp - exact.rtp) < half
    assert abs(exact.rtp - 10 / 27) > 20 * half


def test_outcome_replay_holds_the_machine_to_the_cells(tmp_path):
    """A log of the x2-per-wild machine passes against its model and fails against the
    same game whose wild multiplies nothing; a drawn full reel is not replayed."""
    assert_replay_tells_apart(tmp_path, CELLS, CELLS.replace(", window_multiplier = 2", ""), AWS)
    assert (
        "draws a multiplier"
        in replay_model(load_machine(REAL / "ct_rainbow_charm.toml")).not_replayed
    )


@pytest.mark.parametrize(
    "body",
    [
        CELLS.replace("window_multiplier = 2", "window_multiplier = 1"),
        CELLS.replace("window_multiplier = 2", 'window_multiplier = "x"'),
        "[rules]\nwin_cap = 50\n" + CELLS,
    ],
    ids=["below-2", "not-an-integer", "with-win-cap"],
)
def test_a_bad_factor_is_located(tmp_path, body):
    """A factor below 2 or not an integer, or a game the engine does not play it with
    (a win cap), is a located error."""
    with pytest.raises(ModelError) as err:
        compile_machine(T.game(tmp_path, body, AWS))
    assert "symbols.W.window_multiplier" in {p.path for p in err.value.problems}


def test_an_overflowing_factor_says_what_multiplies(tmp_path):
    """A factor whose product cannot fit the engine's 64-bit sums is a located error
    that names what multiplies the lines and scatters (x10^8 per cell, three reels)."""
    body = CELLS.replace("window_multiplier = 2", "window_multiplier = 100000000")
    with pytest.raises(ModelError) as err:
        compile_machine(T.game(tmp_path, body, AWS))
    assert "from what the reels show" in str(err.value)
