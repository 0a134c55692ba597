"""numba kernels of the Monte Carlo engine: arrays and scalars only.

The random numbers come from xoshiro256** (Blackman & Vigna), one independent
stream per chunk of spins, seeded outside the kernel from
``numpy.random.SeedSequence(seed, spawn_key=(chunk,))``. Bounded draws use
Lemire's multiply-shift on 32-bit halves of each 64-bit output, with the
rejection step that makes them exactly uniform.

Layout of ``rng`` (uint64[6]): xoshiro state s0..s3, a spare 32-bit half,
and a flag saying whether the spare is valid.
"""

from __future__ import annotations

import numpy as np

from certify._numba import jit, prange
from certify.engine._prefix import prefix_line_win

OUT_SPINS, OUT_WIN, OUT_HITS, OUT_MAX, OUT_FS, OUT_BONUS, OUT_FS_SPINS = range(7)
N_OUT = 7
_MASK32 = np.uint64(0xFFFFFFFF)


@jit(inline="always")
def _rotl(x, k):
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@jit(inline="always")
def next_u64(rng):
    """Advance xoshiro256** and return its next 64-bit output."""
    s0, s1, s2, s3 = rng[0], rng[1], rng[2], rng[3]
    result = _rotl(s1 * np.uint64(5), 7) * np.uint64(9)
    t = s1 << np.uint64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = _rotl(s3, 45)
    rng[0], rng[1], rng[2], rng[3] = s0, s1, s2, s3
    return result


@jit(inline="always")
def next_u32(rng):
    """A uniform 32-bit value (as uint64), using both halves of each output."""
    if rng[5] != np.uint64(0):
        rng[5] = np.uint64(0)
        return rng[4]
    r = next_u64(rng)
    rng[4] = r & _MASK32
    rng[5] = np.uint64(1)
    return r >> np.uint64(32)


@jit(inline="always")
def bounded(rng, n):
    """A uniform integer in [0, n) for 0 < n < 2**32 (Lemire, unbiased)."""
    un = np.uint64(n)
    m = next_u32(rng) * un
    low = m & _MASK32
    if low < un:
        threshold = (np.uint64(1 << 32) - un) % un
        while low < threshold:
            m = next_u32(rng) * un
            low = m & _MASK32
    return np.int64(m >> np.uint64(32))


@jit(inline="always")
def draw_stops(rng, length, total_weight, lookup, cumulative, mode, stops):
    """Draw one stop per reel: uniform (mode 0), weighted by table (1) or by search (2)."""
    for r in range(length.shape[0]):
        if mode == 0:
            stops[r] = bounded(rng, length[r])
        else:
            u = bounded(rng, total_weight[r])
            if mode == 1:
                stops[r] = lookup[r, u]
            else:
                lo, hi = 0, length[r] - 1
                while lo < hi:
                    mid = (lo + hi) >> 1
                    if cumulative[r, mid] > u:
                        hi = mid
                    else:
                        lo = mid + 1
                stops[r] = lo


@jit(inline="always")
def line_win(stops, window, paylines, trans, live, state_win, state_entry, awards, count):
    """Sum of line wins of one spin; counts paying entries into ``awards`` if ``count``."""
    total = 0
    for line in range(paylines.shape[0]):
        st = 0
        for r in range(window.shape[0]):
            st = trans[st, window[r, stops[r], paylines[line, r]]]
            if not live[st]:
                break
        total += state_win[st]
        if count and state_entry[st] >= 0:
            awards[state_entry[st]] += 1
    return total


@jit(inline="always")
def ways_win(stops, window, ways_match, entry_len, family, credits, fam_len, fam_win,
             fam_entry, awards, count):
    """Sum of ways wins of one spin: each family pays its longest matching entry."""
    fam_len[:] = 0
    fam_win[:] = 0
    rows = window.shape[2]
    for e in range(entry_len.shape[0]):
        prod = 1
        for r in range(entry_len[e]):
            c = 0
            for row in range(rows):
                c += ways_match[e, r, window[r, stops[r], row]]
            prod *= c
            if prod == 0:
                break
        if prod > 0:
            f = family[e]
            w = credits[e] * prod
            if entry_len[e] > fam_len[f] or (entry_len[e] == fam_len[f] and w > fam_win[f]):
                fam_len[f] = entry_len[e]
                fam_win[f] = w
                fam_entry[f] = e
    total = 0
    for f in range(fam_len.shape[0]):
        if fam_len[f] > 0:
            total += fam_win[f]
            if count:
                awards[fam_entry[f]] += 1
    return total


@jit(inline="always")
def count_symbols(stops, counted, counts):
    """Counted symbols (scatters, triggers) anywhere in the window."""
    for c in range(counted.shape[0]):
        n = 0
        for r in range(stops.shape[0]):
            n += counted[c, r, stops[r]]
        counts[c] = n


@jit(inline="always")
def scatter_win(counts, scatter_pay):
    """Scatter pays: for each counted symbol, the pay of its highest reached count."""
    total = 0
    for c in range(scatter_pay.shape[0]):
        total += scatter_pay[c, counts[c]]
    return total


@jit(inline="always")
def bonus_award(rng, bonus_cum, bonus_pay):
    """Draw one bonus award (credits) from its weight table."""
    u = bounded(rng, bonus_cum[bonus_cum.shape[0] - 1])
    k = 0
    while bonus_cum[k] <= u:
        k += 1
    return bonus_pay[k]


@jit(inline="always")
def hist_bin(win, edges):
    """Histogram bin of a win: 0 for none, else k with edges[k] <= win < edges[k + 1].

    ``edges[k]`` is the smallest credit amount of bin k (bin k holds wins in
    [2^(k-11), 2^(k-10)) x total bet); a binary search, no logarithm.
    """
    if win <= 0:
        return 0
    lo, hi = 1, edges.shape[0] - 1
    while lo < hi:
        mid = (lo + hi + 1) >> 1
        if edges[mid] <= win:
            lo = mid
        else:
            hi = mid - 1
    return lo


@jit(inline="always")
def evaluate_lines(stops, reels, px, level, game, counts, awards, count):
    """Line + scatter credits of the window at ``stops`` (fills ``counts``)."""
    win = prefix_line_win(stops, reels[0], reels[1], game[0], level[0], level[1], level[2],
                          level[3], reels[5], px, counts, awards, count)
    return win + scatter_win(counts, level[5])


@jit(inline="always")
def evaluate_ways(stops, reels, level, game, counts, scratch, awards, count):
    """Ways + scatter credits of the window at ``stops`` (fills ``counts``)."""
    win = ways_win(stops, reels[0], game[2], game[3], game[4], level[4], scratch[0],
                   scratch[1], scratch[2], awards, count)
    count_symbols(stops, reels[5], counts)
    return win + scatter_win(counts, level[5])


@jit(inline="always")
def _scratch(n_families):
    return (np.zeros(n_families, dtype=np.int64), np.zeros(n_families, dtype=np.int64),
            np.zeros(n_families, dtype=np.int64))


@jit(parallel=True)
def simulate_chunks(states, chunk_spins, base, free, base_px, free_px, level, game,  # noqa: C901
                    edges, out, out_sq, out_awards, out_hist, ways):
    """Simulate every chunk (one RNG stream each) into per-chunk sufficient statistics.

    ``ways`` is None for a lines game (numba prunes the ways branches at compile
    time, so each kind of game gets its own specialised, cached kernel). The
    lines walk is written out in the loop rather than called: measured, array
    arguments to inlined helpers cost about 30% of a spin (8.5M -> 12.4M
    spins/s per thread on the reference game), so this one function is long
    on purpose; ``evaluate_lines`` is its readable twin (used by the tests).
    """
    for c in prange(states.shape[0]):
        rng = np.zeros(6, dtype=np.uint64)
        rng[:4] = states[c]
        stops = np.zeros(base[1].shape[0], dtype=np.int64)
        counts = np.zeros(base[5].shape[0], dtype=np.int64)
        scratch = _scratch(game[14])
        awards = np.zeros(out_awards.shape[1], dtype=np.int64)
        hist = np.zeros(edges.shape[0], dtype=np.int64)
        bonus_pay = level[6]
        fs_counted, fs_min, fs_spins, fs_mult = game[5], game[6], game[7], game[8]
        fs_retrigger, fs_max = game[9], game[10]
        bonus_counted, bonus_min, bonus_cum = game[11], game[12], game[13]
        acc = np.zeros(N_OUT, dtype=np.int64)
        s_sq = 0.0
        b_window, b_length, b_tw, b_lookup, b_cum, b_counted, b_mode = base
        depth, head, alive_line, alive_state, paid_entry = base_px
        f_window, f_length, f_tw, f_lookup, f_cum, f_counted, f_mode = free
        f_depth, f_head, f_alive_line, f_alive_state = (free_px[0], free_px[1], free_px[2],
                                                        free_px[3])
        trans, live, state_win, state_entry, scatter_pay = (level[0], level[1], level[2],
                                                            level[3], level[5])
        paylines = game[0]
        n_reels = b_length.shape[0]
        for _ in range(chunk_spins[c]):
            draw_stops(rng, b_length, b_tw, b_lookup, b_cum, b_mode, stops)
            if ways is None:
                # prefix row of the first reels, then the surviving lines (see _prefix.py)
                idx = 0
                for r in range(depth):
                    idx = idx * b_length[r] + stops[r]
                win = np.int64(head[idx, 0])
                first = head[idx, 1]
                for a in range(first, first + head[idx, 2]):
                    line = alive_line[a]
                    st = alive_state[a]
                    for r in range(depth, n_reels):
                        st = trans[st, b_window[r, stops[r], paylines[line, r]]]
                        if not live[st]:
                            break
                    win += state_win[st]
                    if state_entry[st] >= 0:
                        awards[state_entry[st]] += 1
                first = head[idx, 3]
                for a in range(first, first + head[idx, 4]):
                    awards[paid_entry[a]] += 1
                for k in range(b_counted.shape[0]):
                    m = np.int64(head[idx, 5 + k])
                    for r in range(depth, n_reels):
                        m += b_counted[k, r, stops[r]]
                    counts[k] = m
                win += scatter_win(counts, scatter_pay)
            else:
                win = evaluate_ways(stops, base, level, game, counts, scratch, awards, True)
            triggered = False
            if bonus_counted >= 0 and counts[bonus_counted] >= bonus_min:
                win += bonus_award(rng, bonus_cum, bonus_pay)
                acc[OUT_BONUS] += 1
                triggered = True
            if fs_counted >= 0 and counts[fs_counted] >= fs_min:
                triggered = True
                acc[OUT_FS] += 1
                remaining = fs_spins[counts[fs_counted]]
                awarded = remaining
                while remaining > 0:
                    remaining -= 1
                    acc[OUT_FS_SPINS] += 1
                    draw_stops(rng, f_length, f_tw, f_lookup, f_cum, f_mode, stops)
                    if ways is None:
                        # the same walk as the base game's, on the feature strips (written
                        # out: array arguments to inlined helpers cost ~30% per spin here)
                        idx = 0
                        for r in range(f_depth):
                            idx = idx * f_length[r] + stops[r]
                        fwin = np.int64(f_head[idx, 0])
                        first = f_head[idx, 1]
                        for a in range(first, first + f_head[idx, 2]):
                            line = f_alive_line[a]
                            st = f_alive_state[a]
                            for r in range(f_depth, n_reels):
                                st = trans[st, f_window[r, stops[r], paylines[line, r]]]
                                if not live[st]:
                                    break
                            fwin += state_win[st]
                        for k in range(f_counted.shape[0]):
                            m = np.int64(f_head[idx, 5 + k])
                            for r in range(f_depth, n_reels):
                                m += f_counted[k, r, stops[r]]
                            counts[k] = m
                        fwin += scatter_win(counts, scatter_pay)
                    else:
                        fwin = evaluate_ways(stops, free, level, game, counts, scratch, awards,
                                             False)
                    win += fs_mult * fwin
                    if bonus_counted >= 0 and counts[bonus_counted] >= bonus_min:
                        win += bonus_award(rng, bonus_cum, bonus_pay)
                    if fs_retrigger and counts[fs_counted] >= fs_min:
                        add = fs_spins[counts[fs_counted]]
                        if fs_max > 0:
                            add = min(add, fs_max - awarded)
                        remaining += add
                        awarded += add
            acc[OUT_WIN] += win
            s_sq += float(win) * float(win)
            if win > 0 or triggered:
                acc[OUT_HITS] += 1
            if win > acc[OUT_MAX]:
                acc[OUT_MAX] = win
            hist[hist_bin(win, edges)] += 1
        acc[OUT_SPINS] = chunk_spins[c]
        out[c, :] = acc
        out_sq[c] = s_sq
        out_awards[c, :] = awards
        out_hist[c, :] = hist


@jit(parallel=True)
def evaluate_stops(stop_rows, reels, px, level, game, out, ways):
    """Line/ways + scatter credits of given stop vectors (no features): a test hook."""
    for i in prange(stop_rows.shape[0]):
        counts = np.zeros(reels[5].shape[0], dtype=np.int64)
        awards = np.zeros(level[4].shape[0], dtype=np.int64)
        scratch = _scratch(game[14])
        if ways is None:
            out[i] = evaluate_lines(stop_rows[i], reels, px, level, game, counts, awards, False)
        else:
            out[i] = evaluate_ways(stop_rows[i], reels, level, game, counts, scratch, awards,
                                   False)


@jit(parallel=True)
def stream_sample(states, draws, bound, out_sum, out_sq, out_counts):
    """Per stream: sum and sum of squares of ``draws`` bounded draws, and their histogram."""
    for c in prange(states.shape[0]):
        rng = np.zeros(6, dtype=np.uint64)
        rng[:4] = states[c]
        s, sq = 0.0, 0.0
        for _ in range(draws):
            x = bounded(rng, bound)
            s += x
            sq += float(x) * float(x)
            out_counts[c, x] += 1
        out_sum[c] = s
        out_sq[c] = sq


@jit
def replay_stops(state, n, reels, out):
    """The stops the simulation kernel draws for ``n`` spins of a stream: a test hook.

    Valid for games without features (a bonus or free spins draw more numbers).
    """
    rng = np.zeros(6, dtype=np.uint64)
    rng[:4] = state
    for i in range(n):
        draw_stops(rng, reels[1], reels[2], reels[3], reels[4], reels[6], out[i])
