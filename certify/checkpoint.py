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

Every chunk file is bound to its run and checked before it is used:

- it carries ``run``, a JSON text with the model fingerprint, seed, chunk
  size, stream, first chunk index and the spins of each chunk it holds (all
  must match the run resuming it and the file's name);
- ``<file>.sha256`` beside it holds the SHA-256 digest of the file's bytes
  (``sha256sum`` format), written just before the file, so every chunk
  file a killed run leaves has its digest.

A chunk file that fails any check (digest missing or different, unreadable
or truncated archive, another run's binding, arrays of the wrong shape) is
never used: its chunks are recomputed, the file is renamed ``*.rejected``
and one line on stderr names it. The digest catches damage and mix-ups, not
a deliberate forger who rewrites both files.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import re
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import numpy as np

from certify import __version__
from certify.errors import InputError
from certify.inputs import (
    CHUNK_BYTES,
    DOCUMENT_BYTES,
    UnreadableInput,
    read_bytes,
    read_json,
    read_text,
)
from certify.kinds import CHECKPOINT
from certify.model.fingerprint import fingerprint
from certify.model.schema import Machine
from certify.outputs import write_bytes, write_text

SCHEMA = CHECKPOINT.schema
MANIFEST = "manifest.json"
_NAME = re.compile(r"^s(\d+)-c(\d+)-n(\d+)\.npz$")
_FIELDS = ("stats", "sum_sq", "awards", "hist")

Rows = dict[int, tuple[np.ndarray, ...]]  # chunk index -> (stats, sum_sq, awards, hist) rows


class _Rejected(Exception):
    """A chunk file that must not be used (the message says why)."""


def _digest_file(file: Path) -> Path:
    return file.with_name(file.name + ".sha256")


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
        size or tool version, or a manifest that cannot be read. (A chunk
        file that fails its checks is not an error: it is recomputed.)

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
        if not os.path.lexists(file):
            text = json.dumps(self.manifest, indent=2, sort_keys=True) + "\n"
            write_text(file, text, sync=True)
            return
        try:
            old = read_json(file, "checkpoint manifest", DOCUMENT_BYTES)
        except UnreadableInput as exc:
            raise InputError(f"{file}: not a readable checkpoint manifest ({exc.reason})") from None
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
        """Rows of the chunks of ``stream`` already done that fit the chunk plan ``sizes``.

        A chunk file that fails its checks is set aside (renamed
        ``*.rejected``) and named on stderr; its chunks are recomputed.
        """
        rows: Rows = {}
        for file in sorted(self.path.glob(f"s{int(stream)}-c*.npz")):
            match = _NAME.match(file.name)
            if match is None:
                continue
            first, count = int(match.group(2)), int(match.group(3))
            try:
                arrays = self._read(file, int(stream), first, count)
            except _Rejected as why:
                self._reject(file, str(why))
                continue
            done = arrays[4]
            for j in range(done.shape[0]):
                i = first + j
                if i < sizes.shape[0] and done[j] == sizes[i]:
                    rows[i] = tuple(a[j : j + 1] for a in arrays[:4])
        return rows

    def binding(self, stream: int, first: int, sizes: np.ndarray) -> dict:
        """What a chunk file of ``stream`` from chunk ``first`` must record about its run."""
        return {
            "schema": SCHEMA,
            "model_fingerprint": self.manifest["model_fingerprint"],
            "seed": self.manifest["seed"],
            "chunk_spins": self.manifest["chunk_spins"],
            "stream": int(stream),
            "first": int(first),
            "sizes": [int(x) for x in np.asarray(sizes).tolist()],
        }

    def _read(self, file: Path, stream: int, first: int, count: int) -> tuple[np.ndarray, ...]:
        """The arrays of a chunk file that passes every check; :class:`_Rejected` otherwise."""
        side = _digest_file(file)
        try:
            data = read_bytes(file, "checkpoint chunk", CHUNK_BYTES)
            recorded = read_text(side, "checkpoint digest", 4096).split()
        except UnreadableInput as exc:
            if exc.missing and exc.path == str(side):
                raise _Rejected(f"no SHA-256 digest beside it ({side.name})") from None
            raise _Rejected(f"unreadable ({exc.reason})") from None
        if not recorded or recorded[0] != hashlib.sha256(data).hexdigest():
            raise _Rejected(f"its SHA-256 digest differs from {side.name} (damaged or rewritten)")
        try:
            with np.load(io.BytesIO(data), allow_pickle=False) as npz:
                arrays = tuple(np.array(npz[name]) for name in (*_FIELDS, "sizes"))
                run = json.loads(str(npz["run"]))
        except Exception as exc:  # zipfile, zlib, numpy format errors: all mean damaged
            raise _Rejected(f"unreadable archive ({type(exc).__name__}: {exc})") from None
        sizes = arrays[4]
        if sizes.ndim != 1 or sizes.shape[0] != count:
            raise _Rejected(f"holds {sizes.shape[0]} chunk(s), its name says {count}")
        if not isinstance(run, dict):
            raise _Rejected("its run record is not a JSON object")
        for key, value in self.binding(stream, first, sizes).items():
            if run.get(key) != value:
                raise _Rejected(
                    f"written for {key.replace('_', ' ')} {run.get(key)!r}, this run has {value!r}"
                )
        if any(a.ndim < 1 or a.shape[0] != count for a in arrays):
            raise _Rejected("its arrays disagree in length")
        return arrays

    def _reject(self, file: Path, why: str) -> None:
        """Set a chunk file aside (renamed ``*.rejected``) and say so on stderr."""
        for path in (file, _digest_file(file)):
            with contextlib.suppress(OSError):
                os.replace(path, path.with_name(path.name + ".rejected"))
        print(
            f"slotcert: checkpoint file {file}: {why}; not used, its chunks are recomputed",
            file=sys.stderr,
        )

    def save(self, stream: int, first: int, sizes: np.ndarray, arrays: tuple) -> None:
        """Record chunks ``first .. first + len(sizes) - 1`` of ``stream`` atomically.

        The archive carries the run's binding; its SHA-256 digest is written
        beside it first (a file without one is never used).
        """
        n = int(sizes.shape[0])
        file = self.path / f"s{int(stream)}-c{int(first):09d}-n{n}.npz"
        payload = dict(zip(_FIELDS, arrays, strict=True))
        run = json.dumps(self.binding(stream, first, sizes), sort_keys=True)
        buf = io.BytesIO()
        np.savez(buf, sizes=np.asarray(sizes), run=np.array(run), **payload)
        data = buf.getvalue()
        # the digest first: a chunk file, once visible, always has its digest (a kill between
        # the two leaves a digest without a file, which nothing reads)
        digest = hashlib.sha256(data).hexdigest()
        write_text(_digest_file(file), f"{digest}  {file.name}\n", sync=True)
        write_bytes(file, data, sync=True)

    def saving(
        self, stream: int, sizes: np.ndarray, groups: Iterator[tuple[int, tuple]]
    ) -> Iterator[tuple[int, tuple]]:
        """Pass ``(first, arrays)`` groups through, recording each one first."""
        for first, arrays in groups:
            self.save(stream, first, sizes[first : first + arrays[0].shape[0]], arrays)
            yield first, arrays


class CheckpointDir:
    """Checkpoints of a batch: one sub-directory per model (:func:`machine_dir`).

    Parameters
    ----------
    path : str or Path
        The batch's checkpoint directory.
    seed, chunk_spins : int
        The run's seed and chunk size.
    per_machine : bool
        ``True`` (certify batches, a simulation of a game with free-spin
        options): ``path/<machine id>-<fingerprint>/``, one folder per model
        (each option is a model of its own; two ids that read alike, such as
        ``EGM/1`` and ``EGM:1``, get two folders); ``False`` (one simulation):
        ``path`` itself is the checkpoint.

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
                where = self.path / machine_dir(machine) if self.per_machine else self.path
                self._open[key] = Checkpoint(where, machine, self.seed, self.chunk_spins)
            return self._open[key]


def machine_dir(machine: Machine) -> str:
    """The folder of one model's checkpoint: its id made safe, then its fingerprint.

    The fingerprint keys it (a sanitised id alone maps ``EGM/1`` and ``EGM:1``,
    or the free-spin options of one game, to one folder, whose manifest then
    refuses the others); the id in front is for the people reading the folder.
    """
    return f"{safe_dir(machine.id)[:80]}-{fingerprint(machine).split(':')[-1][:16]}"


def safe_dir(machine_id: str) -> str:
    """Make a directory name from a machine id: no separators, no dot-dot."""
    stem = re.sub(r"[^A-Za-z0-9._-]", "_", machine_id).lstrip(".") or "machine"
    return stem.replace("..", "_")[:120]
