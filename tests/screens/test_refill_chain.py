"""Random-refill cascades: the exact chain over the refill draws (certify/exact/refill.py).

References: a hand calculation, the pure-Python twin's brute force over every
stop combination and every sequence of refill draws (a tree, nothing merged,
rationals; tests/twins/screens.py ``refills``), and the simulation kernel
(tests/screens/test_screens_simulation.py).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from games import lines_data, machine_of
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from twins import screens as twin

from certify.engine.tables import compile_machine
from certify.exact.refill import CHAIN_SCREENS, ScreenCodes, chain_refusal, refill_chain
from certify.exact.screens import compute_screen_exact, screen_cycle, screen_infeasible_reason
from certify.model.screens import Cascade

SYMBOLS = {
    "A": {"kind": "regular"},
    "K": {"kind": "regular"},
    "W": {"kind": "wild", "multiplier": 2},
    "S": {"kind": "scatter"},
}


def hand_game(max_screens: int = 3, mults: tuple[int, ...] = (1, 2, 5)):
    """Three reels of one row: ``A | A | A K``; one line; A A A pays 2 (total bet 1)."""
    data = lines_data([["A"], ["A"], ["A", "K"]], 1, [[0, 0, 0]], [(["A", "A", "A"], 2)])
    return machine_of(data, Cascade("random", mults, max_screens))


def test_hand_worked_chain():
    """Every screen shows A A and, on reel 3, A or K with 1/2 each, whatever came before.

    A A A pays 2 x the screen's multiplier (1, 2, 5) and vanishes whole; the
    refill draws A A and A-or-K again, so screen k is shown with (1/2)^(k-1)
    and pays with (1/2)^k, at most 3 screens. The spin's total W:
    0 (1/2), 2 (1/4), 2 + 4 = 6 (1/8), 2 + 4 + 10 = 16 (1/8, the third
    screen pays and the sequence stops at max_screens).
    E[W] = 2/4 + 6/8 + 16/8 = 3.25; E[W^2] = 4/4 + 36/8 + 256/8 = 37.5;
    variance 37.5 - 3.25^2 = 26.9375; hit frequency 1/2; A A A paid
    1/2 + 1/4 + 1/8 = 0.875 times a spin.
    """
    m = hand_game()
    ex = compute_screen_exact(m)
    assert ex is not None and ex.method == "random-refill chain"
    lv = ex.levels[0]
    assert lv.total_bet == 1
    assert lv.rtp == pytest.approx(3.25, abs=1e-14)
    assert lv.variance == pytest.approx(26.9375, abs=1e-12)
    assert lv.hit_frequency == pytest.approx(0.5, abs=1e-15)
    assert [a.probability for a in lv.awards if a.kind == "line"] == pytest.approx([0.875])
    t = compile_machine(m)
    chain = refill_chain(t, t.levels[0], 0)
    assert chain.longest == 3
    assert [s[1] for s in chain.steps] == pytest.approx([1.0, 0.5, 0.25])
    assert [s[2] for s in chain.steps] == pytest.approx([1.0, 1.0, 1.25])


def test_hand_worked_chain_to_max_screens():
    """The same game with max_screens 40, multiplier 1: E[W] = 2 (1 - 2^-40), screen by screen."""
    ex = compute_screen_exact(hand_game(40, (1,)))
    assert ex is not None
    assert ex.levels[0].rtp == pytest.approx(2 * (1 - 2.0**-40), abs=1e-13)


def test_chain_pays_and_win_cap():
    """A length prize and a cap on the sequence's total, against the twin."""
    data = lines_data(
        [["A", "K"], ["A", "A", "K"], ["A", "K"]],
        1,
        [[0, 0, 0]],
        [(["A", "A", "A"], 3), (["K", "K", "K"], 2)],
        extra={"rules": {"win_cap": 7}},
    )
    m = machine_of(data, Cascade("random", (1, 2), 4, chain_pays=((3, 5),)))
    assert_twin(m)


def assert_twin(m, li: int = 0) -> None:
    t = compile_machine(m)
    assert screen_infeasible_reason(t) is None
    ex = compute_screen_exact(t)
    assert ex is not None
    lv = ex.levels[li]
    ref = twin.brute_force(m, li)
    # the chain adds float64 probabilities: 1e-12 of the moments it sums (E[X], E[X^2]),
    # the variance being E[X^2] - E[X]^2
    rtp, second = float(ref["rtp"]), float(ref["variance"] + ref["rtp"] ** 2)
    assert abs(lv.rtp - rtp) < 1e-12 * max(1.0, rtp)
    assert abs(lv.hit_frequency - float(ref["hit_frequency"])) < 1e-12
    assert abs(lv.variance - float(ref["variance"])) < 1e-12 * max(1.0, second)
    probs = [a.probability for a in lv.awards if a.kind in ("line", "ways", "cluster")]
    assert probs == pytest.approx([float(q) for q in ref["awards"]], abs=1e-12)
    assert screen_cycle(t, t.levels[li], 0).longest == ref["longest"]


strip = st.lists(st.sampled_from(["A", "K", "W", "S"]), min_size=2, max_size=3)


@settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)
@given(
    strips=st.lists(strip, min_size=3, max_size=3),
    pays=st.tuples(*[st.integers(1, 9)] * 3),
    mults=st.lists(st.integers(1, 5), min_size=1, max_size=3),
    max_screens=st.integers(1, 3),
    weighted=st.booleans(),
)
def test_random_lines_chain_equals_twin(strips, pays, mults, max_screens, weighted):
    """Random line games of 3 reels x 2 rows (wilds x2, a paying scatter), weights or none."""
    weights = [[(i % 3) + 1 for i in range(len(s))] for s in strips] if weighted else None
    data = lines_data(
        strips,
        2,
        [[0, 0, 0], [1, 1, 1], [0, 1, 0]],
        [(["A", "A", "A"], pays[0]), (["K", "K", "K"], pays[1]), (["A", "A"], pays[2])],
        SYMBOLS,
        [("S", 2, 1), ("S", 3, 4)],
        weights,
    )
    assert_twin(machine_of(data, Cascade("random", tuple(mults), max_screens)))


def test_three_screens_with_free_spins_and_bonus_equals_twin():
    """Free spins (no retrigger) and a bonus started by the sequence's largest counts."""
    symbols = {**SYMBOLS, "B": {"kind": "bonus"}}
    data = lines_data(
        [["A", "S", "B"], ["K", "A", "S"], ["A", "B", "S"]],
        2,
        [[0, 0, 0], [1, 1, 1]],
        [(["A", "A", "A"], 6), (["K", "K", "K"], 4), (["A", "A"], 1)],
        symbols,
        [("S", 3, 2)],
        extra={
            "free_spins": {
                "trigger": {"symbol": "S", "count": 2},
                "spins": {"2": 2, "3": 4},
                "multiplier": 2,
                "retrigger": False,
            },
            "bonus": {
                "trigger": {"symbol": "B", "count": 2},
                "awards": [{"pays": 3, "weight": 2}, {"pays": 10, "weight": 1}],
            },
        },
    )
    assert_twin(machine_of(data, Cascade("random", (1, 2), 3)))


def test_ways_chain_equals_twin():
    from games import ways_data

    data = ways_data(
        [["A", "K", "W"], ["K", "A", "S"], ["A", "S", "K"]],
        2,
        [(["A", "A", "A"], 3), (["K", "K", "K"], 2), (["A", "A"], 1)],
        SYMBOLS,
        [("S", 2, 1)],
    )
    assert_twin(machine_of(data, Cascade("random", (1, 3), 2)))


def test_screen_codes_round_trip():
    t = compile_machine(hand_game())
    codes = ScreenCodes(t.base, 1)
    assert codes.size == 1 * 1 * 2  # A | A | A or K
    grids = codes.decode(np.arange(codes.size))
    assert codes.encode(grids).tolist() == [0, 1]


def test_large_window_refused_with_its_size():
    """5 reels x 3 rows of 3 symbols each: 3^15 = 14,348,907 screens, above the bound."""
    data = lines_data([["A", "K", "W"]] * 5, 3, [[1] * 5], [(["A"] * 5, 5)], SYMBOLS)
    t = compile_machine(machine_of(data, Cascade("random", (1,), 5)))
    reason = chain_refusal(t, 1e9)
    assert 3**15 > CHAIN_SCREENS
    assert reason is not None and "14,348,907 screens" in reason and "simulation only" in reason
    assert screen_infeasible_reason(t) == reason
    assert compute_screen_exact(t) is None


def test_cluster_chain_equals_twin():
    """A 3 x 3 cluster grid refilled at random: groups vanish whole, wilds join every group."""
    from games import cluster_machine

    m = cluster_machine(
        [["A", "K", "A"], ["A", "W", "K"], ["K", "K", "A"]],
        3,
        [("A", 3, 1), ("A", 5, 4), ("K", 4, 2)],
        {"A": {"kind": "regular"}, "K": {"kind": "regular"}, "W": {"kind": "wild"}},
        Cascade("random", (1, 2), 2),
    )
    assert_twin(m)


RULES_GAME = Path(__file__).parents[1] / "data" / "rules" / "random_refill.toml"


def test_rules_game_steps_add_up_and_simulation_agrees():
    """tests/data/rules/random_refill.toml: the PAR's screens add up to the sequence's return.

    Screen k's return (its wins x its multiplier, and the length prizes of the
    sequences ending on it) summed over k is the return of the base game's
    sequences: the exact return less the free spins'. The simulation kernel
    (random draws, not the chain) falls within 5 standard errors of the chain.
    """
    from certify.engine.screens import run_screen_chunks
    from certify.engine.simulate import SimulationResult, award_columns
    from certify.exact.parfeatures import refill_steps
    from certify.model import load_machine

    t = compile_machine(load_machine(RULES_GAME))
    ex = compute_screen_exact(t)
    assert ex is not None
    lv, lt = ex.levels[0], t.levels[0]
    table = refill_steps(t, lt)
    assert table is not None and table.rows[0][2] == pytest.approx(1.0)
    assert sum(r[3] for r in table.rows) == pytest.approx(lv.rtp - lv.free_spins_rtp, abs=1e-12)
    sim = SimulationResult(lt.total_bet, award_columns(t))
    sim.merge(*run_screen_chunks(t, 0, 5, 0, np.array([100_000] * 4, dtype=np.int64)))
    assert abs(sim.rtp - lv.rtp) < 5 * sim.std_error


def test_chain_work_follows_the_budget():
    """The rules game: 46,656 screens x 30 layers x 4 runs (2 levels, base and free spins).

    At 1.5e5 screens x layers a second that is 37.3 s: admitted by the default
    120 s, refused (with its figures) by a 10 s budget, which exact honours too.
    """
    from certify.exact.refill import CHAIN_RATE
    from certify.model import load_machine

    t = compile_machine(load_machine(RULES_GAME))
    assert 46_656 * 30 * 4 / CHAIN_RATE == pytest.approx(37.32, abs=0.01)
    assert chain_refusal(t, 120.0) is None
    reason = chain_refusal(t, 10.0)
    assert reason is not None and "about 37 s (46,656 screens x up to 30 screens" in reason
    assert screen_infeasible_reason(t, budget_s=10.0) == reason
    assert compute_screen_exact(t, budget_s=10.0) is None


def test_fallen_screens_beyond_62_bit_codes_refused():
    """8 reels x 8 rows of one symbol: 1 screen, but 2^64 fallen screens with holes."""
    data = lines_data([["A"]] * 8, 8, [[0] * 8], [(["A"] * 8, 5)], SYMBOLS)
    t = compile_machine(machine_of(data, Cascade("random", (1,), 3)))
    assert (
        chain_refusal(t, 1e9)
        == 'cascade refill = "random": its fallen screens do not fit 62-bit codes'
    )
