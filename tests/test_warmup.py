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
    monkeypatch.setattr(
        warmup, "start", lambda paths, spins: started.append((list(paths), spins)) or "helper"
    )
    monkeypatch.setattr(warmup, "stop", stopped.append)
    files = [str(DATA / "tiny_lines.toml"), str(DATA / "small_ways.toml")]
    args = ["certify", *files, "--jurisdiction", str(MACHINES.parent / "jurisdictions/pt.toml")]
    main([*args, "--spins", "0", "--seed", "1", "--out", str(tmp_path), "--no-html"])
    assert f"slotcert: {COMPILING}" in capsys.readouterr().err
    assert [p.name for p in started[0][0]] == ["tiny_lines.toml", "small_ways.toml"]
    assert started[0][1] is False  # --spins 0: the helper compiles no simulation kernel
    assert stopped == ["helper"]


def test_exact_only_helper_plays_no_spin(monkeypatch):
    """``--exact-only`` first: each file is warmed without its simulation; without it, with."""
    warmed = []
    monkeypatch.setattr(warmup, "warm", lambda path, spins: warmed.append((path.name, spins)))
    assert warmup.main([warmup.EXACT_ONLY, "a.toml", "b.toml"]) == 0
    assert warmup.main(["c.toml"]) == 0
    assert warmed == [("a.toml", False), ("b.toml", False), ("c.toml", True)]


def test_helper_command_names_the_files_last_first(monkeypatch):
    """The helper's command line: the files reversed, after ``--exact-only`` for an exact run."""
    commands = []

    class Recorder:
        def __init__(self, command, **kwargs):
            commands.append(command)

    monkeypatch.setattr(warmup, "kernels_cold", lambda: True)
    monkeypatch.setattr(warmup.subprocess, "Popen", Recorder)
    warmup.start([DATA / "a.toml", DATA / "b.toml"], spins=False)
    warmup.start([DATA / "a.toml", DATA / "b.toml"])
    assert commands[0][2:] == [
        "certify.warmup",
        warmup.EXACT_ONLY,
        str(DATA / "b.toml"),
        str(DATA / "a.toml"),
    ]
    assert commands[1][2:] == ["certify.warmup", str(DATA / "b.toml"), str(DATA / "a.toml")]
