"""numba kernels of outcome verification: replay screens, check feature order, record play.

Every screen is scored by the simulation's own device functions
(:func:`~certify.engine._prefix.lines_spin`, :func:`~certify.engine._kernels.ways_spin`,
:func:`~certify.engine._kernels.full_window_multiplier`,
:func:`~certify.engine._kernels.scatter_packed`), called in the order
``simulate_chunks`` calls them (:func:`screen_credits`); no pay rule is written
here. The module is named without a leading underscore on purpose: the
kernel-sources digest of :mod:`certify._numba` (which keys the shipped
precompiled bundle) covers ``_*.py`` files, and numba re-checks this file's own
source for its cache; the engine files it inlines are covered by the digest.
"""

from __future__ import annotations

import numpy as np

from certify._numba import jit, prange
from certify.engine._kernels import (
    bonus_award,
    draw_part,
    fs_added,
    fs_feature_count,
    full_window_multiplier,
    scatter_packed,
    scatter_plain,
    stops_set,
    ways_spin,
)
from certify.engine._prefix import count_field, lines_spin
from certify.engine._rng import bounded, draw_spin
from certify.engine.spin_records import Families, SpinTables
from certify.outcomes.kernel_records import ScoreWork

BLOCK = 1 << 14  # rows a thread replays with one set of scratch arrays

# phase codes (certify.outcomes.logs.PHASES) and finding codes (certify.outcomes.replay)
BASE, FREE, BONUS, RESPIN = 0, 1, 2, 3
F_NONE, F_START, F_BASE_AGAIN, F_FREE_UNAWARDED, F_BONUS_UNTRIGGERED = 0, 1, 2, 3, 4
F_RESPIN_UNTRIGGERED, F_FREE_SHORT, F_BONUS_MISSING, F_HOLD_MISSING = 5, 6, 7, 8


@jit(inline="always")
def screen_credits(fs, stops, drawn, reels, px, level, game, ways, extras, work):
    """(credits, packed counts) of one screen, exactly as ``simulate_chunks`` pays it.

    ``fs`` 0: base screen, 1: free screen (its reel set, tables and multiplier);
    ``drawn``: the feature's expanding symbol (Book of Ra), -1 when none.
    ``work``: the thread's :class:`~certify.outcomes.kernel_records.ScoreWork`.
    Base screens count their awards like the simulation (prefix classes in
    ``work.classes[:n]``, entries in ``work.awards[1 + entry]``).
    """
    classes, awards = work.classes, work.awards
    ps = stops_set(reels, fs, stops)
    n_classes = classes.shape[0] // 2
    n_slots = awards.shape[0] // 2
    if ways is not None:
        spin, packed = ways_spin(
            ps,
            stops,
            reels,
            game,
            level.credits[0],
            level.credits[1] if fs else level.credits[0],
            Families(work.fam_len, work.fam_win, work.fam_entry),
            awards[1:],
            fs == 0,
        )
    else:
        tables = SpinTables(
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
        spin, packed = lines_spin(
            ps, stops, reels, px, level, game, tables, classes, n_classes * fs, awards, n_slots * fs
        )
    if extras is not None and game.full_window_on:
        spin *= full_window_multiplier(game.full_window_mask[ps], stops, game.full_window_mult)
    if extras is not None and game.expand_on and fs and drawn >= 0:
        shown = 0
        for r in range(stops.shape[0]):
            shown += game.expand_present[r, stops[r], drawn]
        spin += level.expand_pay[drawn, shown]
    if extras is None:
        spin += scatter_plain(packed, level.scatter_pay[0], game.count_width)
    else:
        spin += scatter_packed(packed, level.scatter_pay[fs], game.scatter_excl, game.count_width)
    if extras is not None and game.factor_on:  # what the reels show multiplies the spin
        for r in range(stops.shape[0]):
            spin *= reels.factor[ps, r, stops[r]]
    return (spin * game.fs_mult if fs else spin), packed


@jit
def _replay_block(b, stops, fs_of, drawn_of, reels, px, level, game, ways, extras, out):
    """Score block ``b`` of :func:`replay_screens` (its rows, its award counts).

    Not inlined into the ``prange`` body on purpose: there numba drops writes
    to arrays reached through a record's fields (numba issues 5872 and 7135),
    such as ``out.win`` and the scratch of :class:`ScoreWork`.
    """
    n = stops.shape[0]
    fl = np.zeros(game.n_families, dtype=np.int64)
    fw = np.zeros(game.n_families, dtype=np.int64)
    fe = np.zeros(game.n_families, dtype=np.int64)
    classes = np.zeros(out.classes.shape[1], dtype=np.int64)
    awards = np.zeros(out.awards.shape[1], dtype=np.int64)
    work = ScoreWork(classes, awards, fl, fw, fe)
    row = np.zeros(stops.shape[1], dtype=np.int64)
    for i in range(b * BLOCK, min(n, (b + 1) * BLOCK)):
        fs = fs_of[i]
        if fs < 0:
            continue
        for r in range(row.shape[0]):
            row[r] = stops[i, r]
        out.win[i], out.packed[i] = screen_credits(
            fs, row, drawn_of[i], reels, px, level, game, ways, extras, work
        )
    out.classes[b, :] = classes
    out.awards[b, :] = awards


@jit(parallel=True)
def replay_screens(stops, fs_of, drawn_of, reels, px, level, game, ways, extras, out):
    """Score every row whose ``fs_of`` is 0 or 1 (others: -1, left at 0).

    ``out`` (:class:`~certify.outcomes.kernel_records.ReplayOut`) gets each
    row's win and packed counts. Rows run in blocks of :data:`BLOCK` over the
    threads (:func:`_replay_block`); block ``b`` adds its award counts to
    ``out.classes[b]`` and ``out.awards[b]``.
    """
    n_blocks = (stops.shape[0] + BLOCK - 1) // BLOCK
    for b in prange(n_blocks):
        _replay_block(b, stops, fs_of, drawn_of, reels, px, level, game, ways, extras, out)


@jit(inline="always")
def _game_end_finding(remaining, pending, held):
    """Finding of a game closed here: free spins short, bonus or hold missing (``F_NONE``)."""
    if remaining > 0:
        return F_FREE_SHORT
    if pending > 0:
        return F_BONUS_MISSING
    if held == 1:
        return F_HOLD_MISSING
    return F_NONE


@jit(inline="always")
def _order_finding(starts, p):
    """Finding of a row's phase at its place: a game opened off the base game, a base again."""
    if starts:
        return F_START if p != BASE else F_NONE
    return F_BASE_AGAIN if p == BASE else F_NONE


@jit(inline="always")
def _take_row(p, remaining, pending, held):
    """(finding, remaining, pending, held) once row phase ``p`` takes what the game owes it.

    A respin plays the held hold and spin (``held`` 2), a bonus row one pending
    round, a free spin one of the remaining; the finding when nothing was owed.
    """
    if p == RESPIN:
        if held == 0:
            return F_RESPIN_UNTRIGGERED, remaining, pending, held
        return F_NONE, remaining, pending, 2  # played
    if p == BONUS:
        if pending == 0:
            return F_BONUS_UNTRIGGERED, remaining, pending, held
        return F_NONE, remaining, pending - 1, held
    if p == FREE:
        if remaining == 0:
            return F_FREE_UNAWARDED, remaining, pending, held
        return F_NONE, remaining - 1, pending, held
    return F_NONE, remaining, pending, held


@jit(inline="always")
def _bonus_hit(game, packed):
    """Whether a screen's packed counts trigger the bonus (or hold and spin)."""
    return (
        game.bonus_counted >= 0
        and count_field(packed, game.bonus_counted, game.count_width) >= game.bonus_min
    )


@jit(inline="always")
def _bonus_trigger(game, packed, hold, held, pending):
    """(held, pending, triggered) after a scored screen: hold and spin held, or a bonus round."""
    if _bonus_hit(game, packed):
        if hold:
            return 1, pending, True
        return held, pending + 1, True
    return held, pending, False


@jit(inline="always")
def _free_trigger(game, packed, fs, p, remaining, awarded, retriggers):
    """(remaining, awarded, retriggers, triggered) after a scored screen's free-spin counts.

    A base screen's trigger awards the feature (``triggered``); a free
    screen's retriggers it while retriggers are left.
    """
    if game.fs_counted >= 0:
        seen = count_field(packed, game.fs_counted, game.count_width)
        if fs_feature_count(seen, fs, game.fs_min, game.fs_spins):
            if fs == 0 and p == BASE:
                remaining = game.fs_spins[seen]
                return remaining, remaining, game.fs_retriggers, True
            if fs == 1 and retriggers != 0:
                add = fs_added(seen, game.fs_spins, game.fs_max, awarded)
                return remaining + add, awarded + add, retriggers - 1, False
    return remaining, awarded, retriggers, False


@jit
def check_sequence(
    start, phase, scored, packed, game, hold, state, out_finding, out_close, out_trigger
):
    """Walk a piece's rows in log order: features in the order the model plays them.

    ``start[i]``: row ``i`` opens a game; ``scored[i]``: its win was replayed
    (the trigger counts in ``packed[i]`` are known). ``state`` carries the open
    game between pieces: (remaining free spins, awarded, retriggers left,
    pending bonus rounds, hold pending, open). Per row, ``out_finding`` gets a
    finding code (``F_*``) and ``out_trigger`` bit 0 a free-spin trigger of a
    base screen, bit 1 a bonus or hold trigger of a base screen. A finding
    about a whole game (spins missing) goes to ``out_close`` at the game's last
    row; the last game's is left in ``state`` for the caller.
    """
    remaining, awarded, retriggers, pending, held, opened = (
        state[0],
        state[1],
        state[2],
        state[3],
        state[4],
        state[5],
    )
    for i in range(start.shape[0]):
        p = phase[i]
        if start[i]:
            closed = _game_end_finding(remaining, pending, held)
            if opened and i > 0 and closed != F_NONE:
                out_close[i - 1] = closed
            remaining, awarded, retriggers, pending, held, opened = 0, 0, 0, 0, 0, 1
        finding = _order_finding(start[i], p)
        if finding != F_NONE:
            out_finding[i] = finding
        finding, remaining, pending, held = _take_row(p, remaining, pending, held)
        if finding != F_NONE:
            out_finding[i] = finding
        if p == RESPIN or p == BONUS or not scored[i]:
            continue
        fs = 1 if p == FREE else 0
        held, pending, triggered = _bonus_trigger(game, packed[i], hold, held, pending)
        if triggered and fs == 0:
            out_trigger[i] |= 2
        remaining, awarded, retriggers, triggered = _free_trigger(
            game, packed[i], fs, p, remaining, awarded, retriggers
        )
        if triggered:
            out_trigger[i] |= 1
    state[0], state[1], state[2], state[3], state[4], state[5] = (
        remaining,
        awarded,
        retriggers,
        pending,
        held,
        opened,
    )


@jit(inline="always")
def _base_fault(fault, stops, s0, s1, s2, s3):
    """Apply a bias or serial fault to a base screen's drawn ``stops``; returns the state.

    Bias: reel ``fault.reel`` shows ``fault.stop`` with probability ``fault.p32`` / 2^32
    (one draw); serial: each reel keeps its previous base stop (``fault.prev``)
    with that probability (one draw a reel).
    """
    p32 = np.uint64(fault.p32)
    if fault.kind == 1:
        u, s0, s1, s2, s3 = bounded(1 << 32, s0, s1, s2, s3)
        if np.uint64(u) < p32:
            stops[fault.reel] = fault.stop
    elif fault.kind == 2:
        prev = fault.prev
        for r in range(stops.shape[0]):
            u, s0, s1, s2, s3 = bounded(1 << 32, s0, s1, s2, s3)
            if prev[r] >= 0 and np.uint64(u) < p32:
                stops[r] = prev[r]
            prev[r] = stops[r]
    return s0, s1, s2, s3


@jit(inline="always")
def _draw_screen(reels, fs, fault, stops, s0, s1, s2, s3):
    """Draw a screen into ``stops`` as the engine does (part, then a stop per reel).

    A base screen then takes the recording's fault (:func:`_base_fault`).
    Returns the state.
    """
    ps, s0, s1, s2, s3 = draw_part(reels, fs, s0, s1, s2, s3)
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
    if fs == 0:
        s0, s1, s2, s3 = _base_fault(fault, stops, s0, s1, s2, s3)
    return s0, s1, s2, s3


@jit(inline="always")
def _draw_expanding(game, s0, s1, s2, s3):
    """(symbol, state): the Book-of-Ra symbol a feature expands, drawn by its weights."""
    cum = game.expand_cum
    u, s0, s1, s2, s3 = bounded(cum[cum.shape[0] - 1], s0, s1, s2, s3)
    drawn = 0
    while cum[drawn] <= u:
        drawn += 1
    return drawn, s0, s1, s2, s3


@jit(inline="always")
def _put_row(out, row, stops, phase, game_index, win, drawn):
    """Write row ``row`` of ``out`` (:class:`~certify.outcomes.kernel_records.GameRows`)."""
    out.stops[row, :] = stops
    out.phase[row], out.game[row], out.win[row], out.drawn[row] = phase, game_index, win, drawn


@jit
def record_games(state, n_games, reels, px, level, game, ways, extras, fault, out):
    """Play up to ``n_games`` paid games into row arrays; stop early when they are full.

    The engine's stream scheme and draws (:func:`~certify.engine._rng.draw_spin`
    per reel, :func:`~certify.engine._kernels.bonus_award`, the Book-of-Ra draw),
    scored by :func:`screen_credits`. ``fault``
    (:class:`~certify.outcomes.kernel_records.Fault`): kind 0 none, 1 bias (reel
    ``fault.reel`` shows ``fault.stop`` instead of its draw with probability
    ``fault.p32`` / 2^32), 2 serial (each reel keeps its previous base stop,
    ``fault.prev``, with that probability), 3 feature (one free spin more than
    the award); a wrong pay is recorded by scoring with a changed level (the
    caller's). Rows go to ``out`` (:class:`~certify.outcomes.kernel_records.GameRows`).
    Returns (rows, games): only whole games are written; ``state`` is left after the last.
    """
    s0, s1, s2, s3 = state[0], state[1], state[2], state[3]
    cap = out.win.shape[0]
    n_reels = out.stops.shape[1]
    stops = np.zeros(n_reels, dtype=np.int64)
    classes = np.zeros(2 * px.combos.shape[0] + 2, dtype=np.int64)
    awards = np.zeros(2 * (max(level.win1.shape[0], level.credits.shape[1]) + 1), dtype=np.int64)
    fl = np.zeros(game.n_families, dtype=np.int64)
    fw = np.zeros(game.n_families, dtype=np.int64)
    fe = np.zeros(game.n_families, dtype=np.int64)
    work = ScoreWork(classes, awards, fl, fw, fe)
    rows, done = 0, 0
    while done < n_games:
        t0, t1, t2, t3 = s0, s1, s2, s3
        at = rows
        remaining, awarded, retriggers, drawn, fs, ok = 0, 0, 0, -1, 0, True
        while ok:
            s0, s1, s2, s3 = _draw_screen(reels, fs, fault, stops, s0, s1, s2, s3)
            if rows == cap:
                ok = False
                break
            win, packed = screen_credits(
                fs, stops, drawn, reels, px, level, game, ways, extras, work
            )
            _put_row(out, rows, stops, fs, done, win, drawn)
            rows += 1
            if _bonus_hit(game, packed):
                pay, s0, s1, s2, s3 = bonus_award(game.bonus_cum, level.bonus_pay, s0, s1, s2, s3)
                if rows == cap:
                    ok = False
                    break
                _put_row(out, rows, -1, BONUS, done, pay, -1)
                rows += 1
            remaining, awarded, retriggers, started = _free_trigger(
                game, packed, fs, fs, remaining, awarded, retriggers
            )
            if started:
                if fault.kind == 3:  # the feature fault: one spin more than the award
                    remaining += 1
                    awarded += 1
                if extras is not None and game.expand_on:
                    drawn, s0, s1, s2, s3 = _draw_expanding(game, s0, s1, s2, s3)
            if remaining == 0:
                break
            remaining -= 1
            fs = 1
        if not ok:
            s0, s1, s2, s3 = t0, t1, t2, t3
            rows = at
            break
        done += 1
    state[0], state[1], state[2], state[3] = s0, s1, s2, s3
    return rows, done


@jit
def tally_stops(stops, tables, tallies, prev, last_a, seen):
    """Add screens (rows of stops, log order) to a reel set's stop tallies in one pass.

    ``tables`` (:class:`~certify.outcomes.kernel_records.StopTables`): ``fold``,
    ``high``, ``in_a``; ``tallies`` (:class:`~certify.outcomes.kernel_records.StopTallies`),
    per reel ``r``: ``counts[r, stop]``; ``serial[r, a, b]`` the pairs of consecutive
    screens' stops (folded mod ``fold[r]``); ``neighbour[r, a, b]`` the pairs (reel r,
    reel r + 1) of a screen; ``runs[r]`` the runs of ``high`` values begun; ``ones[r]``
    the screens with a ``high`` stop; ``gaps[r, g]`` the gaps between stops in ``in_a``
    (the last bin: that length or more). ``prev`` and ``last_a`` (the position of the
    last stop in A, from ``seen``) carry a file's state from piece to piece.
    """
    fold, high, in_a = tables.fold, tables.high, tables.in_a
    counts, serial, neighbour = tallies.counts, tallies.serial, tallies.neighbour
    runs, ones, gaps = tallies.runs, tallies.ones, tallies.gaps
    m, n_reels = stops.shape
    top = gaps.shape[1] - 1
    for i in range(m):
        pos = seen + i
        for r in range(n_reels):
            x = stops[i, r]
            counts[r, x] += 1
            xf = x % fold[r]
            p = prev[r]
            if p >= 0:
                serial[r, p % fold[r], xf] += 1
                if high[r, p] != high[r, x]:
                    runs[r] += 1
            else:
                runs[r] += 1
            if r + 1 < n_reels:
                neighbour[r, xf, stops[i, r + 1] % fold[r + 1]] += 1
            ones[r] += high[r, x]
            if in_a[r, x]:
                if last_a[r] >= 0:
                    gaps[r, min(pos - last_a[r] - 1, top)] += 1
                last_a[r] = pos
            prev[r] = x
