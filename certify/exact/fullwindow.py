"""Exact full-window pays: the cycle's sums corrected on the windows full of one symbol.

A window full of a target (:mod:`certify.engine.fullwindow`) multiplies its
line or ways wins. Such windows are a product set — every reel shows a column
passing the target — so they are few: they are enumerated here, each scored
twice (as the cycle kernels scored it, and with its lines multiplied), and
the difference is added to the cycle's bucket sums. The cycle itself, its
prefix tables and fast paths stay as they are.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

import numpy as np

from certify.engine import _kernels as ek
from certify.engine.fullwindow import target_owners
from certify.engine.kernel_inputs import (
    game_inputs,
    level_inputs,
    prefix_inputs,
    prefix_tables,
    reel_inputs,
    reel_sets,
)
from certify.engine.simulate import ways_flag
from certify.exact._kernels import _bucket

if TYPE_CHECKING:
    from certify.engine.kernel_inputs import SpinScore
    from certify.engine.tables import GameTables, LevelTables, ReelSet

MAX_FULL_WINDOWS = 20_000_000  # full-window stop combinations enumerated at most


def full_window_stops(tables: GameTables, phase: int) -> tuple[np.ndarray, np.ndarray]:
    """(stop rows (n, reels), surviving target masks (n,)) of every full window of a phase."""
    ps = 0 if phase == 0 else len(reel_sets(tables)) - 1
    reels = reel_sets(tables)[ps]
    mask = tables.full_window_mask[ps]
    rows = np.zeros((1, 0), dtype=np.int64)
    alive = np.full(1, ~np.uint64(0), dtype=np.uint64)
    for r in range(reels.length.shape[0]):
        stops = np.nonzero(
            (mask[r, : reels.length[r]] != 0) & (reels.weight[r, : reels.length[r]] > 0)
        )[0]
        both = alive[:, None] & mask[r, stops][None, :]
        keep = np.nonzero(both != 0)
        rows = np.concatenate([rows[keep[0]], stops[keep[1]][:, None]], axis=1)
        alive = both[keep]
    return rows, alive


def full_window_count_bound(tables: GameTables) -> int:
    """An upper bound of the rows :func:`full_window_stops` holds at any reel (both phases).

    Per target, the product of the stops passing it on each reel so far (a
    window full of several targets is counted once per target); the
    enumeration's rows after a reel are at most the sum over targets.
    """
    if not tables.full_window_mult.size:
        return 0
    total = 0
    for ps, reels in enumerate(reel_sets(tables)):
        for t in range(tables.full_window_mult.shape[0]):
            bit, n, most = np.uint64(1 << t), 1, 0
            for r in range(reels.length.shape[0]):
                column = tables.full_window_mask[ps, r, : reels.length[r]]
                n *= int(np.count_nonzero(column & bit))
                most = max(most, n)
            total += most
    return total


def _multipliers(alive: np.ndarray, mult: np.ndarray) -> np.ndarray:
    """The largest multiplier among the targets each window is full of."""
    bits = ((alive[:, None] >> np.arange(mult.shape[0], dtype=np.uint64)[None, :]) & 1) != 0
    return np.where(bits, mult[None, :], 0).max(axis=1)  # every window fills some target


def with_full_windows(
    tables: GameTables,
    reels: ReelSet,
    lt: LevelTables,
    phase: int,
    score: SpinScore,
    buckets: Any,
) -> Any:
    """``buckets`` (``cycle._Buckets``) of a phase's cycle with the full windows' lines multiplied.

    ``reels`` is the reel set the cycle walked (its ``counted`` rows may hold
    extra rows, as the Book-of-Ra free cycle's), ``score`` how it scored them.
    """
    if not tables.full_window_mult.size:
        return buckets
    stops, alive = full_window_stops(tables, phase)
    if stops.shape[0] == 0:
        return buckets
    lines = _line_credits(tables, lt, phase, stops)
    m = _multipliers(alive, tables.full_window_mult)
    idx = np.arange(stops.shape[1])
    weight = np.prod(reels.weight[idx[None, :], stops], axis=1)  # int64: bounded by limits.py
    counts = reels.counted[:, idx[None, :], stops].sum(axis=2).T  # (n, counted)
    scatter, bucket = _by_counts(tables, score, counts)
    old = _capped(lines + scatter, score.cap)
    new = _capped(lines * m + scatter, score.cap)
    gain = np.zeros(len(buckets.wb), dtype=np.int64)
    np.add.at(gain, bucket, weight * (new - old))
    wb2 = buckets.wb2.copy()
    np.add.at(wb2, bucket, weight.astype(np.float64) * (new.astype(np.float64) ** 2 - old**2.0))
    wb = [int(a) + int(g) for a, g in zip(buckets.wb, gain, strict=True)]
    # a multiplier >= 1 never turns a win into none or none into a win; 0 may take a win away
    lost = np.zeros(len(buckets.wb), dtype=np.int64)
    np.add.at(lost, bucket, weight * ((old > 0) & (new == 0)))
    return dataclasses.replace(buckets, wb=wb, wb2=wb2, hit=buckets.hit - lost)


def pool_buckets(
    tables: GameTables, phase: int, score: SpinScore, n_buckets: int
) -> dict[str, np.ndarray]:
    """Per pool, the weight of a phase's full windows that win it, by bucket.

    A window wins the pool of the first listed ``[[full_window_pays]]`` entry
    with a ``jackpot`` whose target it fills (one pool per spin); the bucket
    is the one the cycle files the window in (its counted symbols).
    """
    m = tables.machine
    owner = target_owners(m)
    stops, alive = full_window_stops(tables, phase)
    out: dict[str, np.ndarray] = {}
    if stops.shape[0] == 0:
        return out
    reels = reel_sets(tables)[0 if phase == 0 else len(reel_sets(tables)) - 1]
    idx = np.arange(stops.shape[1])
    weight = np.prod(reels.weight[idx[None, :], stops], axis=1)
    counts = reels.counted[:, idx[None, :], stops].sum(axis=2).T
    _, bucket = _by_counts(tables, score, counts)
    winner = np.full(stops.shape[0], -1, dtype=np.int64)
    for t in range(len(owner) - 1, -1, -1):  # walking back, the first listed entry is set last
        if m.full_window_pays[owner[t]].jackpot:
            full = ((alive >> np.uint64(t)) & np.uint64(1)) != 0
            winner = np.where(full, owner[t], winner)
    for i, fw in enumerate(m.full_window_pays):
        if fw.jackpot and np.any(winner == i):
            hits = out.setdefault(fw.jackpot, np.zeros(n_buckets, dtype=np.int64))
            np.add.at(hits, bucket[winner == i], weight[winner == i])
    return out


def _by_counts(
    tables: GameTables, score: SpinScore, counts: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Scatter credits and bucket of each window, from its counted symbols.

    Scored once per distinct count vector (few: the windows share them), by
    the kernels' own ``scatter_win`` and ``_bucket``.
    """
    game = game_inputs(tables)
    distinct, inverse = np.unique(counts, axis=0, return_inverse=True)
    scatter = np.zeros(distinct.shape[0], dtype=np.int64)
    bucket = np.zeros(distinct.shape[0], dtype=np.int64)
    for u in range(distinct.shape[0]):
        cnt = np.ascontiguousarray(distinct[u], dtype=np.int64)
        scatter[u] = ek.scatter_win(cnt, score.scatter_pay, score.excl)
        bucket[u] = _bucket(
            cnt, game.fs_counted, game.bonus_counted, game.bonus_min, score.bonus_jmax
        )
    inverse = inverse.reshape(-1)
    return scatter[inverse], bucket[inverse]


def _capped(win: np.ndarray, cap: int) -> np.ndarray:
    return np.minimum(win, cap) if cap > 0 else win


def _line_credits(tables: GameTables, lt: LevelTables, phase: int, stops: np.ndarray) -> np.ndarray:
    """Line or ways credits of each stop row, by the simulation kernel's own evaluation."""
    out = np.zeros(stops.shape[0], dtype=np.int64)
    packed = np.zeros(stops.shape[0], dtype=np.uint64)
    ek.evaluate_stops(
        np.ascontiguousarray(stops, dtype=np.int64),
        phase,
        reel_inputs(tables),
        prefix_inputs(prefix_tables(tables, lt.level_index)),
        level_inputs(lt, tables),
        game_inputs(tables),
        out,
        packed,
        np.zeros((stops.shape[0], 0), dtype=np.int64),  # award counts: not read here
        ways_flag(tables),
    )
    return out
