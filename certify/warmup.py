"""Compile kernels in a second process while a first, cold run certifies.

On a machine where the kernels have never been compiled, almost all of a
first ``slotcert certify`` run is numba compiling one specialised kernel per
kind of game (lines fast path, lines, ways, rules and features, screens) and
the exact calculator's kernels, one at a time, on one core. :func:`start`
launches ``python -m certify.warmup FILE...``, which plays each machine
briefly (its exact figures and a few spins of each of its bet levels), last
file first, while the run itself goes first file first: each kernel the
helper compiles is written to numba's cache, where the run finds it when it
gets there. The helper prints nothing, its errors are the run's to report,
and :func:`stop` ends it when the run ends.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

_ROOT = Path(__file__).resolve().parents[1]
WARM_SPINS = 1 << 11  # spins per bet level the helper plays (enough to compile)
EXACT_ONLY = "--exact-only"  # the helper's flag: compile no simulation kernel


def kernels_cold() -> bool:
    """Whether no simulation kernel has been compiled into the package's cache yet."""
    if os.environ.get("NUMBA_CACHE_DIR") or os.environ.get("NUMBA_DISABLE_JIT"):
        return False  # a cache elsewhere (or none): not ours to judge
    return not any((_ROOT / "certify" / "engine" / "__pycache__").glob("_kernels.*.nbi"))


def start(paths: Sequence[Path], spins: bool = True) -> subprocess.Popen | None:
    """Launch the helper over ``paths`` (last first) when the kernels are cold, else None.

    ``spins`` False (an exact-only run, ``--spins 0``): the helper compiles the
    exact calculation only, not simulation kernels the run never calls.
    """
    if len(paths) < 2 or not kernels_cold():
        return None
    env = {**os.environ, "NUMBA_NUM_THREADS": "1"}  # the run keeps its threads
    exact_only = [] if spins else [EXACT_ONLY]
    command = [
        sys.executable,
        "-m",
        "certify.warmup",
        *exact_only,
        *(str(p) for p in reversed(paths)),
    ]
    try:
        return subprocess.Popen(
            command,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env=env,
        )
    except OSError:  # no helper: the run compiles everything itself, as before
        return None


def stop(helper: subprocess.Popen | None) -> None:
    """End the helper (it may still be compiling kernels the run no longer needs)."""
    if helper is None or helper.poll() is not None:
        return
    helper.terminate()
    with contextlib.suppress(subprocess.TimeoutExpired):
        helper.wait(timeout=5)
        return
    helper.kill()
    helper.wait()


def warm(path: Path, spins: bool = True) -> None:
    """Compile what certifying ``path`` runs: its exact figures, a few spins a level (``spins``)."""
    from certify.engine.simulate import simulate
    from certify.engine.tables import compile_machine
    from certify.exact.calculator import compute_exact, exact_refusal
    from certify.model.loader import load_machine

    tables = compile_machine(load_machine(path))
    if exact_refusal(tables) is None:
        compute_exact(tables)
    for level in range(len(tables.levels) if spins else 0):
        simulate(tables, level, WARM_SPINS, seed=0)


def main(argv: Sequence[str]) -> int:
    """Warm each file in turn; a file that fails is the run's to report, so it is skipped.

    ``argv``: the files, after ``--exact-only`` when the run simulates nothing.
    """
    spins = EXACT_ONLY not in argv[:1]
    for name in argv[0 if spins else 1 :]:
        with contextlib.suppress(Exception):
            warm(Path(name), spins)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
