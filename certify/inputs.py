"""Safe input files: only regular files, read with a size bound; strict JSON.

Every file slotcert reads (models, jurisdictions, lab configs, keys,
certificates, checkpoint manifests and chunks, meter dumps and reports) is
opened through :func:`open_regular`:

- it is opened with ``O_NONBLOCK``, so a FIFO (named pipe) never blocks the
  open, then checked with ``fstat``: anything but a regular file (a FIFO, a
  character device such as ``/dev/zero``, a socket, a directory) is refused
  with a located error before a byte is read;
- :func:`read_bytes` reads at most ``limit`` bytes and refuses a larger file
  (never reads it to the end).

Readers whose library opens the path itself (pandas, pyarrow) first call
:func:`regular_file` (a ``stat``, which never blocks either).

:func:`parse_json` is the strict JSON reader of signed and machine-written
documents: a key given twice in one object, ``NaN`` / ``Infinity`` and
nesting deeper than Python can follow are refused, each with a located
error (a duplicated ``"verdict"`` would otherwise read as its last value
while a person reads the first).

Every refusal is an :class:`UnreadableInput` (an
:class:`~certify.errors.InputError`, so exit 2) carrying the bare reason, so
model loaders can re-raise it as a located model problem.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import IO, Any

from certify.errors import InputError

KIB, MIB = 1024, 1024 * 1024
MODEL_BYTES = 64 * MIB  # a machine file with 8,000-stop strips is under 1 MiB
KEY_BYTES = 64 * KIB  # a PEM Ed25519 key is under 200 bytes
CONFIG_BYTES = 1 * MIB  # lab configuration
DOCUMENT_BYTES = 256 * MIB  # certificates, checkpoint manifests, summary.json
CHUNK_BYTES = 1024 * MIB  # one checkpoint chunk file

_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


class UnreadableInput(InputError):
    """An input file cannot be used: ``str()`` is ``"<path>: <reason>"``.

    Attributes
    ----------
    path : str
        The file.
    reason : str
        What is wrong, without the path.
    missing : bool
        True when the file does not exist.

    """

    def __init__(self, path: str | Path, reason: str, missing: bool = False):
        self.path, self.reason, self.missing = str(path), reason, missing
        super().__init__(f"{path}: {reason}")


def _kind(mode: int) -> str | None:
    """None for a regular file; otherwise what the file is, in words."""
    if stat.S_ISREG(mode):
        return None
    return next((words for test, words in _KINDS if test(mode)), "not a regular file")


def regular_file(path: str | Path, what: str = "input") -> Path:
    """``path`` when it names a regular file (symlinks followed); a located error otherwise.

    Parameters
    ----------
    path : str or Path
        The file.
    what : str
        What the file should be, for the message (``"model"``, ``"public key"``).

    Raises
    ------
    UnreadableInput
        When it does not exist, cannot be examined or is not a regular file.

    """
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        raise UnreadableInput(path, "no such file", missing=True) from None
    except (OSError, ValueError) as exc:
        raise UnreadableInput(path, f"cannot read {what}: {_why(exc)}") from None
    kind = _kind(mode)
    if kind is not None:
        raise UnreadableInput(path, f"is {kind}, not a {what} file")
    return Path(path)


def open_regular(path: str | Path, what: str = "input") -> IO[bytes]:
    """Open a regular file for binary reading without ever blocking; refuse anything else."""
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise UnreadableInput(path, "no such file", missing=True) from None
    except IsADirectoryError:
        raise UnreadableInput(path, f"is a directory, not a {what} file") from None
    except (OSError, ValueError) as exc:
        raise UnreadableInput(path, f"cannot read {what}: {_why(exc)}") from None
    try:
        kind = _kind(os.fstat(fd).st_mode)
        if kind is not None:
            raise UnreadableInput(path, f"is {kind}, not a {what} file")
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_bytes(path: str | Path, what: str = "input", limit: int = DOCUMENT_BYTES) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes; a located error otherwise."""
    with open_regular(path, what) as handle:
        try:
            data = handle.read(limit + 1)
        except OSError as exc:
            raise UnreadableInput(path, f"cannot read {what}: {_why(exc)}") from None
    if len(data) > limit:
        raise UnreadableInput(path, f"larger than {_size(limit)}: not a {what} file")
    return data


def read_text(path: str | Path, what: str = "input", limit: int = DOCUMENT_BYTES) -> str:
    """A regular UTF-8 text file of at most ``limit`` bytes; a located error otherwise."""
    data = read_bytes(path, what, limit)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UnreadableInput(
            path, f"not UTF-8 text (byte {exc.start}: {data[exc.start : exc.start + 1]!r})"
        ) from None


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _Duplicate(key)
        out[key] = value
    return out


class _Duplicate(ValueError):
    pass


class _Constant(ValueError):
    pass


def _no_constant(name: str) -> Any:
    raise _Constant(name)


def parse_json(text: str | bytes, source: str | Path) -> Any:
    """Strict JSON: duplicate keys, NaN/Infinity and excessive nesting refused (located).

    Parameters
    ----------
    text : str or bytes
        The document.
    source : str or Path
        Where it came from, for the message.

    Raises
    ------
    UnreadableInput
        Naming the line and column of a syntax error, the duplicated key, the
        non-finite constant, or the nesting depth.

    """
    try:
        return json.loads(text, object_pairs_hook=_unique_keys, parse_constant=_no_constant)
    except _Duplicate as exc:
        raise UnreadableInput(
            source, f"key {exc.args[0]!r} appears twice in one object: refused (ambiguous)"
        ) from None
    except _Constant as exc:
        raise UnreadableInput(
            source, f"{exc.args[0]} is not a JSON number: refused (only finite numbers)"
        ) from None
    except json.JSONDecodeError as exc:
        raise UnreadableInput(
            source, f"not valid JSON: line {exc.lineno} column {exc.colno}: {exc.msg}"
        ) from None
    except RecursionError:
        raise UnreadableInput(source, "JSON nested too deeply") from None
    except UnicodeDecodeError as exc:
        raise UnreadableInput(source, f"not UTF-8 text: {exc.reason}") from None


def read_json(path: str | Path, what: str = "input", limit: int = DOCUMENT_BYTES) -> Any:
    """A strict JSON file (see :func:`parse_json`) of at most ``limit`` bytes."""
    return parse_json(read_text(path, what, limit), path)


def _why(exc: BaseException) -> str:
    return str(getattr(exc, "strerror", None) or exc)


def _size(limit: int) -> str:
    return f"{limit // MIB} MiB" if limit >= MIB else f"{limit // KIB} KiB"
