"""The CI benchmark gate: short throughput runs compared with a committed baseline.

Each throughput is divided by the calibration workload most like it, timed
in the same run (:mod:`benchmarks.calibrate`: a miniature slot game for the
simulation kernels, an integer loop for the exact calculator, a Python loop
for start-up), so a faster, slower or busier machine compares fairly; a
metric more than ``--tolerance`` (default 25%) below its baseline in two
tries fails the gate (exit 1).

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

from benchmarks.calibrate import rates
from benchmarks.measure import (
    MACHINES,
    exact_combinations_per_second,
    spins_per_second,
    startup_seconds,
    state_merging_combinations_per_second,
)

BASELINE = Path(__file__).with_name("baseline.json")


def calibration_kind(name: str) -> str:
    """The calibration workload a metric is divided by (:mod:`benchmarks.calibrate`).

    Simulation kernels are branchy and read tables all over L2; the exact
    calculator sums in tight loops; start-up is the interpreter.
    """
    if name.startswith("sim_"):
        return "branchy"
    if name == "startups_per_s":
        return "python"
    return "arith"


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


def run(names: list[str], short: bool) -> tuple[dict[str, float], dict[str, float]]:
    """Calibration rate of each kind and the raw figure of each metric, on one numba thread.

    The calibration workloads are single-threaded, so the kernels are too: a
    busy second core (a shared CI machine) then slows both alike instead of
    halving only the kernels. Thread scaling is measured by the
    pytest-benchmark suite, not gated. Each metric is timed between two
    calibrations of its kind and divided by their mean, so a machine whose
    speed drifts during the gate is followed.
    """
    table = metrics(short)
    threads = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        before = rates()
        raw = {name: table[name]() for name in names}
        after = rates()
    finally:
        numba.set_num_threads(threads)
    return {kind: (before[kind] + after[kind]) / 2.0 for kind in before}, raw


def normalised(name: str, value: float, calibration: dict[str, float]) -> float:
    """``value`` divided by its kind's calibration rate."""
    return value / calibration[calibration_kind(name)]


def compare(
    raw: dict[str, float], calibration: dict[str, float], baseline: dict, tolerance: float
) -> tuple[list[str], list[str]]:
    """Table lines and the metrics more than ``tolerance`` below their baseline."""
    lines = [
        f"{'metric':<26} {'kind':>8} {'raw':>18} {'normalised':>12} {'baseline':>12} {'ratio':>7}"
    ]
    failing = []
    for name, value in raw.items():
        norm = normalised(name, value, calibration)
        base = baseline.get("metrics", {}).get(name)
        ratio = norm / base if base else float("nan")
        flag = ""
        if base and ratio < 1.0 - tolerance:
            failing.append(name)
            flag = "  REGRESSION"
        lines.append(
            f"{name:<26} {calibration_kind(name):>8} {value:>18,.3f} {norm:>12.6g} "
            f"{(base or float('nan')):>12.6g} {ratio:>7.3f}{flag}"
        )
    return lines, failing


def calibration_line(
    calibration: dict[str, float], reference: dict[str, float], tolerance: float
) -> str:
    """The calibration rates, each with its ratio to the baseline machine's where known.

    The ratios say what kind of host this is: one that runs branchy code at
    half the speed of the reference and the integer loop at full speed is
    told apart from one that is slower at everything.
    """
    parts = []
    for kind, rate in calibration.items():
        known = reference.get(kind)
        parts.append(f"{kind} {rate:,.0f}/s" + (f" ({rate / known:.2f}x)" if known else ""))
    return "calibration: " + ", ".join(parts) + f"; tolerance {tolerance:.0%}"


def report(
    raw: dict[str, float], calibration: dict[str, float], baseline: dict, tolerance: float
) -> list[str]:
    """Print the calibration line and the metrics' table; the metrics that regressed."""
    lines, failing = compare(raw, calibration, baseline, tolerance)
    print(calibration_line(calibration, baseline.get("calibration", {}), tolerance))
    print("\n".join(lines))
    return failing


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
    failing = report(raw, calibration, baseline, args.tolerance)
    if failing and not args.update:
        # a burst of other work on a shared machine: each failing metric gets a second try,
        # with its own calibrations; a kernel that really got slower fails both
        print(f"second try of {', '.join(failing)}:")
        calibration, raw = run(failing, args.short)
        failing = report(raw, calibration, baseline, args.tolerance)
    print(f"gate took {time.perf_counter() - started:.1f} s")
    if args.update:
        merged = {
            **baseline.get("metrics", {}),
            **{name: normalised(name, value, calibration) for name, value in raw.items()},
        }
        args.baseline.write_text(
            json.dumps(
                {
                    "calibration_note": baseline.get(
                        "calibration_note", "throughput / its kind's calibration rate"
                    ),
                    "metrics": merged,
                    "calibration": {**baseline.get("calibration", {}), **calibration},
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
    print("gate: " + ("FAIL: a metric regressed beyond the tolerance" if failing else "pass"))
    return 1 if failing else 0


if __name__ == "__main__":
    sys.exit(main())
