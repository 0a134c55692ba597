"""GPU vs CPU identity check: every field of a run, chunk by chunk and merged.

Run as a script (``python tests/gpu/identity.py [MODEL ...]``): under numba's
CUDA simulator when ``NUMBA_ENABLE_CUDASIM=1`` is set (the tests), on the
real GPU otherwise (``benchmarks/gpu_check.sh``). For each machine the GPU
path covers it runs the same chunks on the CPU kernel
(:func:`certify.engine.simulate.run_chunks`) and on the CUDA kernel
(:func:`certify.engine.gpu.run_chunks_cuda`), at its lowest and highest bet levels, and
compares the four per-chunk arrays; then a whole run through ``simulate``
with each runner and every field of the two ``SimulationResult`` objects.
For the machines it refuses, it checks the refusal names the file. Prints one
JSON line per machine and exits 1 if anything differs.
"""

from __future__ import annotations

import argparse
import json
import sys
import warnings
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from certify.engine import compile_machine, simulate  # noqa: E402
from certify.engine.gpu import machine_refusal, run_chunks_cuda  # noqa: E402
from certify.engine.simulate import run_chunks  # noqa: E402
from certify.model import load_machine  # noqa: E402
from certify.runners import CudaRunner  # noqa: E402

FIELDS = (
    "total_bet",
    "n_awards",
    "spins",
    "total_win",
    "sum_sq",
    "hits",
    "max_win",
    "fs_triggers",
    "bonus_triggers",
    "fs_spins",
    "award_counts",
    "histogram",
)


def default_models() -> list[Path]:
    """Every shipped machine and every machine file of the tests' data."""
    data = ROOT / "tests" / "data"
    small = [p for p in data.rglob("*.toml") if p.parent.name != "real" and _is_machine(p)]
    return sorted((ROOT / "models" / "machines").glob("*.toml")) + sorted(
        small + [data / "real" / name for name in REAL_GAMES]
    )


REAL_GAMES = (
    "agt_egypt.toml",  # a multiplier each paid spin draws
    "ct_hells_hot_7s.toml",  # each wild in the window doubles the spin
    "ct_rainbow_charm.toml",  # a full reel draws a multiplier; scatters only
    "netent_flowers.toml",  # 17 symbols (pairs of reels past 255), a double scatter
)
"""Real games the check plays too: the new rules' and the widest symbol set. The others
run long features under the simulator (minutes each), so they are left out."""


def _is_machine(path: Path) -> bool:
    """Whether ``path`` declares ``slotcert/machine@1`` (after any header of comments)."""
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            return line.replace(" ", "").startswith('schema="slotcert/machine')
    return False


def same(a, b) -> bool:
    """Equal values, NaN-free, same type of value (floats compared bit for bit)."""
    if isinstance(a, np.ndarray):
        return a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a, b)
    if isinstance(a, float):
        return float(a).hex() == float(b).hex()
    return a == b


def check_model(path: Path, sizes: list[int], spins: int, chunk: int) -> dict:
    """Compare CPU and GPU on one machine; the report row."""
    machine = load_machine(path)
    refusal = machine_refusal(machine, str(path))
    if refusal is not None:
        return {"model": str(path), "refused": refusal, "ok": str(path) in refusal}
    tables = compile_machine(machine)
    bad: list[str] = []
    plan = np.array(sizes, dtype=np.int64)
    levels = sorted({0, len(machine.bet_levels) - 1})  # the lowest and highest bets
    for li in levels:
        cpu = run_chunks(tables, li, 11, 3, plan, li)
        gpu = run_chunks_cuda(tables, li, 11, 3, plan, li)
        for name, a, b in zip(("stats", "sum_sq", "awards", "hist"), cpu, gpu, strict=True):
            if not same(np.asarray(a), np.asarray(b)):
                bad.append(f"level {li}: chunk {name} differ")
    runner = CudaRunner()
    for li in levels:
        a = simulate(tables, li, spins, 5, stream=li, chunk_spins=chunk)
        b = simulate(tables, li, spins, 5, stream=li, chunk_spins=chunk, runner=runner)
        bad += [f"level {li}: {f}" for f in FIELDS if not same(getattr(a, f), getattr(b, f))]
    return {"model": str(path), "ok": not bad, "differ": bad}


def main(argv: list[str] | None = None) -> int:
    """Check the machines given (default: all); exit 1 on any difference."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("models", nargs="*", type=Path)
    ap.add_argument("--sizes", default="120,80", help="chunk sizes of the chunk check")
    ap.add_argument("--spins", type=int, default=300, help="spins of the whole-run check")
    ap.add_argument("--chunk-spins", type=int, default=128)
    args = ap.parse_args(argv)
    sizes = [int(x) for x in args.sizes.split(",")]
    failed = 0
    with warnings.catch_warnings():  # the simulator's numpy scalars overflow on purpose (uint64)
        warnings.simplefilter("ignore", RuntimeWarning)
        for path in args.models or default_models():
            row = check_model(path, sizes, args.spins, args.chunk_spins)
            print(json.dumps(row), flush=True)
            failed += not row["ok"]
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
