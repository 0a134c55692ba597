"""The named records the screen kernels take (the phase a sequence plays, the exact cycle).

The simulation's screen kernels (:mod:`certify.engine._screens`) and the exact
calculator's (:mod:`certify.exact._screens`) group the arguments that travel
together into these named tuples, as :mod:`certify.engine.kernel_inputs` does
for the other kernels: numba compiles a ``NamedTuple`` like a plain tuple, its
fields read by name at compile time (no cost per spin), and two fields cannot
be swapped silently. Defined here, in a module without numba, so the kernels'
on-disk cache refers to the classes by name. The level's screen tables are
:class:`certify.engine.screens.ScreenInputs`.

Every record is flat (fields are arrays or scalars). numba 0.68 drops writes
made through a record's array field inside a ``prange`` loop, so a parallel
kernel reads the arrays of an output record into locals before its ``prange``
loop and writes those.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np


class ScreenPhase(NamedTuple):
    """What one sequence of screens plays: its reel set, its phase and the phase's scatters."""

    ps: int  # reel set: an index into the first axis of ReelInputs' tables
    phase: int  # 0 base game, 1 free spins (the automaton's start state, the ways credits)
    scatter_pay: np.ndarray  # (counted, max count + 1) int64 credits of the phase's scatters
    excl: np.ndarray  # (counted,) int64 1: an exclusive scatter (only the first paying pays)


class CycleSums(NamedTuple):
    """Outputs of the exact screen kernels, one row per stop of reel 1.

    A bucket is a (free-spin trigger count, bonus part) pair (see
    :func:`certify.exact._screens.enumerate_screen_cycle`).
    """

    w: np.ndarray  # (rows, buckets) int64: weight of the combinations
    wb: np.ndarray  # (rows, buckets) int64: weight x credits won
    wb2: np.ndarray  # (rows, buckets) float64: weight x credits won squared
    hit: np.ndarray  # (rows, buckets) int64: weight of the combinations that won
    aw: np.ndarray  # (rows, keys) int64: weighted award keys, then cluster entries
    sc: np.ndarray  # (rows,) int64: weighted scatter credits
    longest: np.ndarray  # (rows,) int64: the longest sequence (screens)
