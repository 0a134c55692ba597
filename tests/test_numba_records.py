"""Records' fields read as their sources (certify.numba_records): same results, fewer references.

The kernels are built like the simulation's: a ``prange`` over chunks builds
a record of its own copies of the tables and hands it to an inlined helper
that reads its fields in the spin loop. Expected figures come from the same
loops in plain Python.
"""

from __future__ import annotations

from typing import NamedTuple

import numba
import numpy as np
import pytest

from certify import numba_records
from certify.compiler import configure


class Tables(NamedTuple):
    values: np.ndarray
    weights: np.ndarray
    offset: int


@numba.njit(inline="always")
def _spin(t, row, counts):
    v = t.values[row % t.values.shape[0]] * t.weights[row % t.weights.shape[0]]
    counts[row & 3] += 1
    return v + t.offset


def _kernel(values, weights, n, out, counts):
    for c in numba.prange(out.shape[0]):
        own_values, own_weights = values.copy(), weights.copy()
        t = Tables(own_values, own_weights, c)
        mine = np.zeros(4, dtype=np.int64)
        total = 0
        for i in range(n):
            total += _spin(t, i * 7 + c, mine)
        out[c] = total
        counts[c, :] = mine


def _python(values, weights, n, c):
    total, mine = 0, [0, 0, 0, 0]
    for i in range(n):
        row = i * 7 + c
        total += int(values[row % len(values)]) * int(weights[row % len(weights)]) + c
        mine[row & 3] += 1
    return total, mine


@pytest.fixture
def forwarded(monkeypatch):
    """The number of field reads each copy propagation of a compile rewrote."""
    configure()
    made = []
    original = numba_records.forward_record_fields

    def counting(blocks, typemap):
        made.append(original(blocks, typemap))
        return made[-1]

    monkeypatch.setattr(numba_records, "forward_record_fields", counting)
    return made


def test_a_record_built_in_the_chunk_loop_is_read_through_its_sources(forwarded):
    values, weights = np.arange(1, 12, dtype=np.int64), np.arange(3, 8, dtype=np.int64)
    out, counts = np.zeros(5, dtype=np.int64), np.zeros((5, 4), dtype=np.int64)
    numba.njit(parallel=True)(_kernel)(values, weights, 1000, out, counts)  # compiled afresh
    assert sum(forwarded) >= 3  # values, weights, offset (at least once each)
    for c in range(out.shape[0]):
        total, mine = _python(values, weights, 1000, c)
        assert out[c] == total and counts[c].tolist() == mine


def _redefined(values, out):
    for c in numba.prange(out.shape[0]):
        own = values.copy()
        t = Tables(own, own, c)
        total = 0
        for i in range(3):
            total += t.values[i]
            own = own + 1  # the record still holds the first array
        out[c] = total


def test_a_source_redefined_after_the_record_is_not_forwarded(forwarded):
    values, out = np.arange(5, dtype=np.int64), np.zeros(2, dtype=np.int64)
    numba.njit(parallel=True)(_redefined)(values, out)
    assert out.tolist() == [0 + 1 + 2] * 2


def test_reaches_sees_paths_around_a_loop():
    """Blocks 0 -> 1 -> 2 -> 3 -> 1 (a loop), 3 -> 4: what runs between a source and a read."""
    successors = {0: [1], 1: [2], 2: [3], 3: [1, 4], 4: []}
    # a source at the loop's top, the record built after it, read below: always rebuilt first
    assert not numba_records.reaches(successors, (1, 0), (3, 5), wall=(2, 0))
    # a source defined after the record in the loop reaches the read before the next record
    assert numba_records.reaches(successors, (3, 0), (3, 5), wall=(2, 0))
    # a read above the source in the same block is reached only around the loop, through the wall
    assert not numba_records.reaches(successors, (3, 6), (3, 5), wall=(2, 0))
    # no wall on the way: reached
    assert numba_records.reaches(successors, (0, 0), (4, 0), wall=(9, 0))
