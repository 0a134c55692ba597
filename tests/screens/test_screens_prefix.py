"""Line cascades enumerated with the first screen shared by prefixes, against independent methods.

:func:`certify.exact._screens.enumerate_line_screens` (the path of every line
screen game) shares the first screen's payline states, weight and counted
symbols between the starts of a reel prefix and plays only the starts that
pay. It is checked against:

* the plain odometer :func:`certify.exact._screens.enumerate_screen_cycle`
  (every start played in full): the same outputs to the bit, both phases;
* a plain enumerator written here: every stop combination replayed through
  :func:`certify.engine.screens.play_sequences` and summed in Python, to 1e-12;
* the pure-Python twin (``tests/twins/screens.py``, rationals), to 1e-12;
* two real games published with their brute-force returns (slow).
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from games import lines_data, machine_of
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from twins import screens as twin

from certify.engine.kernel_inputs import game_inputs, level_inputs, reel_inputs, reel_sets
from certify.engine.screen_records import CycleSums, ScreenPhase
from certify.engine.screens import cluster_pays_of, play_sequences, screen_inputs
from certify.engine.tables import compile_machine
from certify.exact import _screens as k
from certify.exact import screens as exact_screens
from certify.exact.calculator import exact_refusal
from certify.exact.cycle import _outputs, spin_score
from certify.exact.screens import column_counts, compute_screen_exact, screen_cycle
from certify.model import load_machine
from certify.model.screens import Cascade

PUBLISHED = Path(__file__).parents[1] / "data" / "published"
SYMBOLS = {
    "A": {"kind": "regular"},
    "K": {"kind": "regular"},
    "Q": {"kind": "regular"},
    "W": {"kind": "wild", "multiplier": 2},
    "S": {"kind": "scatter"},
}
PAYS = [
    (["A"] * 5, 40),
    (["A"] * 4, 12),
    (["A"] * 3, 4),
    (["K"] * 5, 20),
    (["K"] * 4, 6),
    (["K"] * 3, 2),
    (["Q"] * 3, 1),
]
SETTINGS = settings(
    max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)


def run_kernel(t, li: int, phase: int, shared: bool) -> tuple[np.ndarray, ...]:
    """The outputs of one enumeration kernel over the reel set of ``phase``."""
    lt = t.levels[li]
    sets = reel_sets(t)
    ps = 0 if phase == 0 else len(sets) - 1
    scr = screen_inputs(t, li)
    score = spin_score(t, lt, phase)
    rows = int(sets[ps].length[0])
    w, wb, wb2, hit, _ = _outputs(t, lt, rows)
    aw = np.zeros((rows, lt.n_keys + len(cluster_pays_of(t.machine)) + 1), dtype=np.int64)
    out = (w, wb, wb2, hit, aw, np.zeros(rows, np.int64), np.zeros(rows, np.int64))
    play = ScreenPhase(ps, phase, score.scatter_pay, score.excl)
    args = (play, reel_inputs(t), level_inputs(lt, t), game_inputs(t), scr)
    if shared:
        counts = column_counts(t, score.scatter_pay)
        k.enumerate_line_screens(*args, counts, score.cap, CycleSums(*out))
    else:
        k.enumerate_screen_cycle(*args, score.cap, CycleSums(*out))
    return out


def plain_rtp(t, li: int) -> tuple[float, float]:
    """(return, hit frequency) of a base-only game: every combination replayed and summed here."""
    reels = reel_sets(t)[0]
    lengths = [int(n) for n in reels.length]
    stops = np.array(list(itertools.product(*[range(n) for n in lengths])), dtype=np.int64)
    played = play_sequences(t, li, stops)
    total = won = hits = 0
    for row, res in zip(stops, played):
        w = 1
        for r, s in enumerate(row):
            w *= int(reels.weight[r, s])
        total += w
        won += w * int(res[0])
        hits += w if res[0] > 0 else 0
    return float(Fraction(won, total * t.levels[li].total_bet)), float(Fraction(hits, total))


def paylines_strategy(reels: int, rows: int):
    line = st.lists(st.integers(0, rows - 1), min_size=reels, max_size=reels).map(tuple)
    return st.lists(line, min_size=3, max_size=9, unique=True).map(lambda ls: [list(x) for x in ls])


strip5 = st.lists(st.sampled_from(["A", "K", "Q", "W", "S"]), min_size=3, max_size=5)


@SETTINGS
@given(
    strips=st.lists(strip5, min_size=5, max_size=5),
    lines=paylines_strategy(5, 3),
    mults=st.lists(st.integers(1, 4), min_size=1, max_size=3),
    max_screens=st.integers(1, 12),
    free_spins=st.booleans(),
)
def test_prefix_kernel_equals_plain_odometer(strips, lines, mults, max_screens, free_spins):
    """Random 5x3 line cascades (scatters, wilds x2, free spins): the same outputs to the bit."""
    extra = (
        {"free_spins": {"trigger": {"symbol": "S", "count": 3}, "spins": {"3": 5}, "multiplier": 2}}
        if free_spins
        else {}
    )
    data = lines_data(strips, 3, lines, PAYS, SYMBOLS, [("S", 3, 2), ("S", 4, 10)], extra=extra)
    t = compile_machine(machine_of(data, Cascade("strip", tuple(mults), max_screens)))
    for phase in (0, 1) if free_spins else (0,):
        for li in range(len(t.levels)):
            a = run_kernel(t, li, phase, shared=True)
            b = run_kernel(t, li, phase, shared=False)
            for x, y in zip(a, b):
                assert np.array_equal(x, y)


@SETTINGS
@given(
    strips=st.lists(strip5, min_size=5, max_size=5),
    lines=paylines_strategy(5, 3),
    mults=st.lists(st.integers(1, 4), min_size=1, max_size=3),
)
def test_exact_equals_plain_enumerator(strips, lines, mults):
    """compute_screen_exact = every combination replayed and summed in Python, to 1e-12."""
    data = lines_data(strips, 3, lines, PAYS, SYMBOLS, [("S", 3, 2)])
    m = machine_of(data, Cascade("strip", tuple(mults), 30))
    t = compile_machine(m)
    if exact_screens.longest_cascade(t) is None or exact_screens.longest_cascade(t) > 30:
        return  # an endless cascade: refused, not enumerated
    ex = compute_screen_exact(t)
    assert ex is not None
    for li, lv in enumerate(ex.levels):
        rtp, hit = plain_rtp(t, li)
        assert abs(lv.rtp - rtp) < 1e-12
        assert abs(lv.hit_frequency - hit) < 1e-12


strip4 = st.lists(st.sampled_from(["A", "K", "W", "S"]), min_size=2, max_size=3)


@settings(
    max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)
@given(strips=st.lists(strip4, min_size=4, max_size=4), lines=paylines_strategy(4, 2))
def test_four_reel_cascade_twin_equals_exact(strips, lines):
    """Several paylines sharing prefixes, 4 reels x 2 rows: exact = the pure-Python twin."""
    pays = [(["A"] * 4, 9), (["A"] * 3, 3), (["K"] * 3, 2), (["W"] * 3, 5)]
    data = lines_data(strips, 2, lines, pays, SYMBOLS, [("S", 2, 1), ("S", 3, 4)])
    m = machine_of(data, Cascade("strip", (1, 2), 12))
    t = compile_machine(m)
    longest = exact_screens.longest_cascade(t)
    if longest is None or longest > 12:
        return
    ex = compute_screen_exact(t)
    assert ex is not None
    ref = twin.brute_force(m, 0)
    lv = ex.levels[0]
    assert abs(lv.rtp - float(ref["rtp"])) < 1e-12
    assert abs(lv.hit_frequency - float(ref["hit_frequency"])) < 1e-12
    assert abs(lv.variance - float(ref["variance"])) < 1e-12 * max(1.0, float(ref["variance"]))
    assert screen_cycle(t, t.levels[0], 0).longest == ref["longest"]


def test_work_is_measured_above_the_free_size(monkeypatch):
    """Above SCREEN_FREE_CYCLE the work is sampled; a budget it exceeds refuses with the figures."""
    t = compile_machine(load_machine(PUBLISHED / "ct_win_storm.toml"))
    work = exact_screens.screen_work(t)
    assert work.combinations == 35 * 39 * 39 * 39 * 35
    assert 1.0 < work.screens < 2.0  # the server's Mcascade-like figure: few starts cascade
    monkeypatch.setattr(exact_screens, "SCREEN_BUDGET_S", 0.5)
    reason = exact_screens.screen_infeasible_reason(t)
    assert reason is not None and "would take about" in reason and "72,665,775" in reason
    assert "--budget SECONDS" in reason  # says how to allow more


def test_a_budget_given_allows_what_the_default_refuses(monkeypatch):
    """``budget_s`` (``slotcert exact --budget``, ``certify --exact-budget``) replaces the
    default: Win Storm refused at a default of 0.5 s is admitted at 600 s, by the exact
    calculator and by the cascade check alike (the same work judged on the same budget)."""
    t = compile_machine(load_machine(PUBLISHED / "ct_win_storm.toml"))
    monkeypatch.setattr(exact_screens, "SCREEN_BUDGET_S", 0.5)
    assert exact_screens.screen_infeasible_reason(t) is not None
    assert exact_screens.longest_cascade(t) is None  # the check not made
    assert exact_screens.screen_infeasible_reason(t, budget_s=600) is None
    assert exact_refusal(t, budget_s=600) is None
    assert exact_refusal(t, budget_s=0.5) is not None


@pytest.mark.slow
def test_win_storm_equals_the_published_brute_force():
    """CT Interactive Win Storm, 72,665,775 starts, each avalanche played to its end.

    Reference: slotopol/server, game/slot/ct/winstorm/winstorm_data.yaml, reel set
    "96.028757" (its own brute force over every start): RTP = 85.902 (lined) +
    10.127 (scatter) = 96.028757%, N[2] = 9,116,790 starts with a second screen
    (= the starts whose first screen pays: every pay is positive), Ncascmax = 8
    screens. Published figures are matched to their printed rounding (half a
    unit of the last digit); the count N[2] exactly.
    """
    t = compile_machine(load_machine(PUBLISHED / "ct_win_storm.toml"))
    lt = t.levels[0]
    cyc = screen_cycle(t, lt, 0)
    total = cyc.buckets.total
    assert total == 72_665_775
    rtp = Fraction(sum(cyc.buckets.wb), total * lt.total_bet)
    assert abs(float(rtp) * 100 - 96.028757) <= 5e-7
    assert abs(cyc.scatter_sum / total / lt.total_bet * 100 - 10.127) <= 5e-4
    assert int(cyc.buckets.hit.sum()) == 9_116_790
    assert cyc.longest == 8


@pytest.mark.slow
def test_burning_brilliants_equals_the_published_brute_force():
    """CT Interactive 100 Burning Brilliants (5x4, 100 lines), 94,352,849 starts.

    Reference: slotopol/server, game/slot/ct/burningbrilliants/burningbrilliants_data.yaml,
    reel set "96.002356": RTP = 96.002356%, sigma = 9.95455 (per unit of total bet),
    matched to their printed rounding.
    """
    t = compile_machine(load_machine(PUBLISHED / "ct_burning_brilliants.toml"))
    lt = t.levels[0]
    cyc = screen_cycle(t, lt, 0)
    total, tb = cyc.buckets.total, lt.total_bet
    assert total == 94_352_849
    mean = sum(cyc.buckets.wb) / total / tb
    assert abs(mean * 100 - 96.002356) <= 5e-7
    sigma = float(np.sqrt(float(cyc.buckets.wb2.sum()) / total / tb**2 - mean**2))
    assert abs(sigma - 9.95455) <= 5e-6
