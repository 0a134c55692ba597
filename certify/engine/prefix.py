"""Build prefix tables (see :mod:`certify.engine._prefix`) for a reel set and level."""

from __future__ import annotations

import os
from dataclasses import dataclass

import numpy as np

from certify.engine._prefix import build_prefix

# A prefix table must stay in the L2 cache (about 1 MB per core here): a
# reels 1-3 table of a 52-stop game (140,608 rows of ~28 bytes) is 3.9 MB and
# measured slower than the reels 1-2 table (2,704 rows, 76 KB) whose spins
# walk a few more lines. ``SLOTCERT_PREFIX_BYTES`` overrides for experiments.
MAX_PREFIX_BYTES = int(os.environ.get("SLOTCERT_PREFIX_BYTES", 512 * 1024))
ROW_BYTES = 28


@dataclass(frozen=True)
class PrefixTable:
    """Compacted prefix table; ``as_tuple`` is what the kernels take.

    ``head`` rows: settled credits, first alive entry, number alive, first
    paid entry, number paid, then the counted symbols seen in the prefix.
    """

    depth: int
    head: np.ndarray
    alive_line: np.ndarray
    alive_state: np.ndarray
    paid_entry: np.ndarray

    def as_tuple(self) -> tuple:
        """(depth, head, alive_line, alive_state, paid_entry)."""
        return (self.depth, self.head, self.alive_line, self.alive_state, self.paid_entry)

    @property
    def nbytes(self) -> int:
        """Memory held by the table."""
        return sum(a.nbytes for a in self.as_tuple()[1:])

    @property
    def mean_alive(self) -> float:
        """Average number of lines alive after the prefix (uniform stops)."""
        return float(self.alive_line.shape[0] / max(self.head.shape[0], 1))


def choose_depth(length: np.ndarray) -> int:
    """Deepest prefix (at most reels - 1, at most 3) whose table fits the L2 budget."""
    depth = 0
    rows = 1
    for r in range(min(3, length.shape[0] - 1)):
        if rows * int(length[r]) * ROW_BYTES > MAX_PREFIX_BYTES:
            break
        rows *= int(length[r])
        depth += 1
    return depth


def build_prefix_table(window: np.ndarray, length: np.ndarray, paylines: np.ndarray,
                       trans: np.ndarray, live: np.ndarray, state_win: np.ndarray,
                       state_entry: np.ndarray, counted: np.ndarray,
                       depth: int | None = None) -> PrefixTable:
    """Prefix table of a lines game over its first ``depth`` reels."""
    depth = choose_depth(length) if depth is None else depth
    rows = int(np.prod(length[:depth])) if depth else 1
    n_lines = paylines.shape[0]
    settled = np.zeros(rows, dtype=np.int64)
    counts = np.zeros((rows, counted.shape[0]), dtype=np.int64)
    alive_n = np.zeros(rows, dtype=np.int64)
    paid_n = np.zeros(rows, dtype=np.int64)
    alive_line = np.zeros((rows, n_lines), dtype=np.int64)
    alive_state = np.zeros((rows, n_lines), dtype=np.int64)
    paid_entry = np.zeros((rows, n_lines), dtype=np.int64)
    build_prefix(window, length, paylines, trans, live, state_win, state_entry, counted, depth,
                 settled, counts, alive_n, alive_line, alive_state, paid_n, paid_entry)
    mask = np.arange(n_lines)[None, :] < alive_n[:, None]
    pmask = np.arange(n_lines)[None, :] < paid_n[:, None]
    alive_first = np.concatenate([[0], np.cumsum(alive_n)[:-1]])
    paid_first = np.concatenate([[0], np.cumsum(paid_n)[:-1]])
    head = np.column_stack([settled, alive_first, alive_n, paid_first, paid_n, counts])
    small = max(int(head.max(initial=0)), int(alive_n.sum()), int(paid_n.sum())) < 2 ** 31
    return PrefixTable(depth, head.astype(np.int32 if small else np.int64),
                       alive_line[mask].astype(np.int16), alive_state[mask].astype(np.int32),
                       paid_entry[pmask].astype(np.int32))
