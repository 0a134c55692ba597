"""Engine and exact-calculator throughput (pytest-benchmark), correctness inside.

Run: ``.venv/bin/python -m pytest benchmarks/test_engine_bench.py --benchmark-only``.
``SLOTCERT_BENCH_FULL=1`` runs the issue's sizes (1e9 spins, memory at 1e7 vs 1e9).
"""

from __future__ import annotations

import os

import pytest

from benchmarks.measure import (
    MACHINES,
    REFERENCE,
    exact_combinations_per_second,
    peak_rss_mib,
    spins_per_second,
    spins_per_second_on,
    startup_seconds,
)
from benchmarks.twin_speed import twin_spins_per_second
from certify.engine import compile_machine
from certify.engine.kernel_inputs import prefix_tables
from certify.model import load_machine

FULL = os.environ.get("SLOTCERT_BENCH_FULL") == "1"
SPINS = 1_000_000_000 if FULL else 1 << 24


@pytest.mark.parametrize("path", sorted(MACHINES.glob("*.toml")), ids=lambda p: p.stem)
def test_spins_per_second(benchmark, path):
    rate = benchmark.pedantic(spins_per_second, args=(path, SPINS, 1), rounds=1, iterations=1)
    benchmark.extra_info["spins_per_second"] = rate
    benchmark.extra_info["spins"] = SPINS
    tables = compile_machine(load_machine(path))
    if not tables.is_ways:  # what the speed hangs on: table size, depth, lines left to walk
        px = prefix_tables(tables, 0)
        benchmark.extra_info["prefix_depth"] = px.depth.tolist()
        benchmark.extra_info["prefix_table_bytes"] = px.nbytes
        benchmark.extra_info["lines_alive_after_prefix"] = px.mean_alive


FEATURE_GAMES = {  # model -> spins per timed run (about a second or more on 2 threads)
    "ref-5x3-20": SPINS * 4,
    "reelwild-5x3-20": SPINS * 4,
    "book-5x3-10": SPINS * 4,
    "hold-5x3-20": SPINS * 4,
    "heights-4r": SPINS // 4,
    "cascade-5x3-10": SPINS // 4,
    "cluster-7x7": SPINS // 64,
}


@pytest.mark.parametrize("name", list(FEATURE_GAMES))
def test_feature_games_on_two_threads(benchmark, name):
    """Spins/s of each feature game (issue 14) on 2 numba threads, beside the reference game.

    Each run is checked against the exact return first (``spins_per_second_on``).
    """
    import numba  # noqa: PLC0415

    spins, threads = FEATURE_GAMES[name], min(2, numba.config.NUMBA_NUM_THREADS)
    path = MACHINES / f"{name}.toml"
    rate = benchmark.pedantic(
        spins_per_second_on, args=(path, spins, threads), rounds=1, iterations=1
    )
    benchmark.extra_info["spins_per_second"] = rate
    benchmark.extra_info["threads"] = threads
    benchmark.extra_info["spins"] = spins


def test_rules_on_the_fast_path(benchmark):
    """The reference game with wild_multiplier = "max" and direction = "both", beside itself.

    Both rules live in the line automaton, so the game keeps the two-draw fast
    path; reading every line both ways keeps all 20 lines alive after the
    reels 1-3 prefix (right runs start on reels 3-5), which is what it costs.
    """
    from certify.engine.simulate import fast_flag

    path = MACHINES.parents[1] / "tests" / "data" / "rules" / "ref_max_both.toml"
    tables = compile_machine(load_machine(path))
    assert fast_flag(tables, prefix_tables(tables, 0)) == 1
    rate = benchmark.pedantic(spins_per_second, args=(path, SPINS // 4, 1), rounds=1, iterations=1)
    benchmark.extra_info["spins_per_second_max_both"] = rate
    benchmark.extra_info["spins_per_second_reference"] = spins_per_second(REFERENCE, SPINS, 1)
    benchmark.extra_info["lines_alive_after_prefix"] = prefix_tables(tables, 0).mean_alive


def test_twin_vs_engine_ratio(benchmark):
    """The pure-Python twin on the same game, reported next to the engine."""
    twin_rate = benchmark.pedantic(
        twin_spins_per_second, args=(REFERENCE, 2.0), rounds=1, iterations=1
    )
    engine_rate = spins_per_second(REFERENCE, 1 << 22, 1)
    benchmark.extra_info["twin_spins_per_second"] = twin_rate
    benchmark.extra_info["engine_spins_per_second"] = engine_rate
    benchmark.extra_info["speed_up"] = engine_rate / twin_rate


@pytest.mark.parametrize("name", ["ref-5x3-20.toml", "ways-243.toml", "classic-3r-1.toml"])
def test_exact_combinations_per_second(benchmark, name):
    rate, cycle = benchmark.pedantic(
        exact_combinations_per_second, args=(MACHINES / name,), rounds=1, iterations=1
    )
    benchmark.extra_info["combinations_per_second"] = rate
    benchmark.extra_info["cycle"] = cycle


def test_startup_time(benchmark):
    seconds = benchmark.pedantic(startup_seconds, rounds=1, iterations=1)
    benchmark.extra_info["startup_seconds"] = seconds


def test_memory_flat_in_spins(benchmark):
    small = peak_rss_mib(10_000_000)
    big = benchmark.pedantic(
        peak_rss_mib, args=(1_000_000_000 if FULL else 100_000_000,), rounds=1, iterations=1
    )
    benchmark.extra_info["peak_rss_mib_1e7"] = small
    benchmark.extra_info["peak_rss_mib_big"] = big
    assert big < small * 1.10 + 16
