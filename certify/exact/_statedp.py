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

A state table travels as a :class:`~certify.exact.kernel_records.StateTable`,
the buckets as :class:`~certify.exact.kernel_records.BucketSums` (see
:mod:`certify.exact.kernel_records`).
"""

from __future__ import annotations

import numpy as np

from certify._numba import jit, prange
from certify.engine._kernels import scatter_win
from certify.exact._kernels import _add, _bucket
from certify.exact.kernel_records import FillCursor

_MUL = np.int64(-7046029254386353131)  # 0x9E3779B97F4A7C15
_SEED = np.int64(-3750763034362895579)


@jit(inline="always")
def _hash_row(row):
    h = _SEED
    for i in range(row.shape[0]):
        h = (h ^ row[i]) * _MUL
        h ^= h >> 31
    return h


@jit(inline="always")
def _probe(slots, keys, row, hv):
    """(slot, state) of ``row``: state -1 when absent, the slot then the free one it takes.

    A slot holds (state, its hash): a probe reads one cache line per slot and
    the key only when the hashes agree.
    """
    mask = slots.shape[0] - 1
    j = hv & mask
    k = row.shape[0]
    while True:
        s = slots[j, 0]
        if s < 0:
            return j, -1
        if slots[j, 1] == hv:
            same = True
            for c in range(k):
                if keys[s, c] != row[c]:
                    same = False
                    break
            if same:
                return j, s
        j = (j + 1) & mask


@jit
def _rehash(hashes, n, size):
    """Slots of a table of ``size`` (a power of two) holding states ``0..n-1``."""
    slots = np.full((size, 2), -1, dtype=np.int64)
    mask = size - 1
    for s in range(n):
        j = hashes[s] & mask
        while slots[j, 0] >= 0:
            j = (j + 1) & mask
        slots[j, 0] = s
        slots[j, 1] = hashes[s]
    return slots


@jit
def _grown(keys, w, s1, s2, h, hashes):
    """The table's arrays with twice the rows (the first rows copied)."""
    rows, n = keys.shape[0] * 2, keys.shape[0]
    k2 = np.zeros((rows, keys.shape[1]), dtype=np.int64)
    w2 = np.zeros(rows, dtype=np.int64)
    a2 = np.zeros(rows, dtype=np.int64)
    b2 = np.zeros(rows, dtype=np.float64)
    h2 = np.zeros(rows, dtype=np.int64)
    x2 = np.zeros(rows, dtype=np.int64)
    k2[:n] = keys
    w2[:n] = w
    a2[:n] = s1
    b2[:n] = s2
    h2[:n] = h
    x2[:n] = hashes
    return k2, w2, a2, b2, h2, x2


@jit(inline="always")
def _pow2(n):
    size = 16
    while size < n:
        size *= 2
    return size


@jit(inline="always")
def _pack(row, pack, out):
    """Pack ``row`` into ``out``: its first ``pack[0]`` fields ``pack[2]`` bits each, + 1.

    ``pack`` = (small fields, big fields, bits, fields per word); the big
    fields (the settled credits under a win cap) follow, one word each.
    """
    n_small, n_big, bits, per = pack
    words = (n_small + per - 1) // per
    for c in range(words):
        out[c] = 0
    for f in range(n_small):
        out[f // per] |= (row[f] + 1) << ((f % per) * bits)
    for f in range(n_big):
        out[words + f] = row[n_small + f]


@jit(inline="always")
def _unpack(packed, pack, row):
    """The fields of a packed key (see :func:`_pack`)."""
    n_small, n_big, bits, per = pack
    words = (n_small + per - 1) // per
    mask = (np.int64(1) << bits) - 1
    for f in range(n_small):
        row[f] = ((packed[f // per] >> ((f % per) * bits)) & mask) - 1
    for f in range(n_big):
        row[n_small + f] = packed[words + f]


@jit(inline="always")
def _empty(k, n):
    """An empty table for about ``n`` states: (keys, w, s1, s2, h, hashes, slots)."""
    size = _pow2(max(n, 8) * 4)
    rows = size // 2
    return (
        np.zeros((rows, k), dtype=np.int64),
        np.zeros(rows, dtype=np.int64),
        np.zeros(rows, dtype=np.int64),
        np.zeros(rows, dtype=np.float64),
        np.zeros(rows, dtype=np.int64),
        np.zeros(rows, dtype=np.int64),
        np.full((size, 2), -1, dtype=np.int64),
    )


@jit
def lines_step(parents, r, reel, automaton, paylines, rest, aw, cap_on, pack, max_work, max_words):
    """The state table after reel ``r`` of a lines game, from the table before it.

    ``parents``: the table before it (a ``StateTable``); ``reel``: the reel
    set (a ``LineReels``); ``automaton`` = (trans, live, state_win,
    state_entry); ``rest`` = total weight of the reels after ``r``: a line
    settled here pays its award key in ``aw`` for every combination of them.
    Returns the new table (keys, w, s1, s2, h, n) and the transitions done;
    n is -1 when they would exceed ``max_work`` or the keys ``max_words``
    int64 words.
    """
    keys, n = parents.keys, parents.n
    table = _empty(keys.shape[1], n)
    i, stop, m, work = 0, 0, 0, 0
    while True:
        i, stop, m, work = _lines_fill(
            FillCursor(i, stop, m, work), parents, r, reel, automaton, paylines, rest, aw,
            cap_on, pack, max_work, table,
        )  # fmt: skip
        if i >= n or i < 0 or m * keys.shape[1] > max_words:
            nk, nw, na, nb, nh = table[0], table[1], table[2], table[3], table[4]
            return nk, nw, na, nb, nh, (m if i >= n else -1), work
        table = _doubled(table, m)


@jit
def _doubled(table, m):
    """The table under construction with twice the room (``m`` states in it)."""
    nk, nw, na, nb, nh, nx = _grown(table[0], table[1], table[2], table[3], table[4], table[5])
    return nk, nw, na, nb, nh, nx, _rehash(nx, m, table[6].shape[0] * 2)


@jit(inline="always")
def _put(table, m, row, cw, cs1, cs2, ch):
    """Merge (cw, cs1, cs2, ch) into state ``row`` (room guaranteed): the new state count."""
    nk, nw, na, nb, nh, nx, slots = table
    hv = _hash_row(row)
    j, s = _probe(slots, nk, row, hv)
    if s < 0:
        s = m
        nk[s] = row
        nx[s] = hv
        slots[j, 0] = s
        slots[j, 1] = hv
        m += 1
    nw[s] += cw
    na[s] += cs1
    nb[s] += cs2
    nh[s] += ch
    return m


@jit
def _lines_fill(at, parents, r, reel, automaton, paylines, rest, aw, cap_on, pack, max_work, table):
    """Transitions from (state ``at.i``, stop ``at.stop``) on until the table is full.

    ``at``: a ``FillCursor`` (``at.m`` states in ``table``, ``at.work``
    transitions done). Returns where to resume (state index ``n``: done, -1:
    beyond ``max_work``), the states and the transitions done.
    """
    i0, stop0, m, work = at.i, at.stop, at.m, at.work
    keys, w, s1, s2, h, n = parents
    window, weight, length, counted = reel.window, reel.weight, reel.length, reel.counted
    trans, live, state_win, state_entry = automaton
    n_lines, k, kp = paylines.shape[0], pack[0] + pack[1], keys.shape[1]
    bits, per = pack[2], pack[3]
    field_mask = (np.int64(1) << bits) - 1
    room = table[0].shape[0]
    parent = np.zeros(k, dtype=np.int64)
    packed = np.zeros(kp, dtype=np.int64)
    alive = np.zeros(n_lines, dtype=np.int64)
    for i in range(i0, n):
        if work + length[r] > max_work:
            return -1, 0, m, work + length[r]
        _unpack(keys[i], pack, parent)
        n_alive = 0
        for line in range(n_lines):
            if parent[line] >= 0:
                alive[n_alive] = line
                n_alive += 1
        wi, s1i, s2i, hi = w[i], s1[i], s2[i], h[i]
        for stop in range(stop0 if i == i0 else 0, length[r]):
            wl = weight[r, stop]
            if wl == 0:
                continue
            if m == room:
                return i, stop, m, work
            work += 1
            for c in range(kp):  # the child's key edited in place of the parent's
                packed[c] = keys[i, c]
            a = 0
            for j in range(n_alive):
                line = alive[j]
                st = trans[parent[line], window[r, stop, paylines[line, r]]]
                value = st + 1
                if not live[st]:
                    value = 0
                    a += state_win[st]
                    if state_entry[st] >= 0:
                        aw[state_entry[st]] += wi * wl * rest
                shift = (line % per) * bits
                word = line // per
                packed[word] = (packed[word] & ~(field_mask << shift)) | (value << shift)
            for c in range(counted.shape[0]):
                f = n_lines + c
                packed[f // per] += counted[c, r, stop] << ((f % per) * bits)
            if cap_on:
                packed[kp - 1] += a
            cs2 = (s2i + 2.0 * a * float(s1i) + float(a) * float(a) * float(wi)) * float(wl)
            ch = wi * wl if a > 0 else hi * wl
            m = _put(table, m, packed, wi * wl, (s1i + a * wi) * wl, cs2, ch)
    return n, 0, m, work


@jit(inline="always")
def _close(i, b, wl, f, states, cap, cap_on, out_w, out_wb, out_wb2, out_hit, row):
    """Add state ``i`` x a last stop of weight ``wl`` whose own credits are ``f`` to bucket b.

    ``states``: the ``StateTable`` (read only); the accumulators as arrays
    (written in a ``prange`` body: see :func:`certify.exact._kernels._add`).
    """
    keys, w, s1, s2, h = states.keys, states.w, states.s1, states.s2, states.h
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
def lines_finish(states, r, reel, automaton, paylines, score, rule, cap_on, pack, out):
    """Finish every state over the last reel ``r`` into the buckets (one output row per chunk).

    ``states``: a ``StateTable``; ``rule``: a ``BucketRule``; ``out``: a
    ``BucketSums`` with ``rows`` rows: state ``i`` goes to row ``i % rows``.
    """
    w, n, keys = states.w, states.n, states.keys
    window, weight, length, counted = reel.window, reel.weight, reel.length, reel.counted
    trans, state_win, state_entry = automaton[0], automaton[2], automaton[3]
    fs_counted, bonus_counted, bonus_min = rule.fs_counted, rule.bonus_counted, rule.bonus_min
    out_w, out_wb, out_wb2, out_hit, out_aw = out  # not written through the record
    rows = out_w.shape[0]
    n_lines = paylines.shape[0]
    n_counted = counted.shape[0]
    for row in prange(rows):
        cnt = np.zeros(n_counted, dtype=np.int64)
        state = np.zeros(pack[0] + pack[1], dtype=np.int64)
        alive = np.zeros(n_lines, dtype=np.int64)
        for i in range(row, n, rows):
            wi = w[i]
            _unpack(keys[i], pack, state)
            n_alive = 0
            for line in range(n_lines):
                if state[line] >= 0:
                    alive[n_alive] = line
                    n_alive += 1
            for stop in range(length[r]):
                wl = weight[r, stop]
                if wl == 0:
                    continue
                f = 0
                for j in range(n_alive):
                    line = alive[j]
                    st = trans[state[line], window[r, stop, paylines[line, r]]]
                    f += state_win[st]
                    if state_entry[st] >= 0:
                        out_aw[row, state_entry[st]] += wi * wl
                for c in range(n_counted):
                    cnt[c] = state[n_lines + c] + counted[c, r, stop]
                f += scatter_win(cnt, score.scatter_pay, score.excl)
                b = _bucket(cnt, fs_counted, bonus_counted, bonus_min, score.bonus_jmax)
                _close(i, b, wl, f, states, score.cap, cap_on, out_w, out_wb, out_wb2, out_hit, row)


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
def ways_step(parents, r, reel, ways, rest, aw, cap_on, pack, max_work, max_words):
    """The state table after reel ``r`` of a ways game (see :func:`lines_step`).

    ``reel``: a ``WaysReels``; ``ways`` = (entry_len, family, fam_entries,
    rank, credits).
    """
    keys, n = parents.keys, parents.n
    table = _empty(keys.shape[1], n)
    i, stop, m, work = 0, 0, 0, 0
    while True:
        i, stop, m, work = _ways_fill(
            FillCursor(i, stop, m, work), parents, r, reel, ways, rest, aw, cap_on, pack,
            max_work, table,
        )  # fmt: skip
        if i >= n or i < 0 or m * keys.shape[1] > max_words:
            nk, nw, na, nb, nh = table[0], table[1], table[2], table[3], table[4]
            return nk, nw, na, nb, nh, (m if i >= n else -1), work
        table = _doubled(table, m)


@jit
def _ways_fill(at, parents, r, reel, ways, rest, aw, cap_on, pack, max_work, table):
    """Transitions of a ways game until the table is full (see :func:`_lines_fill`)."""
    i0, stop0, m, work = at.i, at.stop, at.m, at.work
    keys, w, s1, s2, h, n = parents
    ways_sum, weight, length, counted = reel.ways_sum, reel.weight, reel.length, reel.counted
    entry_len, family, fam_entries, rank, credits = ways
    n_entries, n_families, k = entry_len.shape[0], fam_entries.shape[0], pack[0] + pack[1]
    base_c = n_entries + 2 * n_families
    room = table[0].shape[0]
    row = np.zeros(k, dtype=np.int64)
    parent = np.zeros(k, dtype=np.int64)
    packed = np.zeros(keys.shape[1], dtype=np.int64)
    for i in range(i0, n):
        if work + length[r] > max_work:
            return -1, 0, m, work + length[r]
        _unpack(keys[i], pack, parent)
        wi, s1i, s2i, hi = w[i], s1[i], s2[i], h[i]
        for stop in range(stop0 if i == i0 else 0, length[r]):
            wl = weight[r, stop]
            if wl == 0:
                continue
            if m == room:
                return i, stop, m, work
            work += 1
            for c in range(k):
                row[c] = parent[c]
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
            _pack(row, pack, packed)
            m = _put(table, m, packed, wi * wl, (s1i + a * wi) * wl, cs2, ch)
    return n, 0, m, work


@jit(parallel=True)
def ways_finish(states, r, reel, ways, score, rule, cap_on, pack, out):
    """Finish every ways state over the last reel ``r`` (see :func:`lines_finish`)."""
    w, n, keys = states.w, states.n, states.keys
    ways_sum, weight, length, counted = reel.ways_sum, reel.weight, reel.length, reel.counted
    entry_len, family, fam_entries, rank, credits = ways
    fs_counted, bonus_counted, bonus_min = rule.fs_counted, rule.bonus_counted, rule.bonus_min
    out_w, out_wb, out_wb2, out_hit, out_aw = out  # not written through the record
    n_entries, n_families = entry_len.shape[0], fam_entries.shape[0]
    base_c = n_entries + 2 * n_families
    rows = out_w.shape[0]
    n_counted = counted.shape[0]
    for row in prange(rows):
        cnt = np.zeros(n_counted, dtype=np.int64)
        buf = np.zeros(pack[0] + pack[1], dtype=np.int64)
        state = np.zeros(pack[0] + pack[1], dtype=np.int64)
        for i in range(row, n, rows):
            wi = w[i]
            _unpack(keys[i], pack, state)
            for stop in range(length[r]):
                wl = weight[r, stop]
                if wl == 0:
                    continue
                buf[:] = state
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
                _close(i, b, wl, f, states, score.cap, cap_on, out_w, out_wb, out_wb2, out_hit, row)


@jit
def merge_tables(first, second):
    """One state table of two ``StateTable``s (equal states merged): (keys, w, s1, s2, h, n)."""
    k1, w1, a1, b1, h1, n1 = first
    k2, w2, a2, b2, h2, n2 = second
    table = _empty(k1.shape[1], n1 + n2)  # room for both: never grows
    m = 0
    for s in range(n1):
        m = _put(table, m, k1[s], w1[s], a1[s], b1[s], h1[s])
    for s in range(n2):
        m = _put(table, m, k2[s], w2[s], a2[s], b2[s], h2[s])
    return table[0], table[1], table[2], table[3], table[4], m
