"""What the stop tests need, accumulated piece by piece in bounded memory.

Per reel set and reel: stop counts, the pair table of consecutive stops
(serial), the pair table with the next reel in the same screen
(independence), the runs of "upper half" stops and the gaps between
"first quarter" stops (SPEC 10; definitions in ``docs/OUTCOMES.md``). Pairs,
runs and gaps never cross a file: :meth:`StopTally.end_file` closes them.
"""

from __future__ import annotations

import numpy as np

from certify.outcomes.stattests import runs_moments

GAP_BINS = 64  # gap lengths 0 .. 62 and ">= 63"
PAIR_MAX = 2048  # longer strips are folded to this many stops for the pair tables


def upper_half(weights: np.ndarray) -> np.ndarray:
    """Stops whose running weight before them is at least half the strip's: the runs' ones."""
    before = np.cumsum(weights) - weights
    return before >= weights.sum() / 2


def first_quarter(weights: np.ndarray) -> np.ndarray:
    """Stops whose running weight before them is below a quarter: the gap test's set A.

    Never empty (the first stop always belongs) and never every stop (unless the strip
    has one stop).
    """
    before = np.cumsum(weights) - weights
    return before < weights.sum() / 4


class StopTally:
    """Accumulators of one reel set (its per-reel stop weights)."""

    def __init__(self, weights: list[np.ndarray]):
        self.weights = weights
        self.lengths = [w.shape[0] for w in weights]
        self.fold = [min(n, PAIR_MAX) for n in self.lengths]
        self.counts = [np.zeros(n, dtype=np.int64) for n in self.lengths]
        self.serial = [np.zeros((f, f), dtype=np.int64) for f in self.fold]
        self.neighbour = [
            np.zeros((self.fold[r], self.fold[r + 1]), dtype=np.int64)
            for r in range(len(weights) - 1)
        ]
        self.high = [upper_half(w) for w in weights]
        self.in_a = [first_quarter(w) for w in weights]
        self.p_a = [float(w[a].sum() / w.sum()) for w, a in zip(weights, self.in_a)]
        reels = len(weights)
        self.gaps = np.zeros((reels, GAP_BINS), dtype=np.int64)
        self.runs = np.zeros(reels, dtype=np.int64)
        self.runs_mean = np.zeros(reels)
        self.runs_var = np.zeros(reels)
        self._reset_file()

    def _reset_file(self) -> None:
        reels = len(self.weights)
        self.prev = np.full(reels, -1, dtype=np.int64)  # last stop of each reel in this file
        self.seen = 0  # stops in this file so far (per reel: the same)
        self.last_a = np.full(reels, -1, dtype=np.int64)  # position of the last A stop
        self.ones = np.zeros(reels, dtype=np.int64)
        self.file_runs = np.zeros(reels, dtype=np.int64)

    def add(self, stops: np.ndarray) -> None:
        """Add the next screens of this reel set in log order (rows of stops)."""
        m = stops.shape[0]
        if m == 0:
            return
        for r in range(stops.shape[1]):
            x = stops[:, r]
            self.counts[r] += np.bincount(x, minlength=self.lengths[r])
            f = self.fold[r]
            xf = x % f
            chain = np.concatenate([[self.prev[r] % f], xf]) if self.prev[r] >= 0 else xf
            if chain.shape[0] > 1:
                self.serial[r] += np.bincount(chain[:-1] * f + chain[1:], minlength=f * f).reshape(f, f)
            if r + 1 < stops.shape[1]:
                g = self.fold[r + 1]
                y = stops[:, r + 1] % g
                self.neighbour[r] += np.bincount(xf * g + y, minlength=f * g).reshape(f, g)
            bits = self.high[r][x]
            changes = int((bits[1:] != bits[:-1]).sum())
            if self.prev[r] >= 0:
                changes += int(self.high[r][self.prev[r]] != bits[0])
            else:
                changes += 1  # the file's first run
            self.file_runs[r] += changes
            self.ones[r] += int(bits.sum())
            at = np.flatnonzero(self.in_a[r][x]) + self.seen
            if at.shape[0]:
                chain_a = np.concatenate([[self.last_a[r]], at]) if self.last_a[r] >= 0 else at
                gaps = np.diff(chain_a) - 1
                self.gaps[r] += np.bincount(np.minimum(gaps, GAP_BINS - 1), minlength=GAP_BINS)
                self.last_a[r] = at[-1]
            self.prev[r] = x[-1]
        self.seen += m

    def end_file(self) -> None:
        """Close the file's runs (their mean and variance given its own counts)."""
        for r in range(len(self.weights)):
            n1 = int(self.ones[r])
            n2 = int(self.seen - n1)
            mean, var = runs_moments(n1, n2)
            self.runs[r] += self.file_runs[r]
            self.runs_mean[r] += mean if self.seen else 0.0
            self.runs_var[r] += var
        self._reset_file()

    def folded(self, r: int) -> np.ndarray:
        """Reel ``r``'s stop probabilities folded like its pair tables (stop mod PAIR_MAX)."""
        w = self.weights[r]
        f = self.fold[r]
        return np.bincount(np.arange(w.shape[0]) % f, w, f) / w.sum()
