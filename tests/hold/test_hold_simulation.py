"""The hold-and-spin kernel and the pure-Python twin against the exact chain.

Oracle: :func:`certify.exact.hold.hold_exact` (exact). Tolerance: 4 standard
errors of each simulated figure, estimated from the same run (the award's
from the sample variance; its second moment's from the sample of ``A^4``;
a count's from its sample variance; a jackpot's hits bounded by
``sqrt((cells + 1) E[hits] / n)``, as a feature wins at most ``cells + 1``).
The seeds are fixed, so each check is deterministic.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from twins.hold import play_many

from certify._numba import jit
from certify.engine._hold import hold_spin
from certify.engine.hold import HoldSimulation, hold_arrays, simulate_features
from certify.engine.rng import chunk_states
from certify.engine.spin_records import HoldFeature
from certify.exact.hold import hold_exact
from certify.model.hold import HoldAndSpin, HoldValue
from certify.model.schema import Trigger

SPEC_VALUES = (
    HoldValue(60, 1, None),
    HoldValue(25, 2, None),
    HoldValue(10, 5, None),
    HoldValue(4, None, "MINI"),
    HoldValue(1, None, "MAJOR"),
)
SPEC_PRIZES = (("MINI", 10), ("MINOR", 25), ("MAJOR", 100), ("GRAND", 1000))

CONFIGS = {
    # id: (feature, rows, reels, start, progressive)
    "spec 5x3": (
        HoldAndSpin(Trigger("COIN", 6), 3, Fraction(3, 100), SPEC_VALUES, "GRAND", SPEC_PRIZES),
        3,
        5,
        6,
        set(),
    ),
    "3x3 often full, progressive pool": (
        HoldAndSpin(
            Trigger("COIN", 3),
            2,
            Fraction(1, 4),
            (HoldValue(5, 1, None), HoldValue(3, 3, None), HoldValue(1, None, "pool-a")),
            "GRAND",
            (("GRAND", 40),),
        ),
        3,
        3,
        3,
        {"pool-a"},
    ),
    "2x3 one respin, p = 1/3": (
        HoldAndSpin(
            Trigger("COIN", 1),
            1,
            Fraction(1, 3),
            (HoldValue(1, 2, None), HoldValue(1, None, "MINI")),
            None,
            (("MINI", 7),),
        ),
        2,
        3,
        1,
        set(),
    ),
}


def _check(ex, sim: HoldSimulation, cells: int) -> None:
    n = sim.features
    mean, second = sim.total / n, sim.total_sq / n
    se = math.sqrt(max(second - mean * mean, 0) / n)
    assert abs(mean - float(ex.mean)) <= 4 * se, (mean, float(ex.mean), se)
    se2 = math.sqrt(max(sim.total_fourth / n - second * second, 0) / n)
    assert abs(second - float(ex.second_moment)) <= 4 * se2, (second, float(ex.second_moment))
    en = sim.count / n
    se_n = math.sqrt(max(sim.count_sq / n - en * en, 0) / n)
    assert abs(en - float(ex.mean_count)) <= 4 * se_n
    pf = float(ex.full_probability)
    assert abs(sim.full / n - pf) <= 4 * math.sqrt(pf * (1 - pf) / n) + 1e-12
    expected = dict(ex.jackpot_hits) | dict(ex.progressive_hits)
    for name, got in sim.hits:
        h = float(expected[name])
        assert abs(got / n - h) <= 4 * math.sqrt((cells + 1) * h / n) + 1e-12, name


@pytest.mark.parametrize("name", list(CONFIGS))
def test_kernel_agrees_with_exact(name):
    hs, rows, reels, start, progressive = CONFIGS[name]
    cells = rows * reels
    ex = hold_exact(hs, cells, start, progressive)
    states = chunk_states(20261201, 0, 32)
    sim = simulate_features(hs, cells, start, 40_000, states, 1, progressive)
    _check(ex, sim, cells)


def test_credits_scale_with_the_bet_and_the_stream_is_reproducible():
    hs, rows, reels, start, progressive = CONFIGS["3x3 often full, progressive pool"]
    one = simulate_features(hs, 9, 3, 5_000, chunk_states(5, 0, 4), 1, progressive)
    five = simulate_features(hs, 9, 3, 5_000, chunk_states(5, 0, 4), 5, progressive)
    assert five.total == 5 * one.total and five.hits == one.hits
    states = chunk_states(5, 0, 4)
    again = simulate_features(hs, 9, 3, 5_000, states, 1, progressive)
    assert again == one
    assert not np.array_equal(states, chunk_states(5, 0, 4))  # advanced in place
    later = simulate_features(hs, 9, 3, 5_000, states, 1, progressive)
    assert later != one


@jit
def _one_feature(state, start, feature, hits):
    win, locked, s0, s1, s2, s3 = hold_spin(
        start, feature, hits, state[0], state[1], state[2], state[3]
    )
    state[0], state[1], state[2], state[3] = s0, s1, s2, s3
    return win, locked


def test_hold_spin_inline_returns_the_award_and_the_count():
    """Every coin pays 3 credits: the award is 3 N (+ the full-window pay)."""
    hs = HoldAndSpin(
        Trigger("COIN", 2), 2, Fraction(1, 2), (HoldValue(1, 3, None),), "G", (("G", 100),)
    )
    a = hold_arrays(hs, 1)
    state = chunk_states(3, 0, 1)[0].copy()
    hits = np.zeros(1, dtype=np.int64)
    fulls = 0
    for _ in range(200):
        feature = HoldFeature(
            4,
            a.respins,
            a.p_num,
            a.p_den,
            a.value_cum,
            a.value_pay,
            a.value_jackpot,
            a.full_pay,
            a.full_jackpot,
        )
        win, locked = _one_feature(state, 2, feature, hits)
        assert 2 <= locked <= 4
        assert win == 3 * locked + (100 if locked == 4 else 0)
        fulls += locked == 4
    assert hits[0] == fulls > 0


def test_hold_arrays_convert_prizes_to_credits():
    hs, *_ = CONFIGS["spec 5x3"]
    a = hold_arrays(hs, 20, progressive={"MAJOR"})
    assert (a.p_num, a.p_den, a.respins) == (3, 100, 3)
    assert a.value_cum.tolist() == [60, 85, 95, 99, 100]
    assert a.value_pay.tolist() == [20, 40, 100, 200, 0]
    assert a.value_jackpot.tolist() == [-1, -1, -1, 0, 2]
    assert (a.full_pay, a.full_jackpot) == (20_000, 3)
    assert a.jackpots == ("MINI", "MINOR", "MAJOR", "GRAND")


@pytest.mark.parametrize("name", ["3x3 often full, progressive pool", "2x3 one respin, p = 1/3"])
def test_twin_agrees_with_exact(name):
    """The screen-by-screen twin: a second Monte Carlo check, 20,000 features."""
    hs, rows, reels, start, progressive = CONFIGS[name]
    cells = rows * reels
    ex = hold_exact(hs, cells, start, progressive)
    n = 20_000
    played = play_many(hs, rows, reels, start, n, seed=11, progressive=progressive)
    a = np.array([f.award for f in played], dtype=np.float64)
    c = np.array([f.locked for f in played], dtype=np.float64)
    hits: dict[str, int] = {}
    for f in played:
        for j, k in f.jackpots.items():
            hits[j] = hits.get(j, 0) + k
    sums = HoldSimulation(
        n,
        a.sum(),
        (a**2).sum(),
        (a**4).sum(),
        c.sum(),
        (c**2).sum(),
        float(sum(f.full for f in played)),
        tuple(hits.items()),
    )
    _check(ex, sums, cells)
