"""How a scatter is counted: ``[symbols] S = {kind = "scatter", reels = [...], wilds_count}``.

Real cabinets count some scatters on given reels only (slotopol's Dolphin Reef
counts its free-game scatters on reels 1, 3 and 5) or count wilds with them
(Aztec Gold, Dolphin Reef: "scatters and wilds together, 3 or more pay").
Oracles: hand counts in the docstrings (exact fractions), the pure-Python twin's
own counting (tests/twins/lines.py ``counted``), and simulation inside the exact
interval.
"""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
import test_twin_rules as T
from testpaths import ROOT
from twins import lines as twin
from twins.check import assert_exact_equals_twin

from certify.engine import compile_machine, simulate
from certify.errors import ModelError
from certify.exact import compute_exact
from certify.outcomes.record import record_outcomes
from certify.outcomes.verify import _machine_model, verify_outcomes
from certify.stats import z_value
from reports.paytable import render_pay_glass

SA = 'strips = [["S", "A"], ["S", "A"], ["S", "A"]]'
SWA = 'strips = [["S", "W", "A"], ["S", "W", "A"], ["S", "W", "A"]]'


def body(scatter: str, count: int = 2, pays: int = 4, wild: bool = False) -> str:
    """A A A pays 1 on one line; ``count`` or more S (declared ``scatter``) pay ``pays``."""
    return f"""
[symbols]
A = {{kind = "regular"}}
S = {{kind = "scatter"{scatter}}}
{'W = {kind = "wild"}' if wild else ""}
[[pays]]
combo = ["A", "A", "A"]
pays = 1
[[scatter_pays]]
symbol = "S"
count = {count}
pays = {pays}
"""


def test_counted_on_given_reels_by_hand(tmp_path):
    """Reels [S, A] x3 (8 windows): S counts on reels 1 and 3 only, 2 S pay 4.
    P(S on reels 1 and 3) = 1/4 -> 1; A A A 1/8 -> 1/8; return 9/8. On every reel
    2+ S show with P = 1/2 -> 2, return 17/8 (the control)."""
    m = T.game(tmp_path, body(", reels = [1, 3]"), SA)
    assert compute_exact(m).levels[0].rtp == pytest.approx(9 / 8, rel=1e-14)
    assert twin.brute_force(m, 0)["rtp"] == Fraction(9, 8)
    (tmp_path / "c").mkdir()
    control = T.game(tmp_path / "c", body(""), SA)
    assert compute_exact(control).levels[0].rtp == pytest.approx(17 / 8, rel=1e-14)


def test_wilds_count_by_hand(tmp_path):
    """Reels [S, W, A] x3 (27 windows), W a wild: 3 cells of S or W pay 10 when wilds
    count: P = (2/3)^3 = 8/27 -> 80/27; A A A with W substituting (W W W included, the
    default reading): 8/27. Return 88/27; without ``wilds_count`` 3 S (1/27) pay 10:
    10/27 + 8/27 = 18/27."""
    m = T.game(tmp_path, body(", wilds_count = true", count=3, pays=10, wild=True), SWA)
    assert compute_exact(m).levels[0].rtp == pytest.approx(88 / 27, rel=1e-14)
    assert twin.brute_force(m, 0)["rtp"] == Fraction(88, 27)
    (tmp_path / "c").mkdir()
    control = T.game(tmp_path / "c", body("", count=3, pays=10, wild=True), SWA)
    assert compute_exact(control).levels[0].rtp == pytest.approx(18 / 27, rel=1e-14)


FEATURE = """
[symbols]
A = {kind = "regular"}
B = {kind = "regular"}
W = {kind = "wild", multiplier = 2}
S = {kind = "scatter"SCATTER}
[[pays]]
combo = ["A", "A", "A"]
pays = 4
[[pays]]
combo = ["B", "B"]
pays = 1
[[scatter_pays]]
symbol = "S"
count = 2
pays = 1
[[scatter_pays]]
symbol = "S"
count = 3
pays = 6
[free_spins]
trigger = {symbol = "S", count = 2}
spins = {2 = 2, 3 = 4}
multiplier = 2
retrigger = true
max_spins = 8
strips = [["A", "S", "B"], ["W", "S", "A", "B"], ["S", "B", "A"]]
"""
REELS = 'strips = [["A", "S", "B", "W"], ["B", "A", "S"], ["S", "A", "W", "B"]]'


@pytest.mark.parametrize(
    "scatter", [", reels = [1, 3]", ", wilds_count = true", ", reels = [2, 3], wilds_count = true"]
)
def test_exact_equals_twin_with_free_spins(tmp_path, scatter):
    """Scatter pays and the free-spin trigger (and retrigger, capped) follow the
    counting rule: return, variance and hit frequency equal the twin's brute force
    to 1e-12 at both levels."""
    m = T.game(
        tmp_path, FEATURE.replace("SCATTER", scatter), REELS, bet="lines = 1\nbet_levels = [1, 2]"
    )
    assert_exact_equals_twin(m)


def test_simulation_inside_the_exact_interval(tmp_path):
    """The kernels count by the rule: the simulated return lies within z(0.999)
    sigma / sqrt(n) of the exact one."""
    m = T.game(tmp_path, FEATURE.replace("SCATTER", ", reels = [1, 3], wilds_count = true"), REELS)
    tables = compile_machine(m)
    exact = compute_exact(tables).levels[0]
    n = 300_000
    sim = simulate(tables, 0, n, seed=9)
    assert abs(sim.rtp - exact.rtp) < z_value(0.999) * exact.sigma / math.sqrt(n)


def test_outcome_replay_counts_by_the_rule(tmp_path):
    """A log of a machine counting S on reels 1 and 3 passes against its model and
    fails the payout check against the game counting S everywhere."""
    (tmp_path / "on").mkdir()
    (tmp_path / "off").mkdir()
    T.game(tmp_path / "on", body(", reels = [1, 3]"), SA)
    T.game(tmp_path / "off", body(""), SA)
    log = tmp_path / "log.jsonl"
    record_outcomes(_machine_model(tmp_path / "on" / "g.toml"), 500, 3, log)
    good = verify_outcomes(log, _machine_model(tmp_path / "on" / "g.toml"))
    assert good.verdict == "pass" and good.mismatch_count == 0
    bad = verify_outcomes(log, _machine_model(tmp_path / "off" / "g.toml"))
    assert bad.verdict == "fail" and {m["kind"] for m in bad.mismatches} == {"payout"}


def test_pay_glass_says_how_it_counts(tmp_path):
    m = T.game(tmp_path, body(", reels = [1, 3], wilds_count = true", wild=True), SWA)
    text = render_pay_glass(m)
    assert "S só conta nos rolos 1, 3." in text and "Os símbolos wild contam como S." in text


@pytest.mark.parametrize(
    ("old", "new", "where", "message"),
    [
        ('"regular"}', '"regular", reels = [1]}', "symbols.A.reels", "only scatter and bonus"),
        ('"scatter"}', '"scatter", reels = [4]}', "symbols.S.reels[0]", "the machine has 3 reels"),
        ('"scatter"}', '"scatter", reels = [1, 1]}', "symbols.S.reels", "names a reel twice"),
        ('"scatter"}', '"scatter", reels = []}', "symbols.S.reels", "at least one reel"),
        ('"scatter"}', '"scatter", wilds_count = 1}', "symbols.S.wilds_count", ""),
    ],
)
def test_bad_counting_keys_are_located(tmp_path, old, new, where, message):
    """A counting key on a regular symbol, a reel out of range or twice, no reel, a
    non-boolean: each a located error."""
    with pytest.raises(ModelError) as err:
        T.game(tmp_path, body("").replace(old, new, 1), SA)
    assert where in str(err.value) and message in str(err.value)


def test_hold_and_spin_refuses_the_keys(tmp_path):
    """A hold-and-spin game with a counting rule is refused, located, never played wrongly
    (a cascade, cluster or sticky game plays it: tests/screens/test_screen_counting.py)."""
    import dataclasses

    from certify.engine.tables import refuse_unsupported
    from certify.model import load_machine

    m = T.game(tmp_path, body(", reels = [1, 3]"), SA)
    refuse_unsupported(dataclasses.replace(m, cascade=_cascade()))  # played: no error
    hold = load_machine(ROOT / "models/machines/hold-5x3-20.toml").hold_and_spin
    with pytest.raises(ModelError) as err:
        refuse_unsupported(dataclasses.replace(m, hold_and_spin=hold))
    assert "symbols.S.reels" in str(err.value)


def _cascade():
    from certify.model.schema import Cascade

    return Cascade("strip")
