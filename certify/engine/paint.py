"""``paints``: a game whose painted blocks cross reels, played as reel sets of independent reels.

A symbol that paints (``certify/model/paint.py``) makes a reel's window depend
on another reel's stop. Given the *signature* of every painting reel (which
painting symbol each of its rows shows), the painted cells are fixed, and the
reels are independent again. So a phase (base game, free spins) is split into
one reel set per combination of signatures, its *parts*: each painting reel
keeps the weights of the stops showing its part's signature (the others weigh
0, so stop numbers stay those of the strip), and every reel's window has the
part's block painted (cells showing a scatter or bonus symbol kept). The
parts' cycles add up to the phase's cycle exactly, so the exact calculator sums
their buckets as integers; the simulation draws a part with probability its
weight over the phase's (``Parts.weights``), then the stops within it.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections.abc import Callable
from typing import Any

import numpy as np

from certify.model.paint import block_cells, painters, signature
from certify.model.schema import Machine

ReelSet = Any  # certify.engine.tables.ReelSet, which imports this module


@dataclasses.dataclass(frozen=True)
class Parts:
    """The parts of one phase: reel sets, draw weights, and each stop's part offset.

    ``offset[r, stop]`` summed over the reels gives a stop row's part index
    (the outcome replay reads it; the simulation draws the part first).
    """

    sets: tuple[ReelSet, ...]
    weights: np.ndarray  # (parts,) int64, gcd-reduced: P(part) = weight / sum
    offset: np.ndarray  # (reels, stops) int64


def paints(machine: Machine) -> bool:
    """Whether some symbol of the machine paints a block."""
    return any(s.paints is not None for s in machine.symbols)


def split_phase(
    machine: Machine,
    reels: ReelSet,
    ids: dict[str, int],
    reweighted: Callable[[ReelSet, np.ndarray, np.ndarray], ReelSet],
) -> Parts:
    """The parts of one phase's reel set (its window as landed: no column rule applies).

    ``reweighted(reels, window, weight)``: the reel set with that window and those
    stop weights (``certify.engine.tables.reweighted``: totals and draw tables rebuilt).
    """
    names = {i: n for n, i in ids.items()}
    by_reel = painters(machine.symbols)
    sigs: list[tuple[int, list[tuple[str, ...]], list[tuple[str, ...]]]] = []
    for r, painting in by_reel.items():
        stops = [
            signature([names[int(x)] for x in reels.window[r, s]], painting)
            for s in range(int(reels.length[r]))
        ]
        sigs.append((r, sorted(set(stops)), stops))
    offset = np.zeros(reels.weight.shape, dtype=np.int64)
    stride = 1
    for r, distinct, stops in reversed(sigs):
        for s, sig in enumerate(stops):
            offset[r, s] = distinct.index(sig) * stride
        stride *= len(distinct)
    sets = [  # in the order of the offsets: the first painting reel's signature slowest
        reweighted(reels, *_part(machine, reels, dict(zip([r for r, _, _ in sigs], c)), sigs, ids))
        for c in itertools.product(*[distinct for _, distinct, _ in sigs])
    ]
    weights = [math.prod(int(s.total_weight[r]) for r, _, _ in sigs) for s in sets]
    g = math.gcd(*weights)
    return Parts(tuple(sets), np.array([w // g for w in weights], dtype=np.int64), offset)


def _part(
    machine: Machine,
    reels: ReelSet,
    chosen: dict[int, tuple[str, ...]],
    sigs: list,
    ids: dict[str, int],
) -> tuple[np.ndarray, np.ndarray]:
    """The window and weights of one combination of signatures: blocks painted."""
    weight = reels.weight.copy()
    kept = [ids[s.name] for s in machine.symbols if s.kind in ("scatter", "bonus")]
    for r, _, stops in sigs:
        for s, sig in enumerate(stops):
            if sig != chosen[r]:
                weight[r, s] = 0
    window = reels.window.copy()
    n_reels, rows = window.shape[0], window.shape[2]
    for r, sig in chosen.items():
        for y, name in enumerate(sig):
            if not name:
                continue
            paint = machine.symbol(name).paints
            assert paint is not None
            into = ids[paint.into]
            for c, z in block_cells(paint, r, y, n_reels, rows):
                n = int(reels.length[c])
                cells = window[c, :n, z]
                window[c, :n, z] = np.where(np.isin(cells, kept), cells, into)
    return window, weight
