"""Execution strategies of the reconciler around its per-block unit of work.

Each strategy returns the :class:`~meters.block.Result` of every block of
whole machines it reconciled (:func:`~meters.block.reconcile_frame`); every
check is local to a machine, so all give the same rows once merged:

- :func:`in_memory`: the dumps read whole, cut into blocks of whole machines;
- :func:`streamed`: one Parquet dump grouped by machine, reconciled while it
  is read (or on every core, :func:`meters.parallel.reconcile_parallel`);
- :func:`piecewise`: the readings spilled to Parquet pieces partitioned by
  machine (:func:`spill`), reconciled one piece at a time (bounded memory).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow.parquet as pq

from meters.block import Result, reconcile_frame
from meters.config import Config
from meters.frame import NotGrouped, Readings, machine_blocks, stream_blocks
from meters.parallel import reconcile_parallel
from meters.readers import dump_format, iter_dump

STREAM_BATCH_ROWS = 1_000_000  # rows decoded at a time when streaming a Parquet dump


def in_memory(
    dumps: list[str],
    meters: list[str],
    floor: pd.DataFrame,
    counts,
    cfg: Config,
    batch_rows: int | None,
    block_rows: int,
) -> list[Result]:
    """Read the dumps whole; reconcile blocks of ``block_rows`` rows of whole machines."""
    parts = [f for d in dumps for f in iter_dump(d, batch_rows=batch_rows or 2**62, meters=meters)]
    return [
        reconcile_frame(block, floor, counts, cfg) for block in machine_blocks(parts, block_rows)
    ]


def piecewise(
    dumps: list[str],
    meters: list[str],
    floor: pd.DataFrame,
    counts,
    cfg: Config,
    pieces: int,
    folder: Path,
    batch_rows: int | None,
    block_rows: int,
) -> list[Result]:
    """Spill the readings to ``pieces`` Parquet files by machine and reconcile one at a time."""
    files = spill(dumps, meters, pieces, folder, batch_rows or 1_000_000)
    return [
        reconcile_frame(block, floor, counts, cfg)
        for f in files
        for block in machine_blocks([Readings.from_table(pq.read_table(f), meters)], block_rows)
    ]


def empty(
    dumps: list[str], meters: list[str], floor: pd.DataFrame, counts, cfg: Config
) -> list[Result]:
    """The result of dumps without a row (a zero-row Parquet dump has no row group to stream)."""
    first = next(iter_dump(dumps[0], meters=meters))
    return [reconcile_frame(first.take(np.zeros(0, np.int64)), floor, counts, cfg)]


def streamed(
    dumps: list[str],
    meters: list[str],
    floor: pd.DataFrame,
    by_machine,
    cfg: Config,
    batch_rows: int | None,
    block_rows: int,
    workers: int,
) -> list[Result] | None:
    """Reconcile one Parquet dump grouped by machine while it is read; None if not grouped.

    Row groups are decoded one ahead on the other core, and blocks of whole
    machines are reconciled as soon as their rows are in, so memory holds a
    block and a row group, not the dump. A dump that turns out not to be
    grouped by machine (some machine's rows apart) is left to the caller,
    which reads it whole: the blocks reconciled so far are discarded.
    """
    if len(dumps) != 1 or dump_format(dumps[0]) != "parquet":
        return None
    if workers > 1 and batch_rows is None:
        results = reconcile_parallel(
            str(dumps[0]), meters, floor, by_machine, cfg, block_rows, workers
        )
        if results is not None:
            return results
    parts = iter_dump(dumps[0], batch_rows=batch_rows or STREAM_BATCH_ROWS, meters=meters)
    try:
        return [
            reconcile_frame(block, floor, by_machine, cfg)
            for block in stream_blocks(parts, block_rows)
        ]
    except NotGrouped:
        parts.close()
        return None


def spill(
    dumps: list[str], meters: list[str], pieces: int, folder: Path, batch_rows: int
) -> list[Path]:
    """Write the dumps' rows to ``pieces`` Parquet files partitioned by machine.

    Returns the paths of the pieces that received rows.
    """
    writers: dict[int, pq.ParquetWriter] = {}
    try:
        for dump in dumps:
            for part in iter_dump(dump, batch_rows=batch_rows, meters=meters):
                ids = part.keys["machine_id"].cat
                bucket_of = pd.util.hash_array(np.asarray(ids.categories, dtype=object)) % pieces
                codes = ids.codes.to_numpy()
                bucket = np.where(codes >= 0, bucket_of[np.maximum(codes, 0)], 0)
                for b in np.unique(bucket):
                    table = part.take(np.flatnonzero(bucket == b)).to_table()
                    if b not in writers:
                        writers[b] = pq.ParquetWriter(
                            folder / f"piece-{b:05d}.parquet", table.schema
                        )
                    writers[b].write_table(table)
    finally:
        for w in writers.values():
            w.close()
    return [folder / f"piece-{b:05d}.parquet" for b in sorted(writers)]
