"""A LocalCluster of two worker processes shared by the cluster tests.

The workers compile the numba kernels once, up front and side by side, so
no test pays for it twice.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))


def _warm(client) -> None:
    """Run one tiny chunk of each test model on every worker (compiles the kernels)."""
    from testpaths import DATA, MACHINES

    from certify.model import load_machine
    from certify.model.fingerprint import fingerprint
    from certify.runners import run_task

    machines = [
        load_machine(DATA / "small_features.toml"),
        load_machine(MACHINES / "classic-3r-1.toml"),
    ]
    futures = [
        client.submit(
            run_task,
            m,
            fingerprint(m),
            0,
            0,
            0,
            0,
            np.array([64]),
            workers=[w],
            allow_other_workers=False,
            pure=False,
        )
        for w in client.nthreads()
        for m in machines
    ]
    client.gather(futures)


@pytest.fixture(scope="session")
def client():
    from certify.runners import connect

    with connect(workers=2) as c:
        _warm(c)
        yield c


@pytest.fixture(scope="session")
def scheduler(client) -> str:
    """The shared cluster's address, for ``--scheduler``."""
    return client.scheduler.address
