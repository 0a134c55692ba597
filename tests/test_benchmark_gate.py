"""The benchmark gate fails when a kernel is deliberately slowed."""

from __future__ import annotations

import os
import subprocess
import sys

from testpaths import ROOT


def _gate(tmp_path, *extra, slowdown="1"):
    env = {**os.environ, "SLOTCERT_BENCH_SLOWDOWN": slowdown}
    cmd = [
        sys.executable,
        "-m",
        "benchmarks.gate",
        "--short",
        "--only",
        "sim_classic_spins_per_s",
        "--baseline",
        str(tmp_path / "baseline.json"),
        *extra,
    ]
    return subprocess.run(cmd, env=env, cwd=ROOT, capture_output=True, text=True)


def test_gate_passes_at_baseline_and_fails_when_slowed(tmp_path):
    """A kernel 4x slower fails its first try and the second the gate gives it."""
    assert _gate(tmp_path, "--update").returncode == 0
    slowed = _gate(tmp_path, slowdown="4")
    assert slowed.returncode == 1, slowed.stdout + slowed.stderr
    assert "second try of sim_classic_spins_per_s" in slowed.stdout
    assert slowed.stdout.count("REGRESSION") == 2


def test_each_metric_is_divided_by_the_workload_most_like_it():
    """Simulation by the miniature game, start-up by Python, the exact sums by the loop."""
    from benchmarks.gate import calibration_kind, metrics

    kinds = {name: calibration_kind(name) for name in metrics(short=True)}
    assert kinds["sim_ref_spins_per_s"] == kinds["sim_ways_spins_per_s"] == "branchy"
    assert kinds["startups_per_s"] == "python"
    assert kinds["exact_ref_combos_per_s"] == kinds["exact_states_combos_per_s"] == "arith"


def _miniature_credits(n, strips, lines, pays, rows, records):
    """The miniature game of ``benchmarks.calibrate`` spin by spin in plain Python."""
    mask64 = (1 << 64) - 1
    x = 0x9E3779B97F4A7C15
    won = 0
    for _ in range(n):
        x ^= (x << 13) & mask64
        x ^= x >> 7
        x ^= (x << 17) & mask64
        record = records[int(rows[(x >> 40) % len(rows)])]
        won += int(record[(x >> 36) % 4])
        x = (x + int(record[1])) & mask64
        if record[0] % 2 == 0:
            continue
        stops = [(x >> (6 * r)) % 64 for r in range(5)]
        for line in lines:
            symbols = [int(strips[r, (stops[r] + line[r]) % 64]) for r in range(5)]
            paying = next((s for s in symbols if s != 0), 0)  # a wild-led run takes the next
            run = 0
            while run < 5 and symbols[run] in (0, paying):
                run += 1
            won += int(pays[paying, run - 1])
    return won


def test_the_miniature_game_kernel_plays_its_rules():
    """The branchy calibration is a real workload: its credits equal a plain replay."""
    from benchmarks.calibrate import _branchy_game, _branchy_kernel

    game = _branchy_game()
    assert _branchy_kernel(3000, *game) == _miniature_credits(3000, *game)
