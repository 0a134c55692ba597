"""Every shipped feature game simulates bit-identically on 1 and 2 numba threads and after a resume.

Oracle: the same run (seed, stream, chunk size) on 1 thread, and uninterrupted;
tolerance: none, every integer and the float sum of squares compared bit for
bit (SPEC: identical results for any thread or worker count and after a resume).
"""

from __future__ import annotations

import numba
import pytest
from sim_figures import figures
from testpaths import MACHINES

from certify.checkpoint import CheckpointDir
from certify.engine import SimulationResult, compile_machine, simulate
from certify.model import load_machine
from certify.runners import LocalRunner

CHUNK = 2048
SPINS = 20 * CHUNK + 77  # 21 chunks: split over both threads, last one short
FEATURE_MODELS = [
    "reelwild-5x3-20",
    "book-5x3-10",
    "hold-5x3-20",
    "heights-4r",
    "cascade-5x3-10",
    "cluster-7x7",
    "ways-243",
    "jackpot-5x3",
]


@pytest.fixture(scope="module", params=FEATURE_MODELS)
def tables(request):
    return compile_machine(load_machine(MACHINES / f"{request.param}.toml"))


def run(tables, threads: int, **kw) -> SimulationResult:
    before = numba.get_num_threads()
    numba.set_num_threads(threads)
    try:
        return simulate(tables, 0, SPINS, 2026, chunk_spins=CHUNK, stream=1, **kw)
    finally:
        numba.set_num_threads(before)


@pytest.mark.skipif(numba.config.NUMBA_NUM_THREADS < 2, reason="needs 2 numba threads")
def test_one_and_two_threads_give_the_same_bits(tables):
    one, two = run(tables, 1), run(tables, 2)
    assert one.spins == SPINS and one.total_win > 0
    assert figures(one) == figures(two)


class Stop(Exception):
    """Raised by the progress callback: the run dies like a killed process."""


def test_resume_through_the_checkpoint_equals_the_whole_run(tables, tmp_path):
    """21 chunks are merged in batches of 2: the run dies after 5 batches (10 chunks
    on disk), a second run resumes from the checkpoint; its result is the whole run's."""
    merged = 0

    def progress(_):
        nonlocal merged
        merged += 1
        if merged == 5:
            raise Stop

    store = CheckpointDir(tmp_path, 2026, CHUNK, per_machine=False)
    with pytest.raises(Stop):
        run(tables, 2, progress=progress, runner=LocalRunner(store))
    on_disk = [int(f.stem.rsplit("-n", 1)[1]) for f in tmp_path.glob("s1-*.npz")]
    assert sum(on_disk) == 10  # files s1-c<first>-n<chunks>.npz
    again = LocalRunner(CheckpointDir(tmp_path, 2026, CHUNK, per_machine=False))
    assert figures(run(tables, 2, runner=again)) == figures(run(tables, 1))
