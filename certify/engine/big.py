"""``[free_spins] big_symbol``: linked reels showing one big symbol, played as parts.

The free spins' reel set (:meth:`FreeSpins.played_strips`) has the big strip
on the first covered reel and one stop on each other reel every symbol covers.
Every stop of the first covered reel shows its symbol's column (the symbol on
all rows unless ``columns`` says otherwise); given that symbol, the other
covered reels show it too, so the phase is split into one part per symbol of
the big strip (as ``paints`` splits by signature, :mod:`certify.engine.paint`):
in part ``k`` the first covered reel keeps the weights of the stops showing
symbol ``k`` (the others weigh 0), the other reels it covers show its column,
and a reel only some symbols cover (Fairy Queen's reel 3) shows the column on
every stop where ``k`` covers it and its own strip where not, its weights kept
either way (its stop is drawn, hidden under the symbol), so every part is the
same product of reel totals. The parts' cycles add up to the phase's.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import numpy as np

from certify.engine.paint import Parts, ReelSet
from certify.model.schema import BigSymbol

CellCounts = Callable[[int, tuple[str, ...]], list[int]]  # (reel, cells) -> counted symbols


def filled(reels: ReelSet, big: BigSymbol, ids: dict[str, int], count: CellCounts) -> ReelSet:
    """The free spins' reel set, each stop of the first covered reel showing its column.

    The strip as read shows consecutive symbols; a big stop shows its symbol's
    column (``count``: what the counted symbols count in it on a reel).
    """
    window, counted = reels.window.copy(), reels.counted.copy()
    first = big.reels[0] - 1
    rows = window.shape[2]
    for stop, name in enumerate(big.strip):
        _show(window, counted, first, slice(stop, stop + 1), big.column(name, rows), ids, count)
    return dataclasses.replace(reels, window=window, counted=counted)


def _show(
    window: np.ndarray,
    counted: np.ndarray,
    r: int,
    stops: slice,
    cells: tuple[str, ...],
    ids: dict[str, int],
    count: CellCounts,
) -> None:
    """Reel ``r``'s ``stops`` show ``cells``, counted as they show."""
    window[r, stops, :] = [ids[c] for c in cells]
    counts = count(r, cells)
    for c in range(counted.shape[0]):
        counted[c, r, stops] = counts[c] if c < len(counts) else 0


def split_big(
    reels: ReelSet,
    big: BigSymbol,
    ids: dict[str, int],
    reweighted: Callable[[ReelSet, np.ndarray, np.ndarray], ReelSet],
    count: CellCounts,
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
        window, counted = reels.window.copy(), reels.counted.copy()
        cells = big.column(name, window.shape[2])
        for r in big.reels[1 : big.cover(name)]:
            _show(window, counted, r - 1, slice(0, int(reels.length[r - 1])), cells, ids, count)
        sets.append(dataclasses.replace(reweighted(reels, window, weight), counted=counted))
    weights = np.array([int(s.total_weight[first]) for s in sets], dtype=np.int64)
    return Parts(tuple(sets), weights // np.gcd.reduce(weights), offset)


def one_part(reels: ReelSet) -> Parts:
    """A phase played on one reel set, beside a phase split into parts."""
    return Parts((reels,), np.ones(1, dtype=np.int64), np.zeros(reels.weight.shape, np.int64))
