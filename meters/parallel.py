"""Reconcile a Parquet dump grouped by machine on every core, one row group per task.

The parent reads only the ``machine_id`` column, checks that each machine's
rows are contiguous and cuts the dump into tasks of whole machines, one per
row group (a task starts at the first machine that begins in its row group
and ends where the next task starts). Worker processes, forked after the
floor and the soft counts are loaded, each read their task's rows from the
file, reconcile them in blocks of whole machines and send back the small
result frames: reading, the checks and the pandas work all run in parallel,
and no meter matrix crosses a process boundary.

Every check is local to a machine, so the results are those of one process
(tested); a dump not grouped by machine is left to the caller.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from meters.block import Result, reconcile_frame
from meters.frame import Readings, machine_blocks
from meters.readers import _arrow_column, column_map, normalise

_STATE: dict = {}


def default_workers() -> int:
    """Worker processes to use: the usable cores, at most 8 (1 where fork is missing)."""
    if "fork" not in multiprocessing.get_all_start_methods():
        return 1
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return max(1, min(8, cores or 1))


def row_group_tasks(file: str, mapping: dict[str, str]) -> list[tuple[int, int]] | None:
    """Row ranges ``[start, stop)`` of whole machines, about one row group each.

    Returns None when the dump is not grouped by machine (some machine's rows
    apart), has fewer than two row groups, or has ids that differ only by
    surrounding blanks (the readers strip them, which would join two runs).
    """
    handle = pq.ParquetFile(file)
    groups = [handle.metadata.row_group(i).num_rows for i in range(handle.num_row_groups)]
    if len(groups) < 2:
        return None
    header = next(k for k, v in mapping.items() if v == "machine_id")
    column = pq.read_table(file, columns=[header], read_dictionary=[header]).column(0)
    if not pa.types.is_dictionary(column.type):
        return None  # not text: left to the readers, which report it
    if column.num_chunks == 0:
        return None
    starts = _machine_runs(column)
    if starts is None:
        return None
    bounds = np.cumsum([0, *groups])[:-1]
    cuts = np.unique(starts[np.minimum(np.searchsorted(starts, bounds), len(starts) - 1)])
    cuts = np.r_[0, cuts[cuts > 0]]
    stops = np.r_[cuts[1:], len(column)]
    return [(int(a), int(b)) for a, b in zip(cuts, stops, strict=True)]


def _machine_runs(column: pa.ChunkedArray) -> np.ndarray | None:
    """First row of each run of equal ids; None if an id has two runs or stray blanks.

    Runs are found chunk by chunk on the dictionary indices as stored, then
    joined across chunk boundaries by their text, so no dictionary is unified
    and no index array is converted (one distinct id per run is compared).
    """
    if column.null_count:
        return _machine_runs_unified(column)
    starts, names, offset = [], [], 0
    for chunk in column.chunks:
        if len(chunk) == 0:
            continue
        codes = chunk.indices.to_numpy()
        first = np.r_[0, np.flatnonzero(codes[1:] != codes[:-1]) + 1]
        starts.append(first + offset)
        names.append(chunk.dictionary.take(pa.array(codes[first])))
        offset += len(chunk)
    if not names:
        return None
    run_names = pa.chunked_array(names).combine_chunks()
    if pc.all(pc.equal(pc.utf8_trim_whitespace(run_names), run_names)).as_py() is False:
        return None
    text = run_names.to_numpy(zero_copy_only=False)
    starts_all = np.concatenate(starts)
    keep = np.r_[True, text[1:] != text[:-1]]  # a run continued in the next chunk
    text, starts_all = text[keep], starts_all[keep]
    return starts_all if pd.Index(text).is_unique else None


def _machine_runs_unified(column: pa.ChunkedArray) -> np.ndarray | None:
    """:func:`_machine_runs` for columns with empty ids (nulls form runs of their own)."""
    ids = column.unify_dictionaries()  # one dictionary for every chunk
    names = ids.chunk(0).dictionary
    if pc.all(pc.equal(pc.utf8_trim_whitespace(names), names)).as_py() is False:
        return None
    codes = np.concatenate(
        [
            c.indices.fill_null(-1).to_numpy(zero_copy_only=False).astype(np.int64)
            for c in ids.chunks
        ]
    )
    starts = np.r_[0, np.flatnonzero(codes[1:] != codes[:-1]) + 1]
    return starts if len(np.unique(codes[starts])) == len(starts) else None


def read_rows(
    file: str, mapping: dict[str, str], meters: list[str], start: int, stop: int
) -> Readings:
    """Normalised readings of rows ``[start, stop)`` of a Parquet dump.

    Whole row groups are decoded, except that only the head of the last one
    is decoded when the range ends early in it.
    """
    handle = pq.ParquetFile(
        file, read_dictionary=[c for c in mapping if mapping[c] == "machine_id"]
    )
    sizes = [handle.metadata.row_group(i).num_rows for i in range(handle.num_row_groups)]
    first_row = np.cumsum([0, *sizes])
    g0 = int(np.searchsorted(first_row, start, "right")) - 1
    g1 = int(np.searchsorted(first_row, stop, "left")) - 1  # last group holding rows
    tables = [handle.read_row_groups(list(range(g0, g1)))] if g1 > g0 else []
    need = stop - int(first_row[g1])
    last = (
        handle.read_row_group(g1)
        if need > sizes[g1] // 2
        else pa.Table.from_batches([next(handle.iter_batches(batch_size=need, row_groups=[g1]))])
    )
    tables.append(last.slice(0, need))
    table = pa.concat_tables(tables).slice(start - int(first_row[g0]), stop - start)
    frame = {name: _arrow_column(table.column(name)) for name in table.schema.names}
    lines = np.arange(start + 1, stop + 1, dtype=np.int64)
    return normalise(frame, mapping, file, lines, np.full(stop - start, "", dtype=object), meters)


def keep_freed_memory() -> None:
    """Make this process reuse the memory it frees instead of handing it back (glibc).

    A worker allocates and frees the same large arrays task after task.
    glibc serves each array above 32 MB with fresh pages from ``mmap`` and
    returns them on free, and Arrow's mimalloc purges its freed pages, so
    every task faulted its memory in again, 4 KiB at a time: about a million
    page faults and 4 s of system time for a 10M-row dump. With ``mmap``
    off, no trimming of the heap and Arrow on the system allocator, freed
    blocks are reused. Meant for short-lived worker processes: memory freed
    stays with the process until it exits. Does nothing without glibc.
    """
    try:
        mallopt = ctypes.CDLL("libc.so.6").mallopt
    except (OSError, AttributeError):
        return
    m_trim_threshold, m_top_pad, m_mmap_max = -1, -2, -4
    if mallopt(m_mmap_max, 0) and mallopt(m_trim_threshold, 2**30) and mallopt(m_top_pad, 64 << 20):
        pa.set_memory_pool(pa.system_memory_pool())


def _init(state: dict) -> None:
    keep_freed_memory()
    _STATE.update(state)


def _task(start: int, stop: int) -> list[Result]:
    s = _STATE
    part = read_rows(s["file"], s["mapping"], s["meters"], start, stop)
    return [
        reconcile_frame(block, s["floor"], s["counts"], s["cfg"])
        for block in machine_blocks([part], s["block_rows"])
    ]


def reconcile_parallel(
    file: str, meters: list[str], floor, counts, cfg, block_rows: int, workers: int
) -> list[Result] | None:
    """Results of reconciling a grouped Parquet dump on ``workers`` processes.

    None when the dump does not qualify (see :func:`row_group_tasks`) or a
    single worker is asked for.
    """
    mapping = column_map(list(pq.read_schema(file).names), file)
    tasks = row_group_tasks(file, mapping) if workers > 1 else None
    if not tasks or len(tasks) < 2:
        return None
    state = {
        "file": file,
        "mapping": mapping,
        "meters": meters,
        "floor": floor,
        "counts": counts,
        "cfg": cfg,
        "block_rows": block_rows,
    }
    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(
        min(workers, len(tasks)), mp_context=context, initializer=_init, initargs=(state,)
    ) as pool:
        done = [pool.submit(_task, a, b) for a, b in tasks]
        return [r for f in done for r in f.result()]
