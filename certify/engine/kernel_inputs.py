"""The named inputs of the numba kernels, built from a machine's tables.

The simulation kernels (:mod:`certify.engine._kernels`) and the exact
calculator's kernels (:mod:`certify.exact._kernels`) take these named tuples
(numba compiles a ``NamedTuple`` like a plain tuple, fields read by name at
compile time: no cost per spin). Both sides import them from here, so a field
is read by its name everywhere and two fields cannot be swapped silently.

Parallel kernels take no nested tuples: each of these is flat.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from certify.engine.prefix import PrefixTables, cached_prefix_tables, count_width, pack_counts
from certify.engine.tables import HIST_BINS, GameTables, LevelTables, ReelSet, ways_sums

SMALL_WINS = 4096  # wins below this many credits find their histogram bin in a table


class ReelInputs(NamedTuple):
    """Every reel set of a game, stacked on a first axis (set 0: base game)."""

    set_of: np.ndarray  # (2,) int64: reel set of base spins, of free spins
    window: np.ndarray  # (sets, reels, stops, rows) uint8 symbol ids
    length: np.ndarray  # (sets, reels) stops per strip
    total_weight: np.ndarray  # (sets, reels)
    lookup: np.ndarray  # (sets, reels, total) draw -> stop, when totals are small
    cumulative: np.ndarray  # (sets, reels, stops) running weights (binary search)
    counts_pack: np.ndarray  # (sets, reels, stops) uint64 packed counted symbols
    mode: int  # 0 uniform, 1 lookup, 2 binary search
    ways_sum: np.ndarray  # (sets, reels, stops, entries) ways of a ways game (else a dummy)
    ways_mask: np.ndarray  # (sets, reels, stops) uint64: bit b set when entry ways_bit_entry[b]
    # finds a way on that reel at that stop, or ends before that reel (see ways_masks)
    ways_groups: np.ndarray  # (sets,) groups of reels drawn at once (0: no group draw)
    ways_group_first: np.ndarray  # (sets, groups + 1) first reel of each group, then the reels
    ways_group_size: np.ndarray  # (sets, groups) stop combinations of each group
    ways_group_rows: np.ndarray  # (sets, groups, combinations, 4) uint64 rows: the AND of
    # the group's masks, its packed counts, its stops (16 bits a reel), where its ways start
    ways_group_prod: np.ndarray  # (sets, groups, products) int64: per row, each set bit's
    # entry's ways over the group's reels (1 past the entry's end), in bit order
    factor: np.ndarray  # (sets, reels, stops) int64: what the stop multiplies the spin's wins by
    # ``paints``: a phase plays one of its parts (sets set_of[phase] + k): drawn by
    # part_cum[phase] (running weights; one column: a single set), and read back from a
    # stop row as the sum of part_of[phase, reel, stop] (certify/engine/paint.py)
    part_cum: np.ndarray  # (2, parts) int64
    part_of: np.ndarray  # (2, reels, stops) int64


class PrefixInputs(NamedTuple):
    """The prefix tables of one bet level (see :class:`certify.engine.prefix.PrefixTables`)."""

    depth: np.ndarray
    head_first: np.ndarray
    head: np.ndarray
    combos: np.ndarray
    alive_line: np.ndarray
    alive_state: np.ndarray
    tail_on: np.ndarray
    tail_counts: np.ndarray
    tail_sym: np.ndarray
    prefix_rows: np.ndarray
    tail_pairs: np.ndarray


class LevelInputs(NamedTuple):
    """Everything that depends on the bet level."""

    trans: np.ndarray  # line automaton: (states, symbols) next state
    live: np.ndarray  # (states,) bool: an entry can still complete
    state_win: np.ndarray  # (states,) credits of a settled state
    state_entry: np.ndarray  # (states,) its award key (-1 none)
    credits: np.ndarray  # (2, entries) credits per line / way: base game, free spins
    scatter_pay: np.ndarray  # (2, counted, max count + 1) credits: base game, free spins
    bonus_pay: np.ndarray  # (awards,) credits
    step: np.ndarray
    pair: np.ndarray
    win1: np.ndarray
    entry1: np.ndarray
    alarm_add: np.uint64  # SWAR words: (packed + add) & mask != 0 when a count may pay
    alarm_mask: np.uint64
    cap: int  # a spin's whole win is capped at this many credits (0: no cap)
    hold_value_pay: np.ndarray  # (values,) credits of each hold-and-spin coin value
    hold_full_pay: int  # credits of a full window in hold and spin
    expand_pay: np.ndarray  # (drawable symbols, reels + 1) Book of Ra: credits by reels shown
    law_pay: np.ndarray  # the bonus games pay entries play: their prizes (credits), in turn


class GameInputs(NamedTuple):
    """Level-independent rules: paylines, ways families, free spins, bonus."""

    paylines: np.ndarray  # (lines, reels) row per reel
    entry_len: np.ndarray  # (entries,)
    family: np.ndarray  # (entries,) ways family (entries sharing a first token)
    n_families: int
    fs_counted: int  # counted index of the free-spin trigger (-1 none)
    fs_min: int
    fs_spins: np.ndarray  # (2 (max count + 1),) spins a trigger awards by count, then a retrigger
    fs_mult: int  # multiplies a free spin's line and scatter win (1: tables premultiplied)
    fs_retriggers: int  # retriggers allowed in one feature: 0, 1 ("once"), -1 (unlimited)
    fs_each_cum: np.ndarray  # (values,) running weights of the multiplier drawn each free spin
    fs_each_mult: np.ndarray  # (values,) its values ([1]: none drawn)
    base_each_cum: np.ndarray  # (values,) running weights of the multiplier each paid spin draws
    base_each_mult: np.ndarray  # (values,) its values ([1]: none drawn)
    factor_on: bool  # some stop multiplies the spin's wins (ReelInputs.factor)
    fs_draw_cum: np.ndarray  # (options,) running weights of drawn free-spin options ([1]: none)
    fs_draw_spins: np.ndarray  # (options, 2 (max count + 1)) each option's fs_spins
    fs_draw_mult: np.ndarray  # (options,) each option's multiplier
    fs_count_mult: np.ndarray  # (max count + 1,) the feature's multiplier by trigger count ([1])
    fs_max: int  # 0: no cap
    bonus_counted: int
    bonus_min: int
    bonus_cum: np.ndarray  # (awards,) running weights
    scatter_excl: np.ndarray  # (counted,) 1: an exclusive scatter (only the first paying pays)
    bonus_jmax: int  # bonus buckets: 1 (pick bonus) or the window's cells (hold and spin)
    hold_on: bool  # the bonus symbol starts hold and spin (else the pick bonus)
    hold_cells: int
    hold_respins: int
    hold_p_num: int  # an empty cell shows a coin with probability p_num / p_den
    hold_p_den: int
    hold_value_cum: np.ndarray  # (values,) running weights of the coin values
    hold_value_jackpot: np.ndarray  # (values,) jackpot column of each value (-1 none)
    hold_full_jackpot: int
    hold_n_jackpots: int
    expand_on: bool  # Book of Ra: a symbol drawn at the feature's start expands in it
    expand_cum: np.ndarray  # (drawable symbols,) running draw weights
    expand_present: np.ndarray  # (reels, stops, drawable symbols) 1: the free column shows it
    full_window_on: bool  # [[full_window_pays]]: a window full of one symbol multiplies the lines
    full_window_mask: np.ndarray  # (sets, reels, stops) uint64 targets each column passes
    full_window_mult: np.ndarray  # (targets,) multiplier of a window full of each target
    ways_masked: bool  # a ways game of at most 64 entries and families: spins read ways_mask
    ways_bit_entry: np.ndarray  # (bits,) entry of each mask bit, longest entries first
    ways_shorter: np.ndarray  # (bits,) uint64 bits of the same family's shorter entries
    ways_rival: np.ndarray  # (bits,) uint64 bits of the same family's other entries of its length
    line_bonus_tag: int  # base-game line wins: each multiple of it is a line playing the bonus
    law_cum: np.ndarray  # the bonus games pay entries play: running weights, in turn
    law_off: np.ndarray  # (games + 1,) where each game starts in law_cum / law_pay
    law_field: int  # bits of the marks (line_bonus_tag multiples) counting one game's plays
    count_width: int  # bits of each counted symbol's field in the packed counts word (8 or fewer)


class SpinScore(NamedTuple):
    """How the exact calculator scores one spin of a reel set beyond its lines."""

    scatter_pay: np.ndarray  # (counted, max count + 1) credits of the phase (base or free)
    excl: np.ndarray  # (counted,) 1: an exclusive scatter
    cap: int  # win cap in credits (0: none; only for games without features)
    bonus_jmax: int  # bonus part of a bucket: 0 .. jmax (see GameInputs.bonus_jmax)
    count_width: int  # bits of a count in the packed word (see GameInputs.count_width)


class HistInputs(NamedTuple):
    """The win histogram's bins at one bet level."""

    edges: np.ndarray  # (HIST_BINS,) smallest credits of each bin
    small_bins: np.ndarray  # (SMALL_WINS,) uint8 bin of each small win


def reel_sets(t: GameTables) -> list[ReelSet]:
    """The distinct reel sets of a game: base, then the free-spin strips if their own.

    A game that paints blocks (``paints``) has each phase's parts instead
    (:mod:`certify.engine.paint`): the base game's, then the free spins' if their own.
    """
    if t.base_parts is not None and t.free_parts is not None:
        if t.free_parts is t.base_parts:
            return list(t.base_parts.sets)
        return [*t.base_parts.sets, *t.free_parts.sets]
    return [t.base] if t.free is t.base else [t.base, t.free]


def phase_sets(t: GameTables, phase: int) -> range:
    """Indices in :func:`reel_sets` of the reel sets a phase (0 base, 1 free spins) plays."""
    n = len(reel_sets(t))
    if t.base_parts is not None and t.free_parts is not None:
        k = len(t.base_parts.sets)
        return range(0, k) if phase == 0 or t.free_parts is t.base_parts else range(k, n)
    return range(0, 1) if phase == 0 else range(n - 1, n)


def _part_arrays(t: GameTables) -> dict[str, np.ndarray]:
    """``ReelInputs.part_cum`` and ``part_of``: one column of zeros each when not painted."""
    if t.base_parts is None or t.free_parts is None:
        return {
            "part_cum": np.ones((2, 1), dtype=np.int64),
            "part_of": np.zeros((2, 1, 1), dtype=np.int64),
        }
    phases = (t.base_parts, t.free_parts)
    n = max(p.weights.shape[0] for p in phases)
    cum = np.zeros((2, n), dtype=np.int64)
    for i, p in enumerate(phases):
        running = np.cumsum(p.weights)
        cum[i] = running[-1]  # padding sorts after every draw
        cum[i, : running.shape[0]] = running
    return {"part_cum": cum, "part_of": _stack([p.offset for p in phases])}


def _stack(arrays: list[np.ndarray]) -> np.ndarray:
    """Stack per-set arrays, zero-padding the trailing axes to a common shape."""
    shape = np.max([a.shape for a in arrays], axis=0)
    out = np.zeros((len(arrays), *shape), dtype=arrays[0].dtype)
    for i, a in enumerate(arrays):
        out[i][tuple(slice(0, n) for n in a.shape)] = a
    return out


def reel_inputs(t: GameTables) -> ReelInputs:
    """The reel sets of a game as the kernels take them (built once per game, then kept)."""
    if "reel_inputs" not in t.prefix_cache:  # the ways group tables take milliseconds
        t.prefix_cache["reel_inputs"] = _reel_inputs(t)
    return t.prefix_cache["reel_inputs"]


def _reel_inputs(t: GameTables) -> ReelInputs:
    sets = reel_sets(t)
    weighted = any(s.weighted for s in sets)
    mode = 0 if not weighted else (1 if all(s.lookup.shape[1] > 1 for s in sets) else 2)
    cumulative = _stack([s.cumulative for s in sets])
    for i, s in enumerate(sets):  # padding must sort after every draw
        cumulative[i, :, s.cumulative.shape[1] :] = s.total_weight[:, None]
    dummy = np.zeros((1, 1, 1), dtype=np.int64)
    masks = [ways_masks(s.window, t) for s in sets]  # per reel set, also read by the group tables
    return ReelInputs(
        set_of=np.array([phase_sets(t, 0)[0], phase_sets(t, 1)[0]], dtype=np.int64),
        window=_stack([s.window for s in sets]),
        length=_stack([s.length for s in sets]),
        total_weight=_stack([s.total_weight for s in sets]),
        lookup=_stack([s.lookup for s in sets]),
        cumulative=cumulative,
        counts_pack=_stack([pack_counts(np.moveaxis(s.counted, 0, -1)) for s in sets]),
        mode=mode,
        ways_sum=_stack([ways_sums(s.window, t.ways_match) if t.is_ways else dummy for s in sets]),
        ways_mask=_stack(masks),
        **ways_group_inputs(t, masks),
        factor=_stack([s.factor if s.factor is not None else np.ones_like(s.weight) for s in sets]),
        **_part_arrays(t),
    )


WAYS_MASK_BITS = 64  # entries and families a ways game may have for the masked spin


def ways_masked(t: GameTables) -> bool:
    """Whether a ways game's spins take the masked evaluation (one bit per entry and family)."""
    families = int(t.ways_family.max(initial=0)) + 1
    return t.is_ways and t.entry_len.shape[0] <= WAYS_MASK_BITS and families <= WAYS_MASK_BITS


def ways_bit_order(t: GameTables) -> np.ndarray:
    """Entry of each mask bit: the longest entries first, then in the model's order.

    Read lowest bit first, a family's first matched entry is one of its
    longest, as :func:`certify.engine._kernels.ways_win` chooses.
    """
    return np.lexsort((np.arange(t.entry_len.shape[0]), -t.entry_len)).astype(np.int64)


def ways_masks(window: np.ndarray, t: GameTables) -> np.ndarray:
    """Per reel and stop, the entries (as mask bits) still matched through that reel.

    Bit ``b`` (entry ``e = ways_bit_order(t)[b]``) is set at reel ``r`` and
    ``stop`` when ``e`` finds a way there or has ended before reel ``r``, so
    the AND over a spin's reels holds exactly the entries it pays with.
    A dummy for lines games and for ways games beyond 64 entries.
    """
    if not ways_masked(t):
        return np.zeros((1, 1), dtype=np.uint64)
    ways = ways_sums(window, t.ways_match)  # (reels, stops, entries)
    order = ways_bit_order(t)
    reels = np.arange(window.shape[0])
    on = (ways[:, :, order] > 0) | (reels[:, None, None] >= t.entry_len[order][None, None, :])
    bits = np.uint64(1) << np.arange(order.shape[0], dtype=np.uint64)
    return np.bitwise_or.reduce(np.where(on, bits, np.uint64(0)), axis=-1).astype(np.uint64)


WAYS_GROUP_VALUES = 1 << 15  # stops of one reel: 16 bits each in a row's packed stops
WAYS_GROUP_REELS = 4  # reels of one group: their stops packed 16 bits each in one int64
# Stop combinations a group of several reels may have: its table (32 bytes a row)
# then stays in L1/L2. Reels 1-3 of a 30-stop game as one group (27,000 rows,
# 864 KB) ran 8-10M spins/s on one thread of a busy host where groups of 900, 900
# and 30 rows ran 15-19M (2026-12-02, benchmarks.measure.spins_per_second_on).
WAYS_GROUP_ROWS = 1 << 10


def ways_group_reels(length: np.ndarray) -> list[tuple[int, int]]:
    """Consecutive reels grouped: at most ``WAYS_GROUP_ROWS`` stop combinations a group.

    At most ``WAYS_GROUP_REELS`` reels a group (a reel of more stops than
    ``WAYS_GROUP_ROWS`` is a group alone); returns (first, end) per group.
    """
    groups, first, size = [], 0, 1
    for r, n in enumerate(int(x) for x in length):
        if r > first and (size * n > WAYS_GROUP_ROWS or r - first == WAYS_GROUP_REELS):
            groups.append((first, r))
            first, size = r, 1
        size *= n
    groups.append((first, len(length)))
    return groups


def ways_group_draw_on(t: GameTables) -> bool:
    """Whether a ways game's spins draw a group of reels at once (``ways_group_draw``).

    Needs the masked spin, uniform strips (every stop combination of a group
    equally likely), strips of at most ``WAYS_GROUP_VALUES`` stops, and no
    feature that reads the stops before the ways are paid (Book of Ra's
    symbol, full-window pays).
    """
    return (
        ways_masked(t)
        and not any(s.weighted for s in reel_sets(t))
        and all(int(s.length.max()) <= WAYS_GROUP_VALUES for s in reel_sets(t))
        and not t.expand_symbols
        and not t.full_window_mult.size
        and not t.factor_on  # the stops' factors multiply the spin
    )


def _group_tables(
    window: np.ndarray, length: np.ndarray, counted: np.ndarray, masks: np.ndarray, t: GameTables
):
    """One reel set's group tables: (first reels, sizes, rows, ways) per group (``ReelInputs``)."""
    order = ways_bit_order(t)
    ways = ways_sums(window, t.ways_match)[:, :, order]  # (reels, stops, bits)
    ended = np.arange(window.shape[0])[:, None] >= t.entry_len[order][None, :]  # (reels, bits)
    packed = pack_counts(np.moveaxis(counted, 0, -1))
    groups = ways_group_reels(length)
    first = np.array([g[0] for g in groups] + [len(length)], dtype=np.int64)
    sizes, rows, prods = [], [], []
    for lo, hi in groups:
        grid = np.indices([int(n) for n in length[lo:hi]]).reshape(hi - lo, -1)  # last reel fastest
        row = np.zeros((grid.shape[1], 4), dtype=np.uint64)
        row[:, 0] = ~np.uint64(0)
        prod = np.ones((grid.shape[1], order.shape[0]), dtype=np.int64)
        for i, r in enumerate(range(lo, hi)):
            row[:, 0] &= masks[r, grid[i]]
            row[:, 1] += packed[r, grid[i]]
            row[:, 2] |= grid[i].astype(np.uint64) << np.uint64(16 * i)
            prod *= np.where(ended[r], 1, ways[r, grid[i]])
        bits = ((row[:, :1] >> np.arange(order.shape[0], dtype=np.uint64)) & np.uint64(1)) == 1
        counts = bits.sum(axis=1)
        row[:, 3] = (np.cumsum(counts) - counts).astype(np.uint64)
        sizes.append(grid.shape[1])
        rows.append(row)
        prods.append(prod[bits])  # row by row, bits in order
    return first, np.array(sizes, dtype=np.int64), _stack(rows), _stack(prods)


def ways_group_inputs(t: GameTables, masks: list[np.ndarray]) -> dict[str, np.ndarray]:
    """The group-draw fields of :class:`ReelInputs` (``ways_groups`` 0 when the draw is off).

    ``masks``: :func:`ways_masks` of each reel set.
    """
    if not ways_group_draw_on(t):
        return {  # one 0 per reel set: the kernel reads the entry of the set it plays
            "ways_groups": np.zeros(len(reel_sets(t)), dtype=np.int64),
            "ways_group_first": np.zeros((1, 2), dtype=np.int64),
            "ways_group_size": np.zeros((1, 1), dtype=np.int64),
            "ways_group_rows": np.zeros((1, 1, 1, 4), dtype=np.uint64),
            "ways_group_prod": np.ones((1, 1, 1), dtype=np.int64),
        }
    per_set = [
        _group_tables(s.window, s.length, s.counted, m, t)
        for s, m in zip(reel_sets(t), masks, strict=True)
    ]
    return {
        "ways_groups": np.array([p[1].shape[0] for p in per_set], dtype=np.int64),
        "ways_group_first": _stack([p[0] for p in per_set]),
        "ways_group_size": _stack([p[1] for p in per_set]),
        "ways_group_rows": _stack([p[2] for p in per_set]),
        "ways_group_prod": _stack([p[3] for p in per_set]),
    }


def ways_family_bits(t: GameTables, shorter: bool) -> np.ndarray:
    """Per mask bit, the bits of other entries of its family: shorter, or of its length.

    ``shorter``: the strictly shorter ones (never paid with it); else its
    rivals, the other entries of its length.
    """
    if not ways_masked(t):
        return np.zeros(1, dtype=np.uint64)
    order = ways_bit_order(t)
    fam, length = t.ways_family[order], t.entry_len[order]
    out = np.zeros(order.shape[0], dtype=np.uint64)
    for b in range(order.shape[0]):
        same = length < length[b] if shorter else (length == length[b]) & (order != order[b])
        for c in np.nonzero((fam == fam[b]) & same)[0]:
            out[b] |= np.uint64(1) << np.uint64(c)
    return out


def prefix_inputs(px: PrefixTables) -> PrefixInputs:
    """What the kernels read of the prefix tables (``class_entries`` is applied after them)."""
    return PrefixInputs(
        px.depth,
        px.head_first,
        px.head,
        px.combos,
        px.alive_line,
        px.alive_state,
        px.tail_on,
        px.tail_counts,
        px.tail_sym,
        px.prefix_rows,
        px.tail_pairs,
    )


def level_inputs(level: LevelTables, t: GameTables) -> LevelInputs:
    """The bet-level inputs of the kernels."""
    add, mask = alarm_words(level, t)
    fin = level.finishing
    return LevelInputs(
        trans=level.trans,
        live=level.live,
        state_win=level.state_win,
        state_entry=level.state_entry,
        credits=np.stack([level.credits, level.credits_fs]),
        scatter_pay=np.stack([level.scatter_pay, level.scatter_pay_fs]),
        bonus_pay=level.bonus_pay,
        step=fin.step,
        pair=fin.pair,
        win1=fin.win1,
        entry1=fin.entry1,
        alarm_add=add,
        alarm_mask=mask,
        cap=level.cap,
        hold_value_pay=level.hold.value_pay if level.hold else np.zeros(1, dtype=np.int64),
        hold_full_pay=level.hold.full_pay if level.hold else 0,
        expand_pay=level.expand_pay,
        law_pay=level.law_pay,
    )


def alarm_words(level: LevelTables, t: GameTables) -> tuple[np.uint64, np.uint64]:
    """Words (add, mask) that flag a spin whose counted symbols may pay or trigger.

    ``(packed + add) & mask`` is non-zero when some counted symbol reaches a
    count that pays a scatter or triggers the bonus or free spins.
    Each count field of ``w`` bits (:func:`~certify.engine.prefix.count_width`:
    8 unless the game counts more than 8 symbols) gets ``2^(w-1) - threshold``
    added, so its top bit is set exactly when count >= threshold, where no
    count can carry out of the field (the largest count + ``2^(w-1)`` -
    threshold stays below ``2^w``: always with 8 bits, counts staying below
    128). A narrower field whose counts may fill it is tested without an
    addition instead: its bits from ``2^floor(log2 threshold)`` up, set
    whenever count >= threshold (and sometimes below it: the kernels then
    look at the counts themselves and find nothing, a little time lost).
    """
    n = len(t.counted_names)
    width = count_width(n)
    top = 1 << (width - 1)
    most = level.scatter_pay.shape[1] - 1  # the largest count in the window
    add, mask = 0, 0
    for c in range(min(n, 64 // width)):  # the packed word's fields (pack_counts)
        paying = np.nonzero(level.scatter_pay[c] | level.scatter_pay_fs[c])[0]  # base or free
        limits = [int(paying[0])] if paying.size else []
        limits += [t.bonus_min] if c == t.bonus_counted else []
        if c == t.fs_counted:
            retriggering = np.nonzero(t.fs_respins)[0]  # a retrigger may need fewer
            limits += [t.fs_min] + ([int(retriggering[0])] if retriggering.size else [])
        if not limits:
            continue
        low = min(limits)  # >= 1: a count pays or triggers from 1 up
        if most + top - low < 2 * top:  # no carry out of the field
            add |= (top - low) << (width * c)
            mask |= top << (width * c)
        else:
            mask |= ((1 << width) - (1 << max(low.bit_length() - 1, 0))) << (width * c)
    return np.uint64(add), np.uint64(mask)


def game_inputs(t: GameTables) -> GameInputs:
    """The level-independent inputs of the kernels."""
    hold = t.levels[0].hold if t.levels else None
    return GameInputs(
        paylines=t.paylines,
        entry_len=t.entry_len,
        family=t.ways_family,
        n_families=int(t.ways_family.max(initial=0)) + 1,
        fs_counted=t.fs_counted,
        fs_min=t.fs_min,
        fs_spins=np.concatenate([t.fs_spins, t.fs_respins]),
        fs_mult=t.fs_spin_mult,
        fs_retriggers=t.fs_retriggers,
        fs_each_cum=np.cumsum(t.fs_each_weights).astype(np.int64),
        fs_each_mult=t.fs_each_mult,
        base_each_cum=np.cumsum(t.base_each_weights).astype(np.int64),
        base_each_mult=t.base_each_mult,
        factor_on=t.factor_on,
        fs_draw_cum=np.cumsum(t.fs_draw_weights).astype(np.int64),
        fs_draw_spins=t.fs_draw_spins,
        fs_draw_mult=t.fs_draw_mult,
        fs_count_mult=t.fs_count_mult,
        fs_max=t.fs_max,
        bonus_counted=t.bonus_counted,
        bonus_min=t.bonus_min,
        bonus_cum=t.bonus_weight_cum,
        scatter_excl=t.scatter_excl,
        bonus_jmax=t.bonus_jmax,
        hold_on=t.hold_on,
        hold_cells=t.machine.rows * t.machine.reels,
        hold_respins=hold.respins if hold else 0,
        hold_p_num=hold.p_num if hold else 0,
        hold_p_den=hold.p_den if hold else 1,
        hold_value_cum=hold.value_cum if hold else np.ones(1, dtype=np.int64),
        hold_value_jackpot=hold.value_jackpot if hold else np.full(1, -1, dtype=np.int64),
        hold_full_jackpot=hold.full_jackpot if hold else -1,
        hold_n_jackpots=max(len(hold.jackpots), 1) if hold else 1,
        expand_on=bool(t.expand_symbols),
        expand_cum=np.cumsum(t.expand_weights).astype(np.int64),
        expand_present=t.expand_present,
        full_window_on=t.full_window_mult.size > 0,
        full_window_mask=t.full_window_mask,
        full_window_mult=t.full_window_mult
        if t.full_window_mult.size
        else np.ones(1, dtype=np.int64),
        ways_masked=ways_masked(t),
        ways_bit_entry=ways_bit_order(t) if ways_masked(t) else np.zeros(1, dtype=np.int64),
        ways_shorter=ways_family_bits(t, shorter=True),
        ways_rival=ways_family_bits(t, shorter=False),
        line_bonus_tag=t.line_bonus_tag,
        law_cum=t.law_cum,
        law_off=t.law_off,
        law_field=t.law_field,
        count_width=count_width(len(t.counted_names)),
    )


def hist_edges(total_bet: int) -> np.ndarray:
    """Smallest win (credits) of each histogram bin.

    Bin k >= 1 holds wins in [2^(k-11), 2^(k-10)) x total bet; bin 1 also
    takes anything smaller, the last bin anything larger.
    """
    edges = np.zeros(HIST_BINS, dtype=np.int64)
    for b in range(1, HIST_BINS):
        edges[b] = -(-(total_bet << max(b - 11, 0)) // (1 << max(11 - b, 0)))
    edges[1] = 1
    return edges


def hist_inputs(total_bet: int) -> HistInputs:
    """The histogram inputs: bin edges and the bin of every win below 4096 credits."""
    edges = hist_edges(total_bet)
    small = np.searchsorted(edges, np.arange(SMALL_WINS), side="right") - 1
    small[0] = 0
    return HistInputs(edges, small.astype(np.uint8))


def prefix_tables(t: GameTables, level_index: int) -> PrefixTables:
    """The prefix tables of a level (built once per game and level, then cached)."""
    if level_index not in t.prefix_cache:
        lt = t.levels[level_index]
        sets = [(s.window, s.length, s.counted) for s in reel_sets(t)]
        base = phase_sets(t, 0)
        t.prefix_cache[level_index] = cached_prefix_tables(
            sets,
            t.paylines,
            lt.trans,
            lt.live,
            lt.state_win,
            lt.state_entry,
            lt.n_keys,
            depth=0 if t.is_ways else None,
            pairs=lt.finishing.pair.shape[1] > 1,
            starts=tuple(int(lt.start[0 if i in base else 1]) for i in range(len(sets))),
        )
    return t.prefix_cache[level_index]
