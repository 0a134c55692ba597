"""The pure-Python twin engine (tests/twins/lines.py) as a side-by-side baseline."""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def twin_spins_per_second(path: Path, seconds: float = 2.0) -> float:
    """Spins per second of the twin evaluating random windows (base game only)."""
    sys.path.insert(0, str(ROOT / "tests"))
    from twins import lines as twin  # noqa: PLC0415

    from certify.model import load_machine

    machine = load_machine(path)
    rng = random.Random(1)
    done = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        stops = [rng.randrange(len(s)) for s in machine.strips]
        twin.spin_value(machine, twin.window(machine.strips, stops, machine.rows), 0)
        done += 1
    return done / (time.perf_counter() - start)
