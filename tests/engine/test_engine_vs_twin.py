"""The numba engine against the pure-Python twin and against exact figures."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest
from own_draws import assert_kernel_pays_the_twin
from testpaths import DATA, MACHINES, ROOT
from twins import lines as twin

from certify.engine import _kernels as k
from certify.engine import compile_machine, simulate
from certify.engine.kernel_inputs import (
    game_inputs,
    level_inputs,
    prefix_inputs,
    prefix_tables,
    reel_inputs,
    reel_sets,
    ways_group_draw_on,
)
from certify.engine.prefix import build_prefix_tables
from certify.engine.simulate import ways_flag
from certify.exact import compute_exact
from certify.model import load_machine
from certify.stats import z_value

SMALL = ["tiny_lines.toml", "small_features.toml", "small_ways.toml"]


def _kernel_spins(tables, lt, stops, fs, px):
    """Line/ways + scatter credits the kernel's spin evaluation gives ``stops``."""
    out = np.zeros(stops.shape[0], dtype=np.int64)
    packed = np.zeros(stops.shape[0], dtype=np.uint64)
    level = level_inputs(lt, tables)
    k.evaluate_stops(
        stops,
        fs,
        reel_inputs(tables),
        prefix_inputs(px),
        level,
        game_inputs(tables),
        out,
        packed,
        np.zeros((stops.shape[0], len(tables.machine.pays)), dtype=np.int64),
        ways_flag(tables),
    )
    counts = (
        packed[:, None] >> (8 * np.arange(len(tables.counted_names), dtype=np.uint64))
    ) & np.uint64(255)
    scatter = lt.scatter_pay[np.arange(counts.shape[1]), counts.astype(np.int64)].sum(axis=1)
    return out + scatter


@pytest.mark.parametrize(
    "name", SMALL + ["../../models/machines/ref-5x3-20.toml", "../../models/machines/ways-243.toml"]
)
def test_kernel_spin_equals_twin_on_random_windows(name):
    """2,000 random stop vectors on each reel set (base, free spins) and every
    prefix depth, with and without tail tables: kernel credits == twin credits."""
    machine = load_machine(DATA / name)
    tables = compile_machine(machine)
    rng = np.random.default_rng(7)
    fs = machine.free_spins
    sets = [(0, machine.strips)] + ([(1, fs.strips)] if fs and fs.strips else [])
    depths = [None] if tables.is_ways else [None, *range(min(4, machine.reels))]
    for lt in tables.levels:
        for fs_flag, strips in sets:
            stops = np.stack([rng.integers(0, len(s), 2000) for s in strips], axis=1)
            expected = [
                twin.spin_value(machine, twin.window(strips, row, machine.rows), lt.level_index)[0]
                for row in stops.tolist()
            ]
            for depth in depths:
                px = prefix_tables(tables, lt.level_index)
                if depth is not None:
                    px = build_prefix_tables(
                        [(s.window, s.length, s.counted) for s in reel_sets(tables)],
                        tables.paylines,
                        lt.trans,
                        lt.live,
                        lt.state_win,
                        lt.state_entry,
                        len(machine.pays),
                        depth,
                        pairs=depth % 2 == 0,
                    )
                got = _kernel_spins(tables, lt, stops, fs_flag, px)
                assert got.tolist() == expected, (depth, fs_flag)


@pytest.mark.parametrize("name", SMALL)
def test_simulation_agrees_with_exact_small(name):
    """Simulation within its 99.9% interval of the exact return (sigma from exact)."""
    machine = load_machine(DATA / name)
    exact = compute_exact(machine)
    for li, lvl in enumerate(exact.levels):
        sim = simulate(machine, li, 2_000_000, seed=11, stream=li)
        band = z_value(0.999) * lvl.sigma / np.sqrt(sim.spins)
        assert abs(sim.rtp - lvl.rtp) < band
        assert sim.hit_frequency == pytest.approx(
            lvl.hit_frequency,
            abs=5 * np.sqrt(lvl.hit_frequency * (1 - lvl.hit_frequency) / sim.spins),
        )


def test_same_seed_same_result_and_chunks_are_pure():
    """Chunk i of seed s is the same numbers whatever the run length around it."""
    machine = load_machine(DATA / "small_features.toml")
    a = simulate(machine, 0, 3 * 4096, seed=5, chunk_spins=4096)
    b = simulate(machine, 0, 3 * 4096, seed=5, chunk_spins=4096)
    assert (a.total_win, a.sum_sq, a.hits) == (b.total_win, b.sum_sq, b.hits)
    first_two = simulate(machine, 0, 2 * 4096, seed=5, chunk_spins=4096)
    third = _chunk(machine, seed=5, index=2, size=4096)
    assert first_two.total_win + third == a.total_win
    assert simulate(machine, 0, 3 * 4096, seed=6, chunk_spins=4096).total_win != a.total_win


def _chunk(machine, seed, index, size):
    from certify.engine.simulate import run_chunks

    out, _, _, _ = run_chunks(
        compile_machine(machine), 0, seed, index, np.array([size], dtype=np.int64)
    )
    return int(out[0, k.OUT_WIN])


def _simulate_json(threads: int) -> dict:
    env = {**os.environ, "NUMBA_NUM_THREADS": str(threads)}
    cmd = [
        sys.executable,
        "-m",
        "certify",
        "simulate",
        str(MACHINES / "ref-5x3-20.toml"),
        "--spins",
        "3000000",
        "--seed",
        "42",
        "--level",
        "1",
        "--json",
    ]
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, cwd=ROOT, check=True)
    return json.loads(done.stdout)


def test_identical_with_one_and_two_threads():
    """Same seed: bit-identical figures with NUMBA_NUM_THREADS=1 and =2."""
    assert _simulate_json(1) == _simulate_json(2)


def _certificate_levels(threads: int, out) -> list:
    env = {**os.environ, "NUMBA_NUM_THREADS": str(threads)}
    cmd = [
        sys.executable,
        "-m",
        "certify",
        "certify",
        str(MACHINES / "ref-5x3-20.toml"),
        "--jurisdiction",
        str(ROOT / "models" / "jurisdictions" / "pt.toml"),
        "--spins",
        "2500000",
        "--seed",
        "7",
        "--out",
        str(out),
        "--no-html",
    ]
    subprocess.run(cmd, env=env, capture_output=True, text=True, cwd=ROOT)
    cert = json.loads((out / "REF-5X3-20.certificate.json").read_text())
    return cert["bet_levels"]


def test_certificate_figures_identical_with_one_and_two_threads(tmp_path):
    """Same seed: identical certificate figures (exact and simulated) with 1 and 2 threads."""
    assert _certificate_levels(1, tmp_path / "one") == _certificate_levels(2, tmp_path / "two")


@pytest.mark.parametrize(
    "name",
    [
        "tiny_lines.toml",
        "../../models/machines/classic-3r-1.toml",
        "../../models/machines/ways-243.toml",  # the group draw (its free spins taken off)
    ],
)
def test_simulation_kernel_equals_twin_on_its_own_draws(name):
    """The production kernel pays exactly what the twin pays on the very stops it
    drew, and counts the same award entries (prefix classes + alive lines, or
    the ways entries paid)."""
    import dataclasses

    machine = dataclasses.replace(load_machine(DATA / name), free_spins=None)
    tables = compile_machine(machine)
    if tables.is_ways:
        assert ways_group_draw_on(tables)  # the stops come from the group draw
    assert_kernel_pays_the_twin(machine, tables, seed=9, n=3000)
