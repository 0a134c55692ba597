"""Kernels compiled ahead of time, shipped beside the source: a first run that compiles nothing.

numba compiles a kernel for the CPU it runs on and caches it beside its
source (``__pycache__``). A fresh checkout has no cache: certifying the
shipped models compiled about 20 kernels, 2 to 4.5 minutes on 2 cores.
``certify/prebuilt/x86-64-v3.zip`` holds those kernels compiled for the
x86-64-v3 level (AVX2, BMI2, FMA: every x86-64 server CPU since about 2015),
with a manifest of what they were built from: the digest of the kernel
sources, Python, numba, llvmlite, numpy and the target triple.

:func:`activate` runs in :func:`certify.compiler.configure` (the command
line, the warm-up and the tests call it), before any kernel is compiled.
Where everything in the manifest matches this process and the host CPU
has every feature of the level, it makes numba compile for that level
(its cache key holds the CPU name and features, so the shipped kernels
are found) and unpacks each kernel whose cache has no index yet
into the directory numba's own locators pick. Anything else (another CPU,
another numba, a kernel source edited since the bundle was built) leaves
numba exactly as it was: kernels are compiled for the host, as before.
``SLOTCERT_PREBUILT=0`` turns it off; a ``NUMBA_CPU_NAME`` of one's own
wins. Measured on the 2-core Xeon of docs/PERFORMANCE.md, the level's code
runs as fast as the host's (best of 16 runs, 1 thread: ref 39.3M vs 38.8M,
ways 23.1M vs 24.8M, classic 28.3M vs 29.6M spins/s).

``python -m certify.prebuilt_build`` rebuilds the bundle (run it after changing a
kernel source: ``tests/test_prebuilt.py`` fails while the bundle is stale).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import sys
import tempfile
import zipfile
from pathlib import Path
from typing import Any

import llvmlite
import llvmlite.binding as ll
import numba
import numpy as np
from numba.core.caching import CacheImpl

ROOT = Path(__file__).resolve().parents[1]
CONFIG: Any = numba.config  # its settings are made at run time (mypy sees none)
BUNDLE = ROOT / "certify" / "prebuilt" / "x86-64-v3.zip"
LEVEL = "x86-64-v3"
# LLVM's names of the features x86-64-v3 takes (v2's and v3's own)
LEVEL_FEATURES = (
    "cx16", "sahf", "popcnt", "sse3", "sse4.1", "sse4.2", "ssse3",
    "avx", "avx2", "bmi", "bmi2", "f16c", "fma", "lzcnt", "movbe", "xsave",
)  # fmt: skip
MANIFEST = "manifest.json"
# the only names unpacked: a numba cache file of a package directory, nothing outside the tree
CACHE_NAME = re.compile(r"^(certify|meters)(/[A-Za-z0-9_]+)*/__pycache__/[A-Za-z0-9_.-]+\.nb[ic]$")


def platform_tag() -> dict[str, str]:
    """What a compiled kernel hangs on besides its sources and the CPU level."""
    return {
        "python": f"{sys.version_info[0]}.{sys.version_info[1]}{getattr(sys, 'abiflags', '')}",
        "numba": numba.__version__,
        "llvmlite": llvmlite.__version__,
        "numpy": ".".join(np.__version__.split(".")[:2]),
        "triple": ll.get_process_triple(),
        "level": LEVEL,
    }


def host_has_level() -> bool:
    """Whether this CPU has every feature of :data:`LEVEL`."""
    try:
        features = ll.get_host_cpu_features()
    except RuntimeError:  # LLVM knows no features of this host
        return False
    return all(features.get(name, False) for name in LEVEL_FEATURES)


def _read_manifest(bundle: zipfile.ZipFile) -> dict:
    try:
        manifest = json.loads(bundle.read(MANIFEST))
    except (KeyError, ValueError):
        return {}
    return manifest if isinstance(manifest, dict) else {}


def applies(manifest: dict, sources_digest: str) -> bool:
    """Whether kernels built as ``manifest`` says can run in this process."""
    own_choice = any(os.environ.get(v) for v in ("NUMBA_CPU_NAME", "NUMBA_CPU_FEATURES"))
    return (
        os.environ.get("SLOTCERT_PREBUILT", "1") != "0"
        and not own_choice
        and not CONFIG.DISABLE_JIT
        and manifest.get("sources") == sources_digest
        and manifest.get("platform") == platform_tag()
        and host_has_level()
    )


def activate(sources_digest: str, bundle_path: Path = BUNDLE) -> bool:
    """Compile for :data:`LEVEL` and unpack the shipped kernels, where they apply; True if so.

    Must run before numba builds its CPU target (the first kernel compiled or
    loaded): after that the codegen's CPU is fixed and nothing is changed.
    """
    if "target_context" in vars(numba.core.registry.cpu_target) or not bundle_path.is_file():
        return False
    try:
        with zipfile.ZipFile(bundle_path) as bundle:
            if not applies(_read_manifest(bundle), sources_digest):
                return False
            CONFIG.CPU_NAME = LEVEL
            CONFIG.CPU_FEATURES = ""
            with contextlib.suppress(OSError):  # a cache not writable: the level still holds
                unpack(bundle)
    except (OSError, zipfile.BadZipFile):
        return False
    return True


def cache_dir(source_file: Path) -> Path | None:
    """The directory numba caches ``source_file``'s kernels in (its own locators, in order)."""
    locator_classes: list[Any] = CacheImpl._locator_classes
    for locator_class in locator_classes:
        locator = locator_class.from_function(cache_dir, str(source_file))
        if locator is not None:
            return Path(locator.get_cache_path())
    return None


def _kernel_groups(bundle: zipfile.ZipFile) -> dict[str, list[str]]:
    """The bundle's cache files by kernel: ``dir/__pycache__/name.pyXY`` -> its index and data."""
    groups: dict[str, list[str]] = {}
    for name in bundle.namelist():
        if CACHE_NAME.match(name):
            stem = name[: -len(".nbi")] if name.endswith(".nbi") else name.rsplit(".", 2)[0]
            groups.setdefault(stem, []).append(name)
    return groups


def unpack(bundle: zipfile.ZipFile, root: Path = ROOT) -> int:
    """Write each kernel whose cache has no index yet; the number written.

    A kernel's data files are written before its index (each whole, by a
    rename), so a process never reads an index whose data is not there yet.
    A kernel already cached here (compiled here, or unpacked before) is left
    as it is: a data file is only ever read through the index beside it.
    """
    written = 0
    for stem, names in sorted(_kernel_groups(bundle).items()):
        relative = Path(stem)
        module = relative.name.split(".", 1)[0] + ".py"
        target = cache_dir(root / relative.parent.parent / module)
        index = f"{stem}.nbi"
        if target is None or index not in names or (target / Path(index).name).exists():
            continue
        for name in sorted(names, key=lambda n: n == index):  # the index last
            _write_whole(target / Path(name).name, bundle.read(name))
        written += 1
    return written


def _write_whole(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile(dir=path.parent, delete=False, suffix=".tmp") as tmp:
        tmp.write(data)
    os.replace(tmp.name, path)
