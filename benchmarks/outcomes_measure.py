"""Outcome-verification throughput: replay screens/s and a Parquet log's verification.

``python -m benchmarks.outcomes_measure [--screens N] [--rows N]`` prints the replay
kernel's screens/s on the reference 5x3 20-line game (random stops, base reel set,
best of 3, threads as numba has them) and the wall time and peak memory of a child
process verifying a recorded Parquet log of ``--rows`` screens.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
REFERENCE = ROOT / "models" / "machines" / "ref-5x3-20.toml"
LAST: dict[
    str, float
] = {}  # CPU seconds of the last measurements (a loaded machine's wall time lies)


def replay_screens_per_second(screens: int, repeats: int = 3) -> float:
    """Screens/s of :func:`certify.outcomes.kernels.replay_screens` (best of ``repeats``)."""
    from certify.outcomes import kernels as k
    from certify.outcomes.kernel_records import ReplayOut
    from certify.outcomes.verify import _machine_model

    rm = _machine_model(REFERENCE)
    lk = rm.level(rm.level_values[0])
    rng = np.random.default_rng(1)
    stops = np.stack([rng.integers(0, len(s), screens) for s in rm.machine.strips], axis=1)
    fs = np.zeros(screens, dtype=np.int64)
    drawn = np.full(screens, -1, dtype=np.int64)
    win = np.zeros(screens, dtype=np.int64)
    packed = np.zeros(screens, dtype=np.uint64)
    blocks = (screens + k.BLOCK - 1) // k.BLOCK
    classes = np.zeros((blocks, 2 * lk.px.n_classes), dtype=np.int64)
    awards = np.zeros((blocks, 2 * (lk.award_keys.shape[0] + 1)), dtype=np.int64)
    args = (
        stops,
        fs,
        drawn,
        rm.reels,
        lk.prefix,
        lk.inputs,
        rm.game,
        rm.ways,
        rm.extras,
    )
    k.replay_screens(
        *[a[:16] if isinstance(a, np.ndarray) and a.shape[0] == screens else a for a in args],
        ReplayOut(win[:16], packed[:16], classes, awards),
    )
    best, cpu = float("inf"), float("inf")
    for _ in range(repeats):
        t0, c0 = time.perf_counter(), time.process_time()
        k.replay_screens(*args, ReplayOut(win, packed, classes, awards))
        best = min(best, time.perf_counter() - t0)
        cpu = min(cpu, time.process_time() - c0)
    LAST["replay_cpu_seconds"] = cpu
    return screens / best


def verify_parquet(rows_wanted: int, folder: Path) -> tuple[float, float, int]:
    """(seconds, peak MiB, rows) of a child process verifying a recorded Parquet log."""
    from certify.outcomes.record import record_outcomes

    log = folder / "bench.parquet"
    games = int(rows_wanted / 1.08)  # the reference game plays about 1.08 screens a game
    summary = record_outcomes(REFERENCE, games, 1, log)
    # the child's own peak: VmHWM belongs to its address space, while ru_maxrss can carry
    # the parent's peak (this process has just recorded the log) across vfork + exec
    code = (
        "import time\n"
        "from certify.outcomes.verify import verify_outcomes\n"
        "from certify.outcomes.verify import _machine_model, _exact\n"
        f"rm = _machine_model({str(REFERENCE)!r}); _exact(rm)\n"
        "t, c = time.perf_counter(), time.process_time()\n"
        f"r = verify_outcomes({str(log)!r}, rm)\n"
        "hwm = [l for l in open('/proc/self/status') if l.startswith('VmHWM:')][0]\n"
        "print(time.perf_counter() - t, time.process_time() - c, hwm.split()[1], r.rows_in)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], check=True, capture_output=True, text=True, cwd=ROOT
    )
    seconds, cpu, rss, rows = out.stdout.split()[-4:]
    assert int(rows) == summary["rows"]
    LAST["verify_cpu_seconds"] = float(cpu)
    return float(seconds), int(rss) / 1024.0, int(rows)


def main() -> None:
    """Print both figures."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--screens", type=int, default=1 << 22)
    ap.add_argument("--rows", type=int, default=2_000_000)
    args = ap.parse_args()
    rate = replay_screens_per_second(args.screens)
    cpu = LAST["replay_cpu_seconds"]
    print(
        f"replay: {rate / 1e6:.1f}M screens/s on ref-5x3-20 (wall); "
        f"{args.screens / cpu / 1e6:.1f}M screens per CPU second"
    )
    with tempfile.TemporaryDirectory() as tmp:
        seconds, mib, rows = verify_parquet(args.rows, Path(tmp))
    cpu = LAST["verify_cpu_seconds"]
    print(
        f"verify: {rows} rows of Parquet in {seconds:.1f} s wall, {cpu:.1f} CPU s "
        f"({rows / cpu / 1e6:.2f}M rows per CPU second), peak {mib:.0f} MiB"
    )


if __name__ == "__main__":
    main()
