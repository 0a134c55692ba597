"""What the stop tests need, accumulated piece by piece in bounded memory.

Per reel set and reel: stop counts, the pair table of consecutive stops
(serial), the pair table with the next reel in the same screen
(independence), the runs of "upper half" stops and the gaps between
"first quarter" stops (SPEC 10; definitions in ``docs/OUTCOMES.md``), added
by one numba pass over the screens (:func:`certify.outcomes.kernels.tally_stops`).
Pairs, runs and gaps never cross a file: :meth:`StopTally.end_file` closes them.
"""

from __future__ import annotations

import numpy as np

from certify.outcomes.kernel_records import StopTables, StopTallies
from certify.outcomes.kernels import tally_stops
from certify.outcomes.stattests import runs_moments

GAP_BINS = 64  # gap lengths 0 .. 62 and ">= 63"
PAIR_MAX = 2048  # longer strips are folded to this many stops for the pair tables


def upper_half(weights: np.ndarray) -> np.ndarray:
    """Stops whose running weight before them is at least half the strip's: the runs' ones."""
    before = np.cumsum(weights) - weights
    return before >= weights.sum() / 2


def first_quarter(weights: np.ndarray) -> np.ndarray:
    """Stops whose running weight before them is below a quarter: the gap test's set A.

    Never empty (the first stop always belongs).
    """
    before = np.cumsum(weights) - weights
    return before < weights.sum() / 4


class StopTally:
    """Accumulators of one reel set (its per-reel stop weights)."""

    def __init__(self, weights: list[np.ndarray]):
        self.weights = weights
        self.lengths = [w.shape[0] for w in weights]
        reels, longest = len(weights), max(self.lengths)
        self.fold = np.array([min(n, PAIR_MAX) for n in self.lengths], dtype=np.int64)
        f = int(self.fold.max())
        self._counts = np.zeros((reels, longest), dtype=np.int64)
        self._serial = np.zeros((reels, f, f), dtype=np.int64)
        self._neighbour = np.zeros((max(reels - 1, 1), f, f), dtype=np.int64)
        self._high = np.zeros((reels, longest), dtype=np.int64)
        self._in_a = np.zeros((reels, longest), dtype=np.bool_)
        for r, w in enumerate(weights):
            self._high[r, : w.shape[0]] = upper_half(w)
            self._in_a[r, : w.shape[0]] = first_quarter(w)
        self.p_a = [
            float(w[self._in_a[r, : w.shape[0]]].sum() / w.sum()) for r, w in enumerate(weights)
        ]
        self.gaps = np.zeros((reels, GAP_BINS), dtype=np.int64)
        self.runs = np.zeros(reels, dtype=np.int64)
        self.runs_mean = np.zeros(reels)
        self.runs_var = np.zeros(reels)
        self._reset_file()

    def _reset_file(self) -> None:
        reels = len(self.weights)
        self.prev = np.full(reels, -1, dtype=np.int64)  # last stop of each reel in this file
        self.seen = 0  # screens of this reel set in this file so far
        self.last_a = np.full(reels, -1, dtype=np.int64)  # position of the last A stop
        self.ones = np.zeros(reels, dtype=np.int64)
        self.file_runs = np.zeros(reels, dtype=np.int64)

    @property
    def counts(self) -> list[np.ndarray]:
        """Stop counts per reel."""
        return [self._counts[r, :n] for r, n in enumerate(self.lengths)]

    @property
    def serial(self) -> list[np.ndarray]:
        """Per reel, the table of consecutive screens' (folded) stops."""
        return [self._serial[r, :f, :f] for r, f in enumerate(self.fold)]

    @property
    def neighbour(self) -> list[np.ndarray]:
        """Per reel r, the table of (reel r, reel r + 1) stops of a screen."""
        return [
            self._neighbour[r, : self.fold[r], : self.fold[r + 1]]
            for r in range(len(self.lengths) - 1)
        ]

    def add(self, stops: np.ndarray) -> None:
        """Add the next screens of this reel set in log order (rows of stops)."""
        if stops.shape[0] == 0:
            return
        tally_stops(
            np.ascontiguousarray(stops, dtype=np.int64),
            StopTables(self.fold, self._high, self._in_a),
            StopTallies(
                self._counts, self._serial, self._neighbour, self.file_runs, self.ones, self.gaps
            ),
            self.prev,
            self.last_a,
            self.seen,
        )
        self.seen += stops.shape[0]

    def end_file(self) -> None:
        """Close the file's runs (their mean and variance given its own counts)."""
        for r in range(len(self.weights)):
            n1 = int(self.ones[r])
            mean, var = runs_moments(n1, int(self.seen - n1))
            self.runs[r] += self.file_runs[r]
            self.runs_mean[r] += mean if self.seen else 0.0
            self.runs_var[r] += var
        self._reset_file()

    def folded(self, r: int) -> np.ndarray:
        """Reel ``r``'s stop probabilities folded like its pair tables (stop mod PAIR_MAX)."""
        w = self.weights[r]
        f = int(self.fold[r])
        return np.bincount(np.arange(w.shape[0]) % f, w, f) / w.sum()
