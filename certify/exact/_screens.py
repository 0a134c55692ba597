"""numba kernels of the exact calculator for screen games: the full cycle, screen by screen.

With ``refill = "strip"`` every stop combination fixes every screen of its
sequence, so the cycle is walked combination by combination (an odometer
over reels 2..R inside a ``prange`` over the stops of reel 1) and each plays
its whole sequence through the simulation's own
:func:`certify.engine._screens.cascade_spin` (no random number is drawn).
Outputs are per (trigger count, bonus flag) bucket like
:mod:`certify.exact._kernels`: weight, weighted win, weighted win squared,
weight of the winning combinations; plus weighted award counts, weighted
scatter credits and the longest sequence, one row per stop of reel 1.

Line games share the first screen between the starts
(:func:`enumerate_line_screens`): the paylines' automaton states, the weight
and the counted symbols of a prefix of reels are computed once for every
combination that extends it, so a start whose first screen pays nothing (most
of them) costs a step of its last reel's column; only a start that pays plays
its sequence. Each start is visited in the same order as the plain odometer
and adds the same terms, so the sums are the same to the bit.
"""

from __future__ import annotations

import numpy as np

from certify._numba import jit, prange
from certify.engine._screens import cascade_spin, load_screen, stick


@jit(parallel=True)
def enumerate_screen_cycle(play, reels, level, game, scr, cap, sums):
    """Every stop combination of reel set ``play.ps`` (phase 0 base, 1 free spins) into ``sums``.

    The bucket of a combination is (jmax + 1) x its largest free-spin trigger
    count + its bonus part (0, or its largest bonus count capped at
    ``game.bonus_jmax``: 1 for a pick bonus) as in :mod:`certify.exact._kernels`;
    its win is the sequence's credits (screen multipliers included, capped at
    ``cap`` when > 0).
    """
    out_w, out_wb, out_wb2, out_hit = sums.w, sums.wb, sums.wb2, sums.hit
    out_aw, out_sc, out_long = sums.aw, sums.sc, sums.longest
    ps, phase, scatter_pay, excl = play.ps, play.phase, play.scatter_pay, play.excl
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


@jit(inline="always")
def extend_prefix(ps, r, stop, window, scr, col_cnt, level, front, front_n, paid, wpre, cpre):
    """The first screen's prefix of reels ``0..r`` from that of ``0..r-1``, reel ``r`` at ``stop``.

    ``front[r]``: the payline-tree nodes (``scr.trie_*``) still alive after
    ``r`` reels, as (node, automaton state) rows, ``front_n[r]`` of them;
    ``paid[r]``: some line of the prefix has settled on a paying entry (every
    extension then pays: its sequence is played in full); ``wpre[r]``: the
    prefix's weight; ``cpre[r]``: its counted symbols.
    """
    wpre[r + 1] = wpre[r] * scr.weight[ps, r, stop]
    for c in range(cpre.shape[1]):
        cpre[r + 1, c] = cpre[r, c] + col_cnt[ps, r, stop, c]
    n = 0
    p = paid[r]
    if not p:
        for i in range(front_n[r]):
            node, st0 = front[r, i, 0], front[r, i, 1]
            for child in range(scr.trie_lo[node], scr.trie_hi[node]):
                st = level.trans[st0, window[ps, r, stop, scr.trie_row[child]]]
                if level.live[st]:
                    front[r + 1, n, 0] = child
                    front[r + 1, n, 1] = st
                    n += 1
                elif level.state_entry[st] >= 0:
                    p = True
                    break
            if p:
                break
    paid[r + 1] = p
    front_n[r + 1] = 0 if p else n


@jit(inline="always")
def first_screen_pays(
    ps, stop, window, scr, col_cnt, level, scatter_pay, front, front_n, paid, cpre, cnt
):
    """Whether the first screen pays, the last reel at ``stop`` (its counted symbols into ``cnt``).

    ``front``, ``front_n``, ``paid``, ``cpre``: the prefixes of :func:`extend_prefix`.
    ``cnt`` is complete only when nothing paid on a line.
    """
    last = window.shape[1] - 1
    p = paid[last]
    if not p:
        for i in range(front_n[last]):
            node, st0 = front[last, i, 0], front[last, i, 1]
            for child in range(scr.trie_lo[node], scr.trie_hi[node]):
                st = level.trans[st0, window[ps, last, stop, scr.trie_row[child]]]
                if level.state_entry[st] >= 0:
                    p = True
                    break
            if p:
                break
    if not p:
        for c in range(cnt.shape[0]):
            cnt[c] = cpre[last, c] + col_cnt[ps, last, stop, c]
            if scatter_pay[c, cnt[c]] > 0:
                p = True
    return p


@jit(parallel=True)
def enumerate_line_screens(play, reels, level, game, scr, col_cnt, cap, sums):
    """:func:`enumerate_screen_cycle` of a line game, the first screen shared by prefixes.

    The odometer keeps, per depth, the prefix of the first screen
    (:func:`extend_prefix`) and rebuilds only the depths whose reels moved;
    the last reel's stops are finished against the prefix
    (:func:`first_screen_pays`). A start whose first screen pays nothing
    shows one screen, wins nothing and counts its trigger symbols from the
    prefix; the others play their sequence as :func:`enumerate_screen_cycle`
    does. ``col_cnt[ps, reel, stop, c]``: counted symbol ``c`` in that
    column of the first screen. Same outputs, the same to the bit.
    """
    out_w, out_wb, out_wb2, out_hit = sums.w, sums.wb, sums.wb2, sums.hit
    out_aw, out_sc, out_long = sums.aw, sums.sc, sums.longest
    ps, phase, scatter_pay, excl = play.ps, play.phase, play.scatter_pay, play.excl
    window, length = reels.window, reels.length
    n_reels, rows = window.shape[1], window.shape[3]
    fs_counted, bonus_counted, bonus_min = game.fs_counted, game.bonus_counted, game.bonus_min
    jmax = game.bonus_jmax
    last = n_reels - 1
    n_nodes = scr.trie_lo.shape[0]
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
        front = np.zeros((n_reels + 1, n_nodes, 2), dtype=np.int64)
        front_n = np.zeros(n_reels + 1, dtype=np.int64)
        paid = np.zeros(n_reels + 1, dtype=np.bool_)
        wpre = np.ones(n_reels + 1, dtype=np.int64)
        cpre = np.zeros((n_reels + 1, scatter_pay.shape[0]), dtype=np.int64)
        awards = out_aw[outer]
        stamp = 0
        s0, s1, s2, s3 = np.uint64(1), np.uint64(2), np.uint64(3), np.uint64(4)  # unused
        stops[0] = outer
        front[0, 0, 1] = scr.start[phase]
        front_n[0] = 1
        longest = 0
        moved = 0
        while True:
            for r in range(moved, last):
                extend_prefix(
                    ps, r, stops[r], window, scr, col_cnt, level, front, front_n, paid, wpre, cpre
                )
            for s in range(length[ps, last]):
                stops[last] = s
                w = wpre[last] * scr.weight[ps, last, s]
                if first_screen_pays(
                    ps, s, window, scr, col_cnt, level, scatter_pay, front, front_n, paid, cpre, cnt
                ):
                    load_screen(ps, stops, window, length, grid, above)
                    spin, sc, fs_top, bonus_top, n, stamp, s0, s1, s2, s3 = cascade_spin(
                        ps,
                        phase,
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
                else:  # one screen that pays nothing: its counts are the prefix's
                    spin, sc, n = 0, 0, 1
                    fs_top = cnt[fs_counted] if fs_counted >= 0 else 0
                    bonus_top = cnt[bonus_counted] if bonus_counted >= 0 else 0
                j = 0
                if bonus_counted >= 0 and bonus_top >= bonus_min:
                    j = min(bonus_top, jmax)
                b = fs_top * (jmax + 1) + j
                if cap > 0 and spin > cap:
                    spin = cap
                out_w[outer, b] += w
                if spin != 0:  # adding nothing leaves every sum as it is
                    out_wb[outer, b] += w * spin
                    out_wb2[outer, b] += float(w) * float(spin) * float(spin)
                    out_hit[outer, b] += w
                    out_sc[outer] += w * sc
                longest = max(longest, n)
            r = last - 1
            while r >= 1:
                stops[r] += 1
                if stops[r] < length[ps, r]:
                    break
                stops[r] = 0
                r -= 1
            if r < 1:
                break
            moved = r
        out_long[outer] = longest


GRID_BLOCK = 256
"""Grids one task of :func:`evaluate_grids` plays (its scratch is allocated once a block)."""


@jit(parallel=True)
def evaluate_grids(play, reels, level, game, scr, grids, out, marks, awards):
    """One screen of each grid ``grids[i]`` (reel, row), played as :func:`cascade_spin` plays it.

    The step of the random-refill chain (:mod:`certify.exact.refill`): ``scr``
    plays one screen (``max_screens`` 1, multiplier 1, no length prize), so
    nothing is refilled. ``out[i]`` = (credits: lines, ways or clusters x the
    full window, plus scatters; scatter credits; free-spin trigger count; bonus
    trigger count); ``marks[i]`` the cells that vanish (none: the sequence
    ends); ``awards[i]`` the award keys, then cluster entries, it pays once each.
    """
    ps, phase, scatter_pay, excl = play.ps, play.phase, play.scatter_pay, play.excl
    window, length = reels.window, reels.length
    n_reels, rows = grids.shape[1], grids.shape[2]
    n = grids.shape[0]
    for block in prange((n + GRID_BLOCK - 1) // GRID_BLOCK):
        stops = np.zeros(n_reels, dtype=np.int64)  # unused: one screen loads no stop
        above = np.zeros(n_reels, dtype=np.int64)
        grid = np.zeros((n_reels, rows), dtype=np.int64)
        cnt = np.zeros(scatter_pay.shape[0], dtype=np.int64)
        queue = np.zeros(n_reels * rows, dtype=np.int64)
        seen = np.zeros(2 * n_reels * rows, dtype=np.int64)  # see cluster_win
        fam = np.zeros((3, scr.family.max() + 1), dtype=np.int64)
        boards = np.zeros(scr.cl_member.shape[0], dtype=np.uint64)
        stamp = 0
        s0, s1, s2, s3 = np.uint64(1), np.uint64(2), np.uint64(3), np.uint64(4)  # unused
        for i in range(block * GRID_BLOCK, min(n, (block + 1) * GRID_BLOCK)):
            grid[:, :] = grids[i]
            spin, sc, fs_top, bonus_top, _, stamp, s0, s1, s2, s3 = cascade_spin(
                ps,
                phase,
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
                marks[i],
                above,
                cnt,
                queue,
                seen,
                boards,
                fam,
                stamp,
                awards[i],
                1,
                s0,
                s1,
                s2,
                s3,
            )
            out[i, 0] = spin
            out[i, 1] = sc
            out[i, 2] = fs_top
            out[i, 3] = bonus_top
