"""Full-window multipliers on every screen of a cascade, and the free spins' own scatter pays.

CT King of Clovers (slotopol ``kingofclovers_rule.go``): when 2 of reels 2-4 are wholly
wild a screen's line wins are x2, all three x10 (``FillMult``), and in its free spins 2
scatters pay (``ScanScattersBon``). Exact = the pure-Python twin (``tests/twins/screens.py``,
written from the rules' text) to 1e-12; simulation within 5 sigma of exact; a located
refusal for what is not played; the real game against an independent enumerator.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from games import lines_data, machine_of, ways_data
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_screens_twin import assert_same
from testpaths import DATA
from twins import screens as twin

from certify.engine import simulate
from certify.engine.screens import play_sequences, run_screen_chunks
from certify.engine.simulate import SimulationResult, award_columns
from certify.engine.tables import compile_machine
from certify.errors import ModelError
from certify.exact import compute_exact
from certify.exact.screens import compute_screen_exact
from certify.model import load_machine
from certify.model.schema import FullWindowPay
from certify.model.screens import Cascade, screen_problems
from certify.stats import z_value

SETTINGS = settings(
    max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)
SYMBOLS = {
    "A": {"kind": "regular"},
    "K": {"kind": "regular"},
    "W": {"kind": "wild"},
    "S": {"kind": "scatter"},
}
FREE_SPINS = {
    "trigger": {"symbol": "S", "count": 2},
    "spins": 2,
    "multiplier": 2,
    "retrigger": False,
}


def _windows(mults: tuple[int, int, int]) -> tuple[FullWindowPay, ...]:
    """A pair of wild reels, a window of A (wilds counting), any one symbol on reels 1-2."""
    return (
        FullWindowPay("W", mults[0], (2, 3)),
        FullWindowPay("A", mults[1]),
        FullWindowPay("ANY", mults[2], (1, 2)),
    )


def _scatters(data: dict, free_pays: int) -> dict:
    """2 S pay only in the free spins (``pays = 0`` + ``free_spins_pays``), 3 pay in both."""
    data["scatter_pays"] = [
        {"symbol": "S", "count": 2, "pays": 0, "free_spins_pays": free_pays},
        {"symbol": "S", "count": 3, "pays": 3},
    ]
    return data


strip = st.lists(st.sampled_from(["A", "K", "W", "S"]), min_size=2, max_size=4)
game = {
    "strips": st.lists(strip, min_size=3, max_size=3),
    "pays": st.tuples(*[st.integers(1, 9)] * 3),
    "mults": st.tuples(st.integers(2, 4), st.integers(2, 6), st.integers(1, 3)),
    "cascade": st.lists(st.integers(1, 4), min_size=1, max_size=3),
    "free_pays": st.integers(1, 5),
}


@SETTINGS
@given(**game)
def test_lines_cascade_full_window_twin_equals_exact(strips, pays, mults, cascade, free_pays):
    data = lines_data(
        strips,
        2,
        [[0, 0, 0], [1, 1, 1], [0, 1, 0]],
        [(["A", "A", "A"], pays[0]), (["K", "K", "K"], pays[1]), (["A", "A"], pays[2])],
        SYMBOLS,
        extra={"free_spins": dict(FREE_SPINS)},
    )
    m = machine_of(
        _scatters(data, free_pays),
        Cascade("strip", tuple(cascade), 6),
        full_window_pays=_windows(mults),
    )
    assert_same(m)
    assert_same(m, 1)


@SETTINGS
@given(**game)
def test_ways_cascade_full_window_twin_equals_exact(strips, pays, mults, cascade, free_pays):
    data = ways_data(
        strips,
        2,
        [(["A", "A", "A"], pays[0]), (["K", "K", "K"], pays[1]), (["A", "A"], pays[2])],
        SYMBOLS,
    )
    data["free_spins"] = dict(FREE_SPINS)
    m = machine_of(
        _scatters(data, free_pays),
        Cascade("strip", tuple(cascade), 6),
        full_window_pays=_windows(mults),
    )
    assert_same(m)


def _hand_game():
    """Reels 2 and 3 all wild on the first screen: its A A A lines pay x5, the next x1."""
    data = lines_data(
        [["A", "A", "K", "K"], ["W", "W", "K", "A"], ["W", "W", "A", "K"]],
        2,
        [[0, 0, 0], [1, 1, 1]],
        [(["A", "A", "A"], 2), (["K", "K", "K"], 3)],
        SYMBOLS,
    )
    return machine_of(
        data, Cascade("strip", (1,), 5), full_window_pays=(FullWindowPay("W", 5, (2, 3)),)
    )


def test_hand_worked_screens():
    """Stops 0, 0, 0: A/A over W/W over W/W: both lines pay A A A (2 each) x5 = 20 on the
    first screen; every cell vanishes, the refill shows K/K, A/K, K/A: nothing pays."""
    m = _hand_game()
    t = compile_machine(m)
    out = play_sequences(t, 0, np.array([[0, 0, 0]]))
    assert out[0].tolist() == [20, 0, 0, 0, 2]
    assert twin.play(m, m.strips, m.weights, (0, 0, 0), 0)[0] == 20
    plain = dataclasses.replace(m, full_window_pays=())
    assert play_sequences(compile_machine(plain), 0, np.array([[0, 0, 0]]))[0, 0] == 4


def _simulate(tables, li: int = 0) -> SimulationResult:
    result = SimulationResult(tables.levels[li].total_bet, award_columns(tables))
    result.merge(*run_screen_chunks(tables, li, 11, 0, np.array([40_000] * 4, dtype=np.int64)))
    return result


def test_simulation_within_five_sigma_of_exact():
    data = lines_data(
        [["A", "S", "K", "W"], ["W", "A", "S", "W", "K"], ["A", "W", "S", "K", "W"]],
        2,
        [[0, 0, 0], [1, 1, 1], [0, 1, 0]],
        [(["A", "A", "A"], 4), (["K", "K", "K"], 3), (["A", "A"], 1)],
        SYMBOLS,
        extra={"free_spins": {**FREE_SPINS, "retrigger": True, "max_spins": 20}},
    )
    m = machine_of(
        _scatters(data, 2), Cascade("strip", (1, 2), 8), full_window_pays=_windows((3, 4, 2))
    )
    t = compile_machine(m)
    ex = compute_screen_exact(t)
    assert ex is not None
    sim = _simulate(t)
    assert abs(sim.rtp - ex.levels[0].rtp) < 5 * sim.std_error


def _refused(m) -> list[str]:
    with pytest.raises(ModelError) as err:
        compile_machine(m)
    return [p.path for p in err.value.problems]


def test_located_refusals():
    """A full-window jackpot in a cascade, full windows in a cluster game and a line's
    own free-spin pays in a screen game are refused, each at its key."""
    m = _hand_game()
    pool = (FullWindowPay("W", 5, (2, 3), jackpot="GRAND"),)
    assert "full_window_pays[0].jackpot" in _refused(dataclasses.replace(m, full_window_pays=pool))
    cluster = dataclasses.replace(m, evaluation="cluster", cascade=None)
    assert "full_window_pays" in [p.path for p in screen_problems(cluster)]
    pays = list(m.pays)
    pays[0] = dataclasses.replace(pays[0], free_spins_pays=9)
    assert "pays[0].free_spins_pays" in _refused(dataclasses.replace(m, pays=tuple(pays)))
    assert screen_problems(m) == []


REAL = DATA / "real" / "ct_king_of_clovers.toml"


def test_king_of_clovers():
    """CT King of Clovers, reel set "96.120490" and the "bon" set of kingofclovers_data.yaml.
    The server prints "symbols: 83.867(lined) + 3.0974(scatter) = 86.964568%; free spins
    5283236, q = 0.076636" and, for the bonus reels, "symbols: 69.314(lined) +
    12.592(scatter) = 81.906068%; RTP = sq*rtp(sym) = 1.4587*81.906 = 119.472819%", total
    "96.120490%". An independent enumerator of the server's code gives every one of them
    and, with slotcert's award (the free spins start or retrigger once per sequence, by
    the largest count its screens showed, where the server adds each paying screen's
    award), a bonus q of 29,660,902 / 94,352,849 instead of 29,668,087: 96.11947359%."""
    tables = compile_machine(load_machine(REAL))
    level = compute_exact(tables).levels[0]
    assert level.line_rtp * 100 == pytest.approx(83.867, abs=5e-4)
    assert level.scatter_rtp * 100 == pytest.approx(3.0974, abs=5e-5)
    assert (level.line_rtp + level.scatter_rtp) * 100 == pytest.approx(86.964568, abs=5e-7)
    assert level.fs_probability * 14 == pytest.approx(5_283_236 / 68_939_325, rel=1e-12)
    assert level.rtp * 100 == pytest.approx(96.11947359, abs=5e-9)
    assert abs(level.rtp * 100 - 96.120490) > 1e-3  # the printed figure's per-screen awards
    sim = simulate(tables, 0, 2_000_000, seed=5, stream=1)
    assert abs(sim.rtp - level.rtp) < z_value(0.999) * level.sigma / 2_000_000**0.5
