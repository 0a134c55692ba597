"""CUDA kernels of the Monte Carlo engine: one GPU thread plays one chunk.

:func:`chunk_kernel` builds the kernel of a kind of game (the branch flags
``ways``, ``fast``, ``extras`` of :func:`certify.engine._chunk.simulate_chunks`,
constants of the kernel, so numba prunes the other branches as on the CPU).
Each thread plays its chunk through :func:`certify.engine._chunk.play_chunk`
compiled as a CUDA device function (:func:`certify._numba.cuda_device`): the
same source, stream and integers as the CPU kernel. Its scratch lives in
local memory, its counters in columns of global arrays (``counts[:, chunk]``:
neighbouring threads write neighbouring words).

:func:`award_kernel` turns a chunk's class and entry counts into its award
counts on the GPU (the integer products ``run_chunks`` does with numpy), so
only a few hundred bytes a chunk come back to the host.

Imported only by a run on ``--device cuda`` (it imports ``numba.cuda``).
"""

from __future__ import annotations

import numpy as np
from numba import cuda

from certify._numba import cuda_device
from certify.engine._chunk import play_chunk
from certify.engine.spin_records import ChunkScratch, SpinTables

MAX_REELS = 16  # stops and group rows of one spin, in local memory
MAX_FAMILIES = 128  # ways families (the masked spin has at most 64)
MAX_JACKPOTS = 16  # hold-and-spin jackpots
THREADS_PER_BLOCK = 128

_KERNELS: dict[tuple, object] = {}


def chunk_kernel(ways: int | None, fast: int | None, extras: int | None):
    """The CUDA kernel of one kind of game (compiled at its first launch, then kept)."""
    key = (ways, fast, extras)
    if key in _KERNELS:
        return _KERNELS[key]
    play = cuda_device(play_chunk)

    def simulate_chunks_cuda(
        states,
        chunk_spins,
        reels,
        px,
        level,
        game,
        hist,
        out,
        out_sq,
        out_classes,
        out_awards,
        out_hist,
    ):
        c = cuda.grid(1)
        if c >= states.shape[0]:
            return
        stops = cuda.local.array(MAX_REELS, np.int64)
        drawn = cuda.local.array(MAX_REELS, np.int64)
        fam_len = cuda.local.array(MAX_FAMILIES, np.int64)
        fam_win = cuda.local.array(MAX_FAMILIES, np.int64)
        fam_entry = cuda.local.array(MAX_FAMILIES, np.int64)
        hold_hits = cuda.local.array(MAX_JACKPOTS, np.int64)
        for i in range(MAX_REELS):
            stops[i] = 0
            drawn[i] = 0
        for i in range(MAX_FAMILIES):
            fam_len[i] = 0
            fam_win[i] = 0
            fam_entry[i] = 0
        for i in range(MAX_JACKPOTS):
            hold_hits[i] = 0
        row = out[c]
        for i in range(row.shape[0]):
            row[i] = 0
        classes = out_classes[:, c]
        for i in range(classes.shape[0]):
            classes[i] = 0
        awards = out_awards[:, c]
        for i in range(awards.shape[0]):
            awards[i] = 0
        hist_c = out_hist[:, c]
        for i in range(hist_c.shape[0]):
            hist_c[i] = 0
        n_reels = reels.length.shape[1]
        n_families = game.n_families
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
        scratch = ChunkScratch(
            stops[:n_reels],
            drawn[:n_reels],
            fam_len[:n_families],
            fam_win[:n_families],
            fam_entry[:n_families],
            classes,
            awards,
            hist_c,
            hold_hits[: game.hold_n_jackpots],
            row,
        )
        out_sq[c] = play(
            states[c],
            chunk_spins[c],
            reels,
            px,
            level,
            game,
            hist,
            tables,
            scratch,
            ways,
            fast,
            extras,
        )

    kernel = _KERNELS[key] = cuda.jit(simulate_chunks_cuda)
    return kernel


@cuda.jit
def award_kernel(out_classes, out_awards, class_entries, award_keys, n_classes, n_keys, counts):
    """Per chunk (a thread): base-game award counts from its class and entry counts.

    ``counts[c, a] = sum_j (awards[1 + j] + sum_i classes[i] class_entries[i, j])
    award_keys[j, a]``: the integers of ``run_chunks``' products, summed on the GPU.
    """
    c = cuda.grid(1)
    if c >= counts.shape[0]:
        return
    for a in range(counts.shape[1]):
        counts[c, a] = 0
    for j in range(n_keys):
        v = out_awards[1 + j, c]
        for i in range(n_classes):
            v += out_classes[i, c] * class_entries[i, j]
        if v != 0:
            for a in range(counts.shape[1]):
                counts[c, a] += v * award_keys[j, a]
