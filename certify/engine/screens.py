"""Screen games (SPEC 3.1b) in the Monte Carlo engine: cascades and cluster pays.

:func:`screen_inputs` builds the kernels' :class:`ScreenInputs` from a
machine's tables at one bet level, :func:`run_screen_chunks` runs chunks of
spins through :func:`certify.engine._screens.simulate_screen_chunks` and
returns exactly what :func:`certify.engine.simulate.run_chunks` returns, so a
dispatcher can call either. A machine is a screen game when it has a
``cascade`` or ``evaluation = "cluster"`` (:func:`is_screen_game`).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from certify.engine._kernels import N_OUT
from certify.engine._screens import BOARD_CELLS, play_stops, simulate_screen_chunks
from certify.engine.fullwindow import cell_passes, full_window_targets
from certify.engine.kernel_inputs import (
    game_inputs,
    hist_inputs,
    level_inputs,
    reel_inputs,
    reel_sets,
)
from certify.engine.rng import chunk_states
from certify.engine.tables import HIST_BINS, GameTables, play_machine
from certify.model.screens import (
    cascade_of,
    cluster_pays_of,
    is_screen_game,
    screen_problems,
    sticky_symbol,
)

__all__ = [
    "ScreenInputs",
    "cascade_of",
    "cluster_pays_of",
    "is_screen_game",
    "play_sequences",
    "run_screen_chunks",
    "screen_inputs",
    "screen_problems",
    "simulate_screen_chunks",
]


class ScreenInputs(NamedTuple):
    """What the screen kernels read beyond the engine's named inputs (one bet level)."""

    start: np.ndarray  # (2,) line automaton start state: base game, free spins
    key_entry: np.ndarray  # (keys,) the entry an award key pays
    count_by: np.ndarray  # (reels, symbols, counted) what a cell adds to each counted symbol
    count_of: np.ndarray  # (reels, symbols, k) the counted symbols a cell adds to (-1: no more)
    mults: np.ndarray  # (k,) screen multipliers, the last repeats
    max_screens: int
    chain_pay: np.ndarray  # (2, max_screens + 1) credits a sequence of n screens pays, per phase
    vanish_min: int  # the free-spin trigger's cells vanish at this count or more (0: never)
    refill_random: int  # 0: strip, 1: random
    cluster: int  # 0: lines, 1: cluster pays
    cl_member: np.ndarray  # (symbols, symbols) 1: a cell of symbol b joins a group of a;
    # [a, a] = 1 exactly when a pays as clusters
    cl_pay: np.ndarray  # (symbols, cells + 1) credits of a group of each size
    cl_entry: np.ndarray  # (symbols, cells + 1) the cluster_pays entry paid (-1 none)
    cl_masks: np.ndarray  # (3,) uint64 bitboards: not the first row, not the last row, every cell
    aw_off: int  # award slot of cluster entry 0 (after the line award keys)
    weight: np.ndarray  # (sets, reels, stops) stop weights (exact enumeration)
    ways: int  # 1: a ways game
    ways_match: np.ndarray  # (entries, reels, symbols) ways a cell brings (a dummy for lines)
    family: np.ndarray  # (entries,) ways family (at least one slot)
    sticky_sym: int  # the sticky wild's symbol id (-1: none): it stays where it lands in free spins
    trie_lo: np.ndarray  # (nodes,) first child of a payline-prefix node (line_trie)
    trie_hi: np.ndarray  # (nodes,) one past its last child
    trie_row: np.ndarray  # (nodes,) the row its last cell is on (the root: 0)
    trie_depth: np.ndarray  # (nodes,) reels of its prefix (the root: 0)
    trie_lines: np.ndarray  # (nodes,) paylines through it
    trie_path: np.ndarray  # (nodes, reels) its prefix's rows (-1 beyond its depth)
    fw_n: int  # full-window targets (0: no [[full_window_pays]])
    fw_bits: np.ndarray  # (reels, symbols) uint64 targets a cell passes (all off their reels)
    fw_mult: np.ndarray  # (targets,) int64 multiplier of a window full of each target


def _count_by(t: GameTables) -> np.ndarray:
    """(reels, symbols, counted): what one cell of each symbol adds to each counted symbol.

    :meth:`Machine.counts_on` of a one-cell column: 1 for the symbol itself on
    its ``reels``, 1 for a wild where the counted symbol has ``wilds_count``,
    ``times`` for a symbol that ``counts_as`` it.
    """
    m = t.machine
    names = {i: n for n, i in t.symbol_ids.items()}
    out = np.zeros((m.reels, len(names), max(len(t.counted_names), 1)), dtype=np.int64)
    for r in range(m.reels):
        for sid, cell in names.items():
            for c, name in enumerate(t.counted_names):
                out[r, sid, c] = m.counts_on(name, r, (cell,))
    return out


def _count_of(count_by: np.ndarray) -> np.ndarray:
    """(reels, symbols, k): the counted symbols each cell adds to, in order, -1 after the last.

    The sparse form of ``count_by`` the kernels count with: most cells add to
    one counted symbol or none, a wild to every symbol that counts it.
    """
    k = max(int((count_by > 0).sum(axis=2).max(initial=0)), 1)
    out = np.full((*count_by.shape[:2], k), -1, dtype=np.int64)
    for r, sid in zip(*np.nonzero((count_by > 0).any(axis=2)), strict=True):
        found = np.nonzero(count_by[r, sid])[0]
        out[r, sid, : found.shape[0]] = found
    return out


def _chain_pay(t: GameTables, total_bet: int) -> np.ndarray:
    """Credits of a sequence of n screens (``cascade.chain_pays``), base game then free spins.

    Free spins premultiplied where their tables are (the kernels then multiply
    the spin by 1: :attr:`GameTables.fs_spin_mult`), so the prize is always
    multiplied by the feature's multiplier, as the screens' wins are.
    """
    cascade = cascade_of(t.machine)
    screens = int(cascade.max_screens) if cascade else 1
    out = np.zeros((2, screens + 1), dtype=np.int64)
    if cascade is not None:
        for n in range(screens + 1):
            out[0, n] = cascade.chain_pay(n) * total_bet
        out[1] = out[0] * (t.fs_mult if t.fs_own_pays else 1)
    return out


def _key_entry(award_keys: np.ndarray, cascade: bool) -> np.ndarray:
    """The entry each award key pays (a cascade needs one: its run's cells vanish)."""
    out = np.zeros(max(award_keys.shape[0], 1), dtype=np.int64)
    for i in range(award_keys.shape[0]):
        entries = np.nonzero(award_keys[i])[0]
        if cascade and award_keys[i].sum() != 1:
            raise ValueError(f"award key {i} pays {award_keys[i].sum()} entries: not a cascade run")
        out[i] = entries[0]
    return out


def _cluster_tables(t: GameTables, total_bet: int) -> tuple[np.ndarray, ...]:
    """(member table, credits and entry by (symbol, group size))."""
    m = t.machine
    n_sym = len(t.symbol_ids)
    cells = m.rows * m.reels
    pays = cluster_pays_of(m)
    member = np.zeros((n_sym, n_sym), dtype=np.int64)
    credit = np.zeros((n_sym, cells + 1), dtype=np.int64)
    entry = np.full((n_sym, cells + 1), -1, dtype=np.int64)
    syms: list[int] = []
    for i, cp in sorted(enumerate(pays), key=lambda ie: ie[1].size):
        s = t.symbol_ids[cp.symbol]
        if s not in syms:
            syms.append(s)
        if cp.size <= cells:
            credit[s, cp.size :] = cp.pays * total_bet
            entry[s, cp.size :] = i
    for s in syms:
        name = m.symbols[s].name
        for x, sym in enumerate(m.symbols):
            if x == s or (sym.kind == "wild" and name in sym.substitutes):
                member[s, x] = 1
    return member, credit, entry


def line_trie(paylines: np.ndarray) -> tuple[np.ndarray, ...]:
    """The paylines as the tree of their row prefixes, for the screen kernels.

    Node 0 is the root (no reel read); the children of a node of depth ``d``
    are the distinct rows on reel ``d + 1`` of the lines through it, stored
    contiguously (nodes in order of depth, then prefix). Returns (first
    child, one past the last child, row, depth, lines through the node,
    prefix rows (-1 padded)) as int64 arrays: a line's automaton walk is the
    walk down its path, so every line through a node shares its state there.
    """
    lines = [tuple(int(x) for x in line) for line in paylines]
    reels = len(lines[0]) if lines else 0
    prefixes = [sorted({line[:d] for line in lines}) for d in range(reels + 1)]
    order = [p for level in prefixes for p in level]
    index = {p: i for i, p in enumerate(order)}
    n = len(order)
    lo, hi = np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64)
    row, depth = np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64)
    count = np.zeros(n, dtype=np.int64)
    path = np.full((n, max(reels, 1)), -1, dtype=np.int64)
    for p, i in index.items():
        depth[i] = len(p)
        row[i] = p[-1] if p else 0
        path[i, : len(p)] = p
        count[i] = sum(1 for line in lines if line[: len(p)] == p)
        if len(p) < reels:
            kids = [index[q] for q in prefixes[len(p) + 1] if q[:-1] == p]
            lo[i], hi[i] = kids[0], kids[-1] + 1
    return lo, hi, row, depth, count, path


def full_window_bits(t: GameTables) -> tuple[int, np.ndarray, np.ndarray]:
    """(targets, (reels, symbols) bits a cell passes, multipliers) of a screen's full windows.

    The screen's window is tested as its lines read it, cell by cell: a column
    passes a target when every cell does (:func:`certify.engine.fullwindow.cell_passes`
    on the played symbol), a reel off the target's ``reels`` passes it whatever it
    shows; the screen is full of a target when every reel passes it.
    """
    m = t.machine
    targets = full_window_targets(m)
    play = play_machine(m).symbols
    bits = np.zeros((m.reels, max(len(play), 1)), dtype=np.uint64)
    for r in range(m.reels):
        for i, sym in enumerate(play):
            b = 0
            for k, (_, target, _, any_wild, judged, wilds) in enumerate(targets):
                if r + 1 not in judged or cell_passes(sym, target, any_wild, wilds):
                    b |= 1 << k
            bits[r, i] = np.uint64(b)
    mult = np.array([tg[2] for tg in targets] or [1], dtype=np.int64)
    return len(targets), bits, mult


def board_masks(reels: int, rows: int) -> np.ndarray:
    """Bitboard masks of a window (bit ``reel * rows + row``, the first ``BOARD_CELLS`` cells).

    (cells not in the first row, cells not in the last row, every cell), for
    :func:`certify.engine._screens.cluster_win_boards`.
    """
    masks = [0, 0, 0]
    for i in range(min(reels * rows, BOARD_CELLS)):
        row = i % rows
        masks[0] |= (row != 0) << i
        masks[1] |= (row != rows - 1) << i
        masks[2] |= 1 << i
    return np.array(masks, dtype=np.uint64)


def screen_inputs(t: GameTables, level_index: int) -> ScreenInputs:
    """The screen kernels' inputs of one bet level."""
    m = t.machine
    lt = t.levels[level_index]
    cascade = cascade_of(m)
    sticky = sticky_symbol(m)
    member, credit, entry = _cluster_tables(t, lt.total_bet)
    count_by = _count_by(t)
    trie = line_trie(t.paylines)
    sets = reel_sets(t)
    shape = max(s.weight.shape[1] for s in sets)
    weight = np.zeros((len(sets), m.reels, shape), dtype=np.int64)
    for i, s in enumerate(sets):
        weight[i, :, : s.weight.shape[1]] = s.weight
    fw_n, fw_bits, fw_mult = full_window_bits(t)
    return ScreenInputs(
        start=lt.start.astype(np.int64),
        key_entry=_key_entry(lt.award_keys, cascade is not None),
        count_by=count_by,
        count_of=_count_of(count_by),
        mults=np.array(cascade.multipliers if cascade else (1,), dtype=np.int64),
        max_screens=int(cascade.max_screens) if cascade else 1,
        chain_pay=_chain_pay(t, lt.total_bet),
        vanish_min=m.free_spins.trigger.count
        if cascade is not None and cascade.trigger_vanishes and m.free_spins is not None
        else 0,
        refill_random=1 if cascade is not None and cascade.refill == "random" else 0,
        cluster=1 if m.evaluation == "cluster" else 0,
        cl_member=member,
        cl_pay=credit,
        cl_entry=entry,
        cl_masks=board_masks(m.reels, m.rows),
        aw_off=lt.n_keys,
        weight=weight,
        ways=1 if t.is_ways else 0,
        ways_match=t.ways_match if t.is_ways else np.zeros((1, 1, 1), dtype=np.int64),
        family=t.ways_family if t.ways_family.size else np.zeros(1, dtype=np.int64),
        sticky_sym=t.symbol_ids[sticky] if sticky is not None else -1,
        trie_lo=trie[0],
        trie_hi=trie[1],
        trie_row=trie[2],
        trie_depth=trie[3],
        trie_lines=trie[4],
        trie_path=trie[5],
        fw_n=fw_n,
        fw_bits=fw_bits,
        fw_mult=fw_mult,
    )


def run_screen_chunks(
    tables: GameTables,
    level_index: int,
    seed: int,
    first_chunk: int,
    sizes: np.ndarray,
    stream: int = 0,
) -> tuple:
    """Run chunks ``first_chunk ..`` of a screen game; the outputs of ``run_chunks``.

    Returns (statistics (n, 7), sums of squares (n,), base-game award counts
    per pay entry (n, entries) — a cluster game: paid groups per
    ``cluster_pays`` entry —, histograms (n, HIST_BINS)); chunk ``i`` draws
    from stream ``(seed, stream, i)`` whatever the threads.
    """
    n = sizes.shape[0]
    lt = tables.levels[level_index]
    scr = screen_inputs(tables, level_index)
    states = chunk_states(seed, first_chunk, n, stream)
    out = np.zeros((n, N_OUT), dtype=np.int64)
    sq = np.zeros(n, dtype=np.float64)
    awards = np.zeros((n, lt.n_keys + len(cluster_pays_of(tables.machine)) + 1), dtype=np.int64)
    hist = np.zeros((n, HIST_BINS), dtype=np.int64)
    simulate_screen_chunks(
        states,
        sizes.astype(np.int64),
        reel_inputs(tables),
        level_inputs(lt, tables),
        game_inputs(tables),
        scr,
        hist_inputs(lt.total_bet),
        out,
        sq,
        awards,
        hist,
    )
    if tables.machine.evaluation == "cluster":  # paid groups per cluster_pays entry
        return out, sq, awards[:, lt.n_keys : awards.shape[1] - 1], hist
    return out, sq, awards[:, : lt.n_keys] @ lt.award_keys, hist


def play_sequences(
    tables: GameTables, level_index: int, stops: np.ndarray, phase: int = 0
) -> np.ndarray:
    """Play rows of stops as strip-refill sequences (a test and replay hook).

    Returns (n, 5) int64: credits (screen multipliers included, not the
    free-spin multiplier), scatter credits, largest free-spin trigger count,
    largest bonus trigger count, screens shown.
    """
    lt = tables.levels[level_index]
    scr = screen_inputs(tables, level_index)._replace(refill_random=0)
    out = np.zeros((stops.shape[0], 5), dtype=np.int64)
    scatter = lt.scatter_pay if phase == 0 else lt.scatter_pay_fs
    play_stops(
        np.ascontiguousarray(stops, dtype=np.int64),
        phase,
        reel_inputs(tables),
        level_inputs(lt, tables),
        game_inputs(tables),
        scr,
        scatter,
        tables.scatter_excl,
        out,
    )
    return out
