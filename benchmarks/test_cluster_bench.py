"""Throughput beyond one process: local numba threads vs Dask with 1 and 2 workers,
and the scheduling overhead that sets how many chunks go in one task.

Run: ``.venv/bin/python -m pytest benchmarks/test_cluster_bench.py --benchmark-only -s``.
``SLOTCERT_BENCH_FULL=1`` runs 2^30 spins instead of 2^25. Correctness inside:
every run's figures equal the local run's bit for bit.
"""

from __future__ import annotations

import os
import time

import numba
import numpy as np
import pytest

from benchmarks.measure import MACHINES
from certify.engine import compile_machine, simulate
from certify.engine.rng import CHUNK_SPINS
from certify.model import load_machine
from certify.model.fingerprint import fingerprint
from certify.runners import DaskRunner, choose_group, connect, measure_overhead, run_task

FULL = os.environ.get("SLOTCERT_BENCH_FULL") == "1"
SPINS = 1 << 30 if FULL else 1 << 25
MODEL = MACHINES / "ref-5x3-20.toml"
TINY = 1 << 12  # chunk size for the overhead measurement: the task cost shows


def _figures(r):
    return (r.spins, r.total_win, r.sum_sq.hex(), r.hits, tuple(r.histogram.tolist()))


@pytest.fixture(scope="module")
def tables():
    t = compile_machine(load_machine(MODEL))
    simulate(t, 0, 1 << 12, 0)  # compile outside the timing
    return t


@pytest.fixture(scope="module")
def local(tables):
    return simulate(tables, 0, SPINS, 1)


def _warm(client, machine):
    futures = [
        client.submit(
            run_task,
            machine,
            fingerprint(machine),
            0,
            0,
            0,
            0,
            np.array([64]),
            workers=[w],
            allow_other_workers=False,
            pure=False,
        )
        for w in client.nthreads()
    ]
    client.gather(futures)


@pytest.fixture(scope="module", params=[1, 2], ids=lambda n: f"{n}-workers")
def client(request, tables):
    with connect(workers=request.param) as c:
        _warm(c, tables.machine)
        yield c


def test_local_threads(benchmark, tables, local):
    result = benchmark.pedantic(simulate, args=(tables, 0, SPINS, 1), rounds=1, iterations=1)
    assert _figures(result) == _figures(local)
    benchmark.extra_info["spins_per_second"] = SPINS / benchmark.stats.stats.mean


def test_dask_workers(benchmark, client, tables, local):
    runner = DaskRunner(client)
    result = benchmark.pedantic(
        simulate, args=(tables, 0, SPINS, 1), kwargs={"runner": runner}, rounds=1, iterations=1
    )
    assert _figures(result) == _figures(local)
    benchmark.extra_info["spins_per_second"] = SPINS / benchmark.stats.stats.mean
    benchmark.extra_info["workers"] = runner.workers
    benchmark.extra_info["numba_threads_per_worker"] = runner.threads
    benchmark.extra_info["overhead_s_per_task"] = runner.overhead


def test_overhead_per_chunk_sets_the_task_size(benchmark, client, tables):
    """Empty-task overhead, then tiny chunks one per task vs the same chunks run locally."""
    overhead = benchmark.pedantic(measure_overhead, args=(client, 200), rounds=3, iterations=1)
    chunks = 400
    spins = chunks * TINY
    started = time.perf_counter()
    simulate(tables, 0, spins, 2, chunk_spins=TINY)
    local_s = time.perf_counter() - started
    runner = DaskRunner(client, chunks_per_task=1)
    started = time.perf_counter()
    simulate(tables, 0, spins, 2, chunk_spins=TINY, runner=runner)
    one_per_task_s = time.perf_counter() - started
    per_chunk = (one_per_task_s - local_s) / chunks
    # a 2^20 chunk's share of a task's time: one thread's time over the worker's threads
    chunk_s = CHUNK_SPINS * local_s / spins * numba.get_num_threads() / runner.threads
    group = choose_group(overhead, chunk_s, runner.threads, 10_000, runner.workers)
    benchmark.extra_info.update(
        overhead_s_per_task=overhead,
        overhead_s_per_tiny_chunk_one_per_task=per_chunk,
        seconds_per_2e20_chunk=chunk_s,
        chosen_chunks_per_task=group,
        overhead_share_at_chosen=overhead / (group * chunk_s),
    )
    assert overhead / (group * chunk_s) <= 0.02 or group >= 10_000 // (4 * runner.workers)
