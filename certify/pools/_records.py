"""The named inputs of the pool simulation's kernels (:mod:`certify.pools._kernels`).

numba compiles a ``NamedTuple`` like a plain tuple, fields read by name at
compile time (no cost per hit), so the kernels take these records instead of
long argument lists. They are flat (arrays and scalars only) and defined
here, in a module without numba, so numba's on-disk cache pickles their types
by reference.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np


class Members(NamedTuple):
    """How the pool's member games are played and hit it (one entry per member)."""

    rate: np.ndarray  # (members,) float64 spins a day
    stake: np.ndarray  # (members,) float64 money wagered per spin
    p_hit: np.ndarray  # (members,) float64 probability that a spin hits the pool
    weight: np.ndarray  # (members,) float64 hits a day: rate * p_hit
    hit_rate: float  # hits a day of the whole pool: weight.sum()
