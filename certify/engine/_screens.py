"""numba kernels of screen games (SPEC 3.1b): cascades and cluster pays.

A *screen* is a cell grid ``grid[reel, row]`` (row 0 at the top) kept per
chunk. One paid spin plays a sequence of screens (:func:`cascade_spin`): the
screen is evaluated in full (lines through the line automaton, or clusters;
then scatters), the cells of every paying line run, cluster and scatter are
marked, removed, the symbols left fall to the bottom of their reel and the
gap refills, and the next screen is evaluated, until a screen pays nothing or
``max_screens`` screens were shown. Screen ``k`` (0-based) pays its wins x
``mults[min(k, len - 1)]``. A game without a cascade is a sequence of one
screen (``max_screens`` = 1): cluster games use the same function.

Refill ``"strip"``: a reel at stop ``s`` keeps a pointer to the stop above
its top cell (``s - 1``); the new cells of a screen, from the lowest up, are
that stop, the one above, ... (the stop directly above the old top lands
lowest), so the sequence is a function of the stops. Refill ``"random"``:
each new cell, reel by reel and from the lowest up, is the symbol at a stop
drawn by weight with one bounded draw.

The simulation kernel (:func:`simulate_screen_chunks`) plays base and free
spins in one loop, exactly like :func:`certify.engine._kernels.simulate_chunks`:
the features start once after the sequence by its largest trigger counts.
"""

from __future__ import annotations

import numpy as np

from certify._numba import jit, prange
from certify.engine._kernels import (
    N_OUT,
    bonus_award,
    chunk_totals,
    close_spin,
    feature_step,
    finish_chunk,
    lowest_bit,
    popcount,
    private,
)
from certify.engine._rng import bounded, draw_spin

__all__ = ["N_OUT", "cascade_spin", "cluster_win", "ways_screen", "simulate_screen_chunks"]


@jit(inline="always")
def load_screen(ps, stops, window, length, grid, above):
    """The first screen of stops ``stops`` into ``grid``; ``above[r]``: the stop above reel r."""
    for r in range(grid.shape[0]):
        for row in range(grid.shape[1]):
            grid[r, row] = window[ps, r, stops[r], row]
        n = length[ps, r]
        above[r] = (stops[r] + n - 1) % n


@jit(inline="always")
def stick(grid, sticky, sym):
    """Sticky wilds in a free spin: the cells held show ``sym``; cells showing it are held."""
    for r in range(grid.shape[0]):
        for row in range(grid.shape[1]):
            if sticky[r, row]:
                grid[r, row] = sym
            elif grid[r, row] == sym:
                sticky[r, row] = True


@jit(inline="always")
def hold_sticky(grid, sticky, sym, fs):
    """A free spin holds the sticky wilds landed so far; a base spin starts with none held."""
    if fs:
        stick(grid, sticky, sym)
    else:
        sticky[:, :] = False


@jit(inline="always")
def line_screen(grid, scr, level, start, entry_len, stack_node, stack_state, mark, awards, cw):
    """Line credits of a screen; marks the cells of every paying run (its wilds included).

    The paylines are walked together as the tree of their row prefixes
    (``scr.trie_*``, :func:`certify.engine.screens.line_trie`) through the
    level's automaton (``level.trans``, from state ``start``): a node's automaton
    state is computed once for every line through it, and a node whose state
    is dead (or that ends the line) settles all of its ``trie_lines`` lines at
    once -- the same credits, award counts and marks as walking each line in
    turn. A line's paying award key names its entry (``scr.key_entry``); the run
    is its first ``entry_len`` cells from reel 1. A line that pays an award (a
    jackpot entry pays 0 credits on the line) counts as paying. ``awards[key]``
    grows by ``cw`` per paying line. ``stack_node``, ``stack_state``: scratch
    of at least reels x rows entries. Returns (credits, whether something paid).
    """
    total = 0
    paid = False
    n_reels = grid.shape[0]
    lo, hi, row, depth, lines, path = (
        scr.trie_lo,
        scr.trie_hi,
        scr.trie_row,
        scr.trie_depth,
        scr.trie_lines,
        scr.trie_path,
    )
    trans, live = level.trans, level.live
    state_win, state_entry = level.state_win, level.state_entry
    key_entry = scr.key_entry
    stack_node[0] = 0
    stack_state[0] = start
    top = 1
    while top > 0:
        top -= 1
        node = stack_node[top]
        st0 = stack_state[top]
        r = depth[node]
        for child in range(lo[node], hi[node]):
            st = trans[st0, grid[r, row[child]]]
            if live[st] and r + 1 < n_reels:
                stack_node[top] = child
                stack_state[top] = st
                top += 1
                continue
            key = state_entry[st]
            if key >= 0:
                k = lines[child]
                total += state_win[st] * k
                paid = True
                awards[key] += cw * k
                for rr in range(entry_len[key_entry[key]]):
                    mark[rr, path[child, rr]] = True
    return total, paid


@jit(inline="always")
def ways_screen(
    grid,
    ways_match,
    entry_len,
    family,
    rank,
    credits,
    fam_len,
    fam_win,
    fam_entry,
    mark,
    awards,
    cw,
):
    """Ways credits of a screen; marks every cell of every paying ways combination.

    As :func:`certify.engine._kernels.ways_win` on the grid: an entry's ways
    are the product over its reels of the matching cells (a wild counts its
    multiplier, ``ways_match``); each family (first token) pays its longest
    entry, of those the highest base value (``rank``), at ``credits``. The
    cells that vanish are the matching cells of the paid entry's reels.
    Returns (credits, whether something paid).
    """
    fam_len[:] = 0
    fam_win[:] = 0
    rows = grid.shape[1]
    for e in range(entry_len.shape[0]):
        prod = 1
        for r in range(entry_len[e]):
            col = 0
            for w in range(rows):
                col += ways_match[e, r, grid[r, w]]
            prod *= col
            if prod == 0:
                break
        if prod > 0:
            f = family[e]
            v = rank[e] * prod
            if entry_len[e] > fam_len[f] or (entry_len[e] == fam_len[f] and v > fam_win[f]):
                fam_len[f] = entry_len[e]
                fam_win[f] = v
                fam_entry[f] = e
    total = 0
    paid = False
    for f in range(fam_len.shape[0]):
        if fam_len[f] == 0:
            continue
        e = fam_entry[f]
        if rank[e] == credits[e]:
            total += fam_win[f]
        else:  # the free spins' own credits: the ways once more
            prod = 1
            for r in range(entry_len[e]):
                col = 0
                for w in range(rows):
                    col += ways_match[e, r, grid[r, w]]
                prod *= col
            total += credits[e] * prod
        paid = True
        awards[e] += cw
        for r in range(entry_len[e]):
            for w in range(rows):
                if ways_match[e, r, grid[r, w]] > 0:
                    mark[r, w] = True
    return total, paid


CELL_SHIFT = 8  # a queued cell is reel << 8 | row (a window has at most 127 cells)
CELL_ROW = (1 << CELL_SHIFT) - 1


@jit(inline="always")
def cluster_join(grid, s, cl_member, seen, stamp, queue, tail, r, w):
    """Queue cell (r, w) into the group of ``s`` if it joins it and is not yet in; the new tail.

    A cell showing ``s`` itself is also noted as taken by a group of its own
    symbol (``seen[cells + j]``): no second group of ``s`` grows from it.
    """
    rows = grid.shape[1]
    j = r * rows + w
    t = grid[r, w]
    if seen[j] != stamp and cl_member[s, t] != 0:
        seen[j] = stamp
        if t == s:
            seen[grid.shape[0] * rows + j] = stamp
        queue[tail] = (r << CELL_SHIFT) | w
        tail += 1
    return tail


@jit(inline="always")
def cluster_win(grid, cl_member, cl_pay, cl_entry, mark, queue, seen, stamp, awards, aw_off, cw):
    """Cluster credits of a screen; marks the cells of every paying group.

    For each paying symbol ``s`` (``cl_member[s, s]`` != 0) the groups are
    the connected components, by edges, of the cells that show ``s`` or a
    wild that joins it (``cl_member[s, symbol]`` != 0), grown from a cell
    showing ``s`` itself (wilds alone do not make a group of ``s``).
    Components of one symbol are disjoint; a wild may join groups of
    different symbols. A group of ``size`` cells pays ``cl_pay[s, size]``
    (the largest met entry, x total bet, in credits).

    One pass over the cells grows every group: a cell starts a group of its
    own symbol unless a group of that symbol already took it. ``seen``
    (2 x cells) is stamped instead of cleared: ``seen[i]``, the group that
    reached cell ``i`` last (``stamp`` grows by one per group);
    ``seen[cells + i]``, the group of the cell's own symbol that took it
    (taken in this screen when above the stamp the screen began with).
    ``queue`` holds cells as ``reel << CELL_SHIFT | row`` (shifts, not a
    division by the row count). Returns (credits, whether something paid,
    new stamp).
    """
    n_reels, rows = grid.shape[0], grid.shape[1]
    own = n_reels * rows
    begun = stamp
    total = 0
    paid = False
    for r0 in range(n_reels):
        for w0 in range(rows):
            s = grid[r0, w0]
            i0 = r0 * rows + w0
            if cl_member[s, s] == 0 or seen[own + i0] > begun:
                continue
            stamp += 1
            seen[i0] = stamp
            seen[own + i0] = stamp
            queue[0] = (r0 << CELL_SHIFT) | w0
            head, tail = 0, 1
            while head < tail:
                cell = queue[head]
                head += 1
                r, w = cell >> CELL_SHIFT, cell & CELL_ROW
                if r > 0:
                    tail = cluster_join(grid, s, cl_member, seen, stamp, queue, tail, r - 1, w)
                if r + 1 < n_reels:
                    tail = cluster_join(grid, s, cl_member, seen, stamp, queue, tail, r + 1, w)
                if w > 0:
                    tail = cluster_join(grid, s, cl_member, seen, stamp, queue, tail, r, w - 1)
                if w + 1 < rows:
                    tail = cluster_join(grid, s, cl_member, seen, stamp, queue, tail, r, w + 1)
            e = cl_entry[s, tail]
            if e >= 0:
                total += cl_pay[s, tail]
                paid = True
                awards[aw_off + e] += cw
                for q in range(tail):
                    mark[queue[q] >> CELL_SHIFT, queue[q] & CELL_ROW] = True
    return total, paid, stamp


BOARD_CELLS = 64  # a window of at most this many cells is evaluated on bitboards


@jit(inline="always")
def board_neighbours(g, rows, not_first, not_last, valid):
    """The cells next to the cells of bitboard ``g`` by an edge (bit ``reel * rows + row``)."""
    up = (g >> np.uint64(1)) & not_last  # row - 1: nothing falls from a reel's top to the last row
    down = (g << np.uint64(1)) & not_first
    side = (g >> np.uint64(rows)) | (g << np.uint64(rows))
    return (up | down | side) & valid


@jit(inline="always")
def cluster_win_boards(grid, cl_member, cl_pay, cl_entry, masks, boards, mark, awards, aw_off, cw):
    """:func:`cluster_win` on bitboards, for a window of at most 64 cells.

    ``boards[t]``: the cells showing symbol ``t``. The field of a paying
    symbol ``s`` is every cell that joins its groups; each group is grown
    from its lowest seed (a cell showing ``s``) by adding the field's
    neighbours until nothing is added, and its size is a popcount. Where a
    lone cell pays nothing, seeds with no neighbour in the field are dropped
    first. ``masks``: (cells not in the first row, not in the last row, all
    cells) of the window. Same credits, marks and award counts as
    :func:`cluster_win`.
    """
    n_reels, rows = grid.shape[0], grid.shape[1]
    not_first, not_last, valid = masks[0], masks[1], masks[2]
    n_sym = cl_member.shape[0]
    boards[:] = 0
    bit = np.uint64(1)
    for r in range(n_reels):
        for w in range(rows):
            boards[grid[r, w]] |= bit
            bit <<= np.uint64(1)
    total = 0
    paid = False
    marked = np.uint64(0)
    for s in range(n_sym):
        seeds = boards[s]
        if cl_member[s, s] == 0 or seeds == np.uint64(0):
            continue
        field = np.uint64(0)
        for t in range(n_sym):
            if cl_member[s, t] != 0:
                field |= boards[t]
        if cl_entry[s, 1] < 0:
            seeds &= board_neighbours(field, rows, not_first, not_last, valid)
        while seeds != np.uint64(0):
            g = seeds & (~seeds + np.uint64(1))
            while True:
                grown = (g | board_neighbours(g, rows, not_first, not_last, valid)) & field
                if grown == g:
                    break
                g = grown
            seeds &= ~g
            size = popcount(g)
            e = cl_entry[s, size]
            if e >= 0:
                total += cl_pay[s, size]
                paid = True
                awards[aw_off + e] += cw
                marked |= g
    while marked != np.uint64(0):
        i = lowest_bit(marked)
        marked &= marked - np.uint64(1)
        mark[i // rows, i % rows] = True
    return total, paid


@jit(inline="always")
def screen_window_multiplier(grid, scr):
    """The screen's full-window multiplier: the largest target it is full of, else 1.

    ``scr.fw_bits[reel, symbol]``: the targets a cell passes (every target off
    its reels); the screen is full of a target when every cell passes it.
    """
    m = ~np.uint64(0)
    for r in range(grid.shape[0]):
        for w in range(grid.shape[1]):
            m &= scr.fw_bits[r, grid[r, w]]
    if m == np.uint64(0):
        return 1
    best = 0
    for t in range(scr.fw_mult.shape[0]):
        if (m >> np.uint64(t)) & np.uint64(1):
            best = max(best, scr.fw_mult[t])
    return best


@jit(inline="always")
def scatter_screen(grid, scr, cnt, scatter_pay, excl, mark, fs_counted):
    """Scatter credits of a screen (highest count pays; exclusive scatters: the first only).

    Counts every counted symbol into ``cnt`` (``scr.count_by[reel, symbol, c]``:
    what a cell adds to counted symbol ``c``: its reels, its wilds, doubles;
    ``scr.count_of``: the same as a list of the ``c`` a cell adds to) and marks
    every cell counting for a scatter that pays, and those of the free-spin
    trigger (``fs_counted``) where it vanishes (``scr.vanish_min``). Returns
    (credits, whether something paid or vanished).
    """
    count_by, count_of = scr.count_by, scr.count_of
    cnt[:] = 0
    n_reels, rows = grid.shape[0], grid.shape[1]
    for r in range(n_reels):
        for w in range(rows):
            s = grid[r, w]
            for k in range(count_of.shape[2]):
                c = count_of[r, s, k]
                if c < 0:
                    break
                cnt[c] += count_by[r, s, c]
    total = 0
    taken = False
    paid = False
    for c in range(scatter_pay.shape[0]):
        pay = scatter_pay[c, cnt[c]]
        if excl[c] != 0:
            if taken:
                pay = 0
            elif pay > 0:
                taken = True
        vanish = c == fs_counted and scr.vanish_min > 0 and cnt[c] >= scr.vanish_min
        total += pay
        if pay > 0 or vanish:
            paid = True
            for r in range(n_reels):
                for w in range(rows):
                    if count_by[r, grid[r, w], c] > 0:
                        mark[r, w] = True
    return total, paid


@jit(inline="always")
def refill_screen(
    ps, grid, mark, above, window, length, total_weight, cumulative, rand, s0, s1, s2, s3
):
    """Remove the marked cells, let the rest fall, refill the gap; return the RNG state.

    ``rand`` 0: the new cells are the stops above the window (``above``),
    the lowest new cell first; 1: each is drawn from the reel's stops by weight.
    """
    n_reels, rows = grid.shape[0], grid.shape[1]
    for r in range(n_reels):
        j = rows - 1
        for row in range(rows - 1, -1, -1):
            if not mark[r, row]:
                grid[r, j] = grid[r, row]
                j -= 1
        n = length[ps, r]
        for row in range(j, -1, -1):
            if rand == 0:
                grid[r, row] = window[ps, r, above[r], 0]
                above[r] = (above[r] + n - 1) % n
            else:
                v, s0, s1, s2, s3 = bounded(total_weight[ps, r], s0, s1, s2, s3)
                lo, hi = 0, cumulative.shape[2] - 1
                while lo < hi:
                    mid = (lo + hi) >> 1
                    if cumulative[ps, r, mid] > v:
                        hi = mid
                    else:
                        lo = mid + 1
                grid[r, row] = window[ps, r, lo, 0]
    return s0, s1, s2, s3


@jit(inline="always")
def cascade_spin(
    ps,
    phase,
    stops,
    window,
    length,
    total_weight,
    cumulative,
    paylines,
    entry_len,
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
    cw,
    s0,
    s1,
    s2,
    s3,
):
    """Play one spin's sequence of screens from the screen in ``grid`` (:func:`load_screen`).

    ``phase`` 0 base game, 1 free spins; ``scatter_pay`` the phase's table. Award
    keys (lines) or cluster entries (at ``scr.aw_off``) grow by ``cw`` per paid
    line or group. Returns (credits, of which scatter credits, largest free-spin
    and bonus trigger counts, screens shown, stamp, s0, s1, s2, s3); credits include
    the screen multipliers and the length prize (``scr.chain_pay``), not the free
    spins'. Scratch: ``boards`` the cluster bitboards (up to 64 cells), ``fam`` the
    ways families' rows. At most 30 arguments (CPython 3.11 passes more as ``*args``).
    """
    mults = scr.mults
    total, scatter_total, fs_top, bonus_top, n = 0, 0, 0, 0, 0
    while True:
        mark[:, :] = False
        if scr.cluster != 0 and grid.size <= BOARD_CELLS:
            win, paid = cluster_win_boards(
                grid,
                scr.cl_member,
                scr.cl_pay,
                scr.cl_entry,
                scr.cl_masks,
                boards,
                mark,
                awards,
                scr.aw_off,
                cw,
            )
        elif scr.cluster != 0:
            win, paid, stamp = cluster_win(
                grid,
                scr.cl_member,
                scr.cl_pay,
                scr.cl_entry,
                mark,
                queue,
                seen,
                stamp,
                awards,
                scr.aw_off,
                cw,
            )
        elif scr.ways != 0:
            win, paid = ways_screen(
                grid,
                scr.ways_match,
                entry_len,
                scr.family,
                level.credits[0],
                level.credits[phase],
                fam[0],
                fam[1],
                fam[2],
                mark,
                awards,
                cw,
            )
        else:
            win, paid = line_screen(
                grid, scr, level, scr.start[phase], entry_len, queue, seen, mark, awards, cw
            )
        if scr.fw_n > 0 and win != 0:  # the screen's line or ways wins x its full window
            win *= screen_window_multiplier(grid, scr)
        sc, sc_paid = scatter_screen(grid, scr, cnt, scatter_pay, excl, mark, fs_counted)
        fs_top = max(fs_top, cnt[fs_counted]) if fs_counted >= 0 else fs_top
        bonus_top = max(bonus_top, cnt[bonus_counted]) if bonus_counted >= 0 else bonus_top
        m = mults[min(n, mults.shape[0] - 1)]
        total, scatter_total = total + (win + sc) * m, scatter_total + sc * m
        n += 1
        if not (paid or sc_paid) or n >= scr.max_screens:
            break
        s0, s1, s2, s3 = refill_screen(
            ps,
            grid,
            mark,
            above,
            window,
            length,
            total_weight,
            cumulative,
            scr.refill_random,
            s0,
            s1,
            s2,
            s3,
        )
    total += scr.chain_pay[phase, n]  # the sequence's length pays (cascade.chain_pays)
    return total, scatter_total, fs_top, bonus_top, n, stamp, s0, s1, s2, s3


@jit(parallel=True)
def simulate_screen_chunks(
    states, chunk_spins, reels, level, game, scr, hist, out, out_sq, out_awards, out_hist
):
    """Simulate every chunk of a screen game (one RNG stream each) into per-chunk statistics.

    The same loop, statistics and stream use as ``simulate_chunks`` (generic
    path: one stop draw per reel and spin, then the sequence's random
    refills, then the bonus draw): base spins and the free spins they trigger
    (with the feature's reel set and multiplier), bonus, hits, histogram.
    ``out_awards`` counts base-game award keys, then cluster entries (at
    ``scr.aw_off``), unshifted.
    """
    window, length, scatter_pay = reels.window, reels.length, level.scatter_pay
    weight, lookup, cumulative, mode = (
        reels.total_weight,
        reels.lookup,
        reels.cumulative,
        reels.mode,
    )
    n_reels, rows = window.shape[1], window.shape[3]
    for c in prange(states.shape[0]):
        s0, s1, s2, s3 = states[c, 0], states[c, 1], states[c, 2], states[c, 3]
        stops = private(n_reels)
        above = private(n_reels)
        grid = np.zeros((n_reels, rows), dtype=np.int64)
        mark = np.zeros((n_reels, rows), dtype=np.bool_)
        sticky = np.zeros((n_reels, rows), dtype=np.bool_)
        cnt = private(scatter_pay.shape[1])
        queue = private(n_reels * rows)
        seen = private(2 * n_reels * rows)  # see cluster_win
        fam = np.zeros((3, scr.family.max() + 1), dtype=np.int64)
        boards = np.zeros(scr.cl_member.shape[0], dtype=np.uint64)
        awards = private(out_awards.shape[1])
        hist_c = private(hist.edges.shape[0])
        stamp = 0
        n_fs, n_bonus, n_fs_spins = 0, 0, 0
        played, remaining, awarded, win, triggered, retriggers = 0, 0, 0, 0, False, 0
        n = chunk_spins[c]
        acc = chunk_totals(n)
        while True:
            fs = 1 if remaining > 0 else 0
            if fs:
                remaining -= 1
                n_fs_spins += 1
            else:
                if played > 0:
                    win = min(win, level.cap) if level.cap > 0 else win
                    acc = close_spin(win, triggered, played, n, acc, hist_c, hist, out[c])
                if played == n:
                    break
                played += 1
                win, triggered = 0, False
            ps = reels.set_of[fs]
            s0, s1, s2, s3 = draw_spin(s0, s1, s2, s3, ps, weight, lookup, cumulative, mode, stops)
            load_screen(ps, stops, window, length, grid, above)
            if scr.sticky_sym >= 0:
                hold_sticky(grid, sticky, scr.sticky_sym, fs)
            spin, _, fs_top, bonus_top, _, stamp, s0, s1, s2, s3 = cascade_spin(
                ps,
                fs,
                stops,
                window,
                length,
                weight,
                cumulative,
                game.paylines,
                game.entry_len,
                level,
                scr,
                scatter_pay[fs],
                game.scatter_excl,
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
                1 - fs,
                s0,
                s1,
                s2,
                s3,
            )
            win += spin * game.fs_mult if fs else spin
            if game.bonus_counted >= 0 and bonus_top >= game.bonus_min:
                pay, s0, s1, s2, s3 = bonus_award(game.bonus_cum, level.bonus_pay, s0, s1, s2, s3)
                win += pay
                n_bonus += 1 - fs
                triggered = triggered or fs == 0
            if game.fs_counted >= 0:
                started, remaining, awarded, retriggers = feature_step(
                    fs_top, fs, game, remaining, awarded, retriggers
                )
                n_fs += started
                triggered = triggered or started == 1
        finish_chunk(out[c], n, acc.total, acc.hits, acc.top, n_fs, n_bonus, n_fs_spins)
        out_sq[c] = acc.s_sq
        out_awards[c, :] = awards
        out_hist[c, :] = hist_c


@jit
def play_stops(stop_rows, phase, reels, level, game, scr, scatter_pay, excl, out):
    """Each row of stops played as one sequence, refill by strip: a test and replay hook.

    ``out[i]`` = (credits, scatter credits, largest free-spin trigger count,
    largest bonus trigger count, screens shown).
    """
    ps = reels.set_of[phase]
    n_reels, rows = reels.window.shape[1], reels.window.shape[3]
    above = np.zeros(n_reels, dtype=np.int64)
    grid = np.zeros((n_reels, rows), dtype=np.int64)
    mark = np.zeros((n_reels, rows), dtype=np.bool_)
    cnt = np.zeros(scatter_pay.shape[0], dtype=np.int64)
    queue = np.zeros(n_reels * rows, dtype=np.int64)
    seen = np.zeros(2 * n_reels * rows, dtype=np.int64)  # see cluster_win
    fam = np.zeros((3, scr.family.max() + 1), dtype=np.int64)
    boards = np.zeros(scr.cl_member.shape[0], dtype=np.uint64)
    awards = np.zeros(scr.aw_off + scr.cl_entry.max() + 2, dtype=np.int64)
    s0, s1, s2, s3 = np.uint64(1), np.uint64(2), np.uint64(3), np.uint64(4)
    stamp = 0
    for i in range(stop_rows.shape[0]):
        stops = stop_rows[i].copy()
        load_screen(ps, stops, reels.window, reels.length, grid, above)
        spin, sc, fs_top, bonus_top, n, stamp, s0, s1, s2, s3 = cascade_spin(
            ps,
            phase,
            stops,
            reels.window,
            reels.length,
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
        out[i, 0] = spin
        out[i, 1] = sc
        out[i, 2] = fs_top
        out[i, 3] = bonus_top
        out[i, 4] = n
