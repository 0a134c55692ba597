"""numba kernels of the exact calculator: weighted full-cycle enumeration.

The cycle is walked reel by reel (an odometer over reels 2..R-1 inside a
``prange`` over the stops of reel 1). Line states, counted-symbol totals and
the weight product are kept per depth, so a change of reel ``d`` only
recomputes depths ``d..R-1``; lines already settled are paid once and only
live lines are carried to the last reel.

Results are per (trigger count, bonus flag) bucket: total weight, weighted
sum of the spin's line + scatter win, of its square, and the weight of the
combinations that won, plus weighted counts per pay entry.
"""

from __future__ import annotations

import numpy as np

from certify._numba import jit, prange
from certify.engine._kernels import scatter_win, ways_win


@jit(inline="always")
def _prefix(d, stops, window, paylines, trans, live, counted, weight, ls, cnt, wt):
    """Fill depth ``d + 1`` of the per-depth prefix arrays from depth ``d``."""
    for line in range(paylines.shape[0]):
        st = ls[d, line]
        if live[st]:
            st = trans[st, window[d, stops[d], paylines[line, d]]]
        ls[d + 1, line] = st
    for c in range(counted.shape[0]):
        cnt[d + 1, c] = cnt[d, c] + counted[c, d, stops[d]]
    wt[d + 1] = wt[d] * weight[d, stops[d]]


@jit(inline="always")
def _bucket(cnt_last, fs_counted, bonus_counted, bonus_min):
    fsc = cnt_last[fs_counted] if fs_counted >= 0 else 0
    bf = 1 if (bonus_counted >= 0 and cnt_last[bonus_counted] >= bonus_min) else 0
    return fsc * 2 + bf


@jit(parallel=True)
def enumerate_lines(window, length, weight, counted, level, game, out_w, out_wb, out_wb2,
                    out_hit, out_aw):
    """Full cycle of a lines game; one output row per stop of reel 1."""
    trans, live, state_win, state_entry = level[0], level[1], level[2], level[3]
    scatter_pay = level[5]
    paylines, fs_counted, bonus_counted, bonus_min = game[0], game[5], game[11], game[12]
    n_reels = length.shape[0]
    n_lines = paylines.shape[0]
    last = n_reels - 1
    for outer in prange(length[0]):
        stops = np.zeros(n_reels, dtype=np.int64)
        ls = np.zeros((n_reels + 1, n_lines), dtype=np.int64)
        cnt = np.zeros((n_reels + 1, counted.shape[0]), dtype=np.int64)
        wt = np.ones(n_reels + 1, dtype=np.int64)
        cnt_last = np.zeros(counted.shape[0], dtype=np.int64)
        alive = np.zeros(n_lines, dtype=np.int64)
        w_last = 0
        for s in range(weight.shape[1]):
            w_last += weight[last, s]
        stops[0] = outer
        for d in range(last):
            _prefix(d, stops, window, paylines, trans, live, counted, weight, ls, cnt, wt)
        while True:
            settled, n_alive = 0, 0
            for line in range(n_lines):
                st = ls[last, line]
                if live[st]:
                    alive[n_alive] = line
                    n_alive += 1
                else:
                    settled += state_win[st]
                    if state_entry[st] >= 0:
                        out_aw[outer, state_entry[st]] += wt[last] * w_last
            _last_reel(outer, stops, window, paylines, trans, state_win, state_entry, counted,
                       weight, scatter_pay, ls, cnt, wt, alive, n_alive, settled, cnt_last,
                       fs_counted, bonus_counted, bonus_min, out_w, out_wb, out_wb2, out_hit,
                       out_aw)
            d = last - 1
            while d >= 1:
                stops[d] += 1
                if stops[d] < length[d]:
                    break
                stops[d] = 0
                d -= 1
            if d < 1:
                break
            for dd in range(d, last):
                _prefix(dd, stops, window, paylines, trans, live, counted, weight, ls, cnt, wt)


@jit(inline="always")
def _last_reel(outer, stops, window, paylines, trans, state_win, state_entry, counted, weight,
               scatter_pay, ls, cnt, wt, alive, n_alive, settled, cnt_last, fs_counted,
               bonus_counted, bonus_min, out_w, out_wb, out_wb2, out_hit, out_aw):
    last = stops.shape[0] - 1
    prefix_w = wt[last]
    for s in range(window.shape[1]):
        w = prefix_w * weight[last, s]
        if w == 0:
            continue
        win = settled
        for k in range(n_alive):
            line = alive[k]
            st = trans[ls[last, line], window[last, s, paylines[line, last]]]
            win += state_win[st]
            if state_entry[st] >= 0:
                out_aw[outer, state_entry[st]] += w
        for c in range(counted.shape[0]):
            cnt_last[c] = cnt[last, c] + counted[c, last, s]
        win += scatter_win(cnt_last, scatter_pay)
        b = _bucket(cnt_last, fs_counted, bonus_counted, bonus_min)
        out_w[outer, b] += w
        out_wb[outer, b] += w * win
        out_wb2[outer, b] += float(w) * float(win) * float(win)
        if win > 0:
            out_hit[outer, b] += w


@jit(parallel=True)
def enumerate_ways(window, length, weight, counted, level, game, out_w, out_wb, out_wb2,
                   out_hit, out_aw):
    """Full cycle of a ways game; one output row per stop of reel 1."""
    credits, scatter_pay = level[4], level[5]
    ways_match, entry_len, family = game[2], game[3], game[4]
    fs_counted, bonus_counted, bonus_min, n_families = game[5], game[11], game[12], game[14]
    n_reels = length.shape[0]
    for outer in prange(length[0]):
        stops = np.zeros(n_reels, dtype=np.int64)
        counts = np.zeros(counted.shape[0], dtype=np.int64)
        fam_len = np.zeros(n_families, dtype=np.int64)
        fam_win = np.zeros(n_families, dtype=np.int64)
        fam_entry = np.zeros(n_families, dtype=np.int64)
        awards = np.zeros(out_aw.shape[1], dtype=np.int64)
        stops[0] = outer
        while True:
            w = 1
            for r in range(n_reels):
                w *= weight[r, stops[r]]
            awards[:] = 0
            win = ways_win(stops, window, ways_match, entry_len, family, credits, fam_len,
                           fam_win, fam_entry, awards, True)
            for e in range(awards.shape[0]):
                out_aw[outer, e] += awards[e] * w
            for c in range(counted.shape[0]):
                n = 0
                for r in range(n_reels):
                    n += counted[c, r, stops[r]]
                counts[c] = n
            win += scatter_win(counts, scatter_pay)
            b = _bucket(counts, fs_counted, bonus_counted, bonus_min)
            out_w[outer, b] += w
            out_wb[outer, b] += w * win
            out_wb2[outer, b] += float(w) * float(win) * float(win)
            if win > 0:
                out_hit[outer, b] += w
            d = n_reels - 1
            while d >= 1:
                stops[d] += 1
                if stops[d] < length[d]:
                    break
                stops[d] = 0
                d -= 1
            if d < 1:
                break
