"""The kernels shipped compiled for x86-64-v3 (certify/prebuilt.py)."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from certify import prebuilt
from certify._numba import SOURCES_DIGEST

ROOT = Path(__file__).resolve().parents[1]


def _manifest() -> dict:
    with zipfile.ZipFile(prebuilt.BUNDLE) as bundle:
        return json.loads(bundle.read(prebuilt.MANIFEST))


def test_bundle_is_built_from_todays_kernel_sources():
    """A kernel source edited since the bundle was built: ``python -m certify.prebuilt_build``."""
    assert _manifest()["sources"] == SOURCES_DIGEST, "stale: run python -m certify.prebuilt_build"


def test_bundle_holds_the_simulation_and_exact_kernels():
    """The kernels a certification of the shipped models compiles: each with its index."""
    with zipfile.ZipFile(prebuilt.BUNDLE) as bundle:
        groups = prebuilt._kernel_groups(bundle)
    names = {Path(stem).name.split("-")[0] for stem in groups}
    shipped = {
        "_chunk.simulate_chunks",
        "_screens.simulate_screen_chunks",
        "_prefix.build_prefix",
    }
    assert shipped <= names
    assert any(name.startswith("_statedp.") for name in names)
    for stem, files in groups.items():
        assert f"{stem}.nbi" in files and len(files) >= 2


def test_bundle_covers_what_no_shipped_model_compiles():
    """The coverage models: sticky wilds, full-window pays (exact), a capped ways game.

    ``simulate_chunks`` has three branch flags (ways, fast path, extras); a
    game reaches six combinations (a ways game never takes the lines fast
    path): lines x fast path on or off x extras on or off, and ways x extras.
    Each is one compiled signature, one ``.nbc`` file of its kernel.
    """
    from certify.prebuilt_build import CAPPED, COVERAGE

    assert all(path.is_file() for path in (*COVERAGE, CAPPED))
    with zipfile.ZipFile(prebuilt.BUNDLE) as bundle:
        groups = prebuilt._kernel_groups(bundle)
    by_name = {Path(stem).name.split("-")[0]: files for stem, files in groups.items()}
    assert {"_screens.sticky_cycle", "_kernels._bucket"} <= set(by_name)
    simulate = by_name["_chunk.simulate_chunks"]
    assert sum(1 for f in simulate if f.endswith(".nbc")) == 6


def _bundle(tmp_path: Path, manifest: dict, files: dict[str, bytes]) -> Path:
    path = tmp_path / "bundle.zip"
    with zipfile.ZipFile(path, "w") as bundle:
        bundle.writestr(prebuilt.MANIFEST, json.dumps(manifest))
        for name, data in files.items():
            bundle.writestr(name, data)
    return path


def _good_manifest() -> dict:
    return {"sources": SOURCES_DIGEST, "platform": prebuilt.platform_tag()}


@pytest.mark.parametrize(
    "change",
    [
        {"sources": "0" * 64},
        {"platform": {**prebuilt.platform_tag(), "numba": "0.1.0"}},
        {"platform": {**prebuilt.platform_tag(), "python": "2.7"}},
        {"platform": {**prebuilt.platform_tag(), "triple": "aarch64-unknown-linux-gnu"}},
    ],
)
def test_kernels_built_for_another_process_do_not_apply(change):
    """Other sources, numba, Python or target: the bundle is ignored (kernels compile as before)."""
    assert not prebuilt.applies({**_good_manifest(), **change}, SOURCES_DIGEST)


def test_a_cpu_without_the_level_or_a_choice_of_ones_own_is_left_alone(monkeypatch):
    if not prebuilt.host_has_level():
        pytest.skip("this CPU lacks x86-64-v3")
    assert prebuilt.applies(_good_manifest(), SOURCES_DIGEST)
    features = {name: True for name in prebuilt.LEVEL_FEATURES} | {"avx2": False}
    monkeypatch.setattr(prebuilt.ll, "get_host_cpu_features", lambda: features)
    assert not prebuilt.applies(_good_manifest(), SOURCES_DIGEST)
    monkeypatch.undo()
    monkeypatch.setenv("NUMBA_CPU_NAME", "generic")
    assert not prebuilt.applies(_good_manifest(), SOURCES_DIGEST)
    monkeypatch.delenv("NUMBA_CPU_NAME")
    monkeypatch.setenv("SLOTCERT_PREBUILT", "0")
    assert not prebuilt.applies(_good_manifest(), SOURCES_DIGEST)


def test_unpack_writes_whole_kernels_inside_the_tree_and_keeps_what_is_cached(
    tmp_path, monkeypatch
):
    """Only cache files of package directories; an index already there keeps its own data."""
    (tmp_path / "certify" / "engine").mkdir(parents=True)
    (tmp_path / "certify" / "engine" / "_kernels.py").write_text("")
    (tmp_path / "certify" / "exact").mkdir()
    (tmp_path / "certify" / "exact" / "_kernels.py").write_text("")
    kernel = "certify/engine/__pycache__/_kernels.f-10.py311"
    cached = "certify/exact/__pycache__/_kernels.g-20.py311"
    files = {
        f"{kernel}.nbi": b"index",
        f"{kernel}.1.nbc": b"data",
        f"{cached}.nbi": b"shipped index",
        f"{cached}.1.nbc": b"shipped data",
        "certify/engine/__pycache__/../../../escaped.nbc": b"x",
        "/etc/passwd.nbc": b"x",
        "certify/engine/__pycache__/_kernels.h-30.py311.1.nbc": b"no index",
    }
    path = _bundle(tmp_path, _good_manifest(), files)
    here = tmp_path / "certify" / "exact" / "__pycache__"
    here.mkdir()
    (here / "_kernels.g-20.py311.nbi").write_bytes(b"own index")
    (here / "_kernels.g-20.py311.1.nbc").write_bytes(b"own data")
    monkeypatch.setattr(prebuilt.CONFIG, "CACHE_DIR", "")  # numba's in-tree locator
    with zipfile.ZipFile(path) as bundle:
        assert prebuilt.unpack(bundle, root=tmp_path) == 1
    engine = tmp_path / "certify" / "engine" / "__pycache__"
    assert (engine / "_kernels.f-10.py311.nbi").read_bytes() == b"index"
    assert (engine / "_kernels.f-10.py311.1.nbc").read_bytes() == b"data"
    assert not (engine / "_kernels.h-30.py311.1.nbc").exists()
    assert (here / "_kernels.g-20.py311.1.nbc").read_bytes() == b"own data"
    assert not list(tmp_path.rglob("escaped*")) and not (tmp_path / "etc").exists()
    assert sorted(p.name for p in engine.iterdir()) == [
        "_kernels.f-10.py311.1.nbc",
        "_kernels.f-10.py311.nbi",
    ]


def test_a_damaged_bundle_is_ignored(tmp_path):
    """Not a zip, or no manifest: numba is left as it was."""
    bad = tmp_path / "bad.zip"
    bad.write_bytes(b"not a zip")
    code = (
        "import sys; from pathlib import Path; from certify import prebuilt;"
        f"print(prebuilt.activate('x', Path({str(bad)!r})))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert out.stdout.strip() == "False", out.stderr
    with zipfile.ZipFile(io.BytesIO(), "w") as empty:
        assert prebuilt._read_manifest(empty) == {}


def test_shipped_kernels_load_without_compiling(tmp_path):
    """A fresh cache directory and the bundle: the ways game simulates with nothing compiled.

    numba's ``stats`` of the dispatcher: a kernel read from the cache counts
    a cache hit and no miss; the figures are the same as the host-compiled
    kernel's (the suite's own exact-vs-simulation tests run on whichever applies).
    """
    if not prebuilt.host_has_level() or not prebuilt.applies(_manifest(), SOURCES_DIGEST):
        pytest.skip("the bundle does not fit this process")
    code = (
        "from certify.compiler import configure; assert configure().prebuilt_kernels;"
        "from certify.engine import _chunk; from certify import api;"
        "api.simulate('models/machines/ways-243.toml', spins=4096, seed=1, level=1);"
        "s = _chunk.simulate_chunks.stats; print(s.cache_hits and not s.cache_misses)"
    )
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path), "NUMBA_NUM_THREADS": "1"}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, env=env
    )
    assert out.stdout.strip().endswith("True"), out.stderr[-2000:]
