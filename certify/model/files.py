"""Model files by kind: what a file declares, the wrong-kind check, folders, one loader each.

The kinds and their ``schema`` strings are registered in :mod:`certify.kinds`;
this module is the one dispatch from a file's kind to its loader, used by the
Python API, ``slotcert validate`` and ``slotcert certify``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from certify.errors import ModelError, UsageError
from certify.kinds import JURISDICTION, LINK, MACHINE, TABLE, model_kind
from certify.model.jurisdiction import load_jurisdiction
from certify.model.links import load_link
from certify.model.loader import load_machine, schema_of
from certify.tables.loader import load_table

LOADERS: dict[str, Callable[[str | Path], Any]] = {
    MACHINE.name: load_machine,
    JURISDICTION.name: load_jurisdiction,
    LINK.name: load_link,
    TABLE.name: load_table,
}


def kind_of(path: str | Path) -> tuple[str, str]:
    """``(kind, schema)`` of a model file: kind is machine, jurisdiction, link, table or ''.

    Raises
    ------
    ModelError
        When the file cannot be read as TOML.

    """
    schema = schema_of(path)
    return model_kind(schema), schema


def expect_kind(path: str | Path, *kinds: str) -> str:
    """The kind of ``path``, or a one-line :class:`UsageError` when it is not one of ``kinds``.

    A file without a ``schema`` key (or an unknown one) is passed through as
    the first expected kind, so the loader reports its problems as usual.
    """
    try:
        kind, schema = kind_of(path)
    except ModelError:
        return kinds[0]  # unreadable: the loader says why, located
    if not kind or kind in kinds:
        return kind or kinds[0]
    wanted = " or ".join(f"a {k}" for k in kinds)
    raise UsageError(f"{path}: is a {kind} file ({schema}), expected {wanted}")


def load_model(path: str | Path) -> Any:
    """Load any model file with the loader of the kind it declares (machine by default)."""
    return LOADERS[expect_kind(path, *LOADERS)](path)


def model_files(paths: list[str]) -> list[Path]:
    """Expand folders into the ``*.toml`` files they hold, sorted.

    Raises
    ------
    UsageError
        When a folder holds no ``*.toml`` file at all (a mistyped or empty folder).

    """
    files: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            found = sorted(path.rglob("*.toml"))
            if not found:
                raise UsageError(f"{path}: folder holds no model files (*.toml)")
            files.extend(found)
        else:
            files.append(path)
    return files


def machine_files(
    paths: list[str], skipped: Callable[[Path, str], None] | None = None
) -> list[Path]:
    """Machine files to certify: named files as given, the machine files of folders.

    In a folder, a file of another model kind (jurisdiction, link, table) is
    left out (``skipped(path, schema)`` is told); a file that cannot be read,
    or declares no known kind, is kept so that it is reported as invalid.
    """
    named = {Path(p) for p in paths if not Path(p).is_dir()}
    out = []
    for path in model_files(paths):
        if path not in named:
            try:
                kind, schema = kind_of(path)
            except ModelError:
                kind, schema = "", ""
            if kind and kind != MACHINE.name:
                if skipped is not None:
                    skipped(path, schema)
                continue
        out.append(path)
    return out
