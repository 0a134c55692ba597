"""``[free_spins] big_symbol``: linked reels showing one big symbol, played as parts.

The free spins' reel set (:meth:`FreeSpins.played_strips`) has the big strip
on the first covered reel and one stop on each other covered reel. Every
stop of the first covered reel shows its symbol on all rows; given that
symbol, the other covered reels show it too, so the phase is split into one
part per symbol of the big strip (as ``paints`` splits by signature,
:mod:`certify.engine.paint`): in part ``k`` the first covered reel keeps the
weights of the stops showing symbol ``k`` (the others weigh 0) and the other
covered reels' one stop shows it. The parts' cycles add up to the phase's.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import numpy as np

from certify.engine.paint import Parts, ReelSet
from certify.model.schema import BigSymbol


def filled(reels: ReelSet, big: BigSymbol, ids: dict[str, int]) -> ReelSet:
    """The free spins' reel set, each stop of the first covered reel showing its symbol.

    The strip as read shows consecutive symbols; a big stop shows one on every row.
    """
    window = reels.window.copy()
    first = big.reels[0] - 1
    for stop, name in enumerate(big.strip):
        window[first, stop, :] = ids[name]
    return dataclasses.replace(reels, window=window)


def split_big(
    reels: ReelSet,
    big: BigSymbol,
    ids: dict[str, int],
    reweighted: Callable[[ReelSet, np.ndarray, np.ndarray], ReelSet],
) -> Parts:
    """The parts of the free spins: one reel set per distinct symbol of the big strip."""
    first = big.reels[0] - 1
    names = list(dict.fromkeys(big.strip))  # in the order of the strip
    strip = np.array([names.index(n) for n in big.strip], dtype=np.int64)
    offset = np.zeros(reels.weight.shape, dtype=np.int64)
    offset[first, : strip.shape[0]] = strip
    sets = []
    for k, name in enumerate(names):
        weight = reels.weight.copy()
        weight[first, : strip.shape[0]] = np.where(strip == k, weight[first, : strip.shape[0]], 0)
        window = reels.window.copy()
        for r in big.reels[1:]:
            window[r - 1, 0, :] = ids[name]
        sets.append(reweighted(reels, window, weight))
    weights = np.array([int(s.total_weight[first]) for s in sets], dtype=np.int64)
    return Parts(tuple(sets), weights // np.gcd.reduce(weights), offset)


def one_part(reels: ReelSet) -> Parts:
    """A phase played on one reel set, beside a phase split into parts."""
    return Parts((reels,), np.ones(1, dtype=np.int64), np.zeros(reels.weight.shape, np.int64))
