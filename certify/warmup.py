"""Compile kernels in a second process while a first, cold run certifies.

On a machine where the kernels have never been compiled, almost all of a
first ``slotcert certify`` run is numba compiling one specialised kernel per
kind of game (lines fast path, lines, ways, rules and features, screens) and
the exact calculator's kernels, one at a time, on one core. :func:`start`
launches ``python -m certify.warmup FILE...`` (the files in the run's order),
which plays one machine of each kind of game (:func:`kernel_kind`) briefly:
its exact figures and a few spins of each of its bet levels. It takes the
kinds the run meets last first (:func:`schedule`), while the run goes first
file first: each kernel the helper compiles is written to numba's cache,
where the run finds it when it gets there, and no kind is compiled twice
only because two files share it. The helper prints nothing, its errors are
the run's to report, and :func:`stop` ends it when the run ends.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from certify.engine.tables import GameTables

_ROOT = Path(__file__).resolve().parents[1]
WARM_SPINS = 1 << 11  # spins per bet level the helper plays (enough to compile)
EXACT_ONLY = "--exact-only"  # the helper's flag: compile no simulation kernel


def kernels_cold() -> bool:
    """Whether no simulation kernel has been compiled into the package's cache yet."""
    if os.environ.get("NUMBA_CACHE_DIR") or os.environ.get("NUMBA_DISABLE_JIT"):
        return False  # a cache elsewhere (or none): not ours to judge
    return not any((_ROOT / "certify" / "engine" / "__pycache__").glob("_kernels.*.nbi"))


def start(paths: Sequence[Path], spins: bool = True) -> subprocess.Popen | None:
    """Launch the helper over ``paths`` (in the run's order) when the kernels are cold, else None.

    ``spins`` False (an exact-only run, ``--spins 0``): the helper compiles the
    exact calculation only, not simulation kernels the run never calls.
    """
    if len(paths) < 2 or not kernels_cold():
        return None
    env = {**os.environ, "NUMBA_NUM_THREADS": "1"}  # the run keeps its threads
    flags = [] if spins else [EXACT_ONLY]
    command = [sys.executable, "-m", "certify.warmup", *flags, *map(str, paths)]
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


def kernel_kind(tables: GameTables) -> tuple:
    """What decides which kernels certifying ``tables`` compiles: equal kinds share them.

    A screen game (cascades, cluster pays) has its own kernels; a reel game's
    simulation kernel is specialised by the ways, fast-path and extras flags,
    and its exact figures by the method that computes them.
    """
    from certify.engine.screens import is_screen_game
    from certify.engine.simulate import extras_flag, fast_flag, prefix_tables, ways_flag
    from certify.exact.calculator import exact_refusal
    from certify.exact.cycle import exact_method

    exact = exact_refusal(tables) is None
    if is_screen_game(tables.machine):
        return ("screens", exact)
    flags = (ways_flag(tables), fast_flag(tables, prefix_tables(tables, 0)), extras_flag(tables))
    return ("reels", *flags, exact_method(tables) if exact else None)


def schedule(kinds: Sequence[tuple]) -> list[int]:
    """The files the helper plays, given each file's kind in the run's order.

    One file per kind (the first the run meets), the kind the run meets last
    first: the run compiles its first kinds itself while the helper compiles
    its last ones.
    """
    first: dict[tuple, int] = {}
    for i, kind in enumerate(kinds):
        first.setdefault(kind, i)
    return sorted(first.values(), reverse=True)


def warm(tables: GameTables, spins: bool = True) -> None:
    """Compile what certifying ``tables`` runs: exact figures, a few spins a level (``spins``)."""
    from certify.engine.simulate import simulate
    from certify.exact.calculator import compute_exact, exact_refusal

    if exact_refusal(tables) is None:
        compute_exact(tables)
    for level in range(len(tables.levels) if spins else 0):
        simulate(tables, level, WARM_SPINS, seed=0)


def main(argv: Sequence[str]) -> int:
    """Warm one file of each kind (:func:`schedule`); a file that fails is the run's to report.

    ``argv``: the files in the run's order, after ``--exact-only`` when the run
    simulates nothing. A file that does not load is skipped.
    """
    from certify.engine.tables import compile_machine
    from certify.model.loader import load_machine

    spins = EXACT_ONLY not in argv[:1]
    games, kinds = [], []
    for name in argv[0 if spins else 1 :]:
        with contextlib.suppress(Exception):
            tables = compile_machine(load_machine(Path(name)))
            kinds.append(kernel_kind(tables))
            games.append(tables)
    for i in schedule(kinds):
        with contextlib.suppress(Exception):
            warm(games[i], spins)
    return 0


if __name__ == "__main__":
    from certify.compiler import configure

    configure()
    sys.exit(main(sys.argv[1:]))
