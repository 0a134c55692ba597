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
from certify.engine import compile_machine, simulate
from certify.errors import InputError
from certify.model import load_machine
from certify.model.fingerprint import fingerprint
from certify.runners import DaskRunner, LocalRunner

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
            assert sorted(data.files) == ["awards", "hist", "run", "sizes", "stats", "sum_sq"]


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


def test_an_unreadable_chunk_file_is_named_and_recomputed(machine, tmp_path, capsys):
    store = CheckpointDir(tmp_path, 5, CHUNK, per_machine=False)
    store.for_machine(machine)
    (tmp_path / "s0-c000000000-n2.npz").write_bytes(b"not a zip")
    result = simulate(machine, 0, 4 * CHUNK, 5, chunk_spins=CHUNK, runner=LocalRunner(store))
    assert_identical(result, simulate(machine, 0, 4 * CHUNK, 5, chunk_spins=CHUNK))
    err = capsys.readouterr().err
    assert "s0-c000000000-n2.npz" in err and "recomputed" in err


# --- issue 15 item 5: every chunk is bound to its run and checked before it is used ---------


SPINS = 12 * CHUNK + 5


def _partial(machine, folder, seed=5, after=3):
    """A checkpoint of a run killed after ``after`` merged batches; its chunk files."""
    _interrupted_seed(machine, CheckpointDir(folder, seed, CHUNK, per_machine=False), after, seed)
    files = sorted(folder.glob("s0-*.npz"))
    assert files
    return files


def _interrupted_seed(machine, store, after, seed):
    count = 0

    def progress(_):
        nonlocal count
        count += 1
        if count == after:
            raise Stop

    with pytest.raises(Stop):
        simulate(
            machine, 0, SPINS, seed, chunk_spins=CHUNK, progress=progress, runner=LocalRunner(store)
        )


def _resume(machine, folder):
    store = CheckpointDir(folder, 5, CHUNK, per_machine=False)
    return simulate(machine, 0, SPINS, 5, chunk_spins=CHUNK, runner=LocalRunner(store))


def _doubled(file):
    with np.load(file, allow_pickle=False) as data:
        arrays = {name: np.array(data[name]) for name in data.files}
    arrays["stats"] = arrays["stats"] * 2  # win sums (and everything else) doubled
    with open(file, "wb") as fh:
        np.savez(fh, **arrays)


@pytest.mark.parametrize("damage", ["doubled", "truncated", "foreign_seed", "no_digest"])
def test_a_damaged_or_foreign_chunk_is_never_used(machine, tmp_path, capsys, damage):
    files = _partial(machine, tmp_path / "ck")
    victim = files[0]
    if damage == "doubled":
        _doubled(victim)
    elif damage == "truncated":
        victim.write_bytes(victim.read_bytes()[: victim.stat().st_size // 2])
    elif damage == "no_digest":
        for side in tmp_path.glob("ck/*.sha256"):
            side.unlink()
    else:  # the same-named chunk of a seed-6 run, with its digest file, copied in
        other = _partial(machine, tmp_path / "seed6", seed=6)
        assert other[0].name == victim.name
        victim.write_bytes(other[0].read_bytes())
        for side in (tmp_path / "seed6").glob(victim.name + "*.sha256"):
            (tmp_path / "ck" / side.name).write_bytes(side.read_bytes())
    capsys.readouterr()
    resumed = _resume(machine, tmp_path / "ck")
    assert_identical(resumed, simulate(machine, 0, SPINS, 5, chunk_spins=CHUNK))
    err = capsys.readouterr().err
    assert victim.name in err and "recomputed" in err
    assert "Traceback" not in err


def test_chunk_files_carry_their_run_and_a_digest(machine, tmp_path):
    import hashlib

    files = _partial(machine, tmp_path)
    for file in files:
        side = file.with_name(file.name + ".sha256")
        digest = side.read_text().split()[0]
        assert digest == hashlib.sha256(file.read_bytes()).hexdigest()
        with np.load(file, allow_pickle=False) as data:
            run = json.loads(str(data["run"]))
        assert run["seed"] == 5 and run["stream"] == 0 and run["chunk_spins"] == CHUNK
        assert run["model_fingerprint"] == fingerprint(machine)
        assert f"-c{run['first']:09d}-n{len(run['sizes'])}.npz" in file.name


def test_an_intact_resume_reads_every_recorded_chunk(machine, tmp_path, capsys):
    _partial(machine, tmp_path)
    capsys.readouterr()
    resumed = _resume(machine, tmp_path)
    assert_identical(resumed, simulate(machine, 0, SPINS, 5, chunk_spins=CHUNK))
    assert "recomputed" not in capsys.readouterr().err
