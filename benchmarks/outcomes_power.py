"""Log size needed to find each ``record --fault`` at alpha = 0.01 with 99% probability.

``python -m benchmarks.outcomes_power MODEL [--reps 200] [--faults pay,bias,serial,feature]``

For each fault, sizes from a grid (paid games) are tried in increasing order:
``reps`` logs of that size (seeds 1000, 1001, ...) are recorded with the fault
and verified; the first size at which at least 99% of them fail is printed
(``reps`` = 200: at least 198 of 200). The faultless rate at that size is
printed too (the share of faultless logs that fail). Results go into the
power table of ``docs/OUTCOMES.md``.
"""

from __future__ import annotations

import argparse
import math
import tempfile
import time
from pathlib import Path

GRID = {
    "pay": [25, 50, 100, 200, 400, 800, 1600, 3200, 6400, 12800],
    "feature": [25, 50, 100, 200, 400, 800, 1600, 3200, 6400, 12800],
    "bias": [200, 300, 400, 600, 800, 1200, 1600, 2400, 3200, 4800, 6400, 9600, 12800, 25600],
    "serial": [1000, 1500, 2000, 3000, 4000, 6000, 8000, 12000, 16000, 24000, 32000, 48000, 64000],
}


def detection(rm, fault: str | None, games: int, reps: int, folder: Path) -> int:
    """How many of ``reps`` logs of ``games`` games with ``fault`` fail verification."""
    from certify.outcomes.record import record_outcomes
    from certify.outcomes.verify import verify_outcomes

    failed = 0
    for s in range(reps):
        log = folder / "power.parquet"
        record_outcomes(rm, games, 1000 + s, log, fault=fault)
        failed += verify_outcomes(log, rm).verdict == "fail"
    return failed


def main() -> None:
    """Print one line per fault: the size found and the detection counts."""
    from certify.outcomes.verify import _machine_model

    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("model")
    ap.add_argument("--reps", type=int, default=200)
    ap.add_argument("--faults", default="pay,feature,bias,serial")
    args = ap.parse_args()
    rm = _machine_model(args.model)
    need = math.ceil(0.99 * args.reps)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for fault in args.faults.split(","):
            for games in GRID[fault]:
                t0 = time.perf_counter()
                hits = detection(rm, fault, games, args.reps, folder)
                took = time.perf_counter() - t0
                print(
                    f"{fault:8s} {games:7d} games: {hits}/{args.reps} found ({took:.0f} s)",
                    flush=True,
                )
                if hits >= need:
                    clean = detection(rm, None, games, args.reps, folder)
                    print(
                        f"{fault:8s} size {games}: faultless logs failing {clean}/{args.reps}",
                        flush=True,
                    )
                    break


if __name__ == "__main__":
    main()
