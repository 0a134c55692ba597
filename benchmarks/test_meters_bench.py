"""Meter reconciler throughput and memory.

Default sizes are modest so the suite runs anywhere; ``SLOTCERT_BENCH_FULL=1``
runs the sizes of the issue: a 10M-row Parquet dump end to end (target
>= 1M readings/s) and a 50M-row dump reconciled piecewise in bounded memory
(< 4 GiB).

Peak memory is measured in a child process (``VmHWM``, the peak resident set
of the process's own address space; ``ru_maxrss`` would carry the parent's
peak across ``exec``) so the benchmark process's allocations do not count.
The worker processes that reconcile a dump grouped by machine are reported
apart (``workers_peak_rss_mb``: the largest worker's peak) and in a bound of
the whole (``total_peak_rss_mb``: the child plus every worker at that peak).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from meters.config import Config
from meters.floor import load_counts, load_floor
from meters.reconcile import reconcile, small_pages
from meters.report import write_outputs
from meters.sequence import dips_and_spikes, dips_and_spikes_numpy
from meters.simulate import simulate_floor

FULL = os.environ.get("SLOTCERT_BENCH_FULL") == "1"
ROWS = 10_000_000 if FULL else 400_000
BIG_ROWS = 50_000_000 if FULL else 1_200_000
PIECE_ROWS = 500_000 if FULL else 200_000
DAYS, PER_DAY = 14, 24
CHUNK_ROWS = 1_000_000 if FULL else 250_000  # rows per simulated chunk = Parquet row group


def make_dump(folder: Path, rows: int) -> dict[str, Path]:
    """A Parquet dump of about ``rows`` hourly readings, written chunk by chunk."""
    folder.mkdir(parents=True, exist_ok=True)
    per_machine = DAYS * PER_DAY + 1
    machines = max(1, rows // per_machine)
    paths = {
        "dump": folder / "dump.parquet",
        "floor": folder / "floor.csv",
        "counts": folder / "counts.csv",
    }
    writer, floors, counts = None, [], []
    step = max(1, CHUNK_ROWS // per_machine)
    for chunk, first in enumerate(range(0, machines, step)):
        sim = simulate_floor(min(step, machines - first), DAYS, seed=chunk, per_day=PER_DAY)
        prefix = f"C{chunk:04d}-"
        readings = sim.readings.assign(machine_id=prefix + sim.readings["machine_id"])
        readings["read_at"] = readings["read_at"].dt.tz_convert("+01:00")
        table = pa.Table.from_pandas(readings, preserve_index=False)
        writer = writer or pq.ParquetWriter(paths["dump"], table.schema)
        writer.write_table(table)
        floors.append(sim.floor.assign(machine_id=prefix + sim.floor["machine_id"]))
        c = sim.counts.assign(machine_id=prefix + sim.counts["machine_id"])
        counts.append(
            c.assign(
                period_start=c["period_start"].map(pd.Timestamp.isoformat),
                period_end=c["period_end"].map(pd.Timestamp.isoformat),
            )
        )
    writer.close()
    pd.concat(floors).to_csv(paths["floor"], index=False)
    pd.concat(counts).to_csv(paths["counts"], index=False)
    return paths


def child_run(paths: dict[str, Path], out: Path, pieces: int) -> dict:
    """Reconcile in a fresh process; return its summary, seconds and peak RSS (MB)."""
    code = textwrap.dedent(f"""
        import json, time
        from meters.config import Config
        from meters.floor import load_counts, load_floor
        from meters.reconcile import reconcile, small_pages
        from meters.report import write_outputs
        t = time.perf_counter()
        floor, counts = load_floor({str(paths["floor"])!r}), load_counts({str(paths["counts"])!r})
        with small_pages():
            r = reconcile([{str(paths["dump"])!r}], floor, counts, pieces={pieces},
                          workdir={str(out.parent)!r})
        info = write_outputs(r, {str(out)!r}, Config(), {{"dumps": [], "floor": "",
                                                         "counts": ""}})
        info["seconds"] = time.perf_counter() - t
        with open("/proc/self/status") as status:
            hwm = next(line for line in status if line.startswith("VmHWM:"))
        info["peak_rss_mb"] = int(hwm.split()[1]) / 1024
        import resource
        from meters.parallel import default_workers
        workers = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        info["workers_peak_rss_mb"] = workers
        info["total_peak_rss_mb"] = info["peak_rss_mb"] + (default_workers() if {pieces} == 1
                                                            else 0) * workers
        print(json.dumps(info))
    """)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def dump(tmp_path_factory):
    return make_dump(tmp_path_factory.mktemp("meters-bench") / "dump", ROWS)


def test_reconcile_parquet_end_to_end(benchmark, dump, tmp_path):
    floor, counts = load_floor(dump["floor"]), load_counts(dump["counts"])
    reconcile([str(dump["dump"])], floor, counts)  # warm the kernel cache

    def run():
        with small_pages():
            result = reconcile([str(dump["dump"])], floor, counts)
        write_outputs(result, tmp_path / "out", Config(), {"dumps": [], "floor": "", "counts": ""})
        return result

    result = benchmark.pedantic(run, rounds=1 if FULL else 3, iterations=1)
    assert result.rows_in == result.rows_reconciled + result.rows_quarantined
    assert result.errors == 0
    rate = result.rows_in / benchmark.stats.stats.min
    child = child_run(dump, tmp_path / "child", pieces=1)
    benchmark.extra_info.update(
        {
            "rows": result.rows_in,
            "rows_per_s": round(rate),
            "peak_rss_mb": round(child["peak_rss_mb"]),
            "workers_peak_rss_mb": round(child["workers_peak_rss_mb"]),
            "total_peak_rss_mb": round(child["total_peak_rss_mb"]),
            "child_seconds": round(child["seconds"], 2),
        }
    )
    print(
        f"\n{result.rows_in} rows: {rate / 1e6:.2f}M readings/s in process; "
        f"fresh process {child['seconds']:.1f} s, peak RSS {child['peak_rss_mb']:.0f} MB "
        f"(+ workers {child['workers_peak_rss_mb']:.0f} MB each; bound "
        f"{child['total_peak_rss_mb']:.0f} MB)"
    )
    if FULL:
        assert rate >= 1_000_000, f"{rate:.0f} readings/s is below the 1M/s target"


def test_piecewise_reconcile_bounded_memory(benchmark, dump, tmp_path_factory):
    """A dump reconciled in pieces stays in bounded memory (< 4 GiB).

    For reference, the 10M-row dump (FULL) or the big dump (default sizes) is
    reconciled in one piece too (streamed when grouped by machine).
    """
    big = make_dump(tmp_path_factory.mktemp("meters-big") / "dump", BIG_ROWS)
    pieces = max(2, BIG_ROWS // PIECE_ROWS)
    out = tmp_path_factory.mktemp("meters-big-out") / "out"
    whole = child_run(dump if FULL else big, out.with_name("whole"), pieces=1)
    start = time.perf_counter()
    piecewise = benchmark.pedantic(child_run, args=(big, out, pieces), rounds=1, iterations=1)
    seconds = time.perf_counter() - start
    assert piecewise["rows_balanced"] and piecewise["severity"]["error"] == 0
    assert piecewise["rows_in"] >= whole["rows_in"]
    assert piecewise["total_peak_rss_mb"] < 4096
    benchmark.extra_info.update(
        {
            "rows": piecewise["rows_in"],
            "pieces": pieces,
            "rows_per_s": round(piecewise["rows_in"] / seconds),
            "peak_rss_mb": round(piecewise["peak_rss_mb"]),
            "whole_rows": whole["rows_in"],
            "whole_peak_rss_mb": round(whole["total_peak_rss_mb"]),
        }
    )
    print(
        f"\npiecewise: {piecewise['rows_in']} rows in {pieces} pieces, "
        f"{seconds:.1f} s, peak RSS {piecewise['peak_rss_mb']:.0f} MB; whole "
        f"{whole['rows_in']} rows: peak RSS {whole['total_peak_rss_mb']:.0f} MB (bound, "
        "with workers)"
    )


@pytest.mark.parametrize("impl", ["numba", "numpy"])
def test_sequence_rule_kernel_vs_twin(benchmark, impl):
    rng = np.random.default_rng(0)
    n, k, machines = 1_000_000, 13, 1000
    mcode = np.sort(rng.integers(0, machines, n))
    values = np.cumsum(rng.integers(0, 50, (n, k)), axis=0).astype(float)
    order = np.arange(n)
    modulus = np.full(machines, 1e10)
    key = np.zeros(machines, dtype=np.int64)
    fn = dips_and_spikes if impl == "numba" else dips_and_spikes_numpy
    fn(values[:1000], order[:1000], mcode, modulus, key)
    flag, _, _ = benchmark(fn, values, order, mcode, modulus, key)
    assert not flag.any()
    benchmark.extra_info["rows_per_s"] = round(n / benchmark.stats.stats.min)
