"""The merged result is bit-identical whatever ran the chunks and in whatever order.

Oracle: the local numba path (``simulate`` without a runner); tolerance: none,
every integer and the float sum of squares compared bit for bit.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from cluster_helpers import assert_identical
from hypothesis import given, settings
from hypothesis import strategies as st
from testpaths import DATA, JURISDICTIONS, MACHINES

from certify.batch import certify_machine
from certify.engine import compile_machine, simulate
from certify.engine.simulate import run_chunks
from certify.model import load_jurisdiction, load_machine
from certify.runners import ChunkRunner, DaskRunner, LocalRunner, choose_group, reorder, runs

CHUNK = 4096


@pytest.fixture(scope="module")
def features():
    return compile_machine(load_machine(DATA / "small_features.toml"))


@pytest.fixture(scope="module")
def classic():
    return compile_machine(load_machine(MACHINES / "classic-3r-1.toml"))


class ShuffledRunner(ChunkRunner):
    """Computes the chunks in uneven groups and hands them back in a random order."""

    def __init__(self, seed: int, most: int):
        super().__init__()
        self.rng, self.most = random.Random(seed), most

    def groups(self, tables, level_index, seed, stream, sizes, todo, batch):
        parts = runs(todo, self.most)
        self.rng.shuffle(parts)
        for first, count in parts:
            yield (
                first,
                run_chunks(tables, level_index, seed, first, sizes[first : first + count], stream),
            )


@settings(max_examples=15, deadline=None)
@given(
    order=st.integers(0, 2**32 - 1),
    most=st.integers(1, 9),
    chunks=st.integers(1, 40),
    last=st.integers(0, CHUNK - 1),
)
def test_any_completion_order_gives_the_same_bits(features, order, most, chunks, last):
    spins = chunks * CHUNK + last
    local = simulate(features, 0, spins, 11, chunk_spins=CHUNK, stream=2)
    shuffled = simulate(
        features, 0, spins, 11, chunk_spins=CHUNK, stream=2, runner=ShuffledRunner(order, most)
    )
    assert_identical(local, shuffled)


def test_reorder_reports_missing_chunks():
    with pytest.raises(Exception, match="never computed"):
        list(reorder({}, iter(()), 3, 2))


def test_local_runner_matches_the_default_path(classic):
    a = simulate(classic, 1, 37 * CHUNK + 5, 3, chunk_spins=CHUNK, stream=1)
    b = simulate(classic, 1, 37 * CHUNK + 5, 3, chunk_spins=CHUNK, stream=1, runner=LocalRunner())
    assert_identical(a, b)


@pytest.mark.parametrize("per_task", [None, 1, 3, 8])
@pytest.mark.parametrize("model", ["features", "classic"])
def test_dask_two_workers_match_local(client, request, model, per_task):
    tables = request.getfixturevalue(model)
    spins = 150 * CHUNK + 123
    local = simulate(tables, 0, spins, 2024, chunk_spins=CHUNK, stream=5)
    runner = DaskRunner(client, chunks_per_task=per_task)
    remote = simulate(tables, 0, spins, 2024, chunk_spins=CHUNK, stream=5, runner=runner)
    assert_identical(local, remote)
    assert runner.workers == 2 and runner.overhead is not None and runner.overhead > 0


def test_dask_progress_sees_every_spin(client, features):
    from certify.runners import ClusterProgress

    progress = ClusterProgress(enabled=False)
    runner = DaskRunner(client, progress=progress)
    simulate(features, 1, 40 * CHUNK, 1, chunk_spins=CHUNK, stream=1, runner=runner)
    assert progress.planned == progress.done == 40 * CHUNK


def _cert_figures(cert):
    return [
        (
            lc.level,
            lc.simulation.spins,
            lc.simulation.total_win,
            lc.simulation.sum_sq.hex(),
            tuple(lc.simulation.histogram),
            lc.convergence,
            lc.verdict.verdict,
        )
        for lc in cert.levels
    ] + [cert.verdict]


def test_certify_machine_on_the_cluster_matches_local(client):
    machine = load_machine(DATA / "small_features.toml")
    pt = load_jurisdiction(JURISDICTIONS / "pt.toml")
    local = certify_machine(machine, pt, 300_000, 7)
    remote = certify_machine(machine, pt, 300_000, 7, runner=DaskRunner(client))
    assert _cert_figures(local) == _cert_figures(remote)


@pytest.mark.parametrize(
    ("overhead", "chunk_s", "threads", "left", "workers", "expected"),
    [
        (0.004, 0.2, 1, 1000, 2, 1),  # big chunks: one chunk a task is cheap enough
        (0.004, 0.002, 1, 10_000, 2, 100),  # tiny chunks: 100 of them carry the overhead
        (0.004, 0.002, 1, 80, 2, 10),  # ... unless that leaves fewer than 4 tasks a worker
        (0.004, 0.2, 4, 1000, 2, 4),  # a task fills every numba thread of its worker
        (0.004, 0.002, 4, 10_000, 2, 100),
    ],
)
def test_choose_group(overhead, chunk_s, threads, left, workers, expected):
    assert choose_group(overhead, chunk_s, threads, left, workers) == expected


def test_groups_of_consecutive_chunks():
    assert runs([0, 1, 2, 5, 6, 9], 2) == [(0, 2), (2, 1), (5, 2), (9, 1)]
    assert np.array_equal(np.array(runs([], 3)), np.array([]))


def test_workers_of_another_version_are_refused():
    from certify.errors import UsageError
    from certify.runners import _check_workers

    assert _check_workers({"a": (certify_version(), 1), "b": (certify_version(), 2)}) == 2
    with pytest.raises(UsageError, match=r"^the cluster's workers run slotcert 0\.0\.1 and"):
        _check_workers({"a": ("0.0.1", 1)})


def certify_version() -> str:
    import certify

    return certify.__version__


def test_cluster_progress_line(capsys):
    from certify.runners import ClusterProgress

    progress = ClusterProgress(enabled=True)
    progress.workers = 2
    progress.plan(1_000)
    progress.advance(400)
    progress.advance(600)
    progress.close()
    err = capsys.readouterr().err
    assert err.startswith("\rcluster (2 workers): 400/1,000 spins")
    assert "\rcluster (2 workers): 1,000/1,000 spins" in err and "ETA 0 s" in err
    assert err.endswith("\n")
