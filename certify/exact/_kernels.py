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
from certify.engine._kernels import scatter_packed, scatter_win, ways_win
from certify.engine._prefix import COMBO_COUNTS, count_field, finish_combo


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


@jit(inline="always")
def _add(outer, b, w, win, cap, out_w, out_wb, out_wb2, out_hit):
    """Add one (weight, win) outcome to bucket ``b`` of row ``outer`` (win capped at ``cap``)."""
    if cap > 0 and win > cap:
        win = cap
    out_w[outer, b] += w
    out_wb[outer, b] += w * win
    out_wb2[outer, b] += float(w) * float(win) * float(win)
    if win > 0:
        out_hit[outer, b] += w


@jit(inline="always")
def _accumulate(
    outer,
    w,
    win,
    counts,
    score,
    fs_counted,
    bonus_counted,
    bonus_min,
    out_w,
    out_wb,
    out_wb2,
    out_hit,
):
    """Add one (weight, win) outcome to its (trigger count, bonus flag) bucket."""
    b = _bucket(counts, fs_counted, bonus_counted, bonus_min)
    _add(outer, b, w, win, score.cap, out_w, out_wb, out_wb2, out_hit)


@jit(inline="always")
def _settled_leaf(
    outer,
    k,
    ls,
    cnt,
    wt,
    state_win,
    state_entry,
    score,
    tail_w,
    tail_cnt,
    tail_n,
    tail_total,
    cnt_last,
    fs_counted,
    bonus_counted,
    bonus_min,
    out_w,
    out_wb,
    out_wb2,
    out_hit,
    out_aw,
):
    """Close a prefix whose lines are all settled after ``k`` reels.

    The remaining reels matter only through the counted symbols they show, so
    sum over their count classes.
    """
    settled = 0
    for line in range(ls.shape[1]):
        st = ls[k, line]
        settled += state_win[st]
        if state_entry[st] >= 0:
            out_aw[outer, state_entry[st]] += wt[k] * tail_total[k]
    for m in range(tail_n[k]):
        for c in range(cnt_last.shape[0]):
            cnt_last[c] = cnt[k, c] + tail_cnt[k, m, c]
        win = settled + scatter_win(cnt_last, score.scatter_pay, score.excl)
        w = wt[k] * tail_w[k, m]
        _accumulate(
            outer,
            w,
            win,
            cnt_last,
            score,
            fs_counted,
            bonus_counted,
            bonus_min,
            out_w,
            out_wb,
            out_wb2,
            out_hit,
        )


@jit(inline="always")
def _count_alive(k, ls, live):
    n = 0
    for line in range(ls.shape[1]):
        if live[ls[k, line]]:
            n += 1
    return n


@jit(parallel=True)
def enumerate_lines(
    window,
    length,
    weight,
    counted,
    level,
    game,
    tails,
    start,
    score,
    out_w,
    out_wb,
    out_wb2,
    out_hit,
    out_aw,
):
    """Full cycle of a lines game; one output row per stop of reel 1.

    A depth-first walk over reels 2..R-1: a prefix whose lines are all settled
    is closed at once through the count classes of the remaining reels
    (``tails``); only prefixes with live lines descend, and the last reel is
    looped over only for them.
    """
    for outer in prange(length[0]):
        _walk_outer(
            outer,
            window,
            length,
            weight,
            counted,
            level,
            game,
            tails,
            start,
            score,
            out_w,
            out_wb,
            out_wb2,
            out_hit,
            out_aw,
        )


@jit
def _walk_outer(
    outer,
    window,
    length,
    weight,
    counted,
    level,
    game,
    tails,
    start,
    score,
    out_w,
    out_wb,
    out_wb2,
    out_hit,
    out_aw,
):
    """The depth-first walk under one stop of reel 1 (its own buffers, no sharing)."""
    trans, live, state_win, state_entry = (
        level.trans,
        level.live,
        level.state_win,
        level.state_entry,
    )
    paylines, fs_counted = game.paylines, game.fs_counted
    bonus_counted, bonus_min = game.bonus_counted, game.bonus_min
    tail_w, tail_cnt, tail_n, tail_total = tails
    n_reels = length.shape[0]
    n_lines = paylines.shape[0]
    last = n_reels - 1
    stops = np.zeros(n_reels, dtype=np.int64)
    ls = np.zeros((n_reels + 1, n_lines), dtype=np.int64)
    cnt = np.zeros((n_reels + 1, counted.shape[0]), dtype=np.int64)
    wt = np.ones(n_reels + 1, dtype=np.int64)
    cnt_last = np.zeros(counted.shape[0], dtype=np.int64)
    alive = np.zeros(n_lines, dtype=np.int64)
    ls[0, :] = start
    stops[0] = outer
    _prefix(0, stops, window, paylines, trans, live, counted, weight, ls, cnt, wt)
    k = 1
    while True:
        n_alive = _count_alive(k, ls, live)
        if n_alive > 0 and k < last:
            stops[k] = 0
            _prefix(k, stops, window, paylines, trans, live, counted, weight, ls, cnt, wt)
            k += 1
            continue
        if n_alive == 0:
            _settled_leaf(
                outer,
                k,
                ls,
                cnt,
                wt,
                state_win,
                state_entry,
                score,
                tail_w,
                tail_cnt,
                tail_n,
                tail_total,
                cnt_last,
                fs_counted,
                bonus_counted,
                bonus_min,
                out_w,
                out_wb,
                out_wb2,
                out_hit,
                out_aw,
            )
        else:
            _walk_last_reel(
                outer,
                stops,
                window,
                paylines,
                trans,
                live,
                state_win,
                state_entry,
                counted,
                weight,
                score,
                ls,
                cnt,
                wt,
                alive,
                cnt_last,
                fs_counted,
                bonus_counted,
                bonus_min,
                tail_total,
                out_w,
                out_wb,
                out_wb2,
                out_hit,
                out_aw,
            )
        done = True
        while k > 1:
            d = k - 1
            stops[d] += 1
            if stops[d] < length[d]:
                _prefix(d, stops, window, paylines, trans, live, counted, weight, ls, cnt, wt)
                done = False
                break
            k = d
        if done:
            break


@jit(inline="always")
def _walk_last_reel(
    outer,
    stops,
    window,
    paylines,
    trans,
    live,
    state_win,
    state_entry,
    counted,
    weight,
    score,
    ls,
    cnt,
    wt,
    alive,
    cnt_last,
    fs_counted,
    bonus_counted,
    bonus_min,
    tail_total,
    out_w,
    out_wb,
    out_wb2,
    out_hit,
    out_aw,
):
    """Lines still alive before the last reel: settle the dead ones, walk the rest."""
    last = stops.shape[0] - 1
    settled, n_alive = 0, 0
    for line in range(paylines.shape[0]):
        st = ls[last, line]
        if live[st]:
            alive[n_alive] = line
            n_alive += 1
        else:
            settled += state_win[st]
            if state_entry[st] >= 0:
                out_aw[outer, state_entry[st]] += wt[last] * tail_total[last]
    _last_reel(
        outer,
        stops,
        window,
        paylines,
        trans,
        state_win,
        state_entry,
        counted,
        weight,
        score,
        ls,
        cnt,
        wt,
        alive,
        n_alive,
        settled,
        cnt_last,
        fs_counted,
        bonus_counted,
        bonus_min,
        out_w,
        out_wb,
        out_wb2,
        out_hit,
        out_aw,
    )


@jit(inline="always")
def _last_reel(
    outer,
    stops,
    window,
    paylines,
    trans,
    state_win,
    state_entry,
    counted,
    weight,
    score,
    ls,
    cnt,
    wt,
    alive,
    n_alive,
    settled,
    cnt_last,
    fs_counted,
    bonus_counted,
    bonus_min,
    out_w,
    out_wb,
    out_wb2,
    out_hit,
    out_aw,
):
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
        win += scatter_win(cnt_last, score.scatter_pay, score.excl)
        _accumulate(
            outer,
            w,
            win,
            cnt_last,
            score,
            fs_counted,
            bonus_counted,
            bonus_min,
            out_w,
            out_wb,
            out_wb2,
            out_hit,
        )


@jit(parallel=True)
def enumerate_combos(
    active,
    combo_w,
    ps,
    combos,
    alive_line,
    alive_state,
    tail_w,
    tail_counts,
    tail_sym,
    step_pair,
    win1,
    entry1,
    score,
    fs_counted,
    bonus_counted,
    bonus_min,
    out_w,
    out_wb,
    out_wb2,
    out_hit,
    out_aw,
):
    """Full cycle of a lines game through its prefix combos (one output row per combo).

    Every prefix of the first reels with the same combo (settled wins, counted
    symbols, alive lines and their states) has the same future, so the cycle
    is the sum over combos (weight ``combo_w``) of the sum over the stop pairs
    of the last two reels (weight ``tail_w``), each line finished in one
    lookup of the two-reel automaton ``step_pair`` (the simulation's own
    :func:`~certify.engine._prefix.finish_combo`). ``out_aw[i, e + 1]``
    counts entry ``e`` (column 0: no entry); pay entries settled by the
    prefix are added by the caller (class entries x weight).
    """
    for i in prange(active.shape[0]):
        c = active[i]
        w_c = combo_w[c]
        base_counts = combos[c, COMBO_COUNTS]
        for j in range(tail_w.shape[0]):
            tw = tail_w[j]
            if tw == 0:
                continue
            w = w_c * tw
            packed = base_counts + tail_counts[ps, j]
            win = finish_combo(
                ps,
                c,
                j,
                combos,
                alive_line,
                alive_state,
                tail_sym,
                step_pair,
                win1,
                entry1,
                w,
                out_aw[i],
                0,
            )
            win += scatter_packed(packed, score.scatter_pay, score.excl)
            b = 0
            if fs_counted >= 0:
                b = 2 * count_field(packed, fs_counted)
            if bonus_counted >= 0 and count_field(packed, bonus_counted) >= bonus_min:
                b += 1
            _add(i, b, w, win, score.cap, out_w, out_wb, out_wb2, out_hit)


@jit(parallel=True)
def enumerate_ways(
    ways_sum,
    length,
    weight,
    counted,
    level,
    game,
    phase,
    score,
    out_w,
    out_wb,
    out_wb2,
    out_hit,
    out_aw,
):
    """Full cycle of a ways game; one output row per stop of reel 1.

    ``ways_sum``: see :func:`certify.engine.tables.ways_sums`; ``phase``: 0
    base game, 1 free spins (their own credits); ``score``: scatter pays and
    the win cap (:class:`~certify.engine.kernel_inputs.SpinScore`).
    """
    rank, credits = level.credits[0], level.credits[phase]
    entry_len, family = game.entry_len, game.family
    fs_counted, bonus_counted, bonus_min = game.fs_counted, game.bonus_counted, game.bonus_min
    n_families = game.n_families
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
            win = ways_win(
                stops,
                ways_sum,
                entry_len,
                family,
                rank,
                credits,
                fam_len,
                fam_win,
                fam_entry,
                awards,
                True,
            )
            for e in range(awards.shape[0]):
                out_aw[outer, e] += awards[e] * w
            for c in range(counted.shape[0]):
                n = 0
                for r in range(n_reels):
                    n += counted[c, r, stops[r]]
                counts[c] = n
            win += scatter_win(counts, score.scatter_pay, score.excl)
            _accumulate(
                outer,
                w,
                win,
                counts,
                score,
                fs_counted,
                bonus_counted,
                bonus_min,
                out_w,
                out_wb,
                out_wb2,
                out_hit,
            )
            d = n_reels - 1
            while d >= 1:
                stops[d] += 1
                if stops[d] < length[d]:
                    break
                stops[d] = 0
                d -= 1
            if d < 1:
                break


@jit
def capped_moments(adds, q, x1, x2, cap, start):
    """E[F], E[F^2], E[spins] of a feature capped at ``cap`` spins, from ``start`` spins.

    Backward recursion over (spins awarded A, spins played p): with the next
    state A' = min(cap, A + a) for each class a of spins added,
    V1(A, p) = sum_a x1[a] + q[a] V1(A', p + 1) and
    V2(A, p) = sum_a x2[a] + 2 x1[a] V1(A', p + 1) + q[a] V2(A', p + 1).
    """
    v1 = np.zeros((cap + 1, cap + 1))
    v2 = np.zeros((cap + 1, cap + 1))
    vn = np.zeros((cap + 1, cap + 1))
    for total in range(cap, 0, -1):
        for p in range(total - 1, -1, -1):
            s1, s2, sn = 0.0, 0.0, 0.0
            for i in range(adds.shape[0]):
                nxt = min(cap, total + adds[i])
                n1 = v1[nxt, p + 1]
                s1 += x1[i] + q[i] * n1
                s2 += x2[i] + 2.0 * x1[i] * n1 + q[i] * v2[nxt, p + 1]
                sn += q[i] * (1.0 + vn[nxt, p + 1])
            v1[total, p] = s1
            v2[total, p] = s2
            vn[total, p] = sn
    return v1[start, 0], v2[start, 0], vn[start, 0]
