"""Exact figures of games whose reels multiply the spin (``window_multiplier``, full reels).

A stop's factor ``f_r`` (the product of its cells' ``window_multiplier``, a
``full_reel_multiplier`` value drawn into the stop) multiplies the spin's line,
ways and scatter wins, and the spin's factor is the product over the reels. As
the reels are independent, every sum over the cycle of ``w x F x C`` is the same
enumeration with each stop's weight times its factor (``F = prod f_r``), and of
``w x F^2 x C^2`` with weights times the factor squared. The cycle is
enumerated three times: plainly (weights, hits, award counts, trigger counts),
tilted once (the credits' sum), tilted twice (their squares' sum). A tilted
reel merges the stops that show the same column (a drawn value's stops, repeated
symbols) and divides its weights by their greatest common divisor, so its sums
stay in the kernels' 64 bits; :func:`tilted` returns that divisor's product.
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np

from certify.engine.tables import GameTables, ReelSet


def untilted(tables: GameTables) -> GameTables:
    """``tables`` played as if no stop multiplied the spin: the plain enumeration."""
    base = dataclasses.replace(tables.base, factor=None)
    free = base if tables.free is tables.base else dataclasses.replace(tables.free, factor=None)
    return dataclasses.replace(tables, base=base, free=free, prefix_cache={})


def tilted(tables: GameTables, power: int) -> tuple[GameTables, int, int]:
    """``tables`` with every stop's weight times its factor to ``power`` (its own caches).

    Returns the tables and, for the base and the free reel set, what the tilted
    sums must be multiplied by to be on the plain cycle's scale.
    """
    base, g_base = tilted_set(tables.base, power)
    free, g_free = (base, g_base) if tables.free is tables.base else tilted_set(tables.free, power)
    return dataclasses.replace(tables, base=base, free=free, prefix_cache={}), g_base, g_free


def tilted_set(reels: ReelSet, power: int) -> tuple[ReelSet, int]:
    """``reels`` with each stop's weight times its factor to ``power``, as a plain set.

    Stops showing the same column and counts (next to each other) are merged;
    each reel's weights are divided by their greatest common divisor. Returns the
    set and the product of those divisors (1 where the set has no factor).
    """
    if reels.factor is None:
        return reels, 1
    windows, counted, weights = [], [], []
    scale = 1
    for r in range(reels.window.shape[0]):
        n = int(reels.length[r])
        stops: list[int] = []
        merged: list[int] = []
        for s in range(n):
            w = int(reels.weight[r, s]) * int(reels.factor[r, s]) ** power
            if stops and _same(reels, r, stops[-1], s):
                merged[-1] += w
            else:
                stops.append(s)
                merged.append(w)
        g = math.gcd(*merged) or 1
        scale *= g
        windows.append(reels.window[r, stops])
        counted.append(reels.counted[:, r, stops])
        weights.append([w // g for w in merged])
    return _reel_set(windows, counted, weights), scale


def _same(reels: ReelSet, r: int, a: int, b: int) -> bool:
    return bool(
        (reels.window[r, a] == reels.window[r, b]).all()
        and (reels.counted[:, r, a] == reels.counted[:, r, b]).all()
    )


def _reel_set(windows: list, counted: list, weights: list) -> ReelSet:
    """A plain ReelSet of per-reel windows, counts and weights (padded to the longest)."""
    reels, longest = len(windows), max(len(w) for w in weights)
    rows = windows[0].shape[1]
    window = np.zeros((reels, longest, rows), dtype=np.uint8)
    count = np.zeros((counted[0].shape[0], reels, longest), dtype=np.int64)
    weight = np.zeros((reels, longest), dtype=np.int64)
    for r in range(reels):
        n = len(weights[r])
        window[r, :n] = windows[r]
        count[:, r, :n] = counted[r]
        weight[r, :n] = weights[r]
    return ReelSet(
        window,
        np.array([len(w) for w in weights], dtype=np.int64),
        weight,
        weight.sum(axis=1),
        np.zeros((reels, 1), dtype=np.int32),
        np.cumsum(weight, axis=1),
        count,
        weighted=True,
    )


def tilt_ratio(reels: ReelSet) -> float:
    """E[F] of one spin of ``reels``: the tilted cycle over the plain one (1 if no factor)."""
    if reels.factor is None:
        return 1.0
    tilted_total = (reels.weight * reels.factor).sum(axis=1)
    return math.prod(int(t) / int(u) for t, u in zip(tilted_total, reels.total_weight, strict=True))


INT64_MAX = (1 << 63) - 1


def overflow(tables: GameTables, screen_max: int) -> str | None:
    """Why a tilted cycle's 64-bit sums could overflow (None: they cannot, or no factor).

    The tilted twice cycle sums weight x factor^2 x a screen's win per combination.
    """
    if not tables.factor_on:
        return None
    for power in (1, 2):
        t, *_ = tilted(tables, power)
        for name, reels in (("base", t.base), ("free spins", t.free)):
            if reels.cycle * max(screen_max, 1) > INT64_MAX:
                return (
                    f"the {name} cycle weighted by what its reels multiply the spin by"
                    f"{' (squared)' if power == 2 else ''} ({reels.cycle:,}) times the largest"
                    f" win of one screen ({screen_max:,} credits) exceeds the exact"
                    " calculator's 64-bit sums"
                )
    return None
