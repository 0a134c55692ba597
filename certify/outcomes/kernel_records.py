"""The named records the outcome kernels take (:mod:`certify.outcomes.kernels`).

The replay, record and tally kernels group the arguments that travel together
into these named tuples, as :mod:`certify.engine.kernel_inputs` does for the
simulation: numba compiles a ``NamedTuple`` like a plain tuple, its fields
read by name at compile time (no cost per screen), and two fields cannot be
swapped silently. Defined here, in a module without numba, so the kernels'
on-disk cache refers to the classes by name. The machine's and level's tables
are the engine's own records (``ReelInputs``, ``PrefixInputs``,
``LevelInputs``, ``GameInputs``).

Every record is flat (fields are arrays or scalars): the parallel kernel takes
them as they are, and the kernels build the scratch ones with the class itself.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np


class ScoreWork(NamedTuple):
    """One thread's arrays to score screens with: award counters and ways scratch.

    ``classes`` and ``awards`` are accumulators (a base screen adds its award
    counts, as the simulation does); ``fam_len``, ``fam_win``, ``fam_entry``
    are the scratch (written before read) of
    :func:`certify.engine._kernels.ways_spin`.
    """

    classes: np.ndarray  # (2 x classes,) int64: screens of each prefix class, base then free
    awards: np.ndarray  # (2 x (award keys + 1),) int64: count of each pay entry, base then free
    fam_len: np.ndarray  # (families,) int64: a ways family's longest matched entry (or ways)
    fam_win: np.ndarray  # (families,) int64: the family's best win so far
    fam_entry: np.ndarray  # (families,) int64: the entry paying it


class ReplayOut(NamedTuple):
    """What :func:`certify.outcomes.kernels.replay_screens` writes: per row, then per block."""

    win: np.ndarray  # (rows,) int64: credits of each scored screen (0: not scored)
    packed: np.ndarray  # (rows,) uint64: its packed counted-symbol counts
    classes: np.ndarray  # (blocks, 2 x classes) int64: prefix-class counts of each block
    awards: np.ndarray  # (blocks, 2 x (award keys + 1)) int64: pay-entry counts of each block


class Fault(NamedTuple):
    """The fault a recording plays (``slotcert outcomes record --fault``)."""

    kind: int  # 0 none, 1 bias, 2 serial, 3 feature (one free spin more than the award)
    reel: int  # bias: the reel that shows ``stop`` instead of its draw
    stop: int  # bias: the stop it shows
    p32: int  # bias, serial: probability of the fault x 2^32
    prev: np.ndarray  # (reels,) int64: serial: each reel's previous base stop (-1 none),
    # carried from call to call


class GameRows(NamedTuple):
    """The rows :func:`certify.outcomes.kernels.record_games` writes, one per screen or bonus."""

    stops: np.ndarray  # (rows, reels) int64: each reel's stop (-1 for a bonus row)
    phase: np.ndarray  # (rows,) int64: phase code (0 base, 1 free, 2 bonus)
    game: np.ndarray  # (rows,) int64: index of the row's game in the call
    win: np.ndarray  # (rows,) int64: credits won
    drawn: np.ndarray  # (rows,) int64: the feature's expanding symbol (-1 none)


class StopTables(NamedTuple):
    """A reel set's stop classes for the tally tests (per reel, padded to the longest strip)."""

    fold: np.ndarray  # (reels,) int64: stops of the pair tables (the strip folded mod PAIR_MAX)
    high: np.ndarray  # (reels, stops) int64: 1 for a stop of the upper half (the runs' ones)
    in_a: np.ndarray  # (reels, stops) bool: a stop of set A (the gap test)


class StopTallies(NamedTuple):
    """A reel set's stop tallies: accumulators of :func:`certify.outcomes.kernels.tally_stops`."""

    counts: np.ndarray  # (reels, stops) int64: screens showing each stop
    serial: np.ndarray  # (reels, fold, fold) int64: pairs of consecutive screens' stops
    neighbour: np.ndarray  # (reels - 1, fold, fold) int64: pairs (reel r, reel r + 1)
    runs: np.ndarray  # (reels,) int64: runs of high values begun (this file)
    ones: np.ndarray  # (reels,) int64: screens with a high stop (this file)
    gaps: np.ndarray  # (reels, bins) int64: gaps between A stops (last bin: that or more)
