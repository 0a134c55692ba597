"""Throughput measurements shared by the pytest-benchmark suite and the CI gate.

Every measurement asserts the figure it computed (simulation within the
exact interval, exact cycle equal to the decomposition) before it reports a
speed: a fast wrong kernel must not pass.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from certify.engine import compile_machine, simulate
from certify.exact import compute_exact
from certify.exact.decompose import mean_return
from certify.exact.statedp import forget
from certify.model import load_machine

ROOT = Path(__file__).resolve().parents[1]
MACHINES = ROOT / "models" / "machines"
REFERENCE = MACHINES / "ref-5x3-20.toml"
SLOWDOWN = float(os.environ.get("SLOTCERT_BENCH_SLOWDOWN", "1"))  # test hook for the gate


def spins_per_second(path: Path, spins: int, repeats: int = 2) -> float:
    """Simulated spins per second on ``path`` (level 1), result checked against exact."""
    machine = load_machine(path)
    tables = compile_machine(machine)
    simulate(tables, 0, 1 << 12, seed=0)  # compile and build tables outside the timing
    best = 0.0
    for k in range(repeats):
        start = time.perf_counter()
        for _ in range(int(SLOWDOWN)):
            result = simulate(tables, 0, spins, seed=100 + k)
        best = max(best, spins / (time.perf_counter() - start))
    rtp = mean_return(tables, tables.levels[0])
    if rtp is not None:
        sigma = _sigma(tables)
        assert abs(result.rtp - rtp) < 4.0 * sigma / np.sqrt(spins), (result.rtp, rtp)
    return best


def spins_per_second_on(path: Path, spins: int, threads: int, repeats: int = 2) -> float:
    """Simulated spins per second on ``path`` (level 1) on ``threads`` numba threads.

    The run is checked first: within 4.5 standard errors of the exact return
    where the exact calculator gives one (every shipped model but the 7x7
    cluster game, which is simulation only).
    """
    import numba  # noqa: PLC0415

    tables = compile_machine(load_machine(path))
    before = numba.get_num_threads()
    numba.set_num_threads(threads)
    try:
        simulate(tables, 0, 1 << 12, seed=0)  # compile and build tables outside the timing
        best = 0.0
        for k in range(repeats):
            start = time.perf_counter()
            result = simulate(tables, 0, spins, seed=200 + k)
            best = max(best, spins / (time.perf_counter() - start))
    finally:
        numba.set_num_threads(before)
    exact = compute_exact(tables)
    if exact is not None:
        level = exact.levels[0]
        assert abs(result.rtp - level.rtp) < 4.5 * level.sigma / np.sqrt(spins), (
            result.rtp,
            level.rtp,
        )
    return best


def _sigma(tables) -> float:
    exact = compute_exact(tables, max_cycle=50_000_000)
    return exact.levels[0].sigma if exact else 50.0


def exact_combinations_per_second(path: Path, repeats: int = 2) -> tuple[float, int]:
    """Weighted stop combinations enumerated per second (best of ``repeats``), checked."""
    tables = compile_machine(load_machine(path))
    compute_exact(tables)  # compile outside the timing
    elapsed = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(int(SLOWDOWN)):
            forget(tables)  # the state-merging runs are kept per game: time them afresh
            exact = compute_exact(tables)
        elapsed = min(elapsed, time.perf_counter() - start)
    decomposed = mean_return(tables, tables.levels[0])
    if decomposed is not None:
        assert abs(exact.levels[0].rtp - decomposed) < 1e-12
    return exact.cycle / elapsed, exact.cycle


def state_merging_combinations_per_second(repeats: int = 2) -> float:
    """Stop combinations per second of the state-merging exact on a generated 5x3 game.

    20 lines, 64-stop strips, free spins (:func:`benchmarks.cost_growth.synthetic`):
    1.07e9 stop combinations, summed through about 17,000 states. Checked
    against the per-reel decomposition of the mean return.
    """
    from benchmarks.cost_growth import synthetic

    machine = synthetic(5, 3, 64, 20)
    compute_exact(compile_machine(synthetic(5, 3, 32, 20)))  # compile outside the timing
    elapsed = float("inf")
    for _ in range(repeats):
        tables = compile_machine(machine)  # fresh: the runs are kept per game
        start = time.perf_counter()
        for _ in range(int(SLOWDOWN)):
            forget(tables)
            exact = compute_exact(tables)
        elapsed = min(elapsed, time.perf_counter() - start)
    assert exact is not None and exact.method == "state-merging"
    decomposed = mean_return(tables, tables.levels[0])
    if decomposed is not None:
        assert abs(exact.levels[0].rtp - decomposed) < 1e-12
    return exact.cycle / elapsed


def startup_seconds(spins: int = 1000) -> float:
    """Wall time of a fresh ``slotcert simulate`` process (cached kernels)."""
    cmd = [
        sys.executable,
        "-m",
        "certify",
        "simulate",
        str(REFERENCE),
        "--spins",
        str(spins),
        "--seed",
        "1",
        "--level",
        "1",
    ]
    subprocess.run(cmd, check=True, capture_output=True)  # warm the numba cache
    start = time.perf_counter()
    subprocess.run(cmd, check=True, capture_output=True)
    return time.perf_counter() - start


def peak_rss_mib(spins: int) -> float:
    """Peak resident memory (MiB) of a child process simulating ``spins`` spins."""
    code = (
        "import resource, sys\n"
        "from certify.model import load_machine\n"
        "from certify.engine import simulate\n"
        f"simulate(load_machine({str(REFERENCE)!r}), 0, {spins}, seed=1)\n"
        "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    return int(done.stdout.split()[-1]) / 1024.0


def own_peak_rss_mib() -> float:
    """Peak resident memory of this process so far (MiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0
