"""The named inputs of the table games' kernels (:mod:`certify.tables._kernels`).

numba compiles a ``NamedTuple`` like a plain tuple, fields read by name at
compile time (no cost per round), so the kernels take these records instead
of long argument lists. They are flat (arrays and scalars only) because the
parallel kernels take them, and defined here, in a module without numba, so
numba's on-disk cache pickles their types by reference.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np


class DuelHands(NamedTuple):
    """The hand space of a duel game and how two of its hands compare."""

    n_cards: int  # cards (or tiles) in the deck, dealt as 0 .. n_cards - 1
    size: int  # cards of one hand
    keys: np.ndarray  # (hands,) int64 strength of each hand (combinadic index), higher wins
    zero: np.ndarray  # (hands,) bool: the hand scores zero (banker's advantage)
    binom: np.ndarray  # (n_cards + 1, size + 1) int64 binomials of the combinadic index
    banker_wins_zero: bool  # the banker wins when both hands score zero
    banker_wins_equal: bool  # the banker wins equal keys (else a push)


class CapitalRule(NamedTuple):
    """How a banked round is settled under the banker's capital cap."""

    stakes: np.ndarray  # (seats - 1,) float64 stake of each player seat
    capital: float  # the banker's capital (money)
    commission: float  # share of a paid prize charged as commission
    cap_gain: bool  # the cap also binds the banker's gain (else only his loss)
