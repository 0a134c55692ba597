"""A symbol that counts as several of another: ``counts_as = {symbol, times}``.

Real cabinets show double symbols (NetEnt Flowers: a double scatter on reels 2-4
counts as two scatters; its double fruits count two on a line, which is written as
one pay entry per run of singles and doubles). The count is a compile-time
transform of the counted symbols, so every engine plays it unchanged. Oracles:
slotopol's brute-force figure for Flowers, a hand count, the twin's brute force
(tests/twins/lines.py counts the doubles its own way) and a located error per bad
value.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import test_twin_rules as T
from twins import lines as twin

from certify.engine import compile_machine
from certify.errors import ModelError
from certify.exact import compute_exact
from certify.model import load_machine

REAL = Path(__file__).parents[1] / "data" / "real"
BODY = """
[symbols]
A = {kind = "regular"}
S = {kind = "scatter"}
S2 = {kind = "scatter", counts_as = {symbol = "S", times = 2}}
[[pays]]
combo = ["A", "A", "A"]
pays = 1
[[scatter_pays]]
symbol = "S"
count = 3
pays = 1
[[scatter_pays]]
symbol = "S"
count = 5
pays = 5
"""
ASD = 'strips = [["A", "S", "S2"], ["A", "S", "S2"], ["A", "S", "S2"]]'


def test_flowers_reproduced():
    """NetEnt Flowers, reel set "91.154454" of slotopol's flowers_data.yaml
    (tests/data/real/SOURCES.md): "symbols: 70.562(lined) + 3.0163(scatter) =
    73.578683%; RTP = 73.579(sym) + 0.039279*447.46(fg) = 91.154454%", over
    6,515,325,180 combinations: double fruits counting two on a line, a double scatter
    counting two scatters."""
    lvl = compute_exact(load_machine(REAL / "netent_flowers.toml")).levels[0]
    assert lvl.line_rtp * 100 == pytest.approx(70.562, abs=5e-4)
    assert lvl.scatter_rtp * 100 == pytest.approx(3.0163, abs=5e-5)
    assert lvl.free_spins_rtp * 100 == pytest.approx(0.039279 * 447.464713, abs=5e-3)
    assert lvl.rtp * 100 == pytest.approx(91.154454, abs=5e-7)


def test_a_double_counts_twice_by_hand(tmp_path):
    """Reels [A, S, S2] x 3, one row: each reel adds 0, 1 or 2 scatters, so the count
    is 0..6 with weights 1, 3, 6, 7, 6, 3, 1 (of 27: (1 + x + x^2)^3). Counts 3-4 pay
    1, 5-6 pay 5, A A A pays 1: E[X] = (1 + 13 + 4 x 5)/27 = 34/27, E[X^2] = (1 + 13
    + 4 x 25)/27 = 114/27, variance 1922/729, hit 18/27."""
    m = T.game(tmp_path, BODY, ASD)
    assert m.counts_on("S", 0, ("S2",)) == 2 and m.max_count == 6
    lvl = compute_exact(m).levels[0]
    assert lvl.rtp == pytest.approx(34 / 27, rel=1e-14)
    assert lvl.variance == pytest.approx(1922 / 729, rel=1e-13)
    assert lvl.hit_frequency == pytest.approx(2 / 3, rel=1e-14)


@pytest.mark.parametrize("retrigger", ["false", "true"])
def test_doubles_start_the_feature_as_the_twin_counts(tmp_path, retrigger):
    """4 or more (doubles counting two) start 2 free spins (capped at 6), 6 start 3:
    return, variance and hit frequency equal the twin's brute force to 1e-12."""
    free = f"""[free_spins]
trigger = {{symbol = "S", count = 4}}
spins = {{4 = 2, 6 = 3}}
retrigger = {retrigger}
max_spins = 6
"""
    m = T.game(tmp_path, BODY + free, ASD)
    lvl, ref = compute_exact(m).levels[0], twin.brute_force(m, 0)
    assert lvl.rtp == pytest.approx(float(ref["rtp"]), rel=1e-12)
    assert lvl.variance == pytest.approx(float(ref["variance"]), rel=1e-12)
    assert lvl.hit_frequency == pytest.approx(float(ref["hit_frequency"]), rel=1e-12)


@pytest.mark.parametrize(
    "spec,where",
    [
        ('{symbol = "A", times = 2}', "symbols.S2.counts_as.symbol"),
        ('{symbol = "S", times = 0}', "symbols.S2.counts_as.times"),
        ('{symbol = "S"}', "symbols.S2.counts_as.times"),
        ('{symbol = "S", times = 100}', "symbols.S2.counts_as.times"),
    ],
)
def test_a_bad_double_is_located(tmp_path, spec, where):
    """A double of a regular symbol, a count below 1 or missing, or one that makes the
    window count past the engine's 127 is a located error."""
    body = BODY.replace('{symbol = "S", times = 2}', spec)
    with pytest.raises(ModelError) as err:
        compile_machine(T.game(tmp_path, body, ASD))
    assert where in {p.path for p in err.value.problems}


def test_a_regular_symbol_cannot_be_a_double(tmp_path):
    """Only scatter and bonus symbols count; a regular one with the key is located."""
    body = BODY.replace(
        'A = {kind = "regular"}', 'A = {kind = "regular", counts_as = {symbol = "S", times = 2}}'
    )
    with pytest.raises(ModelError) as err:
        T.game(tmp_path, body, ASD)
    assert "symbols.A.counts_as" in {p.path for p in err.value.problems}


def test_the_simulation_counts_doubles(tmp_path):
    """The feature game above (uncapped retrigger off): the simulation's return lies
    within z(0.999) sigma / sqrt(n) of the exact one (counts past the window's 3 cells
    index the kernels' count tables)."""
    import math

    from certify.engine import simulate
    from certify.stats import z_value

    free = '[free_spins]\ntrigger = {symbol = "S", count = 4}\nspins = {4 = 2, 6 = 3}\n'
    tables = compile_machine(T.game(tmp_path, BODY + free, ASD))
    exact = compute_exact(tables).levels[0]
    n = 1_000_000
    sim = simulate(tables, 0, n, seed=9)
    assert abs(sim.rtp - exact.rtp) < z_value(0.999) * exact.sigma / math.sqrt(n)
