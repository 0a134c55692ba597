"""The example models shipped inside the package (``slotcert examples DIR``).

The repository's ``models/`` folder is the package data ``certify/_models``
(a link to it in the source tree, copied into the wheel), so an installed
slotcert carries the same machines, jurisdictions, links and table games the
README uses.
"""

from __future__ import annotations

import shutil
from importlib import resources
from pathlib import Path

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

    Files that exist are kept unless ``overwrite``.
    """
    target = Path(folder)
    written, kept = [], []
    for rel, source in example_files():
        dest = target / rel
        if dest.exists() and not overwrite:
            kept.append(dest)
            continue
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, dest)
        written.append(dest)
    return written, kept
