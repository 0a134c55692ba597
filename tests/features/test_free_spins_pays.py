"""``free_spins_pays``: a pay table (line, ways, scatter) of the free spins' own.

Real cabinets print a second table for the feature (slotopol's King of Clovers:
``ScatPayBon`` against ``ScatPayReg``, 2 scatters pay only in free spins; IGT Rich
Girl's ``LinePayBon``). Oracles: hand calculations in the docstrings (exact
fractions), the pure-Python twin (tests/twins: its own view of the free spins'
pays), and simulation inside the exact interval.
"""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
import test_twin_rules as T
from twins import features as feature_twin
from twins import lines as twin
from twins.check import assert_exact_equals_twin

from certify.engine import compile_machine, simulate
from certify.errors import ModelError
from certify.exact import compute_exact
from certify.outcomes.record import record_outcomes
from certify.outcomes.verify import _machine_model, verify_outcomes
from certify.stats import z_value
from reports.paytable import render_pay_glass

AS = 'strips = [["A", "S"], ["A", "S"], ["A", "S"]]'
ABS = 'strips = [["A", "B", "S"], ["A", "B", "S"], ["A", "B", "S"]]'


def body(aaa: str = "free_spins_pays = 4", scatter: str = "free_spins_pays = 6") -> str:
    """A A A pays 1 (``aaa``), 3 S pay 2 (``scatter``) and start 1 free spin x2."""
    return f"""
[symbols]
A = {{kind = "regular"}}
S = {{kind = "scatter"}}
[[pays]]
combo = ["A", "A", "A"]
pays = 1
{aaa}
[[scatter_pays]]
symbol = "S"
count = 3
pays = 2
{scatter}
[free_spins]
trigger = {{symbol = "S", count = 3}}
spins = 1
multiplier = 2
"""


# Every spin shows A A A with p = 1/8 and 3 S with p = 1/8; a base spin is worth
# v = (1 + 2) / 8 = 3/8, and the return is v + 1/8 x (one free spin).
HAND = {
    # free spin: A A A 4 x2 = 8, 3 S 6 x2 = 12: (8 + 12) / 8 = 5/2; 3/8 + 5/16 = 11/16
    "both": (body(), Fraction(11, 16)),
    # free A A A paid as is: (4 + 12) / 8 = 2; 3/8 + 1/4 = 5/8
    "unmultiplied": (body("free_spins_pays = 4\nfree_spins_multiplier = false"), Fraction(5, 8)),
    # only the scatter differs: (1 x2 + 12) / 8 = 7/4; 3/8 + 7/32 = 19/32
    "scatter only": (body(aaa=""), Fraction(19, 32)),
    # only the line differs, and pays nothing in the feature: (0 + 2 x2) / 8 = 1/2;
    # 3/8 + 1/16 = 7/16
    "line only, zero": (body("free_spins_pays = 0", scatter=""), Fraction(7, 16)),
}


@pytest.mark.parametrize("label", list(HAND))
def test_free_spin_pays_by_hand(tmp_path, label):
    """The exact return equals the hand figure (HAND), and the twin agrees."""
    text, figure = HAND[label]
    m = T.game(tmp_path, text, AS)
    assert compute_exact(m).levels[0].rtp == pytest.approx(float(figure), rel=1e-14)
    assert twin.brute_force(m, 0)["rtp"] == figure


RANKED = """
[symbols]
A = {kind = "regular"}
B = {kind = "regular"}
S = {kind = "scatter"}
W = {kind = "wild", multiplier = 2}
[[pays]]
combo = ["A", "A", "A"]
pays = 10
free_spins_pays = 1
[[pays]]
combo = ["A", "A"]
pays = 5
free_spins_pays = 8
[[pays]]
combo = ["B", "B", "B"]
pays = 3
[[scatter_pays]]
symbol = "S"
count = 2
pays = 1
free_spins_pays = 3
[free_spins]
trigger = {symbol = "S", count = 2}
spins = {2 = 2, 3 = 3}
multiplier = 3
retrigger = true
max_spins = 6
"""


def test_a_free_line_pays_its_best_free_entry(tmp_path):
    """A A A pays 10 in the base game but 1 in the feature, where A A pays 8: a free
    line showing A A A pays A A (8 x3), as the cabinet's feature table reads. One line,
    reels [A, S] x3 (8 windows, each 1/8); 3 S start 1 free spin x3.

    Free spin x3, no retrigger: A A A (1/8) pays 24, A A S (1/8) pays 24, 3 S (1/8)
    pays 0 (no scatter entry here); E = 48/8 = 6. Base: A A A 10/8 + A A S 5/8 = 15/8.
    Return = 15/8 + 1/8 x 6 = 15/8 + 6/8 = 21/8.
    """
    text = """
[symbols]
A = {kind = "regular"}
S = {kind = "scatter"}
[[pays]]
combo = ["A", "A", "A"]
pays = 10
free_spins_pays = 1
[[pays]]
combo = ["A", "A"]
pays = 5
free_spins_pays = 8
[free_spins]
trigger = {symbol = "S", count = 3}
spins = 1
multiplier = 3
"""
    m = T.game(tmp_path, text, AS)
    assert compute_exact(m).levels[0].rtp == pytest.approx(21 / 8, rel=1e-14)


@pytest.mark.parametrize(
    "reels", [ABS, 'strips = [["A", "W", "S", "B"], ["A", "S"], ["B", "W", "A"]]']
)
def test_exact_equals_twin_lines(tmp_path, reels):
    """Lines, wilds, retriggers and a cap: return, variance, hit frequency and award
    probabilities equal the twin's brute force to 1e-12; its decomposition agrees."""
    m = T.game(tmp_path, RANKED, reels)
    lvl = compute_exact(m).levels[0]
    ref = twin.brute_force(m, 0)
    assert lvl.rtp == pytest.approx(float(ref["rtp"]), rel=1e-12)
    assert lvl.variance == pytest.approx(float(ref["variance"]), rel=1e-12)
    assert lvl.hit_frequency == pytest.approx(float(ref["hit_frequency"]), rel=1e-12)
    dec = twin.mean_by_decomposition(m, 0)["rtp"]
    assert lvl.rtp == pytest.approx(float(dec), rel=1e-12)


def test_exact_equals_twin_ways(tmp_path):
    """A ways game (3 rows): the feature's ways pay their own entries (twin: twins.features)."""
    m = T.game(
        tmp_path,
        RANKED.replace("W = {kind", "W = {kind").replace(
            "max_spins = 6",
            'max_spins = 6\nstrips = [["A", "B", "W", "S"], ["S", "A", "B"], ["B", "A", "S", "A"]]',
        ),
        'strips = [["A", "B", "S", "B"], ["A", "S", "B"], ["B", "S", "A", "A"]]\n'
        'evaluation = "ways"',
        bet="ways = 1\ncost = 10\nbet_levels = [1, 2]",
    )
    assert_exact_equals_twin(m, feature_twin.brute_force)


def test_simulation_inside_the_exact_interval(tmp_path):
    """The kernels pay the feature's table: the simulated return lies within
    z(0.999) sigma / sqrt(n) of the exact one (11/16; without the key 3/8 + 1/8 x 6/8 =
    15/32, some 40 such intervals away at this size)."""
    m = T.game(tmp_path, body(), AS)
    tables = compile_machine(m)
    exact = compute_exact(tables).levels[0]
    n = 300_000
    sim = simulate(tables, 0, n, seed=3)
    assert abs(sim.rtp - exact.rtp) < z_value(0.999) * exact.sigma / math.sqrt(n)


def test_a_count_that_pays_only_in_the_feature_is_simulated(tmp_path):
    """2 S pay nothing in the base game and 3 in the free spins (King of Clovers'
    ``ScatPayBon``): the kernel's count alarm must fire at 2 in the feature too. Reels
    [A, S] x3, A A A 1, 3 S pay 2 and start 1 free spin x2. Free spin: A A A 1 x2 (1/8),
    2 S 3 x2 (3/8), 3 S 2 x2 (1/8): (2 + 18 + 4) / 8 = 3; return 3/8 + 3/8 = 3/4; the
    simulation lies inside the exact interval (without the alarm it would miss 9/32)."""
    text = body(aaa="", scatter="").replace(
        "[[scatter_pays]]",
        '[[scatter_pays]]\nsymbol = "S"\ncount = 2\npays = 0\nfree_spins_pays = 3\n'
        "[[scatter_pays]]",
    )
    m = T.game(tmp_path, text, AS)
    tables = compile_machine(m)
    exact = compute_exact(tables).levels[0]
    assert exact.rtp == pytest.approx(3 / 4, rel=1e-14)
    n = 300_000
    sim = simulate(tables, 0, n, seed=4)
    assert abs(sim.rtp - exact.rtp) < z_value(0.999) * exact.sigma / math.sqrt(n)


def test_outcome_replay_holds_the_machine_to_the_feature_table(tmp_path):
    """A log recorded by a machine paying the feature's table passes against its model
    and fails the payout check against the same game without the table."""
    (tmp_path / "on").mkdir()
    (tmp_path / "off").mkdir()
    T.game(tmp_path / "on", body(), AS)
    T.game(tmp_path / "off", body(aaa="", scatter=""), AS)
    log = tmp_path / "log.jsonl"
    record_outcomes(_machine_model(tmp_path / "on" / "g.toml"), 2000, 5, log)
    good = verify_outcomes(log, _machine_model(tmp_path / "on" / "g.toml"))
    assert good.verdict == "pass" and good.mismatch_count == 0
    bad = verify_outcomes(log, _machine_model(tmp_path / "off" / "g.toml"))
    assert bad.verdict == "fail"
    assert {m["kind"] for m in bad.mismatches} == {"payout"}
    assert {m["phase"] for m in bad.mismatches} == {"free"}


def test_pay_glass_and_par_name_the_feature_table(tmp_path):
    """The pay-glass states the feature's prizes; the PAR pay table has their rows."""
    from reports.par import _pay_table

    m = T.game(tmp_path, body(), AS)
    text = render_pay_glass(m)  # Portuguese, the reference language
    assert "Durante as jogadas grátis estes prémios pagam em vez disso" in text
    assert (
        "A A A: 4 x a aposta por linha ou via" in text and "3 ou mais S: 6 x a aposta total" in text
    )
    rows = {r[0]: r for r in _pay_table(m).rows}
    assert rows["pays[0].free_spins_pays"][3] == 4
    assert rows["scatter_pays[0].free_spins_pays"][3] == 6


@pytest.mark.parametrize(
    "text,where,message",
    [
        (
            body().split("[free_spins]")[0],
            "pays[0].free_spins_pays",
            "the game has no free spins",
        ),
        (
            body().split("[free_spins]")[0].replace("free_spins_pays = 4\n", ""),
            "scatter_pays[0].free_spins_pays",
            "the game has no free spins",
        ),
        (
            body().replace("pays = 1\nfree_spins_pays", "pays_by_level = [1]\nfree_spins_pays"),
            "pays[0].free_spins_pays",
            "goes with `pays`, not `pays_by_level`",
        ),
        (body("free_spins_pays = -1"), "pays[0].free_spins_pays", ""),
    ],
)
def test_bad_free_spins_pays_is_located(tmp_path, text, where, message):
    """The key without free spins, with ``pays_by_level``, or negative: a located error."""
    with pytest.raises(ModelError) as err:
        T.game(tmp_path, text, AS)
    assert where in str(err.value) and message in str(err.value)


def test_fingerprint_moves_only_with_the_key(tmp_path):
    """Old files keep their canonical form (no new key in it); the key changes it."""
    from certify.model.fingerprint import canonical_form, canonical_json, fingerprint

    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    plain = T.game(tmp_path / "a", body(aaa="", scatter=""), AS)
    keyed = T.game(tmp_path / "b", body(), AS)
    assert "free_spins_pays" not in canonical_json(canonical_form(plain))
    assert '"free_spins_pays":4' in canonical_json(canonical_form(keyed))
    assert fingerprint(plain) != fingerprint(keyed)


def test_games_that_do_not_see_the_table_refuse_it(tmp_path):
    """A cascade (its screens pay on the cell grid) or a Book-of-Ra symbol (its extra
    pay is read from the entries) with the feature's own table: a located refusal."""
    from certify.engine.tables import refuse_unsupported

    (tmp_path / "c").mkdir()
    cascade = T.game(tmp_path / "c", body() + '[cascade]\nrefill = "strip"\n', AS)
    with pytest.raises(ModelError) as err:
        refuse_unsupported(cascade)
    assert "pays[0].free_spins_pays" in str(err.value) and "screen game" in str(err.value)
    book = T.game(tmp_path, body() + "expanding_symbol = {A = 1}\n", AS)
    with pytest.raises(ModelError) as err:
        refuse_unsupported(book)
    assert "expanding_symbol" in str(err.value)
