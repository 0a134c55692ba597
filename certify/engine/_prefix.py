"""numba kernels for prefix tables: line states after the first reels, precomputed.

For every combination of stops of the first ``depth`` reels the table holds
a *combo* id (uint16). A combo is everything the prefix decided: its *class*
(the line wins already settled by lines whose automaton state is dead, which
pay entries they were, the counted symbols seen: scatters, triggers) and the
lines still alive with their automaton states. Prefixes share combos (8,801
for the 140,608 reels 1-3 prefixes of the 5x3 reference game), so a spin
reads one 2-byte row and one 32-byte combo record, and walks only the
surviving lines (0.5 per spin there) over the last reels: both reel sets'
tables, with the tail tables, take 1.4 MB, in L2.

A *tail* table over the stop pairs of the last two reels gives each line's
pair of symbols there and the counted symbols they show: the last two reels
of a line are one lookup of the two-reel automaton.
"""

from __future__ import annotations

import numpy as np

from certify._numba import jit

# the words of a combo record (``PrefixTables.combos``): meta (class in bits
# 0-15, extra alive lines in 16-23, first extra line in 24-47, first alive
# line in 48-63), settled credits, packed counted symbols, first line's state
COMBO_META, COMBO_WIN, COMBO_COUNTS, COMBO_STATE = range(4)
COMBO_WORDS = 4


@jit
def build_prefix(
    window,
    length,
    paylines,
    trans,
    live,
    state_win,
    state_entry,
    counted,
    depth,
    start,
    out,
):
    """Fill fixed-width prefix rows ``out`` (:class:`~certify.engine.spin_records.PrefixRows`).

    Per row: the lines alive after ``depth`` reels with their automaton state,
    the final states of the settled lines that pay, and the counted symbols
    (the caller classes and packs them).
    """
    alive_n, alive_line, alive_state = out.alive_n, out.alive_line, out.alive_state
    paid_n, paid_state, counts = out.paid_n, out.paid_state, out.counts
    n_lines = paylines.shape[0]
    stops = np.zeros(length.shape[0], dtype=np.int64)
    for idx in range(alive_n.shape[0]):
        rest = idx
        for r in range(depth - 1, -1, -1):
            stops[r] = rest % length[r]
            rest //= length[r]
        n_alive, n_paid = 0, 0
        for line in range(n_lines):
            st = start
            for r in range(depth):
                st = trans[st, window[r, stops[r], paylines[line, r]]]
                if not live[st]:
                    break
            if live[st]:
                alive_line[idx, n_alive] = line
                alive_state[idx, n_alive] = st
                n_alive += 1
            elif state_win[st] != 0 or state_entry[st] >= 0:
                paid_state[idx, n_paid] = st
                n_paid += 1
        alive_n[idx] = n_alive
        paid_n[idx] = n_paid
        for c in range(counted.shape[0]):
            n = 0
            for r in range(depth):
                n += counted[c, r, stops[r]]
            counts[idx, c] = n


@jit(inline="always")
def prefix_row(ps, stops, length, depth, head_first):
    """Index into ``head`` of the prefix of ``stops`` in reel set ``ps``."""
    idx = 0
    for r in range(depth[ps]):
        idx = idx * length[ps, r] + stops[r]
    return head_first[ps] + idx


@jit(inline="always")
def count_field(packed, k, width):
    """Count of counted symbol ``k`` in a packed counts word (``width`` bits each).

    ``width`` is the game's ``GameInputs.count_width`` (:func:`certify.engine.prefix.count_width`):
    8 where the game counts at most 8 symbols, narrower where it counts more.
    """
    return np.int64(
        (packed >> np.uint64(width * k)) & ((np.uint64(1) << np.uint64(width)) - np.uint64(1))
    )


@jit(inline="always")
def field(row, shift, width):
    """Bits ``shift .. shift + width - 1`` of a packed row, as int64."""
    return np.int64((row >> np.uint64(shift)) & ((np.uint64(1) << np.uint64(width)) - np.uint64(1)))


@jit(inline="always")
def finish_line(ps, line, st, d, stops, window, paylines, step, pair, suffix, tail_sym):
    """Step a line's automaton state over reels ``d ..`` to its final state.

    With a tail table (``suffix`` >= 0: the row of the last two reels' stops,
    ``tail_sym`` giving each line's pair of symbols there) the reels before
    the last two are stepped one by one and the last two in one lookup; else
    pairs of reels (when ``pair`` is real), then single reels. Dead states
    stay put in ``step`` and ``pair``: no test, no branch on the symbols.
    """
    n_reels = stops.shape[0]
    r = d
    if suffix >= 0:
        while r < n_reels - 2:
            st = step[st, window[ps, r, stops[r], paylines[line, r]]]
            r += 1
        return np.int64(pair[st, tail_sym[ps, suffix, line]])
    if pair.shape[1] > 1:
        n_symbols = step.shape[1]
        while r + 1 < n_reels:
            st = pair[
                st,
                np.int64(window[ps, r, stops[r], paylines[line, r]]) * n_symbols
                + window[ps, r + 1, stops[r + 1], paylines[line, r + 1]],
            ]
            r += 2
    while r < n_reels:
        st = step[st, window[ps, r, stops[r], paylines[line, r]]]
        r += 1
    return st


@jit(inline="always")
def combo_class(meta):
    """Class of a combo (its settled wins, entries and counted symbols)."""
    return field(meta, 0, 16)


@jit(inline="always")
def combo_extra_n(meta):
    """Number of alive lines of a combo after its first."""
    return field(meta, 16, 8)


@jit(inline="always")
def combo_first_extra(meta):
    """Index in ``alive_line`` / ``alive_state`` of a combo's second alive line."""
    return field(meta, 24, 24)


@jit(inline="always")
def combo_line0(meta):
    """A combo's first alive line (any line when none is alive: its state is null)."""
    return np.int64(meta >> np.uint64(48))


@jit(inline="always")
def finish_combo(
    ps,
    combo,
    suffix,
    combos,
    alive_line,
    alive_state,
    tail_sym,
    pair,
    win1,
    entry1,
    w,
    awards,
    award_base,
):
    """Credits of a combo finished by the stop pair ``suffix`` of the last two reels.

    The combo's settled credits plus each alive line finished by one lookup
    of the two-reel automaton ``pair``; each line's paying entry is counted
    with weight ``w`` in ``awards[award_base + entry + 1]`` (slot
    ``award_base``: no entry). Shared by the simulation (``w`` = 1) and the
    exact calculator's combo sums (``w`` = the combination's weight).
    """
    meta = combos[combo, COMBO_META]
    st = np.int64(pair[combos[combo, COMBO_STATE], tail_sym[ps, suffix, combo_line0(meta)]])
    win = np.int64(combos[combo, COMBO_WIN]) + win1[st]
    awards[award_base + entry1[st]] += w
    first = combo_first_extra(meta)
    for a in range(first, first + combo_extra_n(meta)):
        st = np.int64(pair[alive_state[a], tail_sym[ps, suffix, alive_line[a]]])
        win += win1[st]
        awards[award_base + entry1[st]] += w
    return win


@jit(inline="always")
def tail_spin(
    ps,
    combo,
    suffix,
    combos,
    alive_line,
    alive_state,
    tail_counts,
    tail_sym,
    pair,
    win1,
    entry1,
    class_hits,
    hit_base,
    awards,
    award_base,
):
    """:func:`lines_spin` when the prefix ends two reels before the end: no stops needed.

    ``combo`` is the prefix's combo, ``suffix`` the stop pair of the last two
    reels; each line is finished by one lookup of the two-reel automaton.
    """
    class_hits[hit_base + combo_class(combos[combo, COMBO_META])] += 1
    packed = combos[combo, COMBO_COUNTS] + tail_counts[ps, suffix]
    win = finish_combo(
        ps,
        combo,
        suffix,
        combos,
        alive_line,
        alive_state,
        tail_sym,
        pair,
        win1,
        entry1,
        1,
        awards,
        award_base,
    )
    return win, packed


@jit(inline="always")
def lines_spin(ps, stops, reels, px, level, game, t, class_hits, hit_base, awards, award_base):
    """Line credits of one spin through the prefix table, and its packed counts.

    Counts the prefix's class in ``class_hits[hit_base + class]`` and each
    alive line's pay entry in ``awards[award_base + entry + 1]`` (slot 0 takes
    "no entry", so the combo's first alive line, or the null state standing
    in for it, is finished without a branch); returns (credits, packed counts).
    """
    combo = np.int64(t.head[prefix_row(ps, stops, reels.length, px.depth, px.head_first)])
    meta = t.combos[combo, COMBO_META]
    class_hits[hit_base + combo_class(meta)] += 1
    win = np.int64(t.combos[combo, COMBO_WIN])
    packed = t.combos[combo, COMBO_COUNTS]
    d = px.depth[ps]
    suffix = -1
    n_reels = stops.shape[0]
    if px.tail_on[ps]:
        suffix = stops[n_reels - 2] * reels.length[ps, n_reels - 1] + stops[n_reels - 1]
        packed += t.tail_counts[ps, suffix]
        for r in range(d, n_reels - 2):
            packed += reels.counts_pack[ps, r, stops[r]]
    else:
        for r in range(d, n_reels):
            packed += reels.counts_pack[ps, r, stops[r]]
    st = finish_line(
        ps,
        combo_line0(meta),
        np.int64(t.combos[combo, COMBO_STATE]),
        d,
        stops,
        reels.window,
        game.paylines,
        level.step,
        t.pair,
        suffix,
        t.tail_sym,
    )
    win += t.win1[st]
    awards[award_base + t.entry1[st]] += 1
    first = combo_first_extra(meta)
    for a in range(first, first + combo_extra_n(meta)):
        st = finish_line(
            ps,
            np.int64(t.alive_line[a]),
            np.int64(t.alive_state[a]),
            d,
            stops,
            reels.window,
            game.paylines,
            level.step,
            t.pair,
            suffix,
            t.tail_sym,
        )
        win += t.win1[st]
        awards[award_base + t.entry1[st]] += 1
    return win, packed
