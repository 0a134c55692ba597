"""Rebuild the shipped kernels (``python -m certify.prebuilt_build``): see :mod:`certify.prebuilt`.

Run after changing a kernel source: ``tests/test_prebuilt.py`` fails while
the bundle is older than the sources.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

from numba.core.caching import UserProvidedCacheLocator

from certify import prebuilt
from certify._numba import SOURCES_DIGEST, _kernel_sources


def _kernel_dirs() -> list[Path]:
    """The directories holding kernel sources (the files the digest covers)."""
    return sorted({path.parent for path in _kernel_sources()})


TEST_DATA = prebuilt.ROOT / "tests" / "data"
COVERAGE = (TEST_DATA / "small_sticky.toml", TEST_DATA / "small_full_window.toml")
"""Test models certified only to compile what no shipped model does (exact sticky, full window)."""
CAPPED = TEST_DATA / "small_ways.toml"
"""Certified with a win cap added: the ways kernel's extras branch (no shipped model takes it)."""


def _with_win_cap(model: Path, folder: Path) -> Path:
    """A copy of ``model`` in ``folder`` with ``[rules] win_cap`` appended (it has no rules)."""
    capped = folder / f"capped-{model.name}"
    capped.write_text(model.read_text(encoding="utf-8") + "\n[rules]\nwin_cap = 500\n", "utf-8")
    return capped


def build(bundle_path: Path = prebuilt.BUNDLE) -> int:
    """Compile the kernels a certification of the shipped models runs, for x86-64-v3.

    Child processes certify ``models/machines``, then :data:`COVERAGE` and
    :data:`CAPPED` with a win cap, with one empty numba cache directory and
    no tables cache (a cached prefix table skips its kernel); that cache is
    then zipped under the in-tree names. Returns the number of cache files
    in the bundle.
    """
    with tempfile.TemporaryDirectory() as cache, tempfile.TemporaryDirectory() as out:
        env = {
            **os.environ,
            "NUMBA_CACHE_DIR": cache,
            "SLOTCERT_CACHE_DIR": "off",  # tables cached by earlier runs would skip build_prefix
            "NUMBA_CPU_NAME": prebuilt.LEVEL,
            "NUMBA_CPU_FEATURES": "",
            "SLOTCERT_PREBUILT": "0",
        }
        models = prebuilt.ROOT / "models"
        coverage = [*COVERAGE, _with_win_cap(CAPPED, Path(out))]
        for machines in ([models / "machines"], coverage):
            command = [sys.executable, "-m", "certify", "certify", *map(str, machines)]
            command += ["--jurisdiction", str(models / "jurisdictions" / "pt.toml")]
            command += ["--spins", "100000", "--seed", "1", "--out", out]
            subprocess.run(command, env=env, check=False, stdout=subprocess.DEVNULL)
        files = 0
        bundle_path.parent.mkdir(parents=True, exist_ok=True)
        with zipfile.ZipFile(bundle_path, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as bundle:
            for source_dir in _kernel_dirs():
                cached = Path(cache) / UserProvidedCacheLocator.get_suitable_cache_subpath(
                    str(source_dir / "x.py")
                )
                arc_dir = source_dir.relative_to(prebuilt.ROOT).as_posix() + "/__pycache__/"
                for path in sorted(cached.glob("*.nb[ic]")):
                    bundle.write(path, arc_dir + path.name)
                    files += 1
            manifest = {"sources": SOURCES_DIGEST, "platform": prebuilt.platform_tag()}
            bundle.writestr(prebuilt.MANIFEST, json.dumps(manifest, indent=1, sort_keys=True))
    return files


if __name__ == "__main__":
    print(f"{build()} cache files in {prebuilt.BUNDLE.relative_to(prebuilt.ROOT)}")
