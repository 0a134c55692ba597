"""The CI benchmark gate: short throughput runs compared with a committed baseline.

Each throughput is divided by a calibration loop timed in the same run, so a
faster or slower machine compares fairly; a metric more than ``--tolerance``
(default 25%) below its baseline fails the gate (exit 1).

Usage::

    python -m benchmarks.gate --short              # what .ci/run does
    python -m benchmarks.gate --short --update     # refresh benchmarks/baseline.json
    python -m benchmarks.gate --only sim_classic   # one metric

Refresh the baseline only on purpose (a kernel got faster, or the reference
machine changed): run ``--short`` several times on a quiet machine, keep 80% of the
slowest figure of each metric (``--update`` writes the last run as is), and
commit it with the change. A baseline from the slowest runs keeps the gate
from failing on noise while still catching a kernel that got 25% slower.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numba

from benchmarks.measure import (
    MACHINES,
    calibration_rate,
    exact_combinations_per_second,
    spins_per_second,
    startup_seconds,
    state_merging_combinations_per_second,
)

BASELINE = Path(__file__).with_name("baseline.json")
# Start-up is import and cache I/O, not arithmetic: compared raw, not normalised.
RAW_METRICS = ("startups_per_s",)


def metrics(short: bool) -> dict[str, Callable[[], float]]:
    """Metric name -> measurement (higher is better)."""
    spins = 1 << 22 if short else 1 << 27
    table = {
        "sim_ref_spins_per_s": lambda: spins_per_second(MACHINES / "ref-5x3-20.toml", spins),
        "sim_classic_spins_per_s": lambda: spins_per_second(MACHINES / "classic-3r-1.toml", spins),
        "sim_ways_spins_per_s": lambda: spins_per_second(MACHINES / "ways-243.toml", spins),
        "exact_ways_combos_per_s": lambda: exact_combinations_per_second(
            MACHINES / "ways-243.toml"
        )[0],
        "startups_per_s": lambda: 1.0 / startup_seconds(),
        # the features over several screens (issue 14): reel wild, hold and spin, cascade
        "sim_reelwild_spins_per_s": lambda: spins_per_second(
            MACHINES / "reelwild-5x3-20.toml", spins
        ),
        "sim_hold_spins_per_s": lambda: spins_per_second(MACHINES / "hold-5x3-20.toml", spins),
        "sim_cascade_spins_per_s": lambda: spins_per_second(
            MACHINES / "cascade-5x3-10.toml", spins // 8
        ),
    }
    table["exact_ref_combos_per_s"] = lambda: exact_combinations_per_second(
        MACHINES / "ref-5x3-20.toml"
    )[0]
    # the state-merging exact (issue 16) on a generated 5x3 20-line game with 64-stop strips
    table["exact_states_combos_per_s"] = state_merging_combinations_per_second
    return table


def run(names: list[str], short: bool) -> tuple[float, dict[str, float]]:
    """Calibration rate and the raw figure of each metric, on one numba thread.

    The calibration loop is single-threaded, so the kernels are too: a busy
    second core (a shared CI machine) then slows both alike instead of
    halving only the kernels. Thread scaling is measured by the
    pytest-benchmark suite, not gated.
    """
    table = metrics(short)
    calibration = calibration_rate()
    threads = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        return calibration, {name: table[name]() for name in names}
    finally:
        numba.set_num_threads(threads)


def compare(
    raw: dict[str, float], calibration: float, baseline: dict, tolerance: float
) -> tuple[list[str], bool]:
    """Table lines and whether every metric is within tolerance of its baseline."""
    lines = [f"{'metric':<26} {'raw':>14} {'normalised':>12} {'baseline':>12} {'ratio':>7}"]
    ok = True
    for name, value in raw.items():
        norm = value if name in RAW_METRICS else value / calibration
        base = baseline.get("metrics", {}).get(name)
        ratio = norm / base if base else float("nan")
        flag = ""
        if base and ratio < 1.0 - tolerance:
            ok, flag = False, "  REGRESSION"
        lines.append(
            f"{name:<26} {value:>14,.3f} {norm:>12.6g} "
            f"{(base or float('nan')):>12.6g} {ratio:>7.3f}{flag}"
        )
    return lines, ok


def main(argv: list[str] | None = None) -> int:
    """Run the gate; exit 1 on a regression."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.gate")
    parser.add_argument("--short", action="store_true", help="CI size (under 2 minutes)")
    parser.add_argument("--update", action="store_true", help="write the baseline")
    parser.add_argument("--only", action="append", help="run only this metric")
    parser.add_argument(
        "--tolerance", type=float, default=float(os.environ.get("SLOTCERT_GATE_TOLERANCE", "0.25"))
    )
    parser.add_argument("--baseline", type=Path, default=BASELINE)
    args = parser.parse_args(argv)
    names = args.only or list(metrics(args.short))
    started = time.perf_counter()
    calibration, raw = run(names, args.short)
    baseline = json.loads(args.baseline.read_text()) if args.baseline.exists() else {}
    lines, ok = compare(raw, calibration, baseline, args.tolerance)
    print(f"calibration: {calibration:,.0f} loop iterations/s; tolerance {args.tolerance:.0%}")
    print("\n".join(lines))
    print(f"gate took {time.perf_counter() - started:.1f} s")
    if args.update:
        merged = {
            **baseline.get("metrics", {}),
            **{
                name: value if name in RAW_METRICS else value / calibration
                for name, value in raw.items()
            },
        }
        args.baseline.write_text(
            json.dumps(
                {
                    "calibration_note": "throughput / calibration iterations per second",
                    "metrics": merged,
                },
                indent=2,
                sort_keys=True,
            )
            + "\n"
        )
        print(f"baseline written to {args.baseline}")
        return 0
    if not baseline:
        print("no baseline: nothing to compare (run with --update)")
        return 0
    print("gate: " + ("pass" if ok else "FAIL: a metric regressed beyond the tolerance"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
