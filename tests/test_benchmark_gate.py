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
    assert _gate(tmp_path, "--update").returncode == 0
    slowed = _gate(tmp_path, slowdown="4")
    assert slowed.returncode == 1, slowed.stdout + slowed.stderr
    assert "REGRESSION" in slowed.stdout
