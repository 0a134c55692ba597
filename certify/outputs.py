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
  it was (a reader sees the old file or the new one, never half of one).

:func:`neutral_cell` is the spreadsheet formula-injection rule every CSV
writer applies to its text cells.
"""

from __future__ import annotations

import contextlib
import os
import re
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Any

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")


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
    os.close(fd)
    tmp = Path(name)
    try:
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
