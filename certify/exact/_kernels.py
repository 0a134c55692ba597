"""numba kernels of the exact calculator: weighted full-cycle enumeration.

The cycle is walked reel by reel (an odometer over reels 2..R-1 inside a
``prange`` over the stops of reel 1). Line states, counted-symbol totals and
the weight product are kept per depth, so a change of reel ``d`` only
recomputes depths ``d..R-1``; lines already settled are paid once and only
live lines are carried to the last reel.

Results are per (trigger count, bonus flag) bucket: total weight, weighted
sum of the spin's line + scatter win, of its square, and the weight of the
combinations that won, plus weighted counts per pay entry
(:class:`~certify.exact.kernel_records.BucketSums`). The kernels' records
are in :mod:`certify.exact.kernel_records`.
"""

from __future__ import annotations

import numpy as np

from certify._numba import jit, prange
from certify.engine._kernels import scatter_packed, scatter_win, ways_win
from certify.engine._prefix import COMBO_COUNTS, count_field, finish_combo
from certify.exact.kernel_records import WalkState


@jit(inline="always")
def _prefix(d, walk, reels, paylines, level):
    """Fill depth ``d + 1`` of the walk's per-depth arrays from depth ``d``."""
    stops, ls, cnt, wt = walk.stops, walk.ls, walk.cnt, walk.wt
    window, counted, weight = reels.window, reels.counted, reels.weight
    trans, live = level.trans, level.live
    for line in range(paylines.shape[0]):
        st = ls[d, line]
        if live[st]:
            st = trans[st, window[d, stops[d], paylines[line, d]]]
        ls[d + 1, line] = st
    for c in range(counted.shape[0]):
        cnt[d + 1, c] = cnt[d, c] + counted[c, d, stops[d]]
    wt[d + 1] = wt[d] * weight[d, stops[d]]


@jit(inline="always")
def _bucket(cnt_last, fs_counted, bonus_counted, bonus_min, jmax):
    """Bucket of an outcome: (free-spin trigger count, bonus part).

    The bonus part is 0 when not triggered, else 1 (a pick bonus, ``jmax`` =
    1) or the coins counted (hold and spin).
    """
    fsc = cnt_last[fs_counted] if fs_counted >= 0 else 0
    j = 0
    if bonus_counted >= 0 and cnt_last[bonus_counted] >= bonus_min:
        j = min(cnt_last[bonus_counted], jmax)
    return fsc * (jmax + 1) + j


@jit(inline="always")
def _add(outer, b, w, win, cap, out_w, out_wb, out_wb2, out_hit):
    """Add one (weight, win) outcome to bucket ``b`` of row ``outer`` (win capped at ``cap``).

    The accumulators come as arrays, not as a record: numba drops writes
    through a record's fields in a ``prange`` body, inlined helpers included
    (numba issue 7135), so the parallel kernels unpack them before the loop.
    """
    if cap > 0 and win > cap:
        win = cap
    out_w[outer, b] += w
    out_wb[outer, b] += w * win
    out_wb2[outer, b] += float(w) * float(win) * float(win)
    if win > 0:
        out_hit[outer, b] += w


@jit(inline="always")
def _accumulate(outer, w, win, counts, score, rule, out_w, out_wb, out_wb2, out_hit):
    """Add one (weight, win) outcome to its (trigger count, bonus flag) bucket.

    ``rule``: any record with the fields of
    :class:`~certify.exact.kernel_records.BucketRule` (the game's inputs have them);
    the accumulators as arrays (see :func:`_add`).
    """
    b = _bucket(counts, rule.fs_counted, rule.bonus_counted, rule.bonus_min, score.bonus_jmax)
    _add(outer, b, w, win, score.cap, out_w, out_wb, out_wb2, out_hit)


@jit(inline="always")
def _settled_leaf(outer, k, walk, level, score, tails, game, out):
    """Close a prefix whose lines are all settled after ``k`` reels.

    The remaining reels matter only through the counted symbols they show, so
    sum over their count classes.
    """
    ls, cnt, wt, cnt_last = walk.ls, walk.cnt, walk.wt, walk.cnt_last
    state_win, state_entry = level.state_win, level.state_entry
    settled = 0
    for line in range(ls.shape[1]):
        st = ls[k, line]
        settled += state_win[st]
        if state_entry[st] >= 0:
            out.aw[outer, state_entry[st]] += wt[k] * tails.total[k]
    for m in range(tails.n[k]):
        for c in range(cnt_last.shape[0]):
            cnt_last[c] = cnt[k, c] + tails.cnt[k, m, c]
        win = settled + scatter_win(cnt_last, score.scatter_pay, score.excl)
        w = wt[k] * tails.w[k, m]
        _accumulate(outer, w, win, cnt_last, score, game, out.w, out.wb, out.wb2, out.hit)


@jit(inline="always")
def _count_alive(k, ls, live):
    n = 0
    for line in range(ls.shape[1]):
        if live[ls[k, line]]:
            n += 1
    return n


@jit(parallel=True)
def enumerate_lines(reels, level, game, tails, start, score, out):
    """Full cycle of a lines game; one output row per stop of reel 1.

    A depth-first walk over reels 2..R-1: a prefix whose lines are all settled
    is closed at once through the count classes of the remaining reels
    (``tails``); only prefixes with live lines descend, and the last reel is
    looped over only for them.

    Parameters
    ----------
    reels : LineReels
        The reel set walked.
    level, game : LevelInputs, GameInputs
        The line automaton; the paylines and the bucket rule.
    tails : TailClasses
        Count classes of the reels after each depth.
    start : int
        The automaton's start state.
    score : SpinScore
        Scatter pays, the win cap, the bonus part's range.
    out : BucketSums
        Accumulators, one row per stop of reel 1.

    """
    for outer in prange(reels.length[0]):
        _walk_outer(outer, reels, level, game, tails, start, score, out)


@jit
def _walk_outer(outer, reels, level, game, tails, start, score, out):
    """The depth-first walk under one stop of reel 1 (its own buffers, no sharing).

    Not inlined into the ``prange`` of :func:`enumerate_lines`: it writes
    through ``out``'s fields, which numba honours in a called function but
    drops in a ``prange`` body (see :func:`_add`).
    """
    length, counted, paylines, live = reels.length, reels.counted, game.paylines, level.live
    n_reels = length.shape[0]
    n_lines = paylines.shape[0]
    last = n_reels - 1
    walk = WalkState(
        np.zeros(n_reels, dtype=np.int64),
        np.zeros((n_reels + 1, n_lines), dtype=np.int64),
        np.zeros((n_reels + 1, counted.shape[0]), dtype=np.int64),
        np.ones(n_reels + 1, dtype=np.int64),
        np.zeros(n_lines, dtype=np.int64),
        np.zeros(counted.shape[0], dtype=np.int64),
    )
    stops, ls = walk.stops, walk.ls
    ls[0, :] = start
    stops[0] = outer
    _prefix(0, walk, reels, paylines, level)
    k = 1
    while True:
        n_alive = _count_alive(k, ls, live)
        if n_alive > 0 and k < last:
            stops[k] = 0
            _prefix(k, walk, reels, paylines, level)
            k += 1
            continue
        if n_alive == 0:
            _settled_leaf(outer, k, walk, level, score, tails, game, out)
        else:
            _walk_last_reel(outer, walk, reels, level, game, tails, score, out)
        done = True
        while k > 1:
            d = k - 1
            stops[d] += 1
            if stops[d] < length[d]:
                _prefix(d, walk, reels, paylines, level)
                done = False
                break
            k = d
        if done:
            break


@jit(inline="always")
def _walk_last_reel(outer, walk, reels, level, game, tails, score, out):
    """Lines still alive before the last reel: settle the dead ones, walk the rest."""
    ls, wt, alive = walk.ls, walk.wt, walk.alive
    live, state_win, state_entry = level.live, level.state_win, level.state_entry
    last = walk.stops.shape[0] - 1
    settled, n_alive = 0, 0
    for line in range(game.paylines.shape[0]):
        st = ls[last, line]
        if live[st]:
            alive[n_alive] = line
            n_alive += 1
        else:
            settled += state_win[st]
            if state_entry[st] >= 0:
                out.aw[outer, state_entry[st]] += wt[last] * tails.total[last]
    _last_reel(outer, walk, reels, level, game, score, n_alive, settled, out)


@jit(inline="always")
def _last_reel(outer, walk, reels, level, game, score, n_alive, settled, out):
    """Each stop of the last reel: ``n_alive`` lines finished, ``settled`` credits besides."""
    stops, ls, cnt, wt = walk.stops, walk.ls, walk.cnt, walk.wt
    alive, cnt_last = walk.alive, walk.cnt_last
    window, weight, counted = reels.window, reels.weight, reels.counted
    trans, state_win, state_entry = level.trans, level.state_win, level.state_entry
    paylines, out_aw = game.paylines, out.aw
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
        _accumulate(outer, w, win, cnt_last, score, game, out.w, out.wb, out.wb2, out.hit)


@jit(parallel=True)
def enumerate_combos(walk, prefix, finishing, score, rule, out):
    """Full cycle of a lines game through its prefix combos (one output row per combo).

    Every prefix of the first reels with the same combo (settled wins, counted
    symbols, alive lines and their states) has the same future, so the cycle
    is the sum over combos (weight ``walk.combo_w``) of the sum over the stop
    pairs of the last two reels (weight ``walk.tail_w``), each line finished in
    one lookup of the two-reel automaton ``finishing.pair`` (the simulation's
    own :func:`~certify.engine._prefix.finish_combo`). ``out.aw[i, e + 1]``
    counts entry ``e`` (column 0: no entry); pay entries settled by the
    prefix are added by the caller (class entries x weight).

    Parameters
    ----------
    walk : ComboWalk
        The reel set, its combos of non-zero weight and the stop pairs' weights.
    prefix : PrefixInputs
        The prefix tables of the bet level.
    finishing : Finishing
        The line automaton as lines are finished.
    score : SpinScore
        Scatter pays, the win cap, the bonus part's range.
    rule : BucketRule
        Which counted symbols decide the bucket.
    out : BucketSums
        Accumulators, one row per active combo.

    """
    ps, active, combo_w, tail_w = walk.ps, walk.active, walk.combo_w, walk.tail_w
    combos, tail_counts = prefix.combos, prefix.tail_counts
    out_w, out_wb, out_wb2, out_hit, out_aw = out  # not written through the record (see _add)
    fs_counted, bonus_counted, bonus_min = rule.fs_counted, rule.bonus_counted, rule.bonus_min
    width = score.count_width
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
                prefix.combos,
                prefix.alive_line,
                prefix.alive_state,
                prefix.tail_sym,
                finishing.pair,
                finishing.win1,
                finishing.entry1,
                w,
                out_aw[i],
                0,
            )
            win += scatter_packed(packed, score.scatter_pay, score.excl, width)
            b = 0
            jmax = score.bonus_jmax
            if fs_counted >= 0:
                b = (jmax + 1) * count_field(packed, fs_counted, width)
            if bonus_counted >= 0 and count_field(packed, bonus_counted, width) >= bonus_min:
                b += min(count_field(packed, bonus_counted, width), jmax)
            _add(i, b, w, win, score.cap, out_w, out_wb, out_wb2, out_hit)


@jit(parallel=True)
def enumerate_ways(reels, level, game, phase, score, out):
    """Full cycle of a ways game; one output row per stop of reel 1.

    Parameters
    ----------
    reels : WaysReels
        The reel set walked (``ways_sum``: see :func:`certify.engine.tables.ways_sums`).
    level, game : LevelInputs, GameInputs
        The credits; the entries, their families and the bucket rule.
    phase : int
        0 base game, 1 free spins (their own credits).
    score : SpinScore
        Scatter pays, the win cap, the bonus part's range.
    out : BucketSums
        Accumulators, one row per stop of reel 1.

    """
    ways_sum, length, weight, counted = reels.ways_sum, reels.length, reels.weight, reels.counted
    rank, credits = level.credits[0], level.credits[phase]
    entry_len, family = game.entry_len, game.family
    n_families = game.n_families
    out_w, out_wb, out_wb2, out_hit, out_aw = out  # not written through the record (see _add)
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
            _accumulate(outer, w, win, counts, score, game, out_w, out_wb, out_wb2, out_hit)
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

    Every V(., p) needs only V(., p + 1): one sweep over p = cap - 1 .. 0 keeps
    two rows (O(cap) memory instead of O(cap^2); each value is the same sum,
    so the figures are bit-identical). Time stays O(cap^2 x classes): the
    caller bounds it (:func:`certify.engine.limits.capped_feasible`).
    Entries A <= p (nothing left to play) are never written and stay 0.
    """
    p1, p2, pn = np.zeros(cap + 1), np.zeros(cap + 1), np.zeros(cap + 1)
    c1, c2, cn = np.zeros(cap + 1), np.zeros(cap + 1), np.zeros(cap + 1)
    for p in range(cap - 1, -1, -1):
        for total in range(cap, p, -1):
            s1, s2, sn = 0.0, 0.0, 0.0
            for i in range(adds.shape[0]):
                nxt = min(cap, total + adds[i])
                n1 = p1[nxt]
                s1 += x1[i] + q[i] * n1
                s2 += x2[i] + 2.0 * x1[i] * n1 + q[i] * p2[nxt]
                sn += q[i] * (1.0 + pn[nxt])
            c1[total] = s1
            c2[total] = s2
            cn[total] = sn
        p1, c1 = c1, p1
        p2, c2 = c2, p2
        pn, cn = cn, pn
    return p1[start], p2[start], pn[start]
