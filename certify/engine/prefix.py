"""Build the prefix tables (see :mod:`certify.engine._prefix`) of a lines game.

One table serves every reel set of a bet level (base game and free-spin
strips): rows of each set follow one another (``head_first``); classes and
combos are shared. Built tables are kept on disk between processes
(:func:`cached_prefix_tables`).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import tempfile
import zipfile
from dataclasses import dataclass, fields
from pathlib import Path

import numpy as np

from certify._numba import SOURCES_DIGEST
from certify.engine._prefix import (
    COMBO_COUNTS,
    COMBO_META,
    COMBO_STATE,
    COMBO_WIN,
    COMBO_WORDS,
    build_prefix,
)
from certify.engine.spin_records import PrefixRows

# Budget per reel set. Measured on the reference game (52 stops): reels 1-3
# tables with 28-byte rows (3.9 MB) lost to reels 1-2 tables whose spins walk
# 3.4 lines instead of 0.5; as 2-byte combo rows both reel sets' reels 1-3
# tables take 1.4 MB, in L2. On the same game with 104-stop strips the
# reels 1-3 tables take 5.8 MB, beyond L2, and still win: 30.7M against 17.3M
# spins/s per thread for reels 1-2 (they also give the two-draw fast path);
# they take about 10 s to build once, then come from the disk cache.
# ``SLOTCERT_PREFIX_BYTES`` overrides the budget for experiments.
MAX_PREFIX_BYTES = int(os.environ.get("SLOTCERT_PREFIX_BYTES", 8 << 20))
MAX_DEPTH = 3
MAX_TAIL_BYTES = 256 * 1024  # tail table of the last two reels' stop pairs
ROW_BYTES = 2  # uint16 combo index per prefix


@dataclass(frozen=True)
class PrefixTables:
    """Prefix tables of the reel sets of one bet level.

    Attributes
    ----------
    depth : (sets,) int64, reels covered by each set's table
    head_first : (sets,) int64, first row of each set in ``head``
    head : (rows,) uint16 (uint32 past 65,536 combos), the combo of each prefix
    combos : (combos, 4) uint64, per combo: meta (class in bits 0-15, number
        of extra alive lines in 16-23, first extra line in 24-47, first alive
        line in 48-63), settled credits, counted symbols seen (8 bits per
        symbol), automaton state of the first alive line (the null state when
        none is alive)
    alive_line, alive_state : the extra alive lines of the combos (after each one's first)
    class_entries : (classes, entries) int64, pay entries each class settled
    alive_total : lines alive after the prefix, summed over the rows
    tail_on : (sets,) bool, whether a set has a tail table (its prefix stops
        two or more reels before the end and the table is small enough)
    tail_counts : (sets, stop pairs) uint64, counted symbols of the last two reels
    tail_sym : (sets, stop pairs, lines) uint8/16, each line's symbol pair
        ``a * n_symbols + b`` on the last two reels
    prefix_rows, tail_pairs : (sets,) int64, prefixes and last-two-reel stop
        pairs of each set (the ranges of :func:`~certify.engine._rng.draw_prefix_and_tail`)

    """

    depth: np.ndarray
    head_first: np.ndarray
    head: np.ndarray
    combos: np.ndarray
    alive_line: np.ndarray
    alive_state: np.ndarray
    class_entries: np.ndarray
    alive_total: int
    tail_on: np.ndarray
    tail_counts: np.ndarray
    tail_sym: np.ndarray
    prefix_rows: np.ndarray
    tail_pairs: np.ndarray

    @property
    def n_classes(self) -> int:
        """Number of classes."""
        return int(self.class_entries.shape[0])

    @property
    def nbytes(self) -> int:
        """Memory a spin may touch: rows, combos, alive lists and tail tables."""
        return sum(
            a.nbytes
            for a in (
                self.head,
                self.combos,
                self.alive_line,
                self.alive_state,
                self.tail_counts,
                self.tail_sym,
            )
        )

    def finishes_by_tail(self, n_reels: int) -> np.ndarray:
        """Per set: its prefix ends two reels early and a tail table finishes the lines.

        Such a set needs no stops: its spins are (prefix row, tail pair), the
        simulation's fast path and the exact calculator's combo sums.
        """
        return self.tail_on & (self.depth == n_reels - 2)

    @property
    def mean_alive(self) -> float:
        """Average number of lines alive after the prefix (uniform stops, all sets)."""
        return self.alive_total / max(self.head.shape[0], 1)


def meta_field(combos: np.ndarray, shift: int, width: int) -> np.ndarray:
    """Bits ``shift .. shift + width - 1`` of every combo's meta word (numpy)."""
    meta = combos[:, COMBO_META]
    return ((meta >> np.uint64(shift)) & np.uint64((1 << width) - 1)).astype(np.int64)


def combo_classes(combos: np.ndarray) -> np.ndarray:
    """The class of every combo (meta bits 0-15)."""
    return meta_field(combos, 0, 16)


PACKED_BITS = 64  # the counts word: one uint64


def count_width(n_counted: int) -> int:
    """Bits of each counted symbol's field in the packed counts word.

    8 where the game counts at most 8 symbols (every such game's word is as it
    always was), else the widest fields that fit 64 bits (9 to 12 symbols: 7
    to 5 bits; 13 to 16: 4 bits ...). :func:`certify.engine.limits` refuses a
    game whose largest count does not fit its fields; screen games count from
    the window, never this word.
    """
    return 8 if n_counted <= 8 else PACKED_BITS // n_counted


def pack_counts(counts: np.ndarray) -> np.ndarray:
    """Counted-symbol counts (..., k) as one uint64 each, :func:`count_width` bits per symbol.

    A screen game may count more than its fields hold: its kernels read the
    counts from the window (``engine/screens.count_by``), never this word.
    """
    width = count_width(counts.shape[-1])
    counts = counts[..., : PACKED_BITS // width]
    shifts = (width * np.arange(counts.shape[-1])).astype(np.uint64)
    return (counts.astype(np.uint64) << shifts).sum(axis=-1, dtype=np.uint64)


def unique_rows(matrix: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Distinct rows of an int64 matrix and each row's index among them.

    Like ``np.unique(matrix, axis=0, return_inverse=True)`` (10-100x faster:
    rows are grouped by a 64-bit hash, then every row is checked equal to its
    group's first; on a hash collision it falls back to ``np.unique``). The
    order of the distinct rows is that of their hashes.
    """
    h = np.full(matrix.shape[0], 0xCBF29CE484222325, dtype=np.uint64)
    with np.errstate(over="ignore"):
        for column in matrix.T:
            h = (h ^ column.astype(np.uint64)) * np.uint64(0x100000001B3)
            h ^= h >> np.uint64(29)
    _, first, inverse = np.unique(h, return_index=True, return_inverse=True)
    keys = matrix[first]
    if not np.array_equal(keys[inverse], matrix):
        keys, inverse = np.unique(matrix, axis=0, return_inverse=True)
    return keys, inverse.ravel()


def _raw_rows(
    window, length, paylines, trans, live, state_win, state_entry, counted, depth, start
) -> tuple:
    """Fixed-width rows of one reel set at ``depth``."""
    rows = int(np.prod(length[:depth])) if depth else 1
    n_lines = paylines.shape[0]
    alive_n = np.zeros(rows, dtype=np.int64)
    paid_n = np.zeros(rows, dtype=np.int64)
    alive_line = np.zeros((rows, n_lines), dtype=np.int16)
    alive_state = np.zeros((rows, n_lines), dtype=np.int32)
    paid_state = np.full((rows, n_lines), -1, dtype=np.int32)
    counts = np.zeros((rows, counted.shape[0]), dtype=np.int64)
    build_prefix(
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
        PrefixRows(alive_n, alive_line, alive_state, paid_n, paid_state, counts),
    )
    mask = np.arange(n_lines)[None, :] < alive_n[:, None]
    return alive_n, alive_line[mask], alive_state[mask], paid_state, counts


def choose_depth(length: np.ndarray, n_lines: int) -> int:
    """Deepest prefix (at most reels - 1 and 3) whose rows can fit the budget."""
    depth, rows = 0, 1
    for r in range(min(MAX_DEPTH, length.shape[0] - 1)):
        rows *= int(length[r])
        if rows * ROW_BYTES > MAX_PREFIX_BYTES or rows * n_lines > 1 << 26:
            break
        depth += 1
    return depth


def build_prefix_tables(
    sets: list[tuple[np.ndarray, np.ndarray, np.ndarray]],
    paylines: np.ndarray,
    trans: np.ndarray,
    live: np.ndarray,
    state_win: np.ndarray,
    state_entry: np.ndarray,
    n_entries: int,
    depth: int | None = None,
    pairs: bool = True,
    starts: tuple[int, ...] | None = None,
) -> PrefixTables:
    """Prefix tables of the reel sets ``(window, length, counted)`` of a lines game.

    ``depth`` forces one depth for every set (tests); by default each set
    takes the deepest whose rows fit :data:`MAX_PREFIX_BYTES` (a spin reads one
    set's table at a time; its combos are few). ``pairs``: whether the level
    has a two-reel automaton (see :func:`certify.engine.tables.finishing_automaton`),
    which the tail tables need. ``starts``: the automaton state each set's
    lines start in (default 0; free spins that pay from their own tables
    start in their own part of the automaton).
    """
    starts = starts or (0,) * len(sets)
    depths = [
        choose_depth(length, paylines.shape[0]) if depth is None else depth for _, length, _ in sets
    ]
    raw = [
        _raw_rows(window, length, paylines, trans, live, state_win, state_entry, counted, d, st)
        for (window, length, counted), d, st in zip(sets, depths, starts)
    ]
    tails = tail_tables(sets, depths, paylines, trans.shape[1], pairs)
    tables = _pack(raw, depths, state_win, state_entry, n_entries, tails)
    if tables is None:  # too many combos or alive lines: shorten the prefixes
        return build_prefix_tables(
            sets,
            paylines,
            trans,
            live,
            state_win,
            state_entry,
            n_entries,
            max(max(depths) - 1, 0),
            pairs,
            starts,
        )
    return tables


def tail_tables(
    sets: list[tuple], depths: list[int], paylines: np.ndarray, n_symbols: int, pairs: bool
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(tail_on, tail_counts, tail_sym, tail_pairs) of the reel sets (see :class:`PrefixTables`)."""
    n_reels = paylines.shape[1]
    dtype = np.uint8 if n_symbols * n_symbols <= 256 else np.uint16
    on = [
        pairs
        and d <= n_reels - 2
        and int(length[-2]) * int(length[-1]) * paylines.shape[0] * np.dtype(dtype).itemsize
        <= MAX_TAIL_BYTES
        for (_, length, _), d in zip(sets, depths)
    ]
    size = max(
        [int(length[-2]) * int(length[-1]) for (_, length, _), o in zip(sets, on) if o] or [1]
    )
    counts = np.zeros((len(sets), size), dtype=np.uint64)
    sym = np.zeros((len(sets), size, paylines.shape[0] if any(on) else 1), dtype=dtype)
    for i, ((window, length, counted), o) in enumerate(zip(sets, on)):
        if not o:
            continue
        a, b = n_reels - 2, n_reels - 1
        la, lb = int(length[a]), int(length[b])
        sym_a = window[a, :la][:, paylines[:, a]].astype(np.int64)  # (stops, lines)
        sym_b = window[b, :lb][:, paylines[:, b]].astype(np.int64)
        sym[i, : la * lb] = (sym_a[:, None, :] * n_symbols + sym_b[None, :, :]).reshape(la * lb, -1)
        packed = pack_counts(np.moveaxis(counted, 0, -1))  # (reels, stops)
        counts[i, : la * lb] = (packed[a, :la, None] + packed[b, None, :lb]).ravel()
    n_pairs = [int(length[-2]) * int(length[-1]) if o else 0 for (_, length, _), o in zip(sets, on)]
    return np.array(on, dtype=np.bool_), counts, sym, np.array(n_pairs, dtype=np.int64)


def _pack(
    raw: list[tuple],
    depths: list[int],
    state_win: np.ndarray,
    state_entry: np.ndarray,
    n_entries: int,
    tails: tuple,
) -> PrefixTables | None:
    """Group the rows of every set into combos and index them (None: too many combos)."""
    row_class, classes = _classes(raw, state_win, state_entry, n_entries)
    alive_n = np.concatenate([r[0] for r in raw])
    width = max(int(alive_n.max(initial=0)), 1)
    lines = np.full((alive_n.shape[0], width), -1, dtype=np.int64)
    states = np.full((alive_n.shape[0], width), -1, dtype=np.int64)
    slot = np.arange(width)[None, :] < alive_n[:, None]
    lines[slot] = np.concatenate([r[1] for r in raw])
    states[slot] = np.concatenate([r[2] for r in raw])
    keys, row_combo = unique_rows(np.column_stack([row_class, alive_n, lines, states]))
    if keys.shape[0] > 1 << 32 or classes[0].shape[0] > 1 << 16:
        return None
    combo_class, combo_n = keys[:, 0], keys[:, 1]
    combo_lines, combo_states = keys[:, 2 : 2 + width], keys[:, 2 + width :]
    # the first alive line lives in the combo; the null state (index
    # len(state_win), no pay) stands in when no line is alive
    has = combo_n > 0
    line0 = np.where(has, combo_lines[:, 0], 0)
    state0 = np.where(has, combo_states[:, 0], state_win.shape[0])
    extra_n = np.maximum(combo_n - 1, 0)
    first = np.concatenate([[0], np.cumsum(extra_n)[:-1]])
    extra = np.arange(width)[None, :] < combo_n[:, None]
    extra[:, 0] = False
    if int(extra_n.max(initial=0)) > 255 or int(extra_n.sum()) >= 1 << 24 or width > 1 << 16:
        return None
    combos = np.zeros((keys.shape[0], COMBO_WORDS), dtype=np.uint64)
    combos[:, COMBO_META] = (
        combo_class.astype(np.uint64)
        | (extra_n.astype(np.uint64) << np.uint64(16))
        | (first.astype(np.uint64) << np.uint64(24))
        | (line0.astype(np.uint64) << np.uint64(48))
    )
    combos[:, COMBO_WIN] = classes[0][combo_class].astype(np.uint64)
    combos[:, COMBO_COUNTS] = classes[1][combo_class]
    combos[:, COMBO_STATE] = state0.astype(np.uint64)
    sizes = [r[0].shape[0] for r in raw]
    return PrefixTables(
        depth=np.array(depths, dtype=np.int64),
        head_first=np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64),
        head=row_combo.ravel().astype(np.uint16 if keys.shape[0] <= 1 << 16 else np.uint32),
        combos=combos,
        alive_line=combo_lines[extra].astype(np.int16),
        alive_state=combo_states[extra].astype(np.int32),
        class_entries=classes[2],
        alive_total=int(alive_n.sum()),
        tail_on=tails[0],
        tail_counts=tails[1],
        tail_sym=tails[2],
        prefix_rows=np.array(sizes, dtype=np.int64),
        tail_pairs=tails[3],
    )


def _classes(
    raw: list[tuple], state_win: np.ndarray, state_entry: np.ndarray, n_entries: int
) -> tuple[np.ndarray, tuple]:
    """Class of every row; per class its settled credits, packed counts and entries."""
    width = max(r[3].shape[1] for r in raw)
    paid = np.concatenate(
        [np.pad(r[3], ((0, 0), (0, width - r[3].shape[1])), constant_values=-1) for r in raw]
    )
    paid = -np.sort(-paid, axis=1)  # paying states first, in a canonical order
    paid = paid[:, : max(int((paid >= 0).sum(axis=1).max(initial=0)), 1)]
    counts = np.concatenate([r[4] for r in raw])
    keys, row_class = unique_rows(np.column_stack([paid, counts]))
    key_paid, key_counts = keys[:, : paid.shape[1]], keys[:, paid.shape[1] :]
    valid = key_paid >= 0
    safe = np.where(valid, key_paid, 0)
    class_win = np.where(valid, state_win[safe], 0).sum(axis=1).astype(np.int64)
    class_entries = np.zeros((keys.shape[0], n_entries), dtype=np.int64)
    entry = np.where(valid, state_entry[safe], -1)
    cls, slot = np.nonzero(entry >= 0)
    np.add.at(class_entries, (cls, entry[cls, slot]), 1)
    return row_class, (class_win, pack_counts(key_counts), class_entries)


def cache_dir() -> Path | None:
    """Where built tables are kept between processes (None: not kept).

    ``SLOTCERT_CACHE_DIR`` (``off`` disables), else ``$XDG_CACHE_HOME/slotcert``
    or ``~/.cache/slotcert``.
    """
    chosen = os.environ.get("SLOTCERT_CACHE_DIR")
    if chosen == "off":
        return None
    if chosen:
        return Path(chosen)
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "slotcert"


def _cache_key(arrays: list[np.ndarray], scalars: tuple) -> str:
    """Digest of everything a table is built from, and of the code that builds it."""
    h = hashlib.sha256()
    h.update(SOURCES_DIGEST.encode())
    h.update(Path(__file__).read_bytes())
    h.update(repr((scalars, MAX_PREFIX_BYTES, MAX_TAIL_BYTES)).encode())
    for a in arrays:
        a = np.ascontiguousarray(a)
        h.update(repr((a.dtype.str, a.shape)).encode())
        h.update(a.tobytes())
    return h.hexdigest()[:32]


def consistent(
    px: PrefixTables, lengths: list[np.ndarray], n_lines: int, trans: np.ndarray
) -> bool:
    """Whether every index a kernel reads through ``px`` stays inside its arrays.

    The kernels do not check bounds; a table read from the disk cache (a
    damaged or foreign file under the right name) is used only if this holds.
    """
    sets = len(lengths)
    if px.depth.shape != (sets,) or px.head_first.shape != (sets,):
        return False
    rows = [int(np.prod(ln[:d])) for ln, d in zip(lengths, px.depth.tolist())]
    if px.combos.ndim != 2 or px.combos.shape[1] != COMBO_WORDS:
        return False
    first = meta_field(px.combos, 24, 24)
    extra = meta_field(px.combos, 16, 8)
    line0 = meta_field(px.combos, 48, 16)
    return bool(
        px.head_first.tolist() == np.concatenate([[0], np.cumsum(rows)[:-1]]).tolist()
        and px.head.shape == (sum(rows),)
        and int(px.head.max(initial=0)) < px.combos.shape[0]
        and int((first + extra).max(initial=0)) <= px.alive_line.shape[0]
        and px.alive_line.shape == px.alive_state.shape
        and int(px.alive_line.max(initial=0)) < n_lines
        and int(line0.max(initial=0)) < n_lines
        and int(combo_classes(px.combos).max(initial=0)) < px.class_entries.shape[0]
        and int(px.alive_state.max(initial=0)) < trans.shape[0]
        and int(px.combos[:, COMBO_STATE].max(initial=0)) <= trans.shape[0]  # the null state
        and px.tail_sym.shape[:2] == px.tail_counts.shape
        and px.tail_on.shape == (sets,)
        and int(px.tail_sym.max(initial=0)) < trans.shape[1] ** 2
    )


def cached_prefix_tables(
    sets: list[tuple[np.ndarray, np.ndarray, np.ndarray]],
    paylines: np.ndarray,
    trans: np.ndarray,
    live: np.ndarray,
    state_win: np.ndarray,
    state_entry: np.ndarray,
    n_entries: int,
    depth: int | None = None,
    pairs: bool = True,
    starts: tuple[int, ...] | None = None,
) -> PrefixTables:
    """:func:`build_prefix_tables`, kept on disk (``.npz``, no pickle) between processes.

    A second process simulating the same game reads its tables (milliseconds)
    instead of building them (about a second for the reference game).
    """
    folder = cache_dir()
    if folder is None:
        return build_prefix_tables(
            sets, paylines, trans, live, state_win, state_entry, n_entries, depth, pairs, starts
        )
    arrays = [a for s in sets for a in s] + [paylines, trans, live, state_win, state_entry]
    scalars = (
        (n_entries, depth, pairs) if not any(starts or ()) else (n_entries, depth, pairs, starts)
    )
    path = folder / f"prefix-{_cache_key(arrays, scalars)}.npz"
    with (
        contextlib.suppress(OSError, KeyError, ValueError, EOFError, zipfile.BadZipFile),
        np.load(path, allow_pickle=False) as stored,
    ):
        values = {f.name: stored[f.name] for f in fields(PrefixTables)}
        loaded = PrefixTables(**{**values, "alive_total": int(values["alive_total"])})  # type: ignore[arg-type]
        if consistent(loaded, [length for _, length, _ in sets], paylines.shape[0], trans):
            return loaded
    tables = build_prefix_tables(
        sets, paylines, trans, live, state_win, state_entry, n_entries, depth, pairs, starts
    )
    with contextlib.suppress(OSError):
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=folder, suffix=".npz", delete=False) as tmp:
            np.savez(tmp, **{f.name: getattr(tables, f.name) for f in fields(PrefixTables)})
        os.replace(tmp.name, path)
    return tables
