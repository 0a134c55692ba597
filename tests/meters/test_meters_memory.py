"""Issue 31 item 16: memory per reading of ``meters reconcile``, measured against docs/METERS.md.

The page states the peak memory of the command per reading ("about N kB per
reading"). This test measures it independently: the peak RSS of two fresh
``slotcert meters reconcile`` processes (``VmHWM``) on two simulated
floors of 32 readings per machine that differ only in their number of
machines; the difference divided by the difference in readings is the
marginal cost of a reading (imports, floor parsing and other fixed costs
cancel). It must agree with the page within a factor 1.5 either way.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pyarrow.parquet as pq
import pytest

from meters.simulate import simulate_floor

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# VmHWM, the peak RSS of this process's own address space: ``ru_maxrss`` would not do,
# Linux carries the parent's peak over a vfork + exec (a pytest worker's 2 GB).
PEAK = """
import re, sys
from certify.cli import main
main(sys.argv[1:])
status = open("/proc/self/status").read()
print("PEAK", re.search(r"VmHWM:\\s+(\\d+) kB", status).group(1))
"""


def _documented_bytes_per_reading() -> float:
    text = open(os.path.join(ROOT, "docs", "METERS.md"), encoding="utf-8").read()
    found = re.search(r"about\s+([\d.,]+)\s*(kB|bytes)\s+per\s+reading", text)
    assert found, "docs/METERS.md states no 'about N kB per reading' figure"
    value = float(found.group(1).replace(",", ""))
    return value * 1000 if found.group(2) == "kB" else value


def _peak_bytes(paths, out) -> int:
    args = ["meters", "reconcile", str(paths["dump"]), "--floor", str(paths["floor"])]
    args += ["--counts", str(paths["counts"]), "--out", str(out), "-q"]
    done = subprocess.run(
        [sys.executable, "-c", PEAK, *args],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": ROOT},
        timeout=600,
    )
    peak = re.search(r"PEAK (\d+)", done.stdout)
    assert peak, done.stderr
    return int(peak.group(1)) * 1024  # Linux reports KiB


@pytest.mark.slow
def test_memory_per_reading_is_as_documented(tmp_path):
    documented = _documented_bytes_per_reading()
    readings, peaks = [], []
    for machines in (500, 2000):
        floor = simulate_floor(n_machines=machines, days=32, per_day=1, seed=3, faults="all")
        paths = floor.write(tmp_path / f"m{machines}", "parquet", False)
        readings.append(pq.read_metadata(paths["dump"]).num_rows)
        peaks.append(_peak_bytes(paths, tmp_path / f"r{machines}"))
    per_reading = (peaks[1] - peaks[0]) / (readings[1] - readings[0])
    assert documented / 1.5 <= per_reading <= documented * 1.5, (per_reading, documented, peaks)
