"""The named records of the simulation's chunk, hold-and-spin and prefix kernels.

A chunk's running statistics (:class:`ChunkTotals`, a value handed through
:func:`~certify.engine._kernels.close_spin` each paid spin), the hold-and-spin
feature it plays (:class:`HoldFeature`, read by
:func:`~certify.engine._hold.hold_spin`) and the prefix rows
:func:`~certify.engine._prefix.build_prefix` fills (:class:`PrefixRows`), so
two of their fields cannot be swapped silently. Defined in a module without
numba (numba compiles a ``NamedTuple`` like a tuple, fields read by name at
compile time; the kernels' on-disk cache refers to the classes by name). The
game's and level's inputs are :mod:`certify.engine.kernel_inputs`'.

The per-spin line, ways and prefix kernels still take plain arrays: their
tables in records, read every spin, ran 1.8x (prefix-and-tail spins) to 8x
(the chunk loop not inlined) slower (issue 27; ``docs/ARCHITECTURE.md``).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np


class SpinTables(NamedTuple):
    """The prefix and line tables a lines spin reads every spin.

    A chunk's own copies of :class:`~certify.engine.kernel_inputs.PrefixInputs`'
    and ``LevelInputs``' arrays of these names, or those arrays themselves
    (the GPU, the exact calculator, outcome replay).
    """

    head: np.ndarray
    combos: np.ndarray
    alive_line: np.ndarray
    alive_state: np.ndarray
    tail_sym: np.ndarray
    tail_counts: np.ndarray
    pair: np.ndarray
    win1: np.ndarray
    entry1: np.ndarray


class ChunkScratch(NamedTuple):
    """One chunk's scratch (written before read) and counters (zeroed, added to).

    Written through its fields: handed to a function that is not inlined
    into a ``prange`` loop (:func:`certify.engine._chunk.play_chunk`), never
    written through in a ``prange`` loop's own body (``docs/ARCHITECTURE.md``).
    """

    stops: np.ndarray  # (reels,) a stop per reel
    drawn: np.ndarray  # (reels,) the ways group draw's rows
    fam_len: np.ndarray  # (families,) a value per ways family
    fam_win: np.ndarray
    fam_entry: np.ndarray
    classes: np.ndarray  # prefix classes: base game, then free spins
    awards: np.ndarray  # entries paid by lines alive after the prefix, shifted by one
    hist: np.ndarray  # the win histogram's counts
    hold_hits: np.ndarray  # hold-and-spin jackpot hits
    out_row: np.ndarray  # the chunk's statistics (OUT_SPINS ..) and convergence trace


class ChunkOutputs(NamedTuple):
    """What :func:`~certify.engine._chunk.simulate_chunks` writes, a row per chunk.

    Read into locals before its ``prange`` loop, never written through.
    """

    out: np.ndarray  # (chunks, N_OUT) int64 statistics (OUT_SPINS ..) and convergence trace
    sq: np.ndarray  # (chunks,) float64 sum of the wins' squares
    classes: np.ndarray  # (chunks, 2 x classes) prefix classes: base game, then free spins
    awards: np.ndarray  # (chunks, 2 x (entries + 1)) entries paid after the prefix, shifted
    hist: np.ndarray  # (chunks, bins) the win histogram's counts


class ChunkOut(NamedTuple):
    """Where one chunk's figures go: its rows of the simulation kernel's outputs.

    Written by a function the ``prange`` loop calls, not in the loop's body:
    there numba drops even a plain ``out_sq[c] = x`` into an array unpacked
    from a record before the loop (measured: every standard error 0).
    """

    row: np.ndarray  # the chunk's statistics (OUT_SPINS ..) and convergence trace
    sq: np.ndarray  # (1,) float64 the sum of the wins' squares
    classes: np.ndarray  # prefix classes: base game, then free spins
    awards: np.ndarray  # entries paid by lines alive after the prefix, shifted by one
    hist: np.ndarray  # the win histogram's counts


class Families(NamedTuple):
    """A ways spin's scratch, a value per ways family (written before read).

    Written through its fields by :func:`~certify.engine._kernels.ways_spin`:
    never from a ``prange`` loop's own body (see :class:`ChunkScratch`).
    """

    fam_len: np.ndarray  # (families,) the longest matched entry (masked spins: its ways)
    fam_win: np.ndarray  # (families,) the family's best win so far
    fam_entry: np.ndarray  # (families,) the entry paying it


class ChunkTotals(NamedTuple):
    """A chunk's running statistics of its paid spins (scalars: a value, not a place)."""

    total: int  # credits won
    s_sq: float  # sum of the wins' squares
    hits: int  # spins that won or triggered a feature
    top: int  # largest win
    part: int  # convergence trace points written
    part_at: int  # the paid spin after which the next point is written


class HoldFeature(NamedTuple):
    """One hold-and-spin feature at one total bet, as ``engine._hold.hold_spin`` plays it."""

    cells: int  # window cells
    respins: int  # respins left at the start and after every respin that locks a coin
    p_num: int  # an empty cell shows a coin with probability p_num / p_den
    p_den: int
    value_cum: np.ndarray  # (values,) running weights of the coin values
    value_pay: np.ndarray  # (values,) credits of each value (progressive pools: 0)
    value_jackpot: np.ndarray  # (values,) jackpot column of each value (-1 none)
    full_pay: int  # credits paid as well when every cell is locked
    full_jackpot: int  # jackpot column of the full window (-1 none)


class PrefixRows(NamedTuple):
    """Fixed-width prefix rows, one per stop combination of the first reels (filled in place)."""

    alive_n: np.ndarray  # (rows,) lines alive after the prefix
    alive_line: np.ndarray  # (rows, lines) int16 the alive lines
    alive_state: np.ndarray  # (rows, lines) int32 their automaton states
    paid_n: np.ndarray  # (rows,) settled lines that pay
    paid_state: np.ndarray  # (rows, lines) int32 their final states (-1 past paid_n)
    counts: np.ndarray  # (rows, counted) counted symbols seen
