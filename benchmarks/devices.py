"""Spins per second per device in one run: the CPU at 1, 2, 4 ... threads, then the GPU.

``python -m benchmarks.devices [--spins 1e9] [--cpu-spins 1e8] [--models ref-5x3-20,ways-243]
[--threads 1,2,4] [--chunk-spins 4096] [--gpu-only | --cpu-only]``

Prints the versions (Python, numpy, numba, numba-cuda, the CUDA driver and
runtime), the GPU's name, then one line per model, device and thread count:
spins, seconds (the whole ``simulate`` call: seeding, transfers, merging;
the kernel compiled before, outside the timing), spins/s and the run's return.
Every figure goes to stdout; nothing is caught silently (a failed device
prints its error and the script exits 1 at the end). The runs on the GPU use
``--chunk-spins`` (a thread a chunk), the CPU runs the default 2^20.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def count(text: str) -> int:
    """``1e9``, ``2_000``, ``10M`` -> int."""
    text = text.replace("_", "").strip()
    scale = {"K": 10**3, "M": 10**6, "G": 10**9, "B": 10**9}.get(text[-1:].upper(), 1)
    if scale > 1:
        text = text[:-1]
    return int(float(text) * scale)


def versions() -> None:
    """Print what the figures were measured with."""
    import numba
    import numpy as np

    print(f"python {platform.python_version()} on {platform.machine()} ({os.cpu_count()} cpus)")
    print(f"numpy {np.__version__}, numba {numba.__version__}")
    try:
        from importlib.metadata import version

        print(f"numba-cuda {version('numba-cuda')}")
    except Exception as exc:  # noqa: BLE001
        print(f"numba-cuda: not installed ({type(exc).__name__})")


def gpu_info() -> str:
    """The GPU's name and CUDA versions (raises when there is none)."""
    from numba import cuda

    from certify.engine.gpu import check_cuda

    name = check_cuda()
    parts = [name]
    try:
        parts.append(f"driver {cuda.cudadrv.driver.driver.get_version()}")  # type: ignore[attr-defined]
        parts.append(f"runtime {cuda.runtime.get_version()}")
        cc = cuda.get_current_device().compute_capability
        parts.append(f"compute capability {cc}")
    except Exception as exc:  # noqa: BLE001  (versions are informative only)
        parts.append(f"(versions unavailable: {exc})")
    return ", ".join(str(p) for p in parts)


def run(tables, spins: int, chunk: int, runner) -> tuple[float, float]:
    """(seconds, rtp) of one ``simulate`` call at level 1."""
    from certify.engine import simulate

    start = time.perf_counter()
    res = simulate(tables, 0, spins, seed=2026, chunk_spins=chunk, runner=runner)
    took = time.perf_counter() - start
    assert res.spins == spins
    return took, res.rtp


def line(model: str, device: str, spins: int, took: float, rtp: float) -> None:
    """One result line."""
    rate = spins / took if took > 0 else float("nan")
    print(
        f"{model:<14} {device:<12} {spins:>15,} spins {took:9.2f} s {rate / 1e6:12.1f}M spins/s"
        f"  rtp {rtp:.6f}",
        flush=True,
    )


def bench_cpu(model: str, tables, spins: int, threads: list[int]) -> None:
    """The CPU kernel on each thread count."""
    import numba

    from certify.engine import simulate
    from certify.engine.rng import CHUNK_SPINS

    simulate(tables, 0, 1 << 14, seed=0)  # compile outside the timing
    most = int(numba.config.NUMBA_NUM_THREADS)  # type: ignore[attr-defined]
    for t in threads:
        if t > most:
            print(f"{model:<14} cpu x{t:<8} skipped: numba has {most} threads")
            continue
        numba.set_num_threads(t)
        took, rtp = run(tables, spins, CHUNK_SPINS, None)
        line(model, f"cpu x{t}", spins, took, rtp)
    numba.set_num_threads(most)


def bench_gpu(model: str, tables, spins: int, chunk: int) -> None:
    """The CUDA kernel (compiled first, on a small run)."""
    from certify.runners import CudaRunner

    runner = CudaRunner()
    start = time.perf_counter()
    run(tables, 64 * chunk, chunk, runner)
    print(f"{model:<14} cuda         compiled and warmed in {time.perf_counter() - start:.1f} s")
    took, rtp = run(tables, spins, chunk, runner)
    line(model, "cuda", spins, took, rtp)


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; exit 1 when a device failed."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--spins", type=count, default=count("1e9"), help="GPU spins per model")
    ap.add_argument("--cpu-spins", type=count, default=count("1e8"), help="CPU spins per run")
    ap.add_argument("--models", default="ref-5x3-20,ways-243", help="shipped model ids")
    ap.add_argument("--threads", default="", help="CPU thread counts (default 1, 2, 4 .. all)")
    ap.add_argument("--chunk-spins", type=count, default=4096, help="GPU chunk size")
    only = ap.add_mutually_exclusive_group()
    only.add_argument("--gpu-only", action="store_true")
    only.add_argument("--cpu-only", action="store_true")
    args = ap.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    import numba

    from certify.engine import compile_machine
    from certify.model import load_machine

    versions()
    most = int(numba.config.NUMBA_NUM_THREADS)  # type: ignore[attr-defined]
    threads = [int(t) for t in args.threads.split(",") if t] or sorted(
        {1 << k for k in range(most.bit_length()) if 1 << k <= most} | {most}
    )
    failed = 0
    gpu = not args.cpu_only
    if gpu:
        try:
            print(f"gpu: {gpu_info()}", flush=True)
        except Exception:  # noqa: BLE001  (printed, counted, and the CPU still measured)
            traceback.print_exc(file=sys.stdout)
            print("gpu: none usable; the cuda lines are skipped")
            gpu, failed = False, failed + 1
    for model in args.models.split(","):
        tables = compile_machine(load_machine(ROOT / "models" / "machines" / f"{model}.toml"))
        if not args.gpu_only:
            bench_cpu(model, tables, args.cpu_spins, threads)
        if gpu:
            try:
                bench_gpu(model, tables, args.spins, args.chunk_spins)
            except Exception:  # noqa: BLE001  (printed and counted)
                traceback.print_exc(file=sys.stdout)
                failed += 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
