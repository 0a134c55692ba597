"""The example models shipped inside the package (``slotcert examples DIR``).

The repository's ``models/`` folder is the package data ``certify/_models``
(a link to it in the source tree, copied into the wheel), so an installed
slotcert carries the same machines, jurisdictions, links and table games the
README uses.
"""

from __future__ import annotations

import os
from importlib import resources
from pathlib import Path

from certify.errors import UsageError
from certify.outputs import write_bytes

KINDS = ("machines", "jurisdictions", "links", "tables")


def example_files() -> list[tuple[str, Path]]:
    """``(relative name, file)`` of every shipped model, e.g. ``machines/ref-5x3-20.toml``."""
    root = resources.files("certify") / "_models"
    out = []
    for kind in KINDS:
        folder = root / kind
        if not folder.is_dir():
            continue
        for entry in sorted(folder.iterdir(), key=lambda e: e.name):
            if entry.name.endswith(".toml") and entry.is_file():
                out.append((f"{kind}/{entry.name}", Path(str(entry))))
    return out


def example_path(name: str) -> Path:
    """The shipped file ``name`` (``"machines/ref-5x3-20.toml"``), or a KeyError."""
    for rel, path in example_files():
        if rel == name:
            return path
    raise KeyError(name)


def copy_examples(folder: str | Path, overwrite: bool = False) -> tuple[list[Path], list[Path]]:
    """Copy every shipped model into ``folder``; return ``(written, kept)`` paths.

    Files that exist (a symlink there, even dangling, counts) are kept unless
    ``overwrite``; then they are replaced atomically
    (:func:`certify.outputs.write_bytes`), a symlink replaced, never followed.
    A kind folder (``machines/``...) that is a symlink is refused.
    """
    target = Path(folder)
    written, kept = [], []
    for rel, source in example_files():
        dest = target / rel
        if os.path.lexists(dest) and not overwrite:
            kept.append(dest)
            continue
        if dest.parent.is_symlink():
            raise UsageError(f"{dest.parent}: is a symlink; not writing examples through it")
        dest.parent.mkdir(parents=True, exist_ok=True)
        write_bytes(dest, source.read_bytes())
        written.append(dest)
    return written, kept
