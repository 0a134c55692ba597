"""A worker killed (SIGKILL) while it holds tasks: its chunks are recomputed elsewhere
and the merged figures are unchanged.

Oracle: the local run with the same seed; tolerance: none (bits).
"""

from __future__ import annotations

import os
import signal

from cluster_helpers import assert_identical
from testpaths import DATA

from certify.engine import compile_machine, simulate
from certify.model import load_machine
from certify.runners import ClusterProgress, DaskRunner

CHUNK = 4096


class KillOnFirstResult(ClusterProgress):
    """Kills a worker that still has tasks, as soon as the first result comes back."""

    def __init__(self, client):
        super().__init__(enabled=False)
        self.client, self.killed = client, None

    def advance(self, spins: int) -> None:
        super().advance(spins)
        if self.killed is not None:
            return
        busy = {w: keys for w, keys in self.client.processing().items() if keys}
        if not busy:  # try again at the next result
            return
        pids = self.client.run(os.getpid)
        victim = next(iter(busy))
        self.killed = (victim, pids[victim], len(busy[victim]))
        os.kill(pids[victim], signal.SIGKILL)


def test_killed_worker_changes_nothing(client):
    tables = compile_machine(load_machine(DATA / "small_features.toml"))
    spins = 240 * CHUNK + 99
    progress = KillOnFirstResult(client)
    runner = DaskRunner(client, chunks_per_task=4, progress=progress)
    result = simulate(tables, 1, spins, 31, chunk_spins=CHUNK, stream=4, runner=runner)
    assert_identical(result, simulate(tables, 1, spins, 31, chunk_spins=CHUNK, stream=4))
    assert progress.killed is not None, "no worker held tasks at any result"
    victim, pid, pending = progress.killed
    assert pending > 0  # the worker died holding tasks
    client.wait_for_workers(2, timeout=30)
    assert pid not in client.run(os.getpid).values()  # it really died (the nanny restarted it)
