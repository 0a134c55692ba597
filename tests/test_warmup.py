"""The first-run helper (:mod:`certify.warmup`): when it starts, what it does, how it ends."""

from __future__ import annotations

import subprocess
import sys

from testpaths import DATA, MACHINES

from certify import warmup
from certify.cli import main


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


def test_cold_certify_starts_the_helper(monkeypatch, tmp_path, capsys):
    """A cold run starts the helper with the files and ends it with the run. Whether it says
    it compiles depends on numba really compiling (tests/test_progress.py), not on this
    guess, so a run whose kernels load from the cache does not claim to compile."""
    started, stopped = [], []
    monkeypatch.setattr(warmup, "kernels_cold", lambda: True)
    monkeypatch.setattr(
        warmup, "start", lambda paths, spins: started.append((list(paths), spins)) or "helper"
    )
    monkeypatch.setattr(warmup, "stop", stopped.append)
    files = [str(DATA / "tiny_lines.toml"), str(DATA / "small_ways.toml")]
    args = ["certify", *files, "--jurisdiction", str(MACHINES.parent / "jurisdictions/pt.toml")]
    main([*args, "--spins", "0", "--seed", "1", "--out", str(tmp_path), "--no-html"])
    assert [p.name for p in started[0][0]] == ["tiny_lines.toml", "small_ways.toml"]
    assert started[0][1] is False  # --spins 0: the helper compiles no simulation kernel
    assert stopped == ["helper"]


def test_exact_only_helper_plays_no_spin(monkeypatch):
    """``--exact-only`` first: each file is warmed without its simulation; without it, with."""
    warmed = []
    monkeypatch.setattr(warmup, "warm", lambda tables, spins: warmed.append(spins))
    files = [str(DATA / "tiny_lines.toml")]
    assert warmup.main([warmup.EXACT_ONLY, *files]) == 0
    assert warmup.main(files) == 0
    assert warmed == [False, True]


def test_helper_command_lists_the_files_in_the_runs_order(monkeypatch):
    """The helper's command line: the files as the run takes them, after ``--exact-only``
    for an exact-only run (the helper orders its own work, :func:`warmup.schedule`)."""
    commands = []

    class Recorder:
        def __init__(self, command, **kwargs):
            commands.append(command)

    monkeypatch.setattr(warmup, "kernels_cold", lambda: True)
    monkeypatch.setattr(warmup.subprocess, "Popen", Recorder)
    files = [DATA / "a.toml", DATA / "b.toml"]
    warmup.start(files, spins=False)
    warmup.start(files)
    assert commands[0][2:] == ["certify.warmup", warmup.EXACT_ONLY, *map(str, files)]
    assert commands[1][2:] == ["certify.warmup", *map(str, files)]


def test_schedule_takes_one_file_a_kind_the_runs_last_kind_first():
    """Kinds A B A C B (the run's order): the run meets A at 0, B at 1, C at 3, so the
    helper plays file 3 (C), then 1 (B), then 0 (A), and never a second file of a kind."""
    assert warmup.schedule(["A", "B", "A", "C", "B"]) == [3, 1, 0]
    assert warmup.schedule([]) == []


def test_kernel_kinds_of_the_shipped_machines():
    """Machines that compile the same kernels have one kind, the others differ: the
    reference game and the jackpot game are both plain 5x3 lines games on uniform strips
    (the fast path, no rules), the classic and edge games plain 3-reel games off the fast path; a
    ways game, a game with free-spin rules (Book of Ra) and a screen game each differ."""
    from certify.engine.tables import compile_machine
    from certify.model.loader import load_machine

    def kind(name):
        return warmup.kernel_kind(compile_machine(load_machine(MACHINES / name)))

    assert kind("ref-5x3-20.toml") == kind("jackpot-5x3.toml")
    assert kind("classic-3r-1.toml") == kind("edge-3r-1.toml")
    kinds = [kind(n) for n in ("ref-5x3-20.toml", "classic-3r-1.toml", "ways-243.toml")]
    kinds += [kind("book-5x3-10.toml"), kind("cascade-5x3-10.toml")]
    assert len(set(kinds)) == 5
