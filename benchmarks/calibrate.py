"""Calibration workloads of the benchmark gate: how fast is this machine today?

A throughput means little on its own: a shared CI machine may run the same
code at half the speed of the machine the baseline came from. The gate
divides each throughput by a calibration workload timed in the same run,
and each metric is divided by the workload most like itself:

- ``arith``: a tight integer loop (xorshift and a 32 KB table), like the
  exact calculator's sums: predictable branches, data in L1.
- ``branchy``: a frozen miniature slot game, like the simulation kernels:
  each spin two dependent reads at random places of 2 MB of tables (as the
  lines kernel reads its prefix rows and combos), and on half the spins, at
  random, five lines paid with a wild (branches no predictor learns). It
  does not import the project's kernels, so a change to them cannot move it.
- ``python``: a pure-Python loop of calls, attribute and dict lookups, like
  the interpreter's start-up of a ``slotcert`` process.

A host with less cache, or another tenant on its cores, can run branchy,
cache-bound code 2-4x slower while the integer loop runs at full speed
(seen on 2026-12-02, in a session and in CI: the lines reference game at
13-17M spins/s on one thread against 57-59M here, the integer loop at 0.87x):
one calibration for every metric then calls that host a regression of the
simulation kernels.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from certify._numba import jit


@jit(inline="always")
def _xorshift(x):
    """Marsaglia's 64-bit xorshift step (13, 7, 17)."""
    x ^= x << np.uint64(13)
    x ^= x >> np.uint64(7)
    return x ^ (x << np.uint64(17))


@jit
def _arith_kernel(n):
    """A fixed integer workload (xorshift + table lookups)."""
    table = np.arange(4096, dtype=np.int64)
    x = np.uint64(88172645463325252)
    acc = 0
    for _ in range(n):
        x = _xorshift(x)
        acc += table[np.int64(x & np.uint64(4095))]
    return acc


@jit
def _branchy_kernel(n, strips, lines, pays, rows, records):
    """``n`` spins of the miniature game; returns the credits won (a checksum).

    Each spin reads a 2-byte row at a random place of ``rows`` (1 MB) and the
    32-byte record it points to in ``records`` (1 MB), as the lines kernel
    reads its prefix tables; when the record's first word is odd (half the
    spins, at random) the window's lines are paid: symbol 0 is wild, a line
    pays its first symbol's run from the left (a wild-led run takes the first
    other symbol).
    """
    x = np.uint64(0x9E3779B97F4A7C15)
    won = 0
    for _ in range(n):
        x = _xorshift(x)
        row = rows[np.int64(x >> np.uint64(40)) & (rows.shape[0] - 1)]
        record = records[row]
        won += record[np.int64(x >> np.uint64(36)) & 3]
        x += np.uint64(record[1])  # the next spin waits for this one's reads
        if record[0] & 1:
            won += _lines_won(x, strips, lines, pays)
    return won


@jit(inline="always")
def _lines_won(x, strips, lines, pays):
    """Credits of the lines on the window whose stops are ``x``'s low 6-bit fields."""
    reels, stops = strips.shape
    won = 0
    for line in range(lines.shape[0]):
        first = 0  # 0 while the line has shown wilds only
        run = 0
        for r in range(reels):
            stop = np.int64(x >> np.uint64(6 * r)) & (stops - 1)
            s = strips[r, (stop + lines[line, r]) & (stops - 1)]
            if s != 0:
                if first == 0:
                    first = s
                elif s != first:
                    break
            run += 1
        won += pays[first, run - 1]
    return won


def _branchy_game() -> tuple[np.ndarray, ...]:
    """Strips, lines, pays, rows and records of the miniature game (fixed seed)."""
    rng = np.random.default_rng(20261202)
    strips = rng.integers(0, 8, size=(5, 64)).astype(np.int64)
    lines = rng.integers(0, 3, size=(5, 5)).astype(np.int64)
    pays = np.zeros((8, 5), dtype=np.int64)
    pays[:, 2:] = rng.integers(1, 50, size=(8, 3))
    rows = rng.integers(0, 1 << 15, size=1 << 19).astype(np.uint16)
    records = rng.integers(0, 4, size=(1 << 15, 4)).astype(np.int64)
    return strips, lines, pays, rows, records


def _python_loop(n: int) -> int:
    """``n`` iterations of calls, attribute and dict lookups, like imports do."""
    names = {f"name{i}": i for i in range(64)}
    keys = list(names)
    total = 0
    for i in range(n):
        key = keys[i & 63]
        total += names.get(key, 0) + len(key.upper())
    return total


def _best_rate(run: Callable[[int], object], n: int, repeats: int) -> float:
    """Best of ``repeats`` timings of ``run(n)``, in iterations per second."""
    run(10)
    best = 0.0
    for _ in range(repeats):
        start = time.perf_counter()
        run(n)
        best = max(best, n / (time.perf_counter() - start))
    return best


def arith_rate(n: int = 50_000_000, repeats: int = 3) -> float:
    """Integer loop iterations per second (best of ``repeats``)."""
    return _best_rate(_arith_kernel, n, repeats)


def branchy_rate(n: int = 4_000_000, repeats: int = 3) -> float:
    """Miniature-game spins per second (best of ``repeats``)."""
    game = _branchy_game()
    return _best_rate(lambda k: _branchy_kernel(k, *game), n, repeats)


def python_rate(n: int = 1_000_000, repeats: int = 3) -> float:
    """Pure-Python loop iterations per second (best of ``repeats``)."""
    return _best_rate(_python_loop, n, repeats)


def rates() -> dict[str, float]:
    """Every calibration workload's rate on this machine now, by kind."""
    return {"arith": arith_rate(), "branchy": branchy_rate(), "python": python_rate()}
