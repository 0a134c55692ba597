"""numba kernels for prefix tables: line states after the first reels, precomputed.

For every combination of stops of the first ``depth`` reels the table holds
the line wins already settled (lines whose automaton state is dead), the few
lines still alive with their automaton state, the paying entries of the
settled lines (for award counts) and the counted symbols seen so far. A spin
then looks up its prefix and walks only the surviving lines over the last
reels: on the 5x3 reference game under one line per spin survives reel 3.
"""

from __future__ import annotations

import numpy as np

from certify._numba import jit


@jit(inline="always")
def prefix_index(stops, length, depth):
    """Row of the prefix table for the first ``depth`` stops."""
    idx = 0
    for r in range(depth):
        idx = idx * length[r] + stops[r]
    return idx


@jit
def build_prefix(window, length, paylines, trans, live, state_win, state_entry, counted, depth,
                 settled, counts, alive_n, alive_line, alive_state, paid_n, paid_entry):
    """Fill the prefix table (fixed-width rows; the caller compacts them)."""
    n_lines = paylines.shape[0]
    stops = np.zeros(length.shape[0], dtype=np.int64)
    for idx in range(settled.shape[0]):
        rest = idx
        for r in range(depth - 1, -1, -1):
            stops[r] = rest % length[r]
            rest //= length[r]
        win, n_alive, n_paid = 0, 0, 0
        for line in range(n_lines):
            st = 0
            for r in range(depth):
                st = trans[st, window[r, stops[r], paylines[line, r]]]
                if not live[st]:
                    break
            if live[st]:
                alive_line[idx, n_alive] = line
                alive_state[idx, n_alive] = st
                n_alive += 1
            else:
                win += state_win[st]
                if state_entry[st] >= 0:
                    paid_entry[idx, n_paid] = state_entry[st]
                    n_paid += 1
        settled[idx] = win
        alive_n[idx] = n_alive
        paid_n[idx] = n_paid
        for c in range(counted.shape[0]):
            n = 0
            for r in range(depth):
                n += counted[c, r, stops[r]]
            counts[idx, c] = n


HEAD_SETTLED, HEAD_ALIVE, HEAD_N_ALIVE, HEAD_PAID, HEAD_N_PAID, HEAD_COUNTS = range(6)


@jit(inline="always")
def prefix_line_win(stops, window, length, paylines, trans, live, state_win, state_entry,
                    counted, px, counts, awards, count):
    """Line wins and counted symbols of one spin through the prefix table.

    ``px`` is (depth, head, alive_line, alive_state, paid_entry); one row of
    ``head`` (one cache line) holds everything a spin needs about its prefix.
    """
    depth, head, alive_line, alive_state, paid_entry = px
    idx = prefix_index(stops, length, depth)
    n_reels = length.shape[0]
    win = np.int64(head[idx, HEAD_SETTLED])
    first = head[idx, HEAD_ALIVE]
    for a in range(first, first + head[idx, HEAD_N_ALIVE]):
        line = alive_line[a]
        st = alive_state[a]
        for r in range(depth, n_reels):
            st = trans[st, window[r, stops[r], paylines[line, r]]]
            if not live[st]:
                break
        win += state_win[st]
        if count and state_entry[st] >= 0:
            awards[state_entry[st]] += 1
    if count:
        first = head[idx, HEAD_PAID]
        for a in range(first, first + head[idx, HEAD_N_PAID]):
            awards[paid_entry[a]] += 1
    for c in range(counted.shape[0]):
        n = np.int64(head[idx, HEAD_COUNTS + c])
        for r in range(depth, n_reels):
            n += counted[c, r, stops[r]]
        counts[c] = n
    return win
