"""Normalised readings: key columns in a DataFrame, meters in one row-major array.

Keeping the meters out of pandas avoids the block consolidation copies that
dominate at tens of millions of rows: readers write each meter once into the
(rows, meters) float64 matrix that the kernels read directly.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import pyarrow as pa

KEYS = ("machine_id", "read_at", "_file", "_line", "_bad")


@dataclass
class Readings:
    """Readings of one or more dumps.

    Parameters
    ----------
    keys : pandas.DataFrame
        ``machine_id`` (categorical), ``read_at`` (int64 ns UTC, 0 when
        unreadable), ``_file`` (categorical), ``_line`` (int64) and ``_bad``
        (why the row cannot be used, ``""`` when it can).
    values : numpy.ndarray
        (rows, meters) float64 meter readings, NaN where empty.
    meters : list of str
        Canonical meter of each column of ``values``.

    """

    keys: pd.DataFrame
    values: np.ndarray
    meters: list[str]

    def __len__(self) -> int:
        return len(self.keys)

    def __getitem__(self, name: str) -> pd.Series:
        """Return a key column, or a meter column as a float Series."""
        if name in self.meters:
            return pd.Series(self.values[:, self.meters.index(name)], copy=False, name=name)
        return self.keys[name]

    @property
    def columns(self) -> list[str]:
        """Key columns then meters."""
        return [*self.keys.columns, *self.meters]

    def slice(self, start: int, stop: int) -> Readings:
        """Return the readings of rows ``start:stop`` (views of the meter matrix)."""
        return Readings(
            self.keys.iloc[start:stop].reset_index(drop=True), self.values[start:stop], self.meters
        )

    def take(self, rows: np.ndarray) -> Readings:
        """Return the readings at positions ``rows``."""
        return Readings(self.keys.iloc[rows].reset_index(drop=True), self.values[rows], self.meters)

    @staticmethod
    def concat(parts: list[Readings]) -> Readings:
        """Join several parts (same meters), keeping categoricals categorical."""
        if len(parts) == 1:
            return parts[0]
        return Readings(
            Readings.concat_keys([p.keys for p in parts]),
            np.concatenate([p.values for p in parts]),
            parts[0].meters,
        )

    @staticmethod
    def concat_keys(keys: list[pd.DataFrame]) -> pd.DataFrame:
        """Join key frames, keeping ``machine_id`` and ``_file`` categorical."""
        if len(keys) == 1:
            return keys[0]
        cats = {
            c: pd.api.types.union_categoricals([_plain(k[c]) for k in keys]).categories
            for c in ("machine_id", "_file")
        }
        return pd.concat(
            [
                k.assign(**{c: pd.Categorical(k[c], categories=v) for c, v in cats.items()})
                for k in keys
            ],
            ignore_index=True,
        )

    def to_table(self) -> pa.Table:
        """Convert to an Arrow table (for spilling pieces to Parquet)."""
        cols = {
            "machine_id": pa.array(self.keys["machine_id"].astype(object), pa.string()),
            "read_at": pa.array(self.keys["read_at"].to_numpy(), pa.int64()),
            **{m: pa.array(self.values[:, j]) for j, m in enumerate(self.meters)},
            "_file": pa.array(self.keys["_file"].astype(object), pa.string()),
            "_line": pa.array(self.keys["_line"].to_numpy(), pa.int64()),
            "_bad": pa.array(self.keys["_bad"].astype(object), pa.string()),
        }
        return pa.table(cols)

    @staticmethod
    def from_table(table: pa.Table, meters: list[str]) -> Readings:
        """Inverse of :meth:`to_table`."""
        keys = pd.DataFrame(
            {
                "machine_id": pd.Categorical(
                    table.column("machine_id").to_numpy(zero_copy_only=False)
                ),
                "read_at": table.column("read_at").to_numpy(),
                "_file": pd.Categorical(table.column("_file").to_numpy(zero_copy_only=False)),
                "_line": table.column("_line").to_numpy(),
                "_bad": pd.Series(
                    table.column("_bad").to_numpy(zero_copy_only=False), dtype=object
                ),
            }
        )
        values = np.empty((table.num_rows, len(meters)))
        for j, m in enumerate(meters):
            values[:, j] = table.column(m).to_numpy(zero_copy_only=False)
        return Readings(keys, values, meters)


def _plain(column: pd.Series) -> pd.Categorical:
    """The categorical with object-dtype categories (so any two can be joined)."""
    cat = column.cat
    return pd.Categorical.from_codes(
        cat.codes.to_numpy(), pd.Index(cat.categories.astype(object), dtype=object)
    )


def machine_blocks(parts: list[Readings], block_rows: int):
    """Yield Readings of whole machines, about ``block_rows`` rows each.

    Machines are taken in the order of their ids; every row of a machine,
    from every part, lands in the same block, in input order. The rows are
    shared evenly between the nearest whole number of blocks (a block has a
    fixed cost of about 0.1 s: 1.1M rows make one block, not 1M and 0.1M).
    """
    total = sum(len(p) for p in parts)
    block_rows = -(-total // max(1, round(total / max(block_rows, 1))))
    if total <= block_rows:
        yield Readings.concat(parts)
        return
    if len(parts) == 1 and _grouped(parts[0]):
        yield from _slices(parts[0], block_rows)
        return
    cats = pd.api.types.union_categoricals(
        [_plain(p.keys["machine_id"]) for p in parts], sort_categories=True
    ).categories
    codes = [
        pd.Categorical(p.keys["machine_id"], categories=cats).codes.astype(np.int64) + 1
        for p in parts
    ]
    sizes = sum(np.bincount(c, minlength=len(cats) + 1) for c in codes)
    group = (np.cumsum(sizes) - sizes) // block_rows
    for g in np.unique(group):
        pieces = [p.take(np.flatnonzero(group[c] == g)) for p, c in zip(parts, codes, strict=False)]
        yield Readings.concat([p for p in pieces if len(p)] or pieces[:1])


def _grouped(part: Readings) -> bool:
    """Tell whether each machine's rows are contiguous (a dump sorted by machine)."""
    codes = part.keys["machine_id"].cat.codes.to_numpy()
    runs = 1 + int(np.count_nonzero(codes[1:] != codes[:-1]))
    return runs == len(np.unique(codes))


def _slices(part: Readings, block_rows: int):
    """Blocks of whole machines as slices (views) of one grouped part."""
    codes = part.keys["machine_id"].cat.codes.to_numpy()
    starts = np.r_[np.flatnonzero(codes[1:] != codes[:-1]) + 1, len(part)]
    begin = 0
    while begin < len(part):
        fits = starts[starts <= begin + block_rows]
        stop = fits[-1] if len(fits) and fits[-1] > begin else starts[starts > begin][0]
        yield Readings(
            part.keys.iloc[begin:stop].reset_index(drop=True), part.values[begin:stop], part.meters
        )
        begin = stop


class NotGrouped(Exception):
    """The rows of some machine are not contiguous in the stream of parts."""


_NOTHING = object()


def stream_blocks(parts, block_rows: int):
    """Yield Readings of whole machines, of at least ``block_rows`` rows, from a stream.

    For dumps in which each machine's rows are contiguous (sorted or grouped
    by machine): blocks are cut at machine boundaries as the parts arrive, so
    only about a block and a part are in memory, never the whole dump. Raises
    :class:`NotGrouped` as soon as a machine's rows are found apart (the
    caller then falls back to :func:`machine_blocks`); blocks already yielded
    are whole machines either way.
    """
    done: set = set()
    last = _NOTHING  # machine of the last row seen
    held: list[Readings] = []
    held_rows = 0
    for part in parts:
        if not len(part):
            continue
        ids = part.keys["machine_id"].cat
        codes = ids.codes.to_numpy()
        starts = np.r_[0, np.flatnonzero(codes[1:] != codes[:-1]) + 1]
        names = np.r_[np.asarray(ids.categories, dtype=object), np.array([None], dtype=object)]
        runs = names[codes[starts]].tolist()  # one id per run of rows (None: no machine_id)
        goes_on = runs[0] == last
        if len(set(runs)) != len(runs) or not done.isdisjoint(runs[1:] if goes_on else runs):
            raise NotGrouped
        if not goes_on and last is not _NOTHING:
            done.add(last)
        done.update(runs[:-1])
        last = runs[-1]
        cuts = starts[1:] if goes_on or not held else starts
        begin = 0
        while True:
            at = int(np.searchsorted(cuts, begin + block_rows - held_rows))
            if at == len(cuts):
                break
            held.append(part.slice(begin, int(cuts[at])))
            yield Readings.concat([h for h in held if len(h)])
            held, held_rows, begin = [], 0, int(cuts[at])
        held.append(part.slice(begin, len(part)))
        held_rows += len(part) - begin
    if held_rows:
        yield Readings.concat([h for h in held if len(h)])
