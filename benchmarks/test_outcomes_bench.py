"""Outcome verification (issue 30, pytest-benchmark): replay screens/s, a Parquet log verified.

Run: ``.venv/bin/python -m pytest benchmarks/test_outcomes_bench.py --benchmark-only``.
Small sizes by default (the machine is shared); ``SLOTCERT_BENCH_FULL=1`` runs 1e8 screens
of replay and a 1e7-row log.
"""

from __future__ import annotations

import os
from pathlib import Path

from benchmarks.outcomes_measure import replay_screens_per_second, verify_parquet

FULL = os.environ.get("SLOTCERT_BENCH_FULL") == "1"
SCREENS = 100_000_000 if FULL else 1 << 21
ROWS = 10_000_000 if FULL else 500_000


def test_replay_screens_per_second(benchmark):
    """The replay kernel on the reference 5x3 20-line game (target: 10M screens/s)."""
    rate = benchmark.pedantic(replay_screens_per_second, args=(SCREENS,), rounds=1, iterations=1)
    benchmark.extra_info["screens_per_second"] = rate
    assert rate > 0


def test_verify_parquet_log(benchmark, tmp_path: Path):
    """A recorded Parquet log verified in a child process: seconds and peak memory."""
    seconds, mib, rows = benchmark.pedantic(
        verify_parquet, args=(ROWS, tmp_path), rounds=1, iterations=1
    )
    benchmark.extra_info |= {"seconds": seconds, "peak_mib": mib, "rows": rows}
    assert mib < 2048
