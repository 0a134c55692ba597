"""numba kernel of the exact calculator for screen games: the full cycle, screen by screen.

With ``refill = "strip"`` every stop combination fixes every screen of its
sequence, so the cycle is walked combination by combination (an odometer
over reels 2..R inside a ``prange`` over the stops of reel 1) and each plays
its whole sequence through the simulation's own
:func:`certify.engine._screens.cascade_spin` (no random number is drawn).
Outputs are per (trigger count, bonus flag) bucket like
:mod:`certify.exact._kernels`: weight, weighted win, weighted win squared,
weight of the winning combinations; plus weighted award counts, weighted
scatter credits and the longest sequence, one row per stop of reel 1.
"""

from __future__ import annotations

import numpy as np

from certify._numba import jit, prange
from certify.engine._screens import cascade_spin, load_screen, stick


@jit(parallel=True)
def enumerate_screen_cycle(
    ps,
    phase,
    reels,
    level,
    game,
    scr,
    scatter_pay,
    excl,
    cap,
    out_w,
    out_wb,
    out_wb2,
    out_hit,
    out_aw,
    out_sc,
    out_long,
):
    """Every stop combination of reel set ``ps`` (phase 0 base, 1 free spins) into buckets.

    The bucket of a combination is (jmax + 1) x its largest free-spin trigger
    count + its bonus part (0, or its largest bonus count capped at
    ``game.bonus_jmax``: 1 for a pick bonus) as in :mod:`certify.exact._kernels`;
    its win is the sequence's credits (screen multipliers included, capped at
    ``cap`` when > 0).
    """
    window, length = reels.window, reels.length
    total_weight, cumulative = reels.total_weight, reels.cumulative
    weight = scr.weight
    n_reels, rows = window.shape[1], window.shape[3]
    fs_counted, bonus_counted, bonus_min = game.fs_counted, game.bonus_counted, game.bonus_min
    jmax = game.bonus_jmax
    for outer in prange(length[ps, 0]):
        stops = np.zeros(n_reels, dtype=np.int64)
        above = np.zeros(n_reels, dtype=np.int64)
        grid = np.zeros((n_reels, rows), dtype=np.int64)
        mark = np.zeros((n_reels, rows), dtype=np.bool_)
        cnt = np.zeros(scatter_pay.shape[0], dtype=np.int64)
        queue = np.zeros(n_reels * rows, dtype=np.int64)
        seen = np.zeros(2 * n_reels * rows, dtype=np.int64)  # see cluster_win
        fam = np.zeros((3, scr.family.max() + 1), dtype=np.int64)
        boards = np.zeros(scr.cl_member.shape[0], dtype=np.uint64)
        awards = out_aw[outer]
        stamp = 0
        s0, s1, s2, s3 = np.uint64(1), np.uint64(2), np.uint64(3), np.uint64(4)  # unused
        stops[0] = outer
        longest = 0
        while True:
            w = np.int64(1)
            for r in range(n_reels):
                w *= weight[ps, r, stops[r]]
            load_screen(ps, stops, window, length, grid, above)
            spin, sc, fs_top, bonus_top, n, stamp, s0, s1, s2, s3 = cascade_spin(
                ps,
                phase,
                stops,
                window,
                length,
                total_weight,
                cumulative,
                game.paylines,
                game.entry_len,
                level,
                scr,
                scatter_pay,
                excl,
                fs_counted,
                bonus_counted,
                grid,
                mark,
                above,
                cnt,
                queue,
                seen,
                boards,
                fam,
                stamp,
                awards,
                w,
                s0,
                s1,
                s2,
                s3,
            )
            j = 0
            if bonus_counted >= 0 and bonus_top >= bonus_min:
                j = min(bonus_top, jmax)
            b = fs_top * (jmax + 1) + j
            if cap > 0 and spin > cap:
                spin = cap
            out_w[outer, b] += w
            out_wb[outer, b] += w * spin
            out_wb2[outer, b] += float(w) * float(spin) * float(spin)
            if spin > 0:
                out_hit[outer, b] += w
            out_sc[outer] += w * sc
            longest = max(longest, n)
            r = n_reels - 1
            while r >= 1:
                stops[r] += 1
                if stops[r] < length[ps, r]:
                    break
                stops[r] = 0
                r -= 1
            if r < 1:
                break
        out_long[outer] = longest


@jit(parallel=True)
def sticky_cycle(
    ps, reels, level, game, scr, scatter_pay, excl, held_bits, out_w, out_spin, out_top, out_held
):
    """Every free-spin stop combination played with the cells of ``held_bits`` held wild.

    Combination ``i`` (row-major over the reels' stops) gets its weight, its
    credits (lines and scatters, before the free-spin multiplier), its largest
    (free-spin, bonus) trigger counts in ``out_top[i]`` and the cells held
    after it (bit ``reel x rows + row``) in ``out_held[i]``.
    """
    window, length = reels.window, reels.length
    n_reels, rows = window.shape[1], window.shape[3]
    inner = 1
    for r in range(1, n_reels):
        inner *= length[ps, r]
    for outer in prange(length[ps, 0]):
        stops = np.zeros(n_reels, dtype=np.int64)
        above = np.zeros(n_reels, dtype=np.int64)
        grid = np.zeros((n_reels, rows), dtype=np.int64)
        mark = np.zeros((n_reels, rows), dtype=np.bool_)
        sticky = np.zeros((n_reels, rows), dtype=np.bool_)
        cnt = np.zeros(scatter_pay.shape[0], dtype=np.int64)
        queue = np.zeros(n_reels * rows, dtype=np.int64)
        seen = np.zeros(2 * n_reels * rows, dtype=np.int64)  # see cluster_win
        fam = np.zeros((3, scr.family.max() + 1), dtype=np.int64)
        boards = np.zeros(scr.cl_member.shape[0], dtype=np.uint64)
        awards = np.zeros(scr.aw_off + scr.cl_entry.max() + 2, dtype=np.int64)
        s0, s1, s2, s3 = np.uint64(1), np.uint64(2), np.uint64(3), np.uint64(4)  # unused
        stamp = 0
        stops[0] = outer
        i = outer * inner
        while True:
            w = np.int64(1)
            for r in range(n_reels):
                w *= scr.weight[ps, r, stops[r]]
            for r in range(n_reels):
                for row in range(rows):
                    sticky[r, row] = (held_bits >> np.int64(r * rows + row)) & 1 == 1
            load_screen(ps, stops, window, length, grid, above)
            stick(grid, sticky, scr.sticky_sym)
            spin, sc, fs_top, bonus_top, n, stamp, s0, s1, s2, s3 = cascade_spin(
                ps,
                1,
                stops,
                window,
                length,
                reels.total_weight,
                reels.cumulative,
                game.paylines,
                game.entry_len,
                level,
                scr,
                scatter_pay,
                excl,
                game.fs_counted,
                game.bonus_counted,
                grid,
                mark,
                above,
                cnt,
                queue,
                seen,
                boards,
                fam,
                stamp,
                awards,
                0,
                s0,
                s1,
                s2,
                s3,
            )
            held = np.int64(0)
            for r in range(n_reels):
                for row in range(rows):
                    if sticky[r, row]:
                        held |= np.int64(1) << np.int64(r * rows + row)
            out_w[i] = w
            out_spin[i] = spin
            out_top[i, 0] = fs_top
            out_top[i, 1] = bonus_top
            out_held[i] = held
            i += 1
            r = n_reels - 1
            while r >= 1:
                stops[r] += 1
                if stops[r] < length[ps, r]:
                    break
                stops[r] = 0
                r -= 1
            if r < 1:
                break
