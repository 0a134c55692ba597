"""One chunk of the Monte Carlo engine: the spin loop, written once for every target.

:func:`play_chunk` plays a chunk's paid spins and the features they trigger
on the chunk's own xoshiro256** stream, from the state its caller seeded.
The CPU kernel (:func:`simulate_chunks`, here) calls it for each chunk of
its ``prange`` loop, the CUDA kernel
(:mod:`certify.engine._cuda`) in each GPU thread: the same Python source,
compiled by numba for the CPU and, through :func:`certify._numba.cuda_device`,
as a CUDA device function, so both draw the same numbers in the same order and
add the same integers. It allocates nothing: the tables it reads every spin and
its counters come from the caller (the CPU: a chunk's private copies, the GPU:
local and global memory).
"""

from __future__ import annotations

import numpy as np

from certify._numba import SERIAL_PASSES, jit, prange
from certify.engine._hold import hold_spin
from certify.engine._kernels import (
    bonus_award,
    chunk_totals,
    close_spin,
    draw_part,
    finish_chunk,
    fs_added,
    fs_feature_count,
    full_window_multiplier,
    play_bonus_games,
    private,
    scatter_packed,
    scatter_plain,
    ways_group_draw,
    ways_paid_grouped,
    ways_spin,
)
from certify.engine._prefix import count_field, lines_spin, tail_spin
from certify.engine._rng import bounded, draw_prefix_and_tail, draw_spin
from certify.engine.kernel_inputs import HistInputs
from certify.engine.spin_records import ChunkOut, ChunkScratch, Families, HoldFeature, SpinTables


@jit(inline="always")
def play_chunk(  # noqa: C901
    state, n, reels, px, level, game, hist, tables, scratch, ways, fast, extras
):
    """Play ``n`` paid spins (and their features) from ``state``; return their sum of squares.

    ``state``: the chunk's xoshiro256** state (4 uint64), read once. ``t``:
    the prefix and line tables read every spin
    (:class:`~certify.engine.spin_records.SpinTables`: the caller's copies of
    ``px``'s and ``level``'s). ``scratch``
    (:class:`~certify.engine.spin_records.ChunkScratch`): the stops, the ways
    group draw's rows and the ways families' values (written before read), and
    the zeroed counters added to: prefix classes (base game, then free spins),
    entries paid by lines alive after the prefix (shifted by one), the win
    histogram, hold-and-spin jackpot hits; ``scratch.out_row`` gets the
    chunk's statistics (``OUT_SPINS`` ..) and its convergence trace. ``ways``,
    ``fast`` and ``extras``: the branch flags of :func:`simulate_chunks`.
    """
    s0, s1, s2, s3 = state[0], state[1], state[2], state[3]
    t = tables
    combos_c, alive_line_c, alive_state_c = t.combos, t.alive_line, t.alive_state
    tail_sym_c, tail_counts_c, pair_c, win1_c, entry1_c = (
        t.tail_sym,
        t.tail_counts,
        t.pair,
        t.win1,
        t.entry1,
    )
    stops, drawn_c, classes, awards = scratch.stops, scratch.drawn, scratch.classes, scratch.awards
    hist_c, hold_hits, out_row = scratch.hist, scratch.hold_hits, scratch.out_row
    bins = HistInputs(hist.edges, hist.small_bins)  # read each spin: as its arrays, too
    fams = Families(scratch.fam_len, scratch.fam_win, scratch.fam_entry)
    hold = HoldFeature(
        game.hold_cells,
        game.hold_respins,
        game.hold_p_num,
        game.hold_p_den,
        game.hold_value_cum,
        level.hold_value_pay,
        game.hold_value_jackpot,
        level.hold_full_pay,
        game.hold_full_jackpot,
    )
    prefix_rows, tail_pairs, head_first, head = px.prefix_rows, px.tail_pairs, px.head_first, t.head
    credits, scatter_pay, bonus_pay = level.credits, level.scatter_pay, level.bonus_pay
    alarm_add, alarm_mask = level.alarm_add, level.alarm_mask
    fs_counted, fs_min, fs_spins, fs_mult = (
        game.fs_counted,
        game.fs_min,
        game.fs_spins,
        game.fs_mult,
    )
    fs_retriggers, fs_max = game.fs_retriggers, game.fs_max
    bonus_counted, bonus_min, bonus_cum = game.bonus_counted, game.bonus_min, game.bonus_cum
    scatter_excl, cap, width = game.scatter_excl, level.cap, game.count_width
    n_classes = classes.shape[0] // 2
    n_entries = awards.shape[0] // 2 - 1
    base_awards = awards[1:]  # views made once, not each spin: 82M vs 77M on 2 threads
    base_credits, free_credits = credits[0], credits[1]
    acc = chunk_totals(n)
    n_fs, n_bonus, n_fs_spins = 0, 0, 0
    played, remaining, awarded, win, triggered = 0, 0, 0, 0, False
    retriggers = 0
    drawn = 0  # Book of Ra: the feature's expanding symbol
    while True:
        if remaining > 0:
            remaining -= 1
            fs = 1
            n_fs_spins += 1
        else:
            if played > 0:
                if extras is not None and cap > 0 and win > cap:
                    win = cap
                acc = close_spin(win, triggered, played, n, acc, hist_c, bins, out_row)
            if played == n:
                break
            played += 1
            fs = 0
            win, triggered = 0, False
        ps, s0, s1, s2, s3 = draw_part(reels, fs, s0, s1, s2, s3)
        if ways is not None:
            if reels.ways_groups[ps] > 0:  # uniform strips: a draw per group of reels
                mask, packed, s0, s1, s2, s3 = ways_group_draw(ps, reels, drawn_c, s0, s1, s2, s3)
                spin = 0
                if mask != np.uint64(0):
                    spin = ways_paid_grouped(
                        mask,
                        ps,
                        reels,
                        drawn_c,
                        game,
                        base_credits,
                        free_credits if fs else base_credits,
                        fams,
                        base_awards,
                        fs == 0,
                    )
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
                    stops,
                )
                spin, packed = ways_spin(
                    ps,
                    stops,
                    reels,
                    game,
                    base_credits,
                    free_credits if fs else base_credits,
                    fams,
                    base_awards,
                    fs == 0,
                )
        elif fast is not None:
            if fs == 0:  # a constant set index for base spins: measured +9% to +30%
                row, suffix, s0, s1, s2, s3 = draw_prefix_and_tail(
                    prefix_rows[0], tail_pairs[0], s0, s1, s2, s3
                )
                spin, packed = tail_spin(
                    0,
                    np.int64(head[row]),
                    suffix,
                    combos_c,
                    alive_line_c,
                    alive_state_c,
                    tail_counts_c,
                    tail_sym_c,
                    pair_c,
                    win1_c,
                    entry1_c,
                    classes,
                    0,
                    awards,
                    0,
                )
            else:
                row, suffix, s0, s1, s2, s3 = draw_prefix_and_tail(
                    prefix_rows[ps], tail_pairs[ps], s0, s1, s2, s3
                )
                spin, packed = tail_spin(
                    ps,
                    np.int64(head[head_first[ps] + row]),
                    suffix,
                    combos_c,
                    alive_line_c,
                    alive_state_c,
                    tail_counts_c,
                    tail_sym_c,
                    pair_c,
                    win1_c,
                    entry1_c,
                    classes,
                    n_classes,
                    awards,
                    n_entries + 1,
                )
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
                stops,
            )
            if fs == 0 and ps == 0:  # base spins (of part 0 if painted): a constant set index
                spin, packed = lines_spin(
                    0, stops, reels, px, level, game, t, classes, 0, awards, 0
                )
            else:
                spin, packed = lines_spin(
                    ps,
                    stops,
                    reels,
                    px,
                    level,
                    game,
                    t,
                    classes,
                    n_classes * fs,
                    awards,
                    (n_entries + 1) * fs,
                )
        if extras is not None and game.full_window_on:  # one symbol fills the window
            spin *= full_window_multiplier(game.full_window_mask[ps], stops, game.full_window_mult)
        if extras is not None and game.expand_on and fs:  # the drawn symbol fills its reels
            shown = 0
            for r in range(stops.shape[0]):
                shown += game.expand_present[r, stops[r], drawn]
            spin += level.expand_pay[drawn, shown]
        # a scatter pay, bonus or free-spin trigger needs some count at its
        # threshold: one SWAR test of the packed counts (``alarm_words`` in kernel_inputs)
        alarm = ((packed + alarm_add) & alarm_mask) != np.uint64(0)
        if alarm:
            if extras is None:  # plain scatters: pruned at compile time (measured)
                spin += scatter_plain(packed, scatter_pay[0], width)
            else:
                spin += scatter_packed(packed, scatter_pay[fs], scatter_excl, width)
        if extras is not None and game.line_bonus_tag > 0:  # lines and scatters play bonuses
            marks = spin // game.line_bonus_tag
            if marks > 0:
                spin -= marks * game.line_bonus_tag
                if fs == 0:
                    n_bonus += 1
                    triggered = True
                pay, s0, s1, s2, s3 = play_bonus_games(marks, game, level, s0, s1, s2, s3)
                if fs == 0:
                    spin += pay
                else:  # a free spin's bonus prizes are not multiplied
                    win += pay
        each = game.fs_each_cum if fs else game.base_each_cum
        if extras is not None and each.shape[0] > 1:  # a multiplier drawn for this spin
            u, s0, s1, s2, s3 = bounded(each[each.shape[0] - 1], s0, s1, s2, s3)
            k = 0
            while each[k] <= u:
                k += 1
            spin *= game.fs_each_mult[k] if fs else game.base_each_mult[k]
        if extras is not None and game.factor_on:  # what the reels show multiplies the spin
            for r in range(stops.shape[0]):
                spin *= reels.factor[ps, r, stops[r]]
        win += spin * fs_mult if fs else spin
        if not alarm:
            continue
        coins = count_field(packed, bonus_counted, width) if bonus_counted >= 0 else 0
        if bonus_counted >= 0 and coins >= bonus_min:
            if extras is not None and game.hold_on:
                pay, _, s0, s1, s2, s3 = hold_spin(coins, hold, hold_hits, s0, s1, s2, s3)
            else:
                pay, s0, s1, s2, s3 = bonus_award(bonus_cum, bonus_pay, s0, s1, s2, s3)
            win += pay
            if fs == 0:
                n_bonus += 1
                triggered = True
        if fs_counted >= 0:
            seen = count_field(packed, fs_counted, width)
            if fs_feature_count(seen, fs, fs_min, fs_spins):
                if fs == 0:
                    triggered = True
                    n_fs += 1
                    draws = game.fs_draw_cum
                    if extras is not None and draws.shape[0] > 1:  # the machine draws an option
                        u, s0, s1, s2, s3 = bounded(draws[draws.shape[0] - 1], s0, s1, s2, s3)
                        option = 0
                        while draws[option] <= u:
                            option += 1
                        fs_spins = game.fs_draw_spins[option]
                        fs_mult = game.fs_draw_mult[option]
                    if game.fs_count_mult.shape[0] > 1:  # the multiplier of the trigger's count
                        fs_mult = game.fs_count_mult[seen]
                    remaining = fs_spins[seen]
                    awarded = remaining
                    retriggers = fs_retriggers  # -1: unlimited
                    if extras is not None and game.expand_on:
                        cum = game.expand_cum
                        u, s0, s1, s2, s3 = bounded(cum[cum.shape[0] - 1], s0, s1, s2, s3)
                        drawn = 0
                        while cum[drawn] <= u:
                            drawn += 1
                elif retriggers != 0:
                    add = fs_added(seen, fs_spins, fs_max, awarded)
                    remaining += add
                    awarded += add
                    retriggers -= 1

    finish_chunk(out_row, n, acc.total, acc.hits, acc.top, n_fs, n_bonus, n_fs_spins)
    return acc.s_sq


@jit(parallel=SERIAL_PASSES)
def play_chunk_on_cpu(state, n, reels, px, level, game, hist, dest, ways, fast, extras):
    """One chunk of :func:`simulate_chunks` on its own copies of the tables, into ``dest``.

    Not inlined into the ``prange`` loop, which would drop the writes made
    through the records' fields (numba 0.68, see ``docs/ARCHITECTURE.md``);
    compiled through numba's parallel passes without parallel loops, so that
    copy propagation reads the records built here as the arrays they hold
    (:mod:`certify.numba_records`). ``dest``
    (:class:`~certify.engine.spin_records.ChunkOut`) gets the chunk's rows.
    """
    # this chunk's own copies of the tables read every spin (1.4 MB on the
    # reference game, copied in a fraction of a millisecond): reading the
    # arrays shared with the other thread ran 15-25% slower on 2 threads
    tables = SpinTables(
        px.head.copy(),
        px.combos.copy(),
        px.alive_line.copy(),
        px.alive_state.copy(),
        px.tail_sym.copy(),
        px.tail_counts.copy(),
        level.pair.copy(),
        level.win1.copy(),
        level.entry1.copy(),
    )
    scratch = ChunkScratch(
        private(reels.length.shape[1]),  # stops
        private(reels.length.shape[1]),  # the ways group draw's rows
        private(game.n_families),
        private(game.n_families),
        private(game.n_families),
        private(dest.classes.shape[0]),
        private(dest.awards.shape[0]),
        private(dest.hist.shape[0]),
        private(game.hold_n_jackpots),  # jackpot hits: the exact figures count them
        dest.row,
    )
    s_sq = play_chunk(state, n, reels, px, level, game, hist, tables, scratch, ways, fast, extras)
    dest.classes[:] = scratch.classes
    dest.awards[:] = scratch.awards
    dest.hist[:] = scratch.hist
    dest.sq[0] = s_sq


@jit(parallel=True)
def simulate_chunks(states, chunk_spins, reels, px, level, game, hist, outputs, ways, fast, extras):
    """Simulate every chunk (one RNG stream each) into per-chunk sufficient statistics.

    Each chunk is played by :func:`certify.engine._chunk.play_chunk` (the
    loop the CUDA kernel runs too) on its own copies of the tables: one loop
    plays base spins and the free spins they trigger (``fs`` = 1 selects the
    feature's reel set and multiplier), so the spin evaluation is written once.
    ``ways`` is None for a lines game, ``fast`` is not None for a lines game
    whose strips are uniform and whose prefix tables end two reels before the
    end (one draw for the prefix row, one for the last two reels,
    :func:`tail_spin`): numba prunes the other branches at compile
    time, so each kind of game gets its own specialised, cached kernel.
    ``outputs`` (:class:`~certify.engine.spin_records.ChunkOutputs`), a row
    per chunk: its statistics, sum of squares, prefix classes, entries and
    histogram. Award counts are kept for base spins only: ``classes`` counts
    prefix classes (their settled entries are added after the kernel),
    ``awards`` the entries paid by lines alive after the prefix, shifted by
    one (slot 0: no entry); the second half of both rows holds the free
    spins' counts.
    """
    out, out_sq, out_classes, out_awards, out_hist = outputs
    for c in prange(states.shape[0]):  # every write in play_chunk_on_cpu (see ChunkOut)
        dest = ChunkOut(out[c], out_sq[c : c + 1], out_classes[c], out_awards[c], out_hist[c])
        play_chunk_on_cpu(
            states[c], chunk_spins[c], reels, px, level, game, hist, dest, ways, fast, extras
        )
