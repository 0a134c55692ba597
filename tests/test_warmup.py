"""The first-run helper (:mod:`certify.warmup`): when it starts, what it does, how it ends."""

from __future__ import annotations

import subprocess
import sys

from testpaths import DATA, MACHINES

from certify import warmup
from certify.cli import main
from certify.progress import COMPILING


def test_no_helper_for_one_machine_or_a_warm_cache(monkeypatch):
    """One machine gains nothing from a second process; a warm cache needs none."""
    monkeypatch.setattr(warmup, "kernels_cold", lambda: True)
    assert warmup.start([MACHINES / "ref-5x3-20.toml"]) is None
    monkeypatch.setattr(warmup, "kernels_cold", lambda: False)
    assert warmup.start([MACHINES / "ref-5x3-20.toml", MACHINES / "ways-243.toml"]) is None


def test_cache_elsewhere_is_not_judged(monkeypatch):
    """With NUMBA_CACHE_DIR set the package's own cache says nothing: no helper."""
    monkeypatch.setenv("NUMBA_CACHE_DIR", "/nonexistent")
    assert warmup.kernels_cold() is False


def test_helper_skips_a_bad_file_and_warms_the_rest(tmp_path):
    """A file that fails to load is the run's to report: the helper goes on, exits 0."""
    bad = tmp_path / "bad.toml"
    bad.write_text("not = [valid")
    assert warmup.main([str(bad), str(DATA / "tiny_lines.toml")]) == 0


def test_helper_runs_and_stops_as_a_process():
    """``python -m certify.warmup`` plays the files; :func:`stop` ends a running one."""
    helper = subprocess.Popen(
        [sys.executable, "-m", "certify.warmup", str(DATA / "tiny_lines.toml")],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    warmup.stop(helper)
    assert helper.poll() is not None
    warmup.stop(None)  # no helper: nothing to do


def test_cold_certify_says_so_off_a_terminal_and_starts_the_helper(monkeypatch, tmp_path, capsys):
    """Off a terminal a cold run prints that it compiles; the helper gets the files and is
    ended with the run."""
    started, stopped = [], []
    monkeypatch.setattr(warmup, "kernels_cold", lambda: True)
    monkeypatch.setattr(warmup, "start", lambda paths: started.append(list(paths)) or "helper")
    monkeypatch.setattr(warmup, "stop", stopped.append)
    files = [str(DATA / "tiny_lines.toml"), str(DATA / "small_ways.toml")]
    args = ["certify", *files, "--jurisdiction", str(MACHINES.parent / "jurisdictions/pt.toml")]
    main([*args, "--spins", "0", "--seed", "1", "--out", str(tmp_path), "--no-html"])
    assert f"slotcert: {COMPILING}" in capsys.readouterr().err
    assert [p.name for p in started[0]] == ["tiny_lines.toml", "small_ways.toml"]
    assert stopped == ["helper"]
