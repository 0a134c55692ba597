"""Checkpoints of finished chunks, so a killed run resumes with identical results.

A checkpoint directory holds ``manifest.json`` (what the chunks belong to) and
one ``.npz`` file per finished group of consecutive chunks. Every file is
written under a temporary name, flushed to disk and then renamed
(``os.replace``), so a run killed at any instant (SIGKILL included) leaves only
whole files behind. Nothing is pickled: the manifest is JSON and the chunk
files are NumPy archives read with ``allow_pickle=False``.

The manifest pins the model (its fingerprint), the seed, the chunk size and the
tool version; a directory written for anything else is refused with
:class:`~certify.errors.InputError` rather than silently mixed in. Each chunk
file names its stream (bet level) and records the spins of every chunk it
holds, so a rerun with more spins reuses every full chunk already done.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Iterator
from pathlib import Path

import numpy as np

from certify import __version__
from certify.errors import InputError
from certify.model.fingerprint import fingerprint
from certify.model.schema import Machine
from certify.outputs import write_text, write_with

SCHEMA = "slotcert/checkpoint@1"
MANIFEST = "manifest.json"
_NAME = re.compile(r"^s(\d+)-c(\d+)-n(\d+)\.npz$")
_FIELDS = ("stats", "sum_sq", "awards", "hist")

Rows = dict[int, tuple[np.ndarray, ...]]  # chunk index -> (stats, sum_sq, awards, hist) rows


class Checkpoint:
    """The finished chunks of one model and seed, in one directory.

    Parameters
    ----------
    path : str or Path
        The directory (created if missing).
    machine : Machine
        The model; its fingerprint is pinned in the manifest.
    seed, chunk_spins : int
        The run's seed and chunk size.

    Raises
    ------
    InputError
        When the directory holds a checkpoint of another model, seed, chunk
        size or tool version, or a file that cannot be read.

    """

    def __init__(self, path: str | Path, machine: Machine, seed: int, chunk_spins: int):
        self.path = Path(path)
        self.manifest = {
            "schema": SCHEMA,
            "tool_version": __version__,
            "model_fingerprint": fingerprint(machine),
            "machine_id": machine.id,
            "seed": int(seed),
            "chunk_spins": int(chunk_spins),
        }
        self.path.mkdir(parents=True, exist_ok=True)
        self._check_or_write_manifest()

    def _check_or_write_manifest(self) -> None:
        file = self.path / MANIFEST
        if not file.exists():
            text = json.dumps(self.manifest, indent=2, sort_keys=True) + "\n"
            write_text(file, text, sync=True)
            return
        try:
            old = json.loads(file.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise InputError(f"{file}: not a readable checkpoint manifest ({exc})") from None
        if not isinstance(old, dict) or old.get("schema") != SCHEMA:
            raise InputError(f"{file}: not a slotcert checkpoint manifest")
        for key in ("model_fingerprint", "seed", "chunk_spins", "tool_version"):
            if old.get(key) != self.manifest[key]:
                raise InputError(
                    f"{file}: checkpoint was written for {key.replace('_', ' ')} "
                    f"{old.get(key)!r}, this run has {self.manifest[key]!r}; remove the "
                    "directory or choose another --checkpoint"
                )

    def load(self, stream: int, sizes: np.ndarray) -> Rows:
        """Rows of the chunks of ``stream`` already done that fit the chunk plan ``sizes``."""
        rows: Rows = {}
        for file in sorted(self.path.glob(f"s{int(stream)}-c*.npz")):
            match = _NAME.match(file.name)
            if match is None:
                continue
            first = int(match.group(2))
            arrays = self._read(file)
            done = arrays[4]
            for j in range(done.shape[0]):
                i = first + j
                if i < sizes.shape[0] and done[j] == sizes[i]:
                    rows[i] = tuple(a[j : j + 1] for a in arrays[:4])
        return rows

    def _read(self, file: Path) -> tuple[np.ndarray, ...]:
        try:
            with np.load(file, allow_pickle=False) as data:
                arrays = tuple(np.array(data[name]) for name in (*_FIELDS, "sizes"))
        except (OSError, ValueError, KeyError) as exc:
            raise InputError(
                f"{file}: unreadable checkpoint file ({exc}); remove it to recompute its chunks"
            ) from None
        n = arrays[4].shape[0]
        if any(a.shape[0] != n for a in arrays):
            raise InputError(
                f"{file}: checkpoint arrays disagree in length; remove it to recompute its chunks"
            )
        return arrays

    def save(self, stream: int, first: int, sizes: np.ndarray, arrays: tuple) -> None:
        """Record chunks ``first .. first + len(sizes) - 1`` of ``stream`` atomically."""
        n = int(sizes.shape[0])
        file = self.path / f"s{int(stream)}-c{int(first):09d}-n{n}.npz"
        payload = dict(zip(_FIELDS, arrays, strict=True))
        write_with(file, lambda fh: np.savez(fh, sizes=np.asarray(sizes), **payload), sync=True)

    def saving(
        self, stream: int, sizes: np.ndarray, groups: Iterator[tuple[int, tuple]]
    ) -> Iterator[tuple[int, tuple]]:
        """Pass ``(first, arrays)`` groups through, recording each one first."""
        for first, arrays in groups:
            self.save(stream, first, sizes[first : first + arrays[0].shape[0]], arrays)
            yield first, arrays


class CheckpointDir:
    """Checkpoints of a batch: one sub-directory per machine id.

    Parameters
    ----------
    path : str or Path
        The batch's checkpoint directory.
    seed, chunk_spins : int
        The run's seed and chunk size.
    per_machine : bool
        ``True`` (certify batches): ``path/<machine id>/``; ``False`` (one
        simulation): ``path`` itself is the checkpoint.

    """

    def __init__(self, path: str | Path, seed: int, chunk_spins: int, per_machine: bool = True):
        self.path, self.seed, self.chunk_spins = Path(path), seed, chunk_spins
        self.per_machine = per_machine
        self._open: dict[str, Checkpoint] = {}
        self._lock = threading.Lock()

    def for_machine(self, machine: Machine) -> Checkpoint:
        """Open (once) and return the checkpoint of ``machine``."""
        with self._lock:
            key = fingerprint(machine)
            if key not in self._open:
                where = self.path / safe_dir(machine.id) if self.per_machine else self.path
                self._open[key] = Checkpoint(where, machine, self.seed, self.chunk_spins)
            return self._open[key]


def safe_dir(machine_id: str) -> str:
    """Make a directory name from a machine id: no separators, no dot-dot."""
    stem = re.sub(r"[^A-Za-z0-9._-]", "_", machine_id).lstrip(".") or "machine"
    return stem.replace("..", "_")[:120]
