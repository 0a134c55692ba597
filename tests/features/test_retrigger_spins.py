"""``free_spins.retrigger_spins``: a retrigger adds its own award, not the trigger's.

Real cabinets print two tables: "3 scatters award 10 free spins" and "3 scatters
during the free spins add 5" (slotopol's Red Roo, Champagne, King of Clovers:
``ScatFreespinReg`` against ``ScatFreespinBon``), and free games that go on until
one shows a stop combination (AGT Sun City: ``retrigger_spins = {0 = 1, 2 = 0}``,
each free spin without two scatters adding one more). Oracles: hand calculations in
the docstrings (exact fractions), the pure-Python twin (tests/twins/lines.py,
its own award lookup), and simulation inside the exact interval.
"""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
import test_twin_rules as T
from twins import lines as twin

from certify.engine import compile_machine, simulate
from certify.errors import ModelError
from certify.exact import compute_exact
from certify.model import load_machine
from certify.outcomes.record import record_outcomes
from certify.outcomes.verify import _machine_model, verify_outcomes
from certify.stats import z_value

AS = 'strips = [["A", "S"], ["A", "S"], ["A", "S"]]'


def body(retrigger: str, respins: str | None, spins: str = "1", cap: str | None = None) -> str:
    """Reels [A, S] x 3, one line: A A A pays 1, 3 S pay 2 and start ``spins`` free spins."""
    text = f"""
[symbols]
A = {{kind = "regular"}}
S = {{kind = "scatter"}}
[[pays]]
combo = ["A", "A", "A"]
pays = 1
[[scatter_pays]]
symbol = "S"
count = 3
pays = 2
[free_spins]
trigger = {{symbol = "S", count = 3}}
spins = {spins}
retrigger = {retrigger}
"""
    if respins is not None:
        text += f"retrigger_spins = {respins}\n"
    if cap is not None:
        text += f"max_spins = {cap}\n"
    return text


# (retrigger, retrigger_spins, max_spins) -> return by hand. Every spin (base or free) is
# worth v = (1 + 2) / 8 = 3/8 and shows 3 S with p = 1/8.
HAND = {
    # unlimited, a retrigger adds 2: each spin begets 2p = 1/4 spins on average, so one
    # started spin plays 1 / (1 - 1/4) = 4/3; return = v + p v 4/3 = 3/8 + 1/16 = 7/16.
    ("true", "2", None): Fraction(7, 16),
    # once, adds 2: the single starting spin retriggers with p: E[spins] = 1 + 2p = 5/4;
    # return = 3/8 + 1/8 x 3/8 x 5/4 = 3/8 + 15/256 = 111/256.
    ('"once"', "2", None): Fraction(111, 256),
    # unlimited, adds 3, capped at 2 spins: the start plays 1, a retrigger adds
    # min(3, 2 - 1) = 1 and the cap is then reached: E[spins] = 1 + p = 9/8;
    # return = 3/8 + 1/8 x 3/8 x 9/8 = 3/8 + 27/512 = 219/512.
    ("true", "3", "2"): Fraction(219, 512),
}


@pytest.mark.parametrize("case", list(HAND), ids=lambda c: "-".join(str(x) for x in c))
def test_retrigger_award_by_hand(tmp_path, case):
    """The exact return equals the hand figure (fractions in HAND)."""
    retrigger, respins, cap = case
    m = T.game(tmp_path, body(retrigger, respins, cap=cap), AS)
    assert m.free_spins.retrigger_spins == ((3, int(respins)),)
    assert compute_exact(m).levels[0].rtp == pytest.approx(float(HAND[case]), rel=1e-14)


def test_a_retrigger_may_need_fewer_symbols_than_the_trigger(tmp_path):
    """3 S start 1 free spin; during the feature 2 S add 1 and 3 S add 2 (Aristocrat's
    Red Roo: ``ScatFreespinBon`` pays from 2 scatters). A free spin adds 2 S (3/8) x 1 +
    3 S (1/8) x 2 = 5/8 spins on average: one started spin plays 1 / (1 - 5/8) = 8/3,
    each worth 3/8; return = 3/8 + 1/8 x 1 = 1/2. The base game still needs 3 S.
    Capped at 6 spins, the twin's brute force (its recursion needs a cap) = exact."""
    m = T.game(tmp_path, body("true", "{2 = 1, 3 = 2}"), AS)
    assert m.free_spins.retrigger_for(2) == 1 and m.free_spins.spins_for(2) == 0
    assert compute_exact(m).levels[0].rtp == pytest.approx(0.5, rel=1e-14)
    (tmp_path / "capped").mkdir()
    capped = T.game(tmp_path / "capped", body("true", "{2 = 1, 3 = 2}", cap="6"), AS)
    ref = twin.brute_force(capped, 0)
    lvl = compute_exact(capped).levels[0]
    assert lvl.rtp == pytest.approx(float(ref["rtp"]), rel=1e-12)
    assert lvl.variance == pytest.approx(float(ref["variance"]), rel=1e-12)
    tables = compile_machine(m)
    n = 400_000
    sim = simulate(tables, 0, n, seed=8)
    exact = compute_exact(tables).levels[0]
    assert abs(sim.rtp - exact.rtp) < z_value(0.999) * exact.sigma / math.sqrt(n)


def test_red_roo_published_figure():
    """Aristocrat Red Roo, reel set "92.470094" of slotopol's redroo_data.yaml: "RTP =
    88.391(sym) + 0.021428*190.35(fg) = 92.470094%" (tests/data/real/SOURCES.md): 2
    scatters retrigger where 3 trigger, the free wilds draw x2 or x3 per reel, 1024 ways."""
    from testpaths import DATA

    from certify.model import load_machine

    m = load_machine(DATA / "real" / "aristocrat_red_roo.toml")
    assert m.free_spins.retrigger_for(2) == 5 and m.free_spins.spins_for(2) == 0
    for lvl in compute_exact(m).levels:
        assert round(lvl.rtp * 100, 6) == 92.470094


def test_without_the_key_the_trigger_award_repeats(tmp_path):
    """Control: without ``retrigger_spins`` a retrigger adds ``spins`` (1): one started
    spin plays 1 / (1 - 1/8) = 8/7; return = 3/8 + 1/8 x 3/8 x 8/7 = 3/8 + 3/56 = 12/28."""
    m = T.game(tmp_path, body("true", None), AS)
    assert compute_exact(m).levels[0].rtp == pytest.approx(12 / 28, rel=1e-14)


@pytest.mark.parametrize(
    "spins,respins",
    [("{3 = 2}", "{3 = 1}"), ("1", "{3 = 4}"), ("{3 = 3}", "2")],
)
@pytest.mark.parametrize("retrigger", ["true", '"once"'])
def test_exact_equals_twin(tmp_path, spins, respins, retrigger):
    """Return, hit frequency, variance and award probabilities equal the twin's brute
    force (tests/twins/lines.py) to 1e-12, with a cap that binds."""
    m = T.game(tmp_path, body(retrigger, respins, spins=spins, cap="5"), AS)
    lvl = compute_exact(m).levels[0]
    ref = twin.brute_force(m, 0)
    assert lvl.rtp == pytest.approx(float(ref["rtp"]), rel=1e-12)
    assert lvl.variance == pytest.approx(float(ref["variance"]), rel=1e-12)
    assert lvl.hit_frequency == pytest.approx(float(ref["hit_frequency"]), rel=1e-12)


def test_decomposition_twin_agrees(tmp_path):
    """The twin's second method (Wald over the reel-set means, capped) gives the same mean."""
    m = T.game(tmp_path, body("true", "{3 = 2}", spins="{3 = 1}", cap="6"), AS)
    assert compute_exact(m).levels[0].rtp == pytest.approx(
        float(twin.mean_by_decomposition(m, 0)["rtp"]), rel=1e-12
    )


def test_simulation_inside_the_exact_interval(tmp_path):
    """The simulation kernel adds the retrigger's award: its return lies within
    z(0.999) sigma / sqrt(n) of the exact one, which the key moves by 1/64 (7/16 against
    12/28), about 60 such intervals at this size."""
    m = T.game(tmp_path, body("true", "2"), AS)
    tables = compile_machine(m)
    exact = compute_exact(tables).levels[0]
    n = 400_000
    sim = simulate(tables, 0, n, seed=5)
    assert abs(sim.rtp - exact.rtp) < z_value(0.999) * exact.sigma / math.sqrt(n)


def test_outcome_replay_holds_the_machine_to_the_retrigger_award(tmp_path):
    """A log recorded by a machine playing ``retrigger_spins = 2`` passes against that
    model and fails the feature check against the same game without the key (the machine
    then plays a free spin beyond the award after each retrigger)."""
    (tmp_path / "on").mkdir()
    (tmp_path / "off").mkdir()
    on = T.game(tmp_path / "on", body("true", "2"), AS)
    T.game(tmp_path / "off", body("true", None), AS)
    log = tmp_path / "log.jsonl"
    record_outcomes(_machine_model(tmp_path / "on" / "g.toml"), 3000, 11, log)
    assert on.free_spins.retrigger_spins
    good = verify_outcomes(log, _machine_model(tmp_path / "on" / "g.toml"))
    assert good.verdict == "pass" and good.mismatch_count == 0
    bad = verify_outcomes(log, _machine_model(tmp_path / "off" / "g.toml"))
    assert bad.verdict == "fail"
    assert {m["kind"] for m in bad.mismatches} == {"feature"}


@pytest.mark.parametrize(
    "retrigger,respins,message",
    [
        ("false", "2", 'needs free_spins.retrigger = true or "once"'),
        ("true", "{4 = 5}", "no spins for the trigger count 3"),
        ("true", "0", "free_spins.retrigger_spins"),
    ],
)
def test_bad_retrigger_spins_is_located(tmp_path, retrigger, respins, message):
    """A retrigger award without retrigger, without an award at the trigger count, or
    below 1 is a located error."""
    path = tmp_path / "g.toml"
    T.game(tmp_path, body("true", None), AS)  # a valid file to start from
    text = path.read_text().replace("retrigger = true", f"retrigger = {retrigger}")
    path.write_text(text + f"retrigger_spins = {respins}\n")
    with pytest.raises(ModelError) as err:
        load_machine(path)
    assert message in str(err.value)


UNTIL = "{0 = 1, 3 = 0}"  # every free spin adds one more, but one showing 3 S


def test_free_games_until_a_stop_combination_by_hand(tmp_path):
    """1 free spin, each free spin below 3 S adding 1 (``{0 = 1, 3 = 0}``): the feature
    plays until a free spin shows 3 S (p = 1/8), N geometric with E[N] = 8. Each spin
    is worth v = 3/8 and N is a stopping time of the i.i.d. spins, so by Wald the
    feature is worth 8 x 3/8 = 3; return = 3/8 + 1/8 x 3 = 3/4."""
    m = T.game(tmp_path, body("true", UNTIL), AS)
    assert [m.free_spins.retrigger_for(c) for c in range(4)] == [1, 1, 1, 0]
    assert compute_exact(m).levels[0].rtp == pytest.approx(0.75, rel=1e-14)


def test_free_games_until_a_stop_equal_the_twin_and_the_simulation(tmp_path):
    """Capped at 5 spins, the twin's brute force = exact (return, variance, hit
    frequency, 1e-12); uncapped, the simulation lies inside the exact interval."""
    m = T.game(tmp_path, body("true", UNTIL, cap="5"), AS)
    lvl, ref = compute_exact(m).levels[0], twin.brute_force(m, 0)
    assert lvl.rtp == pytest.approx(float(ref["rtp"]), rel=1e-12)
    assert lvl.variance == pytest.approx(float(ref["variance"]), rel=1e-12)
    assert lvl.hit_frequency == pytest.approx(float(ref["hit_frequency"]), rel=1e-12)
    (tmp_path / "free").mkdir()
    tables = compile_machine(T.game(tmp_path / "free", body("true", UNTIL), AS))
    exact = compute_exact(tables).levels[0]
    n = 400_000
    sim = simulate(tables, 0, n, seed=3)
    assert abs(sim.rtp - exact.rtp) < z_value(0.999) * exact.sigma / math.sqrt(n)


def test_outcome_replay_holds_the_machine_to_the_stop(tmp_path):
    """A log of a machine whose free games go on until 3 S passes against its model and
    fails the feature check against the game whose free spin is a single one."""
    (tmp_path / "on").mkdir()
    (tmp_path / "off").mkdir()
    T.game(tmp_path / "on", body("true", UNTIL), AS)
    T.game(tmp_path / "off", body("false", None), AS)
    log = tmp_path / "log.jsonl"
    record_outcomes(_machine_model(tmp_path / "on" / "g.toml"), 3000, 4, log)
    good = verify_outcomes(log, _machine_model(tmp_path / "on" / "g.toml"))
    assert good.verdict == "pass" and good.mismatch_count == 0
    bad = verify_outcomes(log, _machine_model(tmp_path / "off" / "g.toml"))
    assert bad.verdict == "fail"
    assert {m["kind"] for m in bad.mismatches} == {"feature"}


def test_sun_city_published_figure():
    """AGT Sun City, reel set "96.211839" of slotopol's suncity_data.yaml: "symbols:
    88.915(lined); free games hit rate: 1/400; RTP = 88.915(sym) + 116.75(fg)*25/400 =
    96.211839%", the bon reels "116.750367%, free games hit rate 1/25"
    (tests/data/real/SOURCES.md): 2 scatters start free games that end on the next 2."""
    from testpaths import DATA

    m = load_machine(DATA / "real" / "agt_sun_city.toml")
    lvl = compute_exact(m).levels[0]
    assert lvl.line_rtp * 100 == pytest.approx(88.914941, abs=5e-7)
    assert lvl.free_spins_rtp * 100 == pytest.approx(116.750367 * 25 / 400, abs=5e-7)
    assert lvl.fs_probability == pytest.approx(1 / 400, rel=1e-12)
    assert round(lvl.rtp * 100, 6) == 96.211839
