"""Checkpoints: atomic chunk files, refusal of a foreign checkpoint, resume = uninterrupted.

Oracle: an uninterrupted local run with the same seed; tolerance: none (bits).
"""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest
from cluster_helpers import assert_identical
from testpaths import DATA

import certify
from certify.checkpoint import Checkpoint, CheckpointDir
from certify.cluster import DaskRunner, LocalRunner
from certify.engine import compile_machine, simulate
from certify.errors import InputError
from certify.model import load_machine
from certify.model.fingerprint import fingerprint

CHUNK = 4096


@pytest.fixture(scope="module")
def machine():
    return load_machine(DATA / "small_features.toml")


class Stop(Exception):
    pass


def _interrupted(machine, store, spins, after_batches, stream=0):
    """Run until ``after_batches`` batches were merged, then die like a killed process."""
    count = 0

    def progress(_):
        nonlocal count
        count += 1
        if count == after_batches:
            raise Stop

    with pytest.raises(Stop):
        simulate(
            machine,
            0,
            spins,
            5,
            chunk_spins=CHUNK,
            stream=stream,
            progress=progress,
            runner=LocalRunner(store),
        )


def test_resume_locally_equals_uninterrupted(machine, tmp_path):
    spins = 40 * CHUNK + 17
    store = CheckpointDir(tmp_path, 5, CHUNK, per_machine=False)
    _interrupted(machine, store, spins, 6)
    assert len(list(tmp_path.glob("s0-*.npz"))) == 6
    resumed = simulate(
        machine,
        0,
        spins,
        5,
        chunk_spins=CHUNK,
        runner=LocalRunner(CheckpointDir(tmp_path, 5, CHUNK, per_machine=False)),
    )
    assert_identical(resumed, simulate(machine, 0, spins, 5, chunk_spins=CHUNK))


def test_resume_on_the_cluster_equals_uninterrupted(client, machine, tmp_path):
    spins = 60 * CHUNK
    store = CheckpointDir(tmp_path, 5, CHUNK)
    _interrupted(machine, store, spins, 5, stream=3)
    runner = DaskRunner(client, CheckpointDir(tmp_path, 5, CHUNK))
    resumed = simulate(machine, 0, spins, 5, chunk_spins=CHUNK, stream=3, runner=runner)
    assert_identical(resumed, simulate(machine, 0, spins, 5, chunk_spins=CHUNK, stream=3))
    assert runner.progress.planned < spins  # the recorded chunks were not sent again


def test_more_spins_reuse_the_full_chunks(machine, tmp_path):
    store = CheckpointDir(tmp_path, 5, CHUNK, per_machine=False)
    simulate(machine, 0, 10 * CHUNK + 100, 5, chunk_spins=CHUNK, runner=LocalRunner(store))
    tables = compile_machine(machine)
    sizes = np.array([CHUNK] * 12 + [7], dtype=np.int64)
    rows = store.for_machine(machine).load(0, sizes)
    assert sorted(rows) == list(range(10))  # the partial chunk 10 no longer fits the plan
    longer = simulate(tables, 0, 12 * CHUNK + 7, 5, chunk_spins=CHUNK, runner=LocalRunner(store))
    assert_identical(longer, simulate(tables, 0, 12 * CHUNK + 7, 5, chunk_spins=CHUNK))


def test_leftover_temporary_files_are_ignored(machine, tmp_path):
    store = CheckpointDir(tmp_path, 5, CHUNK, per_machine=False)
    (tmp_path / ".s0-c000000000-n2.npz.123.456.tmp").write_bytes(b"half a file")
    result = simulate(machine, 0, 4 * CHUNK, 5, chunk_spins=CHUNK, runner=LocalRunner(store))
    assert_identical(result, simulate(machine, 0, 4 * CHUNK, 5, chunk_spins=CHUNK))


def test_files_are_json_and_plain_npz(machine, tmp_path):
    store = CheckpointDir(tmp_path, 5, CHUNK, per_machine=False)
    simulate(machine, 0, 4 * CHUNK, 5, chunk_spins=CHUNK, runner=LocalRunner(store))
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    assert manifest == {
        "schema": "slotcert/checkpoint@1",
        "tool_version": certify.__version__,
        "model_fingerprint": fingerprint(machine),
        "machine_id": machine.id,
        "seed": 5,
        "chunk_spins": CHUNK,
    }
    for file in tmp_path.glob("*.npz"):
        with np.load(file, allow_pickle=False) as data:
            assert sorted(data.files) == ["awards", "hist", "sizes", "stats", "sum_sq"]


def _changed(machine):
    return dataclasses.replace(machine, bet_levels=(*machine.bet_levels[:-1], 99))


@pytest.mark.parametrize(
    ("what", "message"),
    [
        (
            "seed",
            "checkpoint was written for seed 5, this run has 6; remove the directory or "
            "choose another --checkpoint",
        ),
        (
            "chunk",
            "checkpoint was written for chunk spins 4096, this run has 8192; remove the "
            "directory or choose another --checkpoint",
        ),
        (
            "model",
            "checkpoint was written for model fingerprint '{old}', this run has '{new}'; "
            "remove the directory or choose another --checkpoint",
        ),
        (
            "version",
            "checkpoint was written for tool version '0.0.0-old', this run has "
            f"'{certify.__version__}'; remove the directory or choose another --checkpoint",
        ),
    ],
)
def test_a_foreign_checkpoint_is_refused(machine, tmp_path, what, message):
    Checkpoint(tmp_path, machine, 5, CHUNK)
    other, seed, chunk = machine, 5, CHUNK
    if what == "seed":
        seed = 6
    elif what == "chunk":
        chunk = 8192
    elif what == "model":
        other = _changed(machine)
    else:
        file = tmp_path / "manifest.json"
        file.write_text(file.read_text().replace(certify.__version__, "0.0.0-old"))
    expected = f"{tmp_path / 'manifest.json'}: " + message.format(
        old=fingerprint(machine), new=fingerprint(other)
    )
    with pytest.raises(InputError) as info:
        Checkpoint(tmp_path, other, seed, chunk)
    assert str(info.value) == expected


def test_an_unreadable_chunk_file_is_named(machine, tmp_path):
    store = CheckpointDir(tmp_path, 5, CHUNK, per_machine=False)
    store.for_machine(machine)
    (tmp_path / "s0-c000000000-n2.npz").write_bytes(b"not a zip")
    with pytest.raises(InputError, match=r"s0-c000000000-n2\.npz: unreadable checkpoint file"):
        simulate(machine, 0, 4 * CHUNK, 5, chunk_spins=CHUNK, runner=LocalRunner(store))
