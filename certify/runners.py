"""Run simulation chunks beyond one machine: on a Dask cluster, resumable from checkpoints.

A chunk is a pure function of (model, bet level, seed, stream, chunk index), so
it can run anywhere and be recomputed at will. A *runner* turns a chunk plan
into per-chunk kernel outputs; :func:`certify.engine.simulate.simulate` merges
them **in chunk order**, so integer totals and the floating-point sum of
squares are bit-identical whatever ran them, in whatever order they finished:

- :class:`LocalRunner`: the numba kernel in this process (with a checkpoint);
- :class:`DaskRunner`: tasks of a few consecutive chunks each, sent with
  ``client.submit`` to a ``distributed`` cluster and collected with
  ``as_completed``; a task lost with its worker is recomputed.

Both record finished chunks in a :class:`~certify.checkpoint.CheckpointDir`
when one is given and skip the chunks already there.
"""

from __future__ import annotations

import math
import os
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np

from certify.checkpoint import CheckpointDir, Rows
from certify.engine.simulate import run_chunks
from certify.engine.tables import GameTables, compile_machine
from certify.errors import EngineError, UsageError
from certify.model.fingerprint import fingerprint
from certify.model.schema import Machine

Groups = Iterator[tuple[int, tuple]]  # (first chunk, (stats, sum_sq, awards, hist)), any order


class ChunkRunner:
    """Base of the runners: checkpoint handling and merging order.

    Subclasses implement :meth:`groups`, which computes a set of chunks and
    yields them in any order.
    """

    def __init__(self, checkpoint: CheckpointDir | None = None):
        self.checkpoint = checkpoint

    def batches(
        self,
        tables: GameTables,
        level_index: int,
        seed: int,
        stream: int,
        sizes: np.ndarray,
        batch: int,
    ) -> Groups:
        """Yield the outputs of chunks ``[b, b + batch)`` for ``b = 0, batch, ...`` in order."""
        n = int(sizes.shape[0])
        store = self.checkpoint.for_machine(tables.machine) if self.checkpoint else None
        done = store.load(stream, sizes) if store else {}
        todo = [i for i in range(n) if i not in done]
        fresh = (
            self.groups(tables, level_index, seed, stream, sizes, todo, batch) if todo else iter(())
        )
        if store is not None:
            fresh = store.saving(stream, sizes, fresh)
        yield from reorder(done, fresh, n, batch)

    def groups(
        self,
        tables: GameTables,
        level_index: int,
        seed: int,
        stream: int,
        sizes: np.ndarray,
        todo: list[int],
        batch: int,
    ) -> Groups:
        """Compute chunks ``todo`` (sorted indices); yield groups of consecutive chunks."""
        raise NotImplementedError


def runs(todo: list[int], most: int) -> list[tuple[int, int]]:
    """Split sorted chunk indices into ``(first, count)`` runs of consecutive chunks."""
    out: list[tuple[int, int]] = []
    for i in todo:
        if out and out[-1][0] + out[-1][1] == i and out[-1][1] < most:
            out[-1] = (out[-1][0], out[-1][1] + 1)
        else:
            out.append((i, 1))
    return out


def reorder(done: Rows, fresh: Groups, n: int, batch: int) -> Groups:
    """Emit batches of chunk rows in chunk order as soon as each batch is complete."""
    rows = dict(done)
    start = 0

    def ready() -> Groups:
        nonlocal start
        while start < n and all(i in rows for i in range(start, min(start + batch, n))):
            stop = min(start + batch, n)
            parts = [rows.pop(i) for i in range(start, stop)]
            yield start, tuple(np.concatenate([p[f] for p in parts]) for f in range(4))
            start = stop

    yield from ready()
    for first, arrays in fresh:
        for j in range(arrays[0].shape[0]):
            rows[first + j] = tuple(a[j : j + 1] for a in arrays)
        yield from ready()
    if start < n:
        raise EngineError(f"chunks {start}..{n - 1} were never computed")


class LocalRunner(ChunkRunner):
    """The numba kernel on this machine's cores (today's path, plus checkpoints)."""

    def groups(self, tables, level_index, seed, stream, sizes, todo, batch):
        """Run consecutive chunks ``batch`` at a time through the parallel kernel."""
        for first, count in runs(todo, batch):
            yield (
                first,
                run_chunks(tables, level_index, seed, first, sizes[first : first + count], stream),
            )


class CudaRunner(ChunkRunner):
    """Chunks on the GPU (:mod:`certify.engine.gpu`; a checkpoint when one is given).

    Checks at once that there is a usable GPU (a UsageError, exit 2, if not).
    Without a checkpoint the batches come straight from the GPU, in order.
    """

    def __init__(self, checkpoint: CheckpointDir | None = None) -> None:
        from certify.engine.gpu import check_cuda

        super().__init__(checkpoint)
        self.device = check_cuda()

    def batches(self, tables, level_index, seed, stream, sizes, batch):
        """Batches in chunk order (the game refused first if the GPU does not play it)."""
        from certify.engine.gpu import refuse, run_chunks_cuda

        refuse(tables)
        if self.checkpoint is not None:
            yield from super().batches(tables, level_index, seed, stream, sizes, batch)
            return
        for first in range(0, sizes.shape[0], batch):
            part = sizes[first : first + batch]
            yield first, run_chunks_cuda(tables, level_index, seed, first, part, stream)

    def groups(self, tables, level_index, seed, stream, sizes, todo, batch):
        """Run consecutive chunks ``todo``, ``batch`` at a time, on the GPU."""
        from certify.engine.gpu import run_chunks_cuda

        for first, count in runs(todo, batch):
            yield (
                first,
                run_chunks_cuda(
                    tables, level_index, seed, first, sizes[first : first + count], stream
                ),
            )


# --- worker side ---------------------------------------------------------------------------

_TABLES: dict[str, GameTables] = {}
_TABLES_LOCK = threading.Lock()
_KERNEL_LOCK = threading.Lock()  # one kernel at a time per process: it uses every numba thread


def _worker_tables(machine: Machine, key: str) -> GameTables:
    """Compiled tables of ``machine``, cached per worker process by fingerprint."""
    with _TABLES_LOCK:
        tables = _TABLES.get(key)
        if tables is None:
            if len(_TABLES) >= 16:
                _TABLES.pop(next(iter(_TABLES)))
            tables = _TABLES[key] = compile_machine(machine)
        return tables


def run_task(
    machine: Machine,
    key: str,
    level_index: int,
    seed: int,
    stream: int,
    first: int,
    sizes: np.ndarray,
) -> tuple:
    """One Dask task: chunks ``first ..`` of sizes ``sizes``; returns outputs and timing."""
    import numba

    tables = _worker_tables(machine, key)
    numba.set_num_threads(worker_threads())  # numba may have read its env before the nanny set it
    with _KERNEL_LOCK:
        started = time.perf_counter()
        arrays = run_chunks(tables, level_index, seed, first, sizes, stream)
        seconds = time.perf_counter() - started
    return first, arrays, seconds, numba.get_num_threads()


def worker_threads() -> int:
    """Numba threads a task gets on this worker (run on workers with ``client.run``)."""
    import numba

    most = int(numba.config.NUMBA_NUM_THREADS)  # type: ignore[attr-defined]
    wanted = int(os.environ.get("SLOTCERT_KERNEL_THREADS", "0") or 0)
    return min(wanted, most) if wanted > 0 else most


def worker_info() -> tuple[str, int]:
    """Return the slotcert version and numba threads per task of the worker it runs on."""
    from certify import __version__

    return __version__, worker_threads()


def _noop(i: int) -> int:
    return i


# --- client side ---------------------------------------------------------------------------


class ClusterProgress:
    """One status line for all work sent to the cluster (spins/s, ETA) on a terminal."""

    def __init__(self, enabled: bool | None = None):
        if enabled is None:
            enabled = sys.stderr.isatty() and not os.environ.get("CI")
        self.enabled = enabled
        self.planned = self.done = self.workers = 0
        self._started: float | None = None
        self._shown = 0.0
        self._lock = threading.Lock()

    def plan(self, spins: int) -> None:
        """Add ``spins`` to the work expected."""
        with self._lock:
            self.planned += spins
            if self._started is None:
                self._started = time.perf_counter()

    def advance(self, spins: int) -> None:
        """Count ``spins`` as done; redraw at most four times a second."""
        with self._lock:
            self.done += spins
            now = time.perf_counter()
            if not self.enabled or (now - self._shown < 0.25 and self.done < self.planned):
                return
            self._shown = now
            rate = (
                self.done / (now - (self._started or now)) if now > (self._started or now) else 0.0
            )
            eta = (self.planned - self.done) / rate if rate > 0 else float("nan")
            sys.stderr.write(
                f"\rcluster ({self.workers} workers): {self.done:,}/"
                f"{self.planned:,} spins  {rate / 1e6:,.1f}M spins/s  "
                f"ETA {eta:,.0f} s   "
            )
            sys.stderr.flush()

    def close(self) -> None:
        """End the status line."""
        if self.enabled and self._shown:
            sys.stderr.write("\n")


def measure_overhead(client, tasks: int = 64) -> float:
    """Worker-slot seconds one task costs beyond its own work (scheduling, transfer).

    ``tasks`` empty tasks are sent at once; the wall time times the number of
    workers, divided by ``tasks``.
    """
    client.gather(client.map(_noop, range(4), pure=False))  # warm the path
    workers = max(1, len(client.nthreads()))
    started = time.perf_counter()
    client.gather(client.map(_noop, range(tasks), pure=False))
    return (time.perf_counter() - started) * workers / tasks


def choose_group(
    overhead: float,
    chunk_seconds: float,
    threads: int,
    left: int,
    workers: int,
    target: float = 0.02,
) -> int:
    """Chunks per task: overhead below ``target`` of the work, yet enough tasks to share.

    Parameters
    ----------
    overhead : float
        Per-task overhead from :func:`measure_overhead`.
    chunk_seconds : float
        Measured time of one chunk inside a task.
    threads : int
        Numba threads of a worker: a task needs that many chunks to use them all.
    left, workers : int
        Chunks still to send and workers to share them (at least 4 tasks each).
    target : float
        Largest share of a task's time the overhead may take.

    """
    by_overhead = math.ceil(overhead / (target * chunk_seconds)) if chunk_seconds > 0 else 1
    by_balance = max(1, left // (4 * workers))
    group = max(threads, min(by_overhead, by_balance))
    return threads * math.ceil(group / threads)


class DaskRunner(ChunkRunner):
    """Chunks as Dask tasks on a ``distributed`` cluster, merged in chunk order.

    Thread-safe: several simulations (machines, bet levels) may use one runner
    at once (``concurrent = True``), their tasks sharing the cluster.

    Parameters
    ----------
    client : distributed.Client
        A connected client.
    checkpoint : CheckpointDir, optional
        Where finished chunks are recorded.
    chunks_per_task : int, optional
        Fixed task size; by default chosen by :func:`choose_group` from the
        measured per-task overhead and chunk time.
    retries : int
        Times a failed task (exception or lost worker) is sent again.
    progress : ClusterProgress, optional
        The status line.

    """

    concurrent = True

    def __init__(
        self,
        client,
        checkpoint: CheckpointDir | None = None,
        *,
        chunks_per_task: int | None = None,
        retries: int = 3,
        progress: ClusterProgress | None = None,
    ):
        super().__init__(checkpoint)
        self.client = client
        self.chunks_per_task = chunks_per_task
        self.retries = retries
        self.progress = progress or ClusterProgress(False)
        self.overhead: float | None = None
        self.threads, self.workers = 1, 1
        self._seconds_per_spin: dict[str, float] = {}
        self._checked = -math.inf
        self._lock = threading.Lock()

    def _refresh(self) -> None:
        """Measure the overhead once; recount workers every few seconds."""
        with self._lock:
            if time.monotonic() - self._checked < 2.0:
                return
            self._checked = time.monotonic()
            self.workers = self.progress.workers = max(1, len(self.client.nthreads()))
            if self.overhead is None:
                self.threads = _check_workers(self.client.run(worker_info))
                self.overhead = measure_overhead(self.client)

    def _group(self, key: str, chunk: int, left: int) -> int:
        if self.chunks_per_task:
            return self.chunks_per_task
        per_spin = self._seconds_per_spin.get(key)
        if per_spin is None:
            return self.threads
        return choose_group(
            self.overhead or 0.0, per_spin * chunk, self.threads, left, self.workers
        )

    def groups(self, tables, level_index, seed, stream, sizes, todo, batch):
        """Send chunks ``todo`` as tasks, a few per worker in flight; yield as they finish."""
        from dask.base import tokenize
        from distributed import as_completed

        self._refresh()
        machine, key, chunk = tables.machine, fingerprint(tables.machine), int(sizes.max())
        queue, flying, done = list(reversed(todo)), {}, as_completed()
        self.progress.plan(int(sizes[todo].sum()))

        def send(first: int, count: int, attempt: int = 0) -> None:
            part = sizes[first : first + count]
            name = f"slotcert-chunks-{first}-{tokenize(key, level_index, seed, stream, part)}"
            future = self.client.submit(
                run_task,
                machine,
                key,
                level_index,
                seed,
                stream,
                first,
                part,
                key=f"{name}-{attempt}",
                retries=1,
            )
            flying[future] = (first, count, attempt)
            done.add(future)

        def top_up() -> None:
            self._refresh()
            while queue and len(flying) < 2 * self.workers + 2:
                send(*_take(queue, self._group(key, chunk, len(queue))))

        top_up()
        try:
            for future in done:
                first, count, attempt = flying.pop(future)
                try:
                    _, arrays, seconds, threads = future.result()
                except Exception as exc:  # a lost worker or a failed task: send it again
                    if attempt >= self.retries:
                        raise EngineError(
                            f"{machine.id}: chunks {first}..{first + count - 1} "
                            f"failed {attempt + 1} times: {exc}"
                        ) from None
                    send(first, count, attempt + 1)
                    continue
                spins = int(sizes[first : first + count].sum())
                self._seconds_per_spin[key] = seconds / max(spins, 1)
                self.threads = threads
                top_up()
                self.progress.advance(spins)
                yield first, arrays
        finally:
            if flying:
                self.client.cancel(list(flying))


def _check_workers(info: dict[str, tuple[str, int]]) -> int:
    """Refuse workers of another slotcert version; return their most numba threads."""
    from certify import __version__

    others = sorted({version for version, _ in info.values()} - {__version__})
    if others:
        raise UsageError(
            f"the cluster's workers run slotcert {', '.join(others)} and this "
            f"client {__version__}; install the same version everywhere"
        )
    return max((threads for _, threads in info.values()), default=1)


def _take(queue: list[int], most: int) -> tuple[int, int]:
    """Pop up to ``most`` consecutive chunk indices off ``queue`` (kept reversed)."""
    first = queue.pop()
    count = 1
    while count < most and queue and queue[-1] == first + count:
        queue.pop()
        count += 1
    return first, count


@contextmanager
def connect(scheduler: str | None = None, workers: int | None = None) -> Iterator:
    """Connect to ``scheduler``, or to a new LocalCluster of ``workers`` processes.

    Each local worker is one process with one Dask thread; its numba kernel
    gets ``cores // workers`` threads (``NUMBA_NUM_THREADS``), so the kernels
    of all workers together use each core once and no more.
    """
    from distributed import Client, LocalCluster

    if workers is not None:
        if workers < 1:
            raise UsageError(f"--workers={workers} must be at least 1")
        threads = max(1, (os.cpu_count() or 1) // workers)
        with (
            LocalCluster(
                n_workers=workers,
                threads_per_worker=1,
                processes=True,
                dashboard_address=":0",
                env={"NUMBA_NUM_THREADS": str(threads), "SLOTCERT_KERNEL_THREADS": str(threads)},
            ) as cluster,
            Client(cluster) as client,
        ):
            yield client
        return
    try:
        client = Client(scheduler)  # waits distributed.comm.timeouts.connect (30 s)
    except (OSError, TimeoutError, ValueError) as exc:
        raise UsageError(f"--scheduler={scheduler!r}: cannot connect ({exc})") from None
    with client:
        yield client


def dashboard_address(client) -> str | None:
    """Return the Dask dashboard's address, when the scheduler serves one.

    Without bokeh on the scheduler the page says what to install.
    """
    if "dashboard" not in client.scheduler_info().get("services", {}):
        return None
    return str(client.dashboard_link)


@contextmanager
def open_runner(
    scheduler: str | None = None,
    workers: int | None = None,
    checkpoint: CheckpointDir | None = None,
    device: str = "cpu",
) -> Iterator:
    """Open the runner the command line asked for; ``None`` is today's local path.

    ``device="cuda"``: the chunks run on the GPU (:class:`CudaRunner`;
    a UsageError when there is none). Prints the Dask dashboard's address to
    stderr when there is one (not in CI).
    """
    if scheduler and workers is not None:
        raise UsageError("--scheduler and --workers exclude each other")
    if device not in ("cpu", "cuda"):
        raise UsageError(f"--device={device!r}: must be cpu or cuda")
    if device == "cuda":
        if scheduler or workers is not None:
            raise UsageError(
                "--device cuda runs on this machine's GPU: it cannot go with --workers/--scheduler"
            )
        yield CudaRunner(checkpoint)
        return
    if not scheduler and workers is None:
        yield LocalRunner(checkpoint) if checkpoint is not None else None
        return
    with connect(scheduler, workers) as client:
        link = dashboard_address(client)
        if link and not os.environ.get("CI"):
            print(f"slotcert: Dask dashboard at {link}", file=sys.stderr)
        runner = DaskRunner(client, checkpoint, progress=ClusterProgress())
        try:
            yield runner
        finally:
            runner.progress.close()
