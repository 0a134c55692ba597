"""The stop tallies (one numba pass) against a plain Python count of the same screens."""

from __future__ import annotations

import numpy as np

from certify.outcomes.tally import StopTally, first_quarter, upper_half


def test_tally_equals_a_plain_count():
    """Two files of random screens, the first fed in three pieces: counts, serial and
    neighbour pairs, runs and gaps equal a direct count per file."""
    rng = np.random.default_rng(4)
    weights = [np.array([1.0, 2, 3, 1, 1]), np.array([2.0, 1, 1, 1]), np.array([1.0, 1, 1])]
    files = [np.stack([rng.integers(0, len(w), 300) for w in weights], axis=1) for _ in range(2)]
    t = StopTally(weights)
    for pieces in (np.array_split(files[0], 3), [files[1]]):
        for p in pieces:
            t.add(p)
        t.end_file()
    for r, w in enumerate(weights):
        high, in_a = upper_half(w), first_quarter(w)
        counts = np.zeros(len(w), int)
        serial = np.zeros((len(w), len(w)), int)
        runs, gaps = 0, np.zeros(64, int)
        for f in files:
            x = f[:, r]
            np.add.at(counts, x, 1)
            np.add.at(serial, (x[:-1], x[1:]), 1)
            runs += 1 + int((high[x][1:] != high[x][:-1]).sum())
            at = np.flatnonzero(in_a[x])
            np.add.at(gaps, np.minimum(np.diff(at) - 1, 63), 1)
        assert t.counts[r].tolist() == counts.tolist()
        assert t.serial[r].tolist() == serial.tolist()
        assert int(t.runs[r]) == runs
        assert t.gaps[r].tolist() == gaps.tolist()
        if r + 1 < len(weights):
            nb = np.zeros((len(w), len(weights[r + 1])), int)
            for f in files:
                np.add.at(nb, (f[:, r], f[:, r + 1]), 1)
            assert t.neighbour[r].tolist() == nb.tolist()
