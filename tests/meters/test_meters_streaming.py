"""Streamed and parallel reconciliation of Parquet dumps equal the whole dump in one block.

The reference is the old in-memory path written out by hand: the whole dump
read at once and reconciled as a single block (``reconcile_frame``).
"""

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest

from meters import events
from meters.config import Config
from meters.frame import NotGrouped, Readings, stream_blocks
from meters.parallel import read_rows, row_group_tasks
from meters.readers import column_map, dump_meters, iter_dump, read_dump
from meters.reconcile import (
    attach_originals,
    combine,
    counts_off_floor,
    reconcile,
    reconcile_frame,
    sort_findings,
)

TABLES = ("findings", "periods", "quarantine", "totals")


def rewrite(paths, folder, order, group_rows):
    """The faulty dump rewritten with small row groups, in ``order`` (None: as is)."""
    table = pq.read_table(paths["dump"])
    if order == "machine":
        ids = table.column("machine_id").cast(pa.string())
        table = table.take(pc.sort_indices(ids))  # stable: each machine's rows keep their order
    elif order == "shuffled":
        table = table.take(np.random.default_rng(5).permutation(table.num_rows))
    out = folder / f"dump-{order}-{group_rows}.parquet"
    pq.write_table(table, out, row_group_size=group_rows)
    return out


def whole(dump, floor, counts):
    """The dump read at once and reconciled as one block."""
    meters = dump_meters([str(dump)])
    one = reconcile_frame(read_dump(dump, meters), floor, events.CountsByMachine(counts), Config())
    result = combine([one], counts)
    ghosts = counts_off_floor(counts, floor)  # soft counts of machines not on the floor
    result.findings = sort_findings(pd.concat([result.findings, ghosts], ignore_index=True))
    attach_originals(result)
    return result


@pytest.fixture(scope="module")
def faulty(faulty_files):
    from meters.floor import load_counts, load_floor

    paths = faulty_files["parquet-sas"]
    return paths, load_floor(paths["floor"]), load_counts(paths["counts"])


@pytest.mark.parametrize("order", ["machine", "shuffled", None])
@pytest.mark.parametrize(
    "how",
    [
        dict(workers=1, block_rows=150),
        dict(workers=2),
        dict(workers=2, block_rows=60),
        dict(workers=1),
    ],
)
def test_streamed_and_parallel_equal_whole(faulty, tmp_path, order, how):
    paths, floor, counts = faulty
    dump = rewrite(paths, tmp_path, order, 100)
    assert pq.ParquetFile(dump).num_row_groups > 10
    expect = whole(dump, floor, counts)
    got = reconcile([str(dump)], floor, counts, **how)
    for name in TABLES:
        pd.testing.assert_frame_equal(getattr(expect, name), getattr(got, name))
    assert (expect.rows_in, expect.rows_reconciled, expect.counts_unmatched) == (
        got.rows_in,
        got.rows_reconciled,
        got.counts_unmatched,
    )
    assert not got.findings.empty and not got.quarantine.empty


def test_stream_blocks_hold_whole_machines(faulty, tmp_path):
    paths, _, _ = faulty
    dump = rewrite(paths, tmp_path, "machine", 97)
    meters = dump_meters([str(dump)])
    parts = list(iter_dump(dump, batch_rows=97, meters=meters))
    assert len(parts) > 5
    blocks = list(stream_blocks(iter(parts), 200))
    rows = Readings.concat(parts)
    joined = Readings.concat(blocks)
    np.testing.assert_array_equal(joined.keys["_line"], rows.keys["_line"])
    np.testing.assert_array_equal(joined.values, rows.values)
    owner = {}
    for b, block in enumerate(blocks):
        assert len(block) >= 200 or b == len(blocks) - 1
        for machine in pd.unique(block.keys["machine_id"].astype(object)):
            assert owner.setdefault(machine, b) == b  # no machine in two blocks


def test_stream_blocks_notice_a_machine_apart(faulty, tmp_path):
    paths, _, _ = faulty
    dump = rewrite(paths, tmp_path, "shuffled", 97)
    parts = iter_dump(dump, batch_rows=97, meters=dump_meters([str(dump)]))
    with pytest.raises(NotGrouped):
        list(stream_blocks(parts, 200))


def test_row_group_tasks_cover_the_dump_in_whole_machines(faulty, tmp_path):
    paths, _, _ = faulty
    dump = rewrite(paths, tmp_path, "machine", 123)
    mapping = column_map(pq.read_schema(dump).names, str(dump))
    tasks = row_group_tasks(str(dump), mapping)
    assert len(tasks) > 5
    n = pq.ParquetFile(dump).metadata.num_rows
    assert tasks[0][0] == 0 and tasks[-1][1] == n
    assert all(a[1] == b[0] for a, b in zip(tasks, tasks[1:], strict=False))
    ids = pq.read_table(dump).column("machine_id").cast(pa.string()).to_numpy(zero_copy_only=False)
    for start, _ in tasks[1:]:
        assert ids[start] != ids[start - 1]  # a task never splits a machine
    meters = dump_meters([str(dump)])
    every = read_dump(dump, meters)
    for start, stop in tasks:
        part = read_rows(str(dump), mapping, meters, start, stop)
        np.testing.assert_array_equal(part.values, every.values[start:stop])
        np.testing.assert_array_equal(part.keys["_line"], np.arange(start + 1, stop + 1))
        np.testing.assert_array_equal(part.keys["read_at"], every.keys["read_at"][start:stop])
    shuffled = rewrite(paths, tmp_path, "shuffled", 123)
    assert row_group_tasks(str(shuffled), mapping) is None


@pytest.mark.parametrize("seed", range(30))
def test_machine_runs_equal_unified_dictionary_twin(seed):
    """Runs found chunk by chunk equal those of the unified dictionary (the oracle)."""
    from meters.parallel import _machine_runs, _machine_runs_unified

    rng = np.random.default_rng(seed)
    runs = rng.integers(1, 6, size=rng.integers(1, 12))
    ids = np.repeat([f"M{i:02d}" for i in rng.permutation(len(runs))], runs)
    if seed % 3 == 0 and len(ids) > 2:  # a machine's rows apart
        ids[rng.integers(len(ids))] = ids[0]
    cuts = np.unique(rng.integers(0, len(ids) + 1, size=rng.integers(0, 4)))
    pieces = [pa.array(part).dictionary_encode() for part in np.split(ids, cuts)]
    column = pa.chunked_array(pieces, type=pieces[0].type)
    fast, twin = _machine_runs(column), _machine_runs_unified(column)
    assert (fast is None) == (twin is None)
    if fast is not None:
        np.testing.assert_array_equal(fast, twin)
