"""Simulation of screen games: within 5 standard errors of exact, random refill, threads."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from games import cluster_machine, lines_data, machine_of
from twins import screens as twin

from certify.engine._kernels import N_OUT
from certify.engine.screens import run_screen_chunks
from certify.engine.simulate import SimulationResult, award_columns
from certify.engine.tables import compile_machine
from certify.exact.screens import compute_screen_exact, screen_infeasible_reason
from certify.model.screens import Cascade

HERE = Path(__file__).resolve().parent
SIZES = np.array([40_000] * 4, dtype=np.int64)


def feature_game(refill: str = "strip"):
    symbols = {
        "A": {"kind": "regular"},
        "K": {"kind": "regular"},
        "W": {"kind": "wild", "multiplier": 2},
        "S": {"kind": "scatter"},
        "B": {"kind": "bonus"},
    }
    data = lines_data(
        [["A", "S", "K", "B", "W"], ["K", "A", "S", "W", "A"], ["A", "B", "S", "K", "A", "K"]],
        2,
        [[0, 0, 0], [1, 1, 1], [0, 1, 0]],
        [(["A", "A", "A"], 6), (["K", "K", "K"], 4), (["A", "A"], 1)],
        symbols,
        [("S", 3, 2)],
        [[1, 2, 1, 1, 1], [2, 1, 1, 1, 2], [1, 1, 2, 1, 1, 1]],
        extra={
            "free_spins": {
                "trigger": {"symbol": "S", "count": 2},
                "spins": {"2": 2, "3": 4},
                "multiplier": 2,
                "retrigger": True,
                "max_spins": 20,
            },
            "bonus": {
                "trigger": {"symbol": "B", "count": 2},
                "awards": [{"pays": 3, "weight": 2}, {"pays": 10, "weight": 1}],
            },
        },
    )
    return machine_of(data, Cascade(refill, (1, 2, 3), 8))


def simulate(tables, li: int = 0, seed: int = 7) -> SimulationResult:
    lt = tables.levels[li]
    result = SimulationResult(lt.total_bet, award_columns(tables))
    result.merge(*run_screen_chunks(tables, li, seed, 0, SIZES))
    return result


def test_outputs_have_run_chunks_shapes():
    t = compile_machine(feature_game())
    out, sq, awards, hist = run_screen_chunks(t, 0, 1, 0, np.array([1000, 500]))
    assert out.shape == (2, N_OUT) and sq.shape == (2,)  # statistics, then 16 convergence marks
    assert awards.shape == (2, len(t.machine.pays)) and hist.shape == (2, 32)
    assert out[:, 0].tolist() == [1000, 500] and hist.sum() == 1500


@pytest.mark.parametrize("refill", ["strip", "random"])
@pytest.mark.parametrize("li", [0, 1])
def test_cascade_simulation_within_five_sigma_of_exact(li, refill):
    """Strip: the full cycle; random: the chain over the refill draws (retriggers, bonus)."""
    t = compile_machine(feature_game(refill))
    assert screen_infeasible_reason(t) is None
    ex = compute_screen_exact(t)
    assert ex is not None
    lv = ex.levels[li]
    sim = simulate(t, li)
    assert abs(sim.rtp - lv.rtp) < 5 * sim.std_error
    assert abs(sim.hit_frequency - lv.hit_frequency) < 5 * (lv.hit_frequency / sim.spins) ** 0.5
    assert abs(sim.variance - lv.variance) < 0.2 * lv.variance
    per_spin = sim.award_counts / sim.spins
    for a, p in zip([a for a in lv.awards if a.kind == "line"], per_spin):
        assert abs(p - a.probability) < 5 * (a.probability / sim.spins) ** 0.5 + 1e-9


def test_random_refill_chain_differs_from_the_strip_cycle():
    """The refill draws matter: the two games' exact returns differ."""
    ex = {r: compute_screen_exact(compile_machine(feature_game(r))) for r in ("strip", "random")}
    assert ex["strip"] is not None and ex["random"] is not None
    assert abs(ex["strip"].levels[0].rtp - ex["random"].levels[0].rtp) > 1e-3


def test_random_refill_draws_change_the_sequences():
    t = compile_machine(feature_game("random"))
    sim = simulate(t)
    strip = simulate(compile_machine(feature_game("strip")))
    assert sim.total_win != strip.total_win  # the refill draws change the sequences


def test_random_refill_simulation_agrees_with_twin_monte_carlo():
    m = machine_of(
        lines_data(
            [["A", "K", "W", "A"], ["K", "A", "A"], ["A", "K", "W"]],
            2,
            [[0, 0, 0], [1, 1, 1]],
            [(["A", "A", "A"], 5), (["K", "K", "K"], 3)],
            {"A": {"kind": "regular"}, "K": {"kind": "regular"}, "W": {"kind": "wild"}},
            weights=[[3, 1, 1, 2], [1, 2, 1], [2, 2, 1]],
        ),
        Cascade("random", (1, 2, 4), 10),
    )
    sim = simulate(compile_machine(m))
    mean, se = twin.monte_carlo(m, 0, 20_000, seed=3)
    assert abs(sim.rtp - mean) < 5 * (se**2 + sim.std_error**2) ** 0.5


def test_cluster_simulation_within_five_sigma_of_exact():
    symbols = {"A": {"kind": "regular"}, "K": {"kind": "regular"}, "W": {"kind": "wild"}}
    m = cluster_machine(
        [["A", "K", "W"], ["K", "A", "A", "K"], ["A", "K", "K"]],
        3,
        [("A", 3, 1), ("A", 5, 4), ("K", 3, 2), ("K", 6, 8)],
        symbols,
        Cascade("strip", (1, 2), 6),
    )
    t = compile_machine(m)
    ex = compute_screen_exact(t)
    assert ex is not None
    sim = simulate(t)
    assert abs(sim.rtp - ex.levels[0].rtp) < 5 * sim.std_error


_RUN = """
import json, sys
sys.path[:0] = [{here!r}, {tests!r}]
import numpy as np
from test_screens_simulation import feature_game
from certify.engine.screens import run_screen_chunks
from certify.engine.tables import compile_machine
t = compile_machine(feature_game("random"))
out, sq, aw, hist = run_screen_chunks(t, 0, 11, 3, np.array([5000, 3000, 4000, 2000]))
print(json.dumps([out.tolist(), sq.tolist(), aw.tolist(), hist.tolist()]))
"""


def test_bit_identical_for_any_thread_count():
    results = []
    for threads in ("1", "2"):
        env = {**os.environ, "NUMBA_NUM_THREADS": threads}
        code = _RUN.format(here=str(HERE), tests=str(HERE.parent))
        done = subprocess.run(
            [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
        )
        results.append(json.loads(done.stdout.strip().splitlines()[-1]))
    assert results[0] == results[1]
    t = compile_machine(feature_game("random"))
    here = run_screen_chunks(t, 0, 11, 3, np.array([5000, 3000, 4000, 2000]))
    assert [a.tolist() for a in here] == results[0]


def test_ways_cascade_simulation_within_five_sigma_of_exact():
    from games import ways_data

    symbols = {
        "A": {"kind": "regular"},
        "K": {"kind": "regular"},
        "W": {"kind": "wild", "multiplier": 2},
        "S": {"kind": "scatter"},
    }
    data = ways_data(
        [["A", "K", "W", "S"], ["K", "A", "A", "S", "W"], ["A", "K", "K", "A"]],
        2,
        [(["A", "A", "A"], 3), (["K", "K", "K"], 2), (["A", "A"], 1)],
        symbols,
        [("S", 2, 1)],
    )
    t = compile_machine(machine_of(data, Cascade("strip", (1, 2, 3), 8)))
    ex = compute_screen_exact(t)
    assert ex is not None
    sim = simulate(t)
    assert abs(sim.rtp - ex.levels[0].rtp) < 5 * sim.std_error
