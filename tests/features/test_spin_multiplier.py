"""A multiplier each paid spin draws: ``[rules] spin_multiplier = {value = weight}``.

Real cabinets draw a multiplier of the spin's wins independently of the reels
(slotopol's AGT Egypt: three mini symbols, each 1-3; when all three match, the
spin's line and scatter wins are x3, x6 or x9). Oracles: the server's own
brute-force figure for Egypt, hand counts (docstrings), the twin's brute force
(tests/twins/lines.py, which multiplies each window's win by the drawn value's
moments) and the simulation inside the exact interval.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import test_twin_rules as T
from twins import lines as twin

from certify.engine import compile_machine, simulate
from certify.errors import ModelError
from certify.exact import compute_exact
from certify.exact.decompose import mean_return
from certify.exact.maxwin import max_win
from certify.model import load_machine
from certify.outcomes.model import replay_model

REAL = Path(__file__).parents[1] / "data" / "real"
AS = 'strips = [["A", "S"], ["A", "S"], ["A", "S"]]'
BODY = """
[rules]
spin_multiplier = {1 = 1, 3 = 1}
[symbols]
A = {kind = "regular"}
S = {kind = "scatter"}
[[pays]]
combo = ["A", "A", "A"]
pays = 1
[[scatter_pays]]
symbol = "S"
count = 3
pays = 2
"""
FREE = """[free_spins]
trigger = {symbol = "S", count = 3}
spins = 1
"""


def test_egypt_reproduced():
    """AGT Egypt, reel set "96.049897" of slotopol's egypt_data.yaml (tests/data/real/
    SOURCES.md): "symbols: 52.313(lined) + 9.433(scatter) = 61.746362%; RTP =
    61.746(sym) * 1.5556(Em) = 96.049897%", Em = 42/27 (egypt_scan.go): its brute
    force over 153,925,552 combinations times the mean of the drawn multiplier."""
    m = load_machine(REAL / "agt_egypt.toml")
    assert m.rules.spin_multipliers == ((1, 24), (3, 1), (6, 1), (9, 1))
    lvl = compute_exact(m).levels[0]
    assert lvl.line_rtp * 100 == pytest.approx(52.313 * 42 / 27, abs=5e-4 * 42 / 27)
    assert lvl.scatter_rtp * 100 == pytest.approx(9.433 * 42 / 27, abs=5e-4 * 42 / 27)
    assert lvl.rtp * 100 == pytest.approx(96.049897, abs=5e-7)


def test_a_drawn_spin_multiplier_by_hand(tmp_path):
    """Reels [A, S] x 3, one row, one line: A A A pays 1, S S S pays 2, so a spin wins
    W with E[W] = 3/8 and E[W^2] = 5/8. x1 or x3 half and half: E[M] = 2, E[M^2] = 5.
    Return 2 x 3/8 = 3/4; E[X^2] = 5 x 5/8 = 25/8, variance 25/8 - 9/16 = 41/16;
    hit frequency 1/4 (the multiplier is never 0)."""
    tables = compile_machine(T.game(tmp_path, BODY, AS))
    lvl = compute_exact(tables).levels[0]
    assert lvl.rtp == pytest.approx(3 / 4, rel=1e-14)
    assert lvl.variance == pytest.approx(41 / 16, rel=1e-13)
    assert lvl.hit_frequency == pytest.approx(1 / 4, rel=1e-14)
    assert lvl.line_rtp == pytest.approx(1 / 4, rel=1e-14)  # 2 x 1/8
    assert lvl.scatter_rtp == pytest.approx(1 / 2, rel=1e-14)  # 2 x 2/8
    assert mean_return(tables, tables.levels[0]) == pytest.approx(3 / 4, rel=1e-14)


def test_the_free_spins_it_starts_are_not_multiplied(tmp_path):
    """The same game, S S S also starting 1 free spin (worth F: E[F] = 3/8, E[F^2] =
    5/8), which draws no multiplier. Return 3/4 + 1/8 x 3/8 = 51/64. E[X^2] = E[M^2]
    E[W^2] + 2 E[M] E[W 1{SSS}] E[F] + P(SSS) E[F^2] = 25/8 + 2 x 2 x 2/8 x 3/8 +
    5/64 = 229/64; variance 229/64 - (51/64)^2 = 12055/4096."""
    tables = compile_machine(T.game(tmp_path, BODY + FREE, AS))
    lvl = compute_exact(tables).levels[0]
    assert lvl.rtp == pytest.approx(51 / 64, rel=1e-14)
    assert lvl.variance == pytest.approx(12055 / 4096, rel=1e-13)
    assert mean_return(tables, tables.levels[0]) == pytest.approx(51 / 64, rel=1e-14)


@pytest.mark.parametrize("free", ["", FREE, FREE + "retrigger = true\nmax_spins = 4\n"])
@pytest.mark.parametrize("table", ["{1 = 1, 3 = 1}", "{2 = 3, 5 = 1, 7 = 2}"])
def test_exact_equals_the_twin(tmp_path, free, table):
    """Return, variance and hit frequency equal the twin's brute force to 1e-12."""
    body = BODY.replace("{1 = 1, 3 = 1}", table) + free
    m = T.game(tmp_path, body, 'strips = [["A", "S", "A"], ["A", "S"], ["S", "A", "A", "A"]]')
    lvl, ref = compute_exact(m).levels[0], twin.brute_force(m, 0)
    assert lvl.rtp == pytest.approx(float(ref["rtp"]), rel=1e-12)
    assert lvl.variance == pytest.approx(float(ref["variance"]), rel=1e-12)
    assert lvl.hit_frequency == pytest.approx(float(ref["hit_frequency"]), rel=1e-12)
    assert lvl.rtp == pytest.approx(float(twin.mean_by_decomposition(m, 0)["rtp"]), rel=1e-12)


def test_the_simulation_draws_the_multiplier(tmp_path):
    """x1 nine times in ten, x10 once: E[M] = 1.9, return 1.9 x 3/8 = 0.7125. A kernel
    that played x1 would simulate 3/8, dozens of standard errors away."""
    body = BODY.replace("{1 = 1, 3 = 1}", "{1 = 9, 10 = 1}")
    tables = compile_machine(T.game(tmp_path, body, AS))
    assert compute_exact(tables).levels[0].rtp == pytest.approx(0.7125, rel=1e-14)
    sim = simulate(tables, 0, 2_000_000, 5)
    assert abs(sim.rtp - 0.7125) <= 4 * sim.std_error
    assert abs(3 / 8 - 0.7125) > 10 * sim.std_error


def test_the_largest_win_takes_the_largest_multiplier(tmp_path):
    """S S S pays 2 and is drawn x3 half the time: the largest win is 6 credits with
    probability 1/8 x 1/2 = 1/16; a win of 3 x bet or more: A A A x3 or S S S x3 (or
    x1: 2 < 3 no), 1/16 + 1/16 = 1/8."""
    tables = compile_machine(T.game(tmp_path, BODY, AS))
    top = max_win(tables, tables.levels[0])
    assert top.exact and top.credits == 6
    assert top.probability == pytest.approx(1 / 16, rel=1e-14)


def test_outcome_logs_do_not_replay_the_draw():
    """The log says the stops, not each spin's draw: the wins are not replayed."""
    assert "paid spin" in replay_model(load_machine(REAL / "agt_egypt.toml")).not_replayed


@pytest.mark.parametrize(
    "table,extra,where",
    [
        ("{x = 1, 3 = 0}", "", {"rules.spin_multiplier.x", "rules.spin_multiplier.3"}),
        ("3", "", {"rules.spin_multiplier"}),
        ("{1 = 1, 3 = 1}", "win_cap = 100\n", {"rules.spin_multiplier"}),
    ],
)
def test_a_bad_spin_multiplier_is_located(tmp_path, table, extra, where):
    """A bad key or weight, a value that is not a table, or a game the engine does not
    play it with (a win cap) is a located error."""
    body = BODY.replace("spin_multiplier = {1 = 1, 3 = 1}\n", f"spin_multiplier = {table}\n{extra}")
    with pytest.raises(ModelError) as err:
        compile_machine(T.game(tmp_path, body, AS))
    assert where <= {p.path for p in err.value.problems}
