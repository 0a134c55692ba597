"""Safe output files: written under a temporary name, then renamed into place.

Every file slotcert writes for people (certificates, PAR CSV, HTML reports,
meter and jackpot outputs) and every checkpoint goes through this module:

- the data is written to a fresh temporary file *in the destination folder*
  (created with ``O_EXCL``, so a file or symlink planted under that name is
  never opened), flushed and, when asked, synced to disk;
- ``os.replace`` then puts it in place. The rename replaces whatever is at
  the destination, a symlink included, **without following it**: a symlink
  planted inside an output folder can never redirect a write outside it;
- on any error the temporary file is removed and the destination is left as
  it was (a reader sees the old file or the new one, never half of one);
- the file is given mode ``0644`` less the umask (``0644`` under the usual
  ``0022``), so colleagues and web servers can read reports; only
  ``slotcert keygen``'s private key is ``0600`` (:func:`create_new`).

:func:`create_new` writes a file that must not exist yet (``O_EXCL`` and
``O_NOFOLLOW``: a symlink there, dangling or not, is refused, never followed).

:func:`neutral_cell` is the spreadsheet formula-injection rule every CSV
writer applies to its text cells; :func:`printable` strips control
characters from text shown on a terminal.
"""

from __future__ import annotations

import contextlib
import os
import re
import tempfile
import unicodedata
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Any

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")
OUTPUT_MODE = 0o644


def _umask() -> int:
    """The process umask: from ``/proc`` where it can be read without changing it."""
    with contextlib.suppress(OSError, ValueError):
        with open("/proc/self/status", encoding="ascii", errors="replace") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    mask = os.umask(0o022)  # elsewhere it can only be read by setting it
    os.umask(mask)
    return mask


def output_mode() -> int:
    """The mode of every output file: ``0644`` less the umask."""
    return OUTPUT_MODE & ~_umask()


@contextlib.contextmanager
def atomic_path(path: str | Path, sync: bool = False) -> Iterator[Path]:
    """Yield a fresh temporary path beside ``path``; rename it onto ``path`` on success.

    Parameters
    ----------
    path : str or Path
        The destination. A symlink there is replaced, never followed.
    sync : bool
        ``fsync`` the file before the rename (checkpoints: survive a crash).

    """
    dest = Path(path)
    fd, name = tempfile.mkstemp(prefix=f".{dest.name}.", suffix=".tmp", dir=dest.parent)
    tmp = Path(name)
    try:
        try:
            os.fchmod(fd, output_mode())
        finally:
            os.close(fd)
        yield tmp
        if sync:
            with open(tmp, "rb+") as fh:
                os.fsync(fh.fileno())
        os.replace(tmp, dest)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise


def write_with(path: str | Path, write: Callable[[IO[bytes]], Any], sync: bool = False) -> None:
    """Write ``path`` atomically through ``write(binary file)``."""
    with atomic_path(path, sync) as tmp, open(tmp, "wb") as fh:
        write(fh)
        fh.flush()


def write_bytes(path: str | Path, data: bytes, sync: bool = False) -> None:
    """Write ``data`` to ``path`` atomically."""
    write_with(path, lambda fh: fh.write(data), sync)


def write_text(path: str | Path, text: str, sync: bool = False) -> None:
    """Write ``text`` (UTF-8, newlines as given) to ``path`` atomically."""
    write_bytes(path, text.encode("utf-8"), sync)


def neutral_cell(value: Any) -> Any:
    """Neutralise a CSV text cell a spreadsheet would run as a formula (OWASP rule).

    Text starting with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return
    gets a leading single quote; numbers (``int``, ``float``, NumPy numbers,
    ``Decimal``), text that is a plain number (``-5.00``, ``+1e3``: a
    spreadsheet reads it as that number, never as a formula) and other text
    pass unchanged, so a negative number stays a number.
    """
    if (
        isinstance(value, str)
        and value.startswith(FORMULA_STARTS)
        and _NUMBER.fullmatch(value) is None
    ):
        return "'" + value
    return value


def neutral_frame(frame: Any) -> Any:
    """A pandas frame with :func:`neutral_cell` applied to its text columns only.

    Numeric columns are untouched; object and categorical columns are
    rewritten only when some cell needs it (no copy otherwise).
    """
    import pandas as pd

    out = frame
    for name in frame.columns:
        col = frame[name]
        if isinstance(col.dtype, pd.CategoricalDtype):
            cats = col.cat.categories
            if cats.dtype == object or pd.api.types.is_string_dtype(cats.dtype):
                fixed = [neutral_cell(c) for c in cats]
                if fixed != list(cats) and len(set(fixed)) == len(fixed):
                    out = out.copy() if out is frame else out
                    out[name] = col.cat.rename_categories(fixed)
                elif fixed != list(cats):
                    out = out.copy() if out is frame else out
                    out[name] = col.astype(object).map(neutral_cell)
        elif col.dtype == object or pd.api.types.is_string_dtype(col.dtype):
            starts = col.astype(str).str[:1].isin(FORMULA_STARTS)
            if starts.any():
                out = out.copy() if out is frame else out
                out[name] = col.map(neutral_cell)
    return out


def create_new(path: str | Path, data: bytes, mode: int = OUTPUT_MODE) -> None:
    """Write ``data`` to a file that must not exist yet; never through a symlink.

    Parameters
    ----------
    path : str or Path
        The new file. An existing file or symlink there (dangling or not)
        raises :class:`FileExistsError`; nothing is written.
    data : bytes
        The content.
    mode : int
        Its permissions (less the umask), e.g. ``0o600`` for a private key.

    """
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(path, flags, mode)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(path)
        raise


_KEEP = frozenset("\n")


def printable(text: object) -> str:
    """``text`` with every control character (C0, DEL, C1, bidi overrides) removed.

    For anything printed on a terminal that came from a file: an escape
    sequence in a machine id must not recolour, retitle or clear the screen.
    Newlines are kept.
    """
    value = str(text)
    if value.isprintable():
        return value
    return "".join(
        ch
        for ch in value
        if ch in _KEEP or ch == " " or unicodedata.category(ch) not in ("Cc", "Cf", "Zl", "Zp")
    )
