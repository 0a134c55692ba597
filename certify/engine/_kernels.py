"""numba kernels of the Monte Carlo engine: arrays and scalars only.

The random numbers come from xoshiro256** (:mod:`certify.engine._rng`), one
independent stream per chunk of spins, seeded outside the kernel from
``numpy.random.SeedSequence(seed, spawn_key=(stream, chunk))``; the state
lives in four scalars.
"""

from __future__ import annotations

import numpy as np

from certify._numba import jit, prange
from certify.engine._prefix import count_field, lines_spin
from certify.engine._rng import (
    MASK32,
    bounded,
    decode_stops,
    draw_prefix_and_tail,
    draw_spin,
    finish_bounded,
    xo_next,
)
from certify.engine.spin_records import ChunkTotals, Families, SpinTables

OUT_SPINS, OUT_WIN, OUT_HITS, OUT_MAX, OUT_FS, OUT_BONUS, OUT_FS_SPINS = range(7)
OUT_PARTS = 7  # then the chunk's win so far after n x (k + 1) // N_PARTS of its spins
N_PARTS = 16  # points per chunk of the convergence trace
N_OUT = OUT_PARTS + N_PARTS


@jit(inline="always")
def ways_win(
    stops, ways_sum, entry_len, family, rank, credits, fam_len, fam_win, fam_entry, awards, count
):
    """Sum of ways wins of one spin: each family pays its longest matching entry.

    ``ways_sum[r, stop, e]``: the ways (multiplied) entry ``e`` finds on reel
    ``r`` at ``stop`` (see :func:`certify.engine.tables.ways_sums`). Among a
    family's longest entries the one of highest base value (``rank`` x ways)
    pays ``credits`` x ways (the free spins' own credits may differ).
    """
    for f in range(fam_len.shape[0]):  # a loop, not a slice: CUDA device code too
        fam_len[f] = 0
        fam_win[f] = 0
    for e in range(entry_len.shape[0]):
        prod = 1
        for r in range(entry_len[e]):
            prod *= ways_sum[r, stops[r], e]
            if prod == 0:
                break
        if prod > 0:
            f = family[e]
            w = rank[e] * prod
            if entry_len[e] > fam_len[f] or (entry_len[e] == fam_len[f] and w > fam_win[f]):
                fam_len[f] = entry_len[e]
                fam_win[f] = w
                fam_entry[f] = e
    total = 0
    for f in range(fam_len.shape[0]):
        if fam_len[f] > 0:
            e = fam_entry[f]
            if rank[e] == credits[e]:
                total += fam_win[f]
            else:  # the free spins' own credits: the ways once more
                prod = 1
                for r in range(entry_len[e]):
                    prod *= ways_sum[r, stops[r], e]
                total += credits[e] * prod
            if count:
                awards[e] += 1
    return total


# de Bruijn sequence and table: the index of a uint64's lowest set bit in one multiply
DEBRUIJN = np.uint64(0x03F79D71B4CB0A89)
DEBRUIJN_INDEX = np.array(
    [0, 1, 48, 2, 57, 49, 28, 3, 61, 58, 50, 42, 38, 29, 17, 4,
     62, 55, 59, 36, 53, 51, 43, 22, 45, 39, 33, 30, 24, 18, 12, 5,
     63, 47, 56, 27, 60, 41, 37, 16, 54, 35, 52, 21, 44, 32, 23, 11,
     46, 26, 40, 15, 34, 20, 31, 10, 25, 14, 19, 9, 13, 8, 7, 6],
    dtype=np.int64,
)  # fmt: skip


@jit(inline="always")
def lowest_bit(m):
    """Index of the lowest set bit of a non-zero uint64."""
    return DEBRUIJN_INDEX[((m & (~m + np.uint64(1))) * DEBRUIJN) >> np.uint64(58)]


@jit(inline="always")
def popcount(x):
    """Set bits of a uint64."""
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return np.int64((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


@jit(inline="always")
def take_entry(b, e, prod, m, paid, total, game, rank, credits, fams, awards, count):
    """Entry ``e`` (mask bit ``b``, ``prod`` ways) matched: (m, paid, total).

    A family's first entry read is one of its longest (bits run longest
    first), and its shorter entries leave ``m`` at once. With no other entry
    of its length (``game.ways_rival[b]`` empty: the usual case) it pays now;
    else the family's best of that length is kept in ``fams`` (a
    :class:`~certify.engine.spin_records.Families`, its ``fam_len`` holding
    the ways) for :func:`pay_families`.
    """
    if game.ways_rival[b] == np.uint64(0):
        total += credits[e] * prod
        if count:
            awards[e] += 1
        m &= ~game.ways_shorter[b]
        return m, paid, total
    f = game.family[e]
    w = rank[e] * prod
    fb = np.uint64(1) << np.uint64(f)
    if paid & fb == np.uint64(0):
        paid |= fb
        fams.fam_win[f] = w
        fams.fam_len[f] = prod
        fams.fam_entry[f] = e
        m &= ~game.ways_shorter[b]
    elif w > fams.fam_win[f]:  # same length: the shorter ones were dropped
        fams.fam_win[f] = w
        fams.fam_len[f] = prod
        fams.fam_entry[f] = e
    return m, paid, total


@jit(inline="always")
def pay_families(paid, credits, fams, awards, count):
    """Credits of the families in ``paid``, each its chosen entry's credits x ways."""
    total = 0
    while paid != np.uint64(0):
        f = lowest_bit(paid)
        paid &= paid - np.uint64(1)
        e = fams.fam_entry[f]
        total += credits[e] * fams.fam_len[f]
        if count:
            awards[e] += 1
    return total


@jit(inline="always")
def ways_paid(m, stops, ways_sum, game, rank, credits, fams, awards, count):
    """Credits of the entries in ``m`` (the AND of a spin's masks): :func:`ways_win`'s figure.

    Bits are read lowest first, longest entries first
    (:func:`~certify.engine.kernel_inputs.ways_masks`): only the entries the
    spin pays with are multiplied out, and a family's shorter entries are
    dropped once it pays. Same credits and award counts as :func:`ways_win`.
    """
    paid, total = np.uint64(0), 0  # the families with rival entries that pay; the others' credits
    while m != np.uint64(0):
        b = lowest_bit(m)
        m &= m - np.uint64(1)
        e = game.ways_bit_entry[b]
        prod = 1
        for r in range(game.entry_len[e]):
            prod *= ways_sum[r, stops[r], e]
        m, paid, total = take_entry(
            b, e, prod, m, paid, total, game, rank, credits, fams, awards, count
        )
    return total + pay_families(paid, credits, fams, awards, count)


@jit(inline="always")
def ways_paid_grouped(m, ps, reels, picked, game, rank, credits, fams, awards, count):
    """:func:`ways_paid` of a group draw's rows ``picked``: no stop is read.

    An entry's ways are the product of its partial products in each group's
    row: the row keeps one per set bit of its mask, in bit order, from
    ``offset`` on (:func:`~certify.engine.kernel_inputs.ways_group_inputs`),
    so bit ``b``'s is at ``offset + popcount(row mask below b)``.
    """
    rows, partial = reels.ways_group_rows, reels.ways_group_prod
    paid, total = np.uint64(0), 0
    while m != np.uint64(0):
        below = (m & (~m + np.uint64(1))) - np.uint64(1)  # the bits below the lowest
        b = popcount(below)
        m &= m - np.uint64(1)
        e = game.ways_bit_entry[b]
        prod = 1
        for g in range(reels.ways_groups[ps]):
            v = picked[g]
            at = np.int64(rows[ps, g, v, 3]) + popcount(rows[ps, g, v, 0] & below)
            prod *= partial[ps, g, at]
        m, paid, total = take_entry(
            b, e, prod, m, paid, total, game, rank, credits, fams, awards, count
        )
    return total + pay_families(paid, credits, fams, awards, count)


@jit(inline="always")
def ways_mask_of(stops, ways_mask):
    """The AND of the entries' masks over a spin's reels: the entries it pays with."""
    m = ~np.uint64(0)
    for r in range(stops.shape[0]):
        m &= ways_mask[r, stops[r]]
        if m == np.uint64(0):
            break
    return m


@jit(inline="always")
def ways_group_draw(ps, reels, picked, s0, s1, s2, s3):
    """Draw a uniform ways spin group of reels by group: (mask, packed counts, s0 .. s3).

    Each group (a few reels, at most ``WAYS_GROUP_VALUES`` stop combinations,
    see :func:`~certify.engine.kernel_inputs.ways_group_inputs`) is one bounded
    draw on half of an output; its row (``picked[g]``) gives the AND of the
    group's masks and its packed counts (:func:`ways_group_stops`: its stops).
    """
    m = ~np.uint64(0)
    packed = np.uint64(0)
    x = np.uint64(0)
    rows = reels.ways_group_rows
    for g in range(reels.ways_groups[ps]):
        n = np.uint64(reels.ways_group_size[ps, g])
        if g & 1 == 0:
            x, s0, s1, s2, s3 = xo_next(s0, s1, s2, s3)
            u = x >> np.uint64(32)
        else:
            u = x & MASK32
        v, s0, s1, s2, s3 = finish_bounded(u * n, n, s0, s1, s2, s3)
        picked[g] = v
        m &= rows[ps, g, v, 0]
        packed += rows[ps, g, v, 1]
    return m, packed, s0, s1, s2, s3


@jit(inline="always")
def ways_group_stops(ps, reels, picked, stops):
    """The stops of the rows :func:`ways_group_draw` drew, into ``stops``."""
    for g in range(reels.ways_groups[ps]):
        code = reels.ways_group_rows[ps, g, picked[g], 2]
        for r in range(reels.ways_group_first[ps, g], reels.ways_group_first[ps, g + 1]):
            stops[r] = np.int64(code & np.uint64(0xFFFF))
            code >>= np.uint64(16)


@jit(inline="always")
def scatter_win(counts, scatter_pay, excl):
    """Scatter pays: for each counted symbol, the pay of its highest reached count.

    Of the exclusive scatters (``excl[c]`` = 1, first in the counted order)
    only the first that pays, pays.
    """
    total = 0
    taken = False
    for c in range(scatter_pay.shape[0]):
        pay = scatter_pay[c, counts[c]]
        if excl[c] != 0:
            if taken:
                pay = 0
            elif pay > 0:
                taken = True
        total += pay
    return total


@jit(inline="always")
def bonus_award(bonus_cum, bonus_pay, s0, s1, s2, s3):
    """Draw one bonus award from its weight table: (credits, s0, s1, s2, s3)."""
    u, s0, s1, s2, s3 = bounded(bonus_cum[bonus_cum.shape[0] - 1], s0, s1, s2, s3)
    k = 0
    while bonus_cum[k] <= u:
        k += 1
    return bonus_pay[k], s0, s1, s2, s3


@jit(inline="always")
def play_bonus_games(marks, game, level, s0, s1, s2, s3):
    """Prizes of the bonus games a spin's pays play: (credits, s0, s1, s2, s3).

    ``marks``: the spin's marks (multiples of ``line_bonus_tag``); each game's
    plays in its ``law_field`` bits, games in order, each play one draw.
    """
    total = 0
    mask = (1 << game.law_field) - 1
    for law in range(game.law_off.shape[0] - 1):
        plays = (marks >> (game.law_field * law)) & mask
        lo, hi = game.law_off[law], game.law_off[law + 1]
        for _ in range(plays):
            pay, s0, s1, s2, s3 = bonus_award(
                game.law_cum[lo:hi], level.law_pay[lo:hi], s0, s1, s2, s3
            )
            total += pay
    return total, s0, s1, s2, s3


@jit(inline="always")
def scatter_packed(packed, scatter_pay, excl, width):
    """Scatter pays of a packed counts word of ``width``-bit fields (see :func:`scatter_win`)."""
    total = 0
    taken = False
    for c in range(scatter_pay.shape[0]):
        pay = scatter_pay[c, count_field(packed, c, width)]
        if excl[c] != 0:
            if taken:
                pay = 0
            elif pay > 0:
                taken = True
        total += pay
    return total


@jit(inline="always")
def scatter_plain(packed, scatter_pay, width):
    """:func:`scatter_packed` of a game without exclusive scatters."""
    total = 0
    for c in range(scatter_pay.shape[0]):
        total += scatter_pay[c, count_field(packed, c, width)]
    return total


@jit(inline="always")
def hist_bin(win, edges, small_bins):
    """Histogram bin of a win: 0 for none, else k with edges[k] <= win < edges[k + 1].

    ``edges[k]`` is the smallest credit amount of bin k (bin k holds wins in
    [2^(k-11), 2^(k-10)) x total bet). Wins below ``small_bins.shape[0]``
    credits read their bin from that table; larger ones search the edges.
    """
    if win < small_bins.shape[0]:
        return np.int64(small_bins[win])
    lo, hi = 1, edges.shape[0] - 1
    while lo < hi:
        mid = (lo + hi + 1) >> 1
        if edges[mid] <= win:
            lo = mid
        else:
            hi = mid - 1
    return lo


@jit(inline="always")
def ways_spin(ps, stops, reels, game, rank, credits, fams, awards, count):
    """Ways credits of one spin on reel set ``ps`` and its packed counts.

    ``game.ways_masked``: through the entries' bit masks (:func:`ways_paid`),
    else entry by entry (:func:`ways_win`, games of more than 64 entries or
    families). ``fams``: the family scratch
    (:class:`~certify.engine.spin_records.Families`).
    """
    if game.ways_masked:
        win = ways_paid(
            ways_mask_of(stops, reels.ways_mask[ps]),
            stops,
            reels.ways_sum[ps],
            game,
            rank,
            credits,
            fams,
            awards,
            count,
        )
    else:
        win = ways_win(
            stops,
            reels.ways_sum[ps],
            game.entry_len,
            game.family,
            rank,
            credits,
            fams.fam_len,
            fams.fam_win,
            fams.fam_entry,
            awards,
            count,
        )
    packed = np.uint64(0)
    for r in range(stops.shape[0]):
        packed += reels.counts_pack[ps, r, stops[r]]
    return win, packed


PAD = 64  # int64s (512 bytes) of padding on each side of a thread's private array


@jit(inline="always")
def full_window_multiplier(mask, stops, mult):
    """Multiplier of the window at ``stops``: the largest target it is full of, else 1.

    ``mask[r, stop]`` holds the targets reel ``r``'s column passes (see
    :mod:`certify.engine.fullwindow`); the window is full of a target when
    every column passes it. A target's multiplier may be 0 (a window that pays
    its jackpot pool instead of its lines).
    """
    m = ~np.uint64(0)
    for r in range(stops.shape[0]):
        m &= mask[r, stops[r]]
    if m == np.uint64(0):
        return 1
    best = 0
    for t in range(mult.shape[0]):
        if (m >> np.uint64(t)) & np.uint64(1):
            best = max(best, mult[t])
    return best


SQUARE_EXACT = 3_037_000_499  # the largest int64 whose square is an int64


@jit(inline="always")
def win_square(win):
    """``float(win) * float(win)``, rounded once from the exact integer square.

    The same double as the product of the two floats (both round the exact
    square to nearest), computed as an integer product first, so that no
    target can fuse it with the addition that follows into one FMA (CUDA's
    compiler contracts ``a * b + c`` by default): the sum of squares is then
    bit-identical on the CPU and the GPU.
    """
    if win <= SQUARE_EXACT:
        return float(win * win)
    return float(win) * float(win)


@jit(inline="always")
def close_spin(win, triggered, played, n, acc, hist_c, hist, out):
    """Add a paid spin's whole win (its features included) to the chunk's statistics.

    Sum, sum of squares, hits (a win or a triggered feature), largest win
    (``acc``, a :class:`~certify.engine.kernel_inputs.ChunkTotals`), the
    histogram ``hist_c`` (bins of ``hist``, a ``HistInputs``), and the
    convergence trace: the chunk's total after each ``n x (k + 1) // N_PARTS``
    paid spins goes to ``out[OUT_PARTS + k]``. Returns the updated totals.
    """
    total = acc.total + win
    hist_c[hist_bin(win, hist.edges, hist.small_bins)] += 1
    part, part_at = acc.part, acc.part_at
    while part < N_PARTS and played == part_at:
        out[OUT_PARTS + part] = total
        part += 1
        part_at = n * (part + 1) // N_PARTS
    return ChunkTotals(
        total,
        acc.s_sq + win_square(win),
        acc.hits + np.int64((win > 0) | triggered),  # no branch: half of all spins win
        max(acc.top, win),
        part,
        part_at,
    )


@jit(inline="always")
def chunk_totals(n):
    """The running statistics of a chunk of ``n`` paid spins before its first spin."""
    return ChunkTotals(np.int64(0), 0.0, np.int64(0), np.int64(0), np.int64(0), n // N_PARTS)


@jit(inline="always")
def private(n):
    """A zeroed int64 array of ``n`` for one thread's chunk, alone on its cache lines.

    Padded so that no cache line holds another thread's data: counters updated
    every spin next to another thread's cost 85M vs 95M spins/s on 2 threads.
    """
    return np.zeros(n + 2 * PAD, dtype=np.int64)[PAD : PAD + n]


@jit(inline="always")
def retrigger_award(count, fs_spins):
    """Spins a retrigger with ``count`` symbols awards (0: none), before the cap.

    ``fs_spins`` holds the trigger's awards by count, then the retrigger's (whose
    counts may start below the trigger's).
    """
    return fs_spins[fs_spins.shape[0] // 2 + count]


@jit(inline="always")
def fs_feature_count(count, fs, fs_min, fs_spins):
    """Whether ``count`` trigger symbols start the feature (base) or retrigger it (free)."""
    return count >= fs_min if fs == 0 else retrigger_award(count, fs_spins) > 0


@jit(inline="always")
def feature_step(seen, fs, game, remaining, awarded, retriggers):
    """The free-spin counters after a spin of phase ``fs`` showing ``seen`` trigger symbols.

    A base spin that triggers starts the feature with its award by count; a
    free spin that retriggers (while ``retriggers`` is not 0: -1 unlimited)
    adds its award, capped at ``fs_max`` in all. Returns (started: 0 or 1,
    remaining, awarded, retriggers).
    """
    if not fs_feature_count(seen, fs, game.fs_min, game.fs_spins):
        return 0, remaining, awarded, retriggers
    if fs == 0:
        remaining = game.fs_spins[seen]
        return 1, remaining, remaining, game.fs_retriggers
    if retriggers != 0:
        add = fs_added(seen, game.fs_spins, game.fs_max, awarded)
        return 0, remaining + add, awarded + add, retriggers - 1
    return 0, remaining, awarded, retriggers


@jit(inline="always")
def finish_chunk(out_row, n, total, hits, top, n_fs, n_bonus, n_fs_spins):
    """A chunk's counts into its statistics row (the ``OUT_*`` columns)."""
    out_row[OUT_SPINS] = n
    out_row[OUT_WIN] = total
    out_row[OUT_HITS] = hits
    out_row[OUT_MAX] = top
    out_row[OUT_FS] = n_fs
    out_row[OUT_BONUS] = n_bonus
    out_row[OUT_FS_SPINS] = n_fs_spins


@jit(inline="always")
def draw_part(reels, fs, s0, s1, s2, s3):
    """The reel set a spin of phase ``fs`` plays: a painted game's part drawn by its weight.

    Unpainted games (one part) draw nothing. Returns (set, state).
    """
    ps = reels.set_of[fs]
    if reels.part_cum.shape[1] > 1:  # ``paints``: the part first, then its stops
        pc = reels.part_cum[fs]
        u, s0, s1, s2, s3 = bounded(pc[pc.shape[0] - 1], s0, s1, s2, s3)
        k = 0
        while pc[k] <= u:
            k += 1
        ps += k
    return ps, s0, s1, s2, s3


@jit(inline="always")
def stops_set(reels, fs, stops):
    """The reel set a stop row of phase ``fs`` was played on (a painted game's part)."""
    ps = reels.set_of[fs]
    if reels.part_cum.shape[1] > 1:
        for r in range(stops.shape[0]):
            ps += reels.part_of[fs, r, stops[r]]
    return ps


@jit(inline="always")
def fs_added(count, fs_spins, fs_max, awarded):
    """Spins a retrigger with ``count`` symbols adds when ``awarded`` were given."""
    add = retrigger_award(count, fs_spins)
    if fs_max > 0:
        add = min(add, fs_max - awarded)
    return add


@jit
def evaluate_row(i, stop_rows, fs, reels, px, level, game, out, out_packed, out_awards, ways):
    """Row ``i`` of :func:`evaluate_stops` (not inlined: its records are written through)."""
    classes = np.zeros(px.combos.shape[0], dtype=np.int64)  # classes <= combos
    # award slots: entry1 < states + 1 (lines: keys <= settled states), or the ways entries
    awards = np.zeros(max(level.win1.shape[0], level.credits.shape[1]) + 1, dtype=np.int64)
    fams = Families(
        np.zeros(game.n_families, dtype=np.int64),
        np.zeros(game.n_families, dtype=np.int64),
        np.zeros(game.n_families, dtype=np.int64),
    )
    stops = stop_rows[i].copy()
    if ways is None:
        t = SpinTables(
            px.head,
            px.combos,
            px.alive_line,
            px.alive_state,
            px.tail_sym,
            px.tail_counts,
            level.pair,
            level.win1,
            level.entry1,
        )
        ps = stops_set(reels, fs, stops)
        out[i], out_packed[i] = lines_spin(
            ps, stops, reels, px, level, game, t, classes, 0, awards, 0
        )
    else:
        ps = stops_set(reels, fs, stops)
        credits = level.credits
        out[i], out_packed[i] = ways_spin(
            ps, stops, reels, game, credits[0], credits[fs], fams, awards, True
        )
        out_awards[i, :] = awards[: out_awards.shape[1]]


@jit(parallel=True)
def evaluate_stops(stop_rows, fs, reels, px, level, game, out, out_packed, out_awards, ways):
    """Line/ways credits (no scatters, no features) and packed counts of given stops.

    A test hook running the simulation kernel's own spin evaluation; a ways
    game also counts each row's paid entries into ``out_awards`` (rows, the first k entries).
    """
    for i in prange(stop_rows.shape[0]):
        evaluate_row(i, stop_rows, fs, reels, px, level, game, out, out_packed, out_awards, ways)


@jit(parallel=True)
def stream_sample(states, draws, bound, out_sum, out_sq, out_counts):
    """Per stream: sum and sum of squares of ``draws`` bounded draws, and their histogram."""
    for c in prange(states.shape[0]):
        s0, s1, s2, s3 = states[c, 0], states[c, 1], states[c, 2], states[c, 3]
        s, sq = 0.0, 0.0
        for _ in range(draws):
            x, s0, s1, s2, s3 = bounded(bound, s0, s1, s2, s3)
            s += x
            sq += float(x) * float(x)
            out_counts[c, x] += 1
        out_sum[c] = s
        out_sq[c] = sq


@jit
def replay_stops(state, n, ps, reels, px, out, fast, ways):
    """The stops the simulation kernel draws for ``n`` spins of a stream: a test hook.

    Valid for games without features (a bonus or free spins draw more numbers).
    """
    s0, s1, s2, s3 = state[0], state[1], state[2], state[3]
    for i in range(n):
        if ways is not None and reels.ways_groups[ps] > 0:
            drawn = np.zeros(reels.ways_groups[ps], dtype=np.int64)
            _, _, s0, s1, s2, s3 = ways_group_draw(ps, reels, drawn, s0, s1, s2, s3)
            ways_group_stops(ps, reels, drawn, out[i])
        elif fast is not None:
            row, pair, s0, s1, s2, s3 = draw_prefix_and_tail(
                px.prefix_rows[ps], px.tail_pairs[ps], s0, s1, s2, s3
            )
            decode_stops(row, pair, px.depth[ps], reels.length[ps], out[i])
        else:
            s0, s1, s2, s3 = draw_spin(
                s0,
                s1,
                s2,
                s3,
                ps,
                reels.total_weight,
                reels.lookup,
                reels.cumulative,
                reels.mode,
                out[i],
            )
