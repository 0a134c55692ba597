"""The named records the exact calculator's kernels take.

The full-cycle kernels (:mod:`certify.exact._kernels`) and the state-merging
kernels (:mod:`certify.exact._statedp`) group the arguments that travel
together into these flat named tuples, as :mod:`certify.engine.kernel_inputs`
does for the simulation: numba compiles a ``NamedTuple`` like a plain tuple,
its fields read by name at compile time (no cost per spin), and two fields
cannot be swapped silently. Defined here, in a module without numba, so the
kernels' on-disk cache refers to the classes by name.

Every record is flat (fields are arrays or scalars): the parallel kernels
take them as they are.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np


class BucketSums(NamedTuple):
    """Accumulators of the exact kernels: per output row, sums per bucket.

    A bucket is a (free-spin trigger count, bonus part) pair (see
    :func:`certify.exact._kernels._bucket`); each row is summed by one thread
    and the rows are added up afterwards (:func:`certify.exact.cycle._buckets`).
    """

    w: np.ndarray  # (rows, buckets) int64: weight of the outcomes
    wb: np.ndarray  # (rows, buckets) int64: weight x credits won
    wb2: np.ndarray  # (rows, buckets) float64: weight x credits won squared
    hit: np.ndarray  # (rows, buckets) int64: weight of the outcomes that won
    aw: np.ndarray  # (rows, award keys) int64: weighted count of each pay entry


class BucketRule(NamedTuple):
    """Which counted symbols put an outcome in its bucket (the game's fields of these names)."""

    fs_counted: int  # counted index of the free-spin trigger (-1 none)
    bonus_counted: int  # counted index of the bonus symbol (-1 none)
    bonus_min: int  # bonus symbols that trigger the bonus


class LineReels(NamedTuple):
    """One reel set of a lines game as the exact kernels walk it."""

    window: np.ndarray  # (reels, stops, rows) uint8: symbol id shown at each row of each stop
    weight: np.ndarray  # (reels, stops) int64: weight of each stop (0 past a strip's end)
    length: np.ndarray  # (reels,) int64: stops per strip
    counted: np.ndarray  # (counted, reels, stops) int64: counted symbols each stop shows


class WaysReels(NamedTuple):
    """One reel set of a ways game as the exact kernels walk it."""

    ways_sum: np.ndarray  # (reels, stops, entries) int64: ways of each entry at each stop
    # (see certify.engine.tables.ways_sums)
    weight: np.ndarray  # (reels, stops) int64: weight of each stop (0 past a strip's end)
    length: np.ndarray  # (reels,) int64: stops per strip
    counted: np.ndarray  # (counted, reels, stops) int64: counted symbols each stop shows


class TailClasses(NamedTuple):
    """Count classes of the reels after each depth (see :func:`certify.exact.cycle.tail_classes`).

    Depth ``k``: reels ``k..R-1`` still to come; ``M`` classes at most.
    """

    w: np.ndarray  # (R + 1, M) int64: weight of each class
    cnt: np.ndarray  # (R + 1, M, counted) int64: counted symbols of each class
    n: np.ndarray  # (R + 1,) int64: classes at each depth
    total: np.ndarray  # (R + 1,) int64: total weight of the reels after each depth


class WalkState(NamedTuple):
    """Per-depth state of the depth-first walk under one stop of reel 1 (one per thread).

    Depth ``d`` holds what the first ``d`` reels at ``stops[:d]`` give.
    """

    stops: np.ndarray  # (R,) int64: the stop of each reel
    ls: np.ndarray  # (R + 1, lines) int64: each line's automaton state after depth d
    cnt: np.ndarray  # (R + 1, counted) int64: counted symbols after depth d
    wt: np.ndarray  # (R + 1,) int64: weight product after depth d (wt[0] = 1)
    alive: np.ndarray  # (lines,) int64 scratch: the lines still live before the last reel
    cnt_last: np.ndarray  # (counted,) int64 scratch: counted symbols of a whole spin


class ComboWalk(NamedTuple):
    """What :func:`certify.exact._kernels.enumerate_combos` sums over."""

    ps: int  # the reel set (index in certify.engine.kernel_inputs.reel_sets)
    active: np.ndarray  # (rows,) int64: the combos of non-zero weight (one output row each)
    combo_w: np.ndarray  # (combos,) int64: weight of the prefixes of each combo
    tail_w: np.ndarray  # (pairs,) int64: weight of each stop pair of the last two reels
    # (0 past the pairs of this reel set)


class StateTable(NamedTuple):
    """A state table of the state-merging calculation (see :mod:`certify.exact._statedp`).

    Rows ``0..n-1`` are the states; the arrays may have more rows (room).
    """

    keys: np.ndarray  # (rows, words) int64: each state's packed key
    w: np.ndarray  # (rows,) int64: weight of the stop combinations reaching it
    s1: np.ndarray  # (rows,) int64: weight x settled credits
    s2: np.ndarray  # (rows,) float64: weight x settled credits squared
    h: np.ndarray  # (rows,) int64: weight whose settled credits are non-zero
    n: int  # states in the table


class FillCursor(NamedTuple):
    """Where a state-merging step (re)starts filling its next table."""

    i: int  # parent state to resume from
    stop: int  # stop of the reel to resume from (for state i only)
    m: int  # states already in the next table
    work: int  # transitions done so far
