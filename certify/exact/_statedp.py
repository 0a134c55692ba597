"""numba kernels of the state-merging exact calculation (see :mod:`certify.exact.statedp`).

A *state table* holds, after the first reels, every distinct state of what
still matters for the rest of the spin (a row of int64 ``keys``) with four
sums over the stop combinations that reach it: weight ``w``, weight x
settled credits ``s1``, weight x settled credits squared ``s2`` (float) and
the weight whose settled credits are non-zero ``h``. A step over one reel
maps every (state, stop) to its next state and merges equal ones in an
open-addressing hash table, so the work grows with the states, not with the
stop combinations. The last reel is finished straight into the (trigger
count, bonus part) buckets of :mod:`certify.exact._kernels`.

Lines keys: the automaton state of each line (-1 once settled), the counted
symbols, and (win cap only) the settled credits. Ways keys: the running ways
of each entry not yet finished (0: dead or finished), per family the entry
it pays so far (-1 none) and its ways, the counted symbols, and (win cap
only) the settled credits.
"""

from __future__ import annotations

import numpy as np

from certify._numba import jit, prange
from certify.engine._kernels import scatter_win
from certify.exact._kernels import _add, _bucket

_FNV = np.int64(1099511628211)
_SEED = np.int64(-3750763034362895579)


@jit(inline="always")
def _hash_row(row):
    h = _SEED
    for i in range(row.shape[0]):
        h = (h ^ row[i]) * _FNV
    return h ^ (h >> 29)


@jit(inline="always")
def _find(slots, keys, row):
    """Index of ``row`` in ``keys``, else ``-1 - slot`` of the free slot it would take."""
    mask = slots.shape[0] - 1
    i = _hash_row(row) & mask
    k = row.shape[0]
    while True:
        s = slots[i]
        if s < 0:
            return -1 - i
        same = True
        for c in range(k):
            if keys[s, c] != row[c]:
                same = False
                break
        if same:
            return s
        i = (i + 1) & mask


@jit
def _rehash(keys, n, size):
    """Slots of a table of ``size`` (a power of two) holding rows ``0..n-1`` of ``keys``."""
    slots = np.full(size, -1, dtype=np.int64)
    for s in range(n):
        slots[-1 - _find(slots, keys, keys[s])] = s
    return slots


@jit
def _grown(keys, w, s1, s2, h):
    """The table's arrays with twice the rows (the first rows copied)."""
    rows = keys.shape[0] * 2
    k2 = np.zeros((rows, keys.shape[1]), dtype=np.int64)
    w2 = np.zeros(rows, dtype=np.int64)
    a2 = np.zeros(rows, dtype=np.int64)
    b2 = np.zeros(rows, dtype=np.float64)
    h2 = np.zeros(rows, dtype=np.int64)
    n = keys.shape[0]
    k2[:n] = keys
    w2[:n] = w
    a2[:n] = s1
    b2[:n] = s2
    h2[:n] = h
    return k2, w2, a2, b2, h2


@jit(inline="always")
def _pow2(n):
    size = 16
    while size < n:
        size *= 2
    return size


@jit
def _merge(keys, w, s1, s2, h, n, slots, row, cw, cs1, cs2, ch):
    """Add (cw, cs1, cs2, ch) to state ``row``: returns the (possibly grown) table."""
    pos = _find(slots, keys, row)
    if pos >= 0:
        w[pos] += cw
        s1[pos] += cs1
        s2[pos] += cs2
        h[pos] += ch
        return keys, w, s1, s2, h, n, slots
    if n == keys.shape[0]:
        keys, w, s1, s2, h = _grown(keys, w, s1, s2, h)
    keys[n] = row
    w[n] = cw
    s1[n] = cs1
    s2[n] = cs2
    h[n] = ch
    slots[-1 - pos] = n
    n += 1
    if 2 * n > slots.shape[0]:
        slots = _rehash(keys, n, slots.shape[0] * 2)
    return keys, w, s1, s2, h, n, slots


@jit
def lines_step(
    keys, w, s1, s2, h, n, r, reel, automaton, paylines, rest, aw, cap_on, max_work, max_words
):
    """The state table after reel ``r`` of a lines game, from the table before it.

    ``reel`` = (window, weight, length, counted) of the reel set;
    ``automaton`` = (trans, live, state_win, state_entry); ``rest`` = total
    weight of the reels after ``r``: a line settled here pays its award key
    in ``aw`` for every combination of them. Returns the new table
    (keys, w, s1, s2, h, n) and the transitions done; n is -1 when they
    would exceed ``max_work`` or the keys ``max_words`` int64 words.
    """
    window, weight, length, counted = reel
    trans, live, state_win, state_entry = automaton
    n_lines, k = paylines.shape[0], keys.shape[1]
    size = _pow2(max(n, 8) * 4)
    nk = np.zeros((size // 2, k), dtype=np.int64)
    nw = np.zeros(size // 2, dtype=np.int64)
    na = np.zeros(size // 2, dtype=np.int64)
    nb = np.zeros(size // 2, dtype=np.float64)
    nh = np.zeros(size // 2, dtype=np.int64)
    slots = np.full(size, -1, dtype=np.int64)
    m = 0
    row = np.zeros(k, dtype=np.int64)
    alive = np.zeros(n_lines, dtype=np.int64)
    work = 0
    for i in range(n):
        if work + length[r] > max_work or m * k > max_words:
            return nk, nw, na, nb, nh, -1, work + length[r]
        n_alive = 0
        for line in range(n_lines):
            if keys[i, line] >= 0:
                alive[n_alive] = line
                n_alive += 1
        wi, s1i, s2i, hi = w[i], s1[i], s2[i], h[i]
        for stop in range(length[r]):
            wl = weight[r, stop]
            if wl == 0:
                continue
            work += 1
            row[:] = keys[i]
            a = 0
            for j in range(n_alive):
                line = alive[j]
                st = trans[keys[i, line], window[r, stop, paylines[line, r]]]
                if live[st]:
                    row[line] = st
                else:
                    row[line] = -1
                    a += state_win[st]
                    if state_entry[st] >= 0:
                        aw[state_entry[st]] += wi * wl * rest
            for c in range(counted.shape[0]):
                row[n_lines + c] += counted[c, r, stop]
            if cap_on:
                row[k - 1] += a
            cs2 = (s2i + 2.0 * a * float(s1i) + float(a) * float(a) * float(wi)) * float(wl)
            ch = wi * wl if a > 0 else hi * wl
            nk, nw, na, nb, nh, m, slots = _merge(
                nk, nw, na, nb, nh, m, slots, row, wi * wl, (s1i + a * wi) * wl, cs2, ch
            )
    return nk, nw, na, nb, nh, m, work


@jit(inline="always")
def _close(i, b, wl, f, keys, w, s1, s2, h, cap, cap_on, out_w, out_wb, out_wb2, out_hit, row):
    """Add state ``i`` x a last stop of weight ``wl`` whose own credits are ``f`` to bucket b."""
    wi = w[i]
    if cap_on:
        _add(row, b, wi * wl, keys[i, keys.shape[1] - 1] + f, cap, out_w, out_wb, out_wb2, out_hit)
        return
    out_w[row, b] += wi * wl
    out_wb[row, b] += (s1[i] + f * wi) * wl
    out_wb2[row, b] += (s2[i] + 2.0 * f * float(s1[i]) + float(f) * float(f) * float(wi)) * float(
        wl
    )
    if f > 0:
        out_hit[row, b] += wi * wl
    else:
        out_hit[row, b] += h[i] * wl


@jit(parallel=True)
def lines_finish(keys, w, s1, s2, h, n, r, reel, automaton, paylines, score, game, cap_on, out):
    """Finish every state over the last reel ``r`` into the buckets (one output row per chunk).

    ``game`` = (fs_counted, bonus_counted, bonus_min); ``out`` = (w, wb, wb2,
    hit, awards) with ``rows`` rows: state ``i`` goes to row ``i % rows``.
    """
    window, weight, length, counted = reel
    trans, state_win, state_entry = automaton[0], automaton[2], automaton[3]
    fs_counted, bonus_counted, bonus_min = game
    out_w, out_wb, out_wb2, out_hit, out_aw = out
    rows = out_w.shape[0]
    n_lines = paylines.shape[0]
    n_counted = counted.shape[0]
    for row in prange(rows):
        cnt = np.zeros(n_counted, dtype=np.int64)
        for i in range(row, n, rows):
            wi = w[i]
            for stop in range(length[r]):
                wl = weight[r, stop]
                if wl == 0:
                    continue
                f = 0
                for line in range(n_lines):
                    st = keys[i, line]
                    if st >= 0:
                        st = trans[st, window[r, stop, paylines[line, r]]]
                        f += state_win[st]
                        if state_entry[st] >= 0:
                            out_aw[row, state_entry[st]] += wi * wl
                for c in range(n_counted):
                    cnt[c] = keys[i, n_lines + c] + counted[c, r, stop]
                f += scatter_win(cnt, score.scatter_pay, score.excl)
                b = _bucket(cnt, fs_counted, bonus_counted, bonus_min, score.bonus_jmax)
                _close(
                    i, b, wl, f, keys, w, s1, s2, h, score.cap, cap_on,
                    out_w, out_wb, out_wb2, out_hit, row,
                )  # fmt: skip


@jit(inline="always")
def _ways_reel(row, r, stop, ways_sum, entry_len, family, fam_entries, rank, credits):
    """Step the ways part of ``row`` over reel ``r``: returns the credits settled.

    Entry ``e`` finishing on this reel with ways > 0 becomes its family's
    candidate when longer than the family's, or as long and paying more
    (``rank`` x ways; ties keep the earlier entry): the full cycle's rule.
    A family with a candidate and no longer entry still alive is settled:
    its credits returned, its entry marked ``-2 - e`` in its slot for the
    caller to count (then cleared).
    """
    n_entries, n_families = entry_len.shape[0], fam_entries.shape[0]
    for e in range(n_entries):
        if entry_len[e] <= r:
            continue
        p = row[e] * ways_sum[r, stop, e]
        if entry_len[e] > r + 1:
            row[e] = p
            continue
        row[e] = 0
        if p == 0:
            continue
        f = family[e]
        cur = row[n_entries + f]
        better = cur < 0 or entry_len[cur] < r + 1
        if not better:
            better = rank[e] * p > rank[cur] * row[n_entries + n_families + f]
        if better:
            row[n_entries + f] = e
            row[n_entries + n_families + f] = p
    settled = 0
    for f in range(n_families):
        cur = row[n_entries + f]
        if cur < 0:
            continue
        open_ = False
        for j in range(fam_entries.shape[1]):
            e = fam_entries[f, j]
            if e >= 0 and entry_len[e] > r + 1 and row[e] > 0:
                open_ = True
        if not open_:
            settled += credits[cur] * row[n_entries + n_families + f]
            row[n_entries + f] = -2 - cur
            row[n_entries + n_families + f] = 0
    return settled


@jit
def ways_step(keys, w, s1, s2, h, n, r, reel, ways, rest, aw, cap_on, max_work, max_words):
    """The state table after reel ``r`` of a ways game (see :func:`lines_step`).

    ``reel`` = (ways_sum, weight, length, counted); ``ways`` = (entry_len,
    family, fam_entries, rank, credits).
    """
    ways_sum, weight, length, counted = reel
    entry_len, family, fam_entries, rank, credits = ways
    n_entries, n_families, k = entry_len.shape[0], fam_entries.shape[0], keys.shape[1]
    base_c = n_entries + 2 * n_families
    size = _pow2(max(n, 8) * 4)
    nk = np.zeros((size // 2, k), dtype=np.int64)
    nw = np.zeros(size // 2, dtype=np.int64)
    na = np.zeros(size // 2, dtype=np.int64)
    nb = np.zeros(size // 2, dtype=np.float64)
    nh = np.zeros(size // 2, dtype=np.int64)
    slots = np.full(size, -1, dtype=np.int64)
    m = 0
    row = np.zeros(k, dtype=np.int64)
    work = 0
    for i in range(n):
        if work + length[r] > max_work or m * k > max_words:
            return nk, nw, na, nb, nh, -1, work + length[r]
        wi, s1i, s2i, hi = w[i], s1[i], s2[i], h[i]
        for stop in range(length[r]):
            wl = weight[r, stop]
            if wl == 0:
                continue
            work += 1
            row[:] = keys[i]
            a = _ways_reel(row, r, stop, ways_sum, entry_len, family, fam_entries, rank, credits)
            for f in range(n_families):
                cur = row[n_entries + f]
                if cur <= -2:
                    aw[-2 - cur] += wi * wl * rest
                    row[n_entries + f] = -1
            for c in range(counted.shape[0]):
                row[base_c + c] += counted[c, r, stop]
            if cap_on:
                row[k - 1] += a
            cs2 = (s2i + 2.0 * a * float(s1i) + float(a) * float(a) * float(wi)) * float(wl)
            ch = wi * wl if a > 0 else hi * wl
            nk, nw, na, nb, nh, m, slots = _merge(
                nk, nw, na, nb, nh, m, slots, row, wi * wl, (s1i + a * wi) * wl, cs2, ch
            )
    return nk, nw, na, nb, nh, m, work


@jit(parallel=True)
def ways_finish(keys, w, s1, s2, h, n, r, reel, ways, score, game, cap_on, out):
    """Finish every ways state over the last reel ``r`` (see :func:`lines_finish`)."""
    ways_sum, weight, length, counted = reel
    entry_len, family, fam_entries, rank, credits = ways
    fs_counted, bonus_counted, bonus_min = game
    out_w, out_wb, out_wb2, out_hit, out_aw = out
    n_entries, n_families = entry_len.shape[0], fam_entries.shape[0]
    base_c = n_entries + 2 * n_families
    rows = out_w.shape[0]
    n_counted = counted.shape[0]
    for row in prange(rows):
        cnt = np.zeros(n_counted, dtype=np.int64)
        buf = np.zeros(keys.shape[1], dtype=np.int64)
        for i in range(row, n, rows):
            wi = w[i]
            for stop in range(length[r]):
                wl = weight[r, stop]
                if wl == 0:
                    continue
                buf[:] = keys[i]
                f = _ways_reel(
                    buf, r, stop, ways_sum, entry_len, family, fam_entries, rank, credits
                )
                for fam in range(n_families):
                    cur = buf[n_entries + fam]
                    if cur <= -2:
                        out_aw[row, -2 - cur] += wi * wl
                for c in range(n_counted):
                    cnt[c] = buf[base_c + c] + counted[c, r, stop]
                f += scatter_win(cnt, score.scatter_pay, score.excl)
                b = _bucket(cnt, fs_counted, bonus_counted, bonus_min, score.bonus_jmax)
                _close(
                    i, b, wl, f, keys, w, s1, s2, h, score.cap, cap_on,
                    out_w, out_wb, out_wb2, out_hit, row,
                )  # fmt: skip
