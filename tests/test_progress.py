"""The progress display: what it shows on a terminal, and that it is silent elsewhere."""

from __future__ import annotations

import io
import re
from itertools import chain, repeat
from types import SimpleNamespace

from certify.progress import COMPILING, Progress, terminal_wanted


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def _text(buffer: io.StringIO) -> str:
    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", buffer.getvalue())


def test_levels_percentage_and_a_rate_over_wall_time(monkeypatch):
    """Hand figures: the level starts at t = 10 s; 100,000 spins are done at t = 11 s and
    600,000 at t = 12 s (the chunks of a batch arrive together), so the rate over the
    level's wall time is 600,000 / 2 s = 0.30M spins/s, not the 500,000 spins between two
    updates close together. No compile happens, so the display never says it compiles."""
    monkeypatch.setenv("COLUMNS", "200")
    clock = iter([0.0, 10.0, 11.0, 12.0])  # made, level starts, two updates
    monkeypatch.setattr("certify.progress._now", lambda: next(clock))
    buffer = io.StringIO()
    progress = Progress(enabled=True, file=buffer)
    progress.level(1, 3, 1, 1_000_000)
    first = _text(buffer)
    assert "level 1 of 3 (bet level 1)" in first and COMPILING not in first
    progress.update(100_000)
    progress.update(600_000)
    text = _text(buffer)
    assert "60%" in text and "600,000/1,000,000 spins" in text
    assert "0.30M spins/s" in text, text
    assert "ETA 0:00:01" in text  # 400,000 spins left at 0.30M spins/s: 1.3 s
    progress.done()


def test_machine_counters_through_the_batch_callback(monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    buffer = io.StringIO()
    progress = Progress(enabled=True, file=buffer)
    progress.machine(2, 6, "ref-5x3-20.toml")
    progress("REF-5X3-20", 1000, SimpleNamespace(spins=500))
    assert "machine 2 of 6 (ref-5x3-20.toml)" in _text(buffer)
    progress.done()


def test_names_with_brackets_are_shown_as_written(monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    buffer = io.StringIO()
    progress = Progress(enabled=True, file=buffer)
    progress.machine(1, 2, "[bold]x[/].toml")
    progress("X", 10, SimpleNamespace(spins=5))
    progress.done()
    assert "[bold]x[/].toml" in _text(buffer)


def test_log_lines_off_a_terminal_and_silent_with_q(monkeypatch, capsys):
    """Off a terminal (or in CI): one log line per phase and per finished level, with the
    rate over the level's wall time (hand: 1,000,000 spins from t = 5 s to t = 9 s: 4.00 s,
    0.25M spins/s); ``Progress(enabled=False)`` (``-q``) prints nothing."""
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    assert terminal_wanted(_Tty()) is True
    assert terminal_wanted(io.StringIO()) is False
    monkeypatch.setenv("CI", "true")
    assert terminal_wanted(_Tty()) is False
    clock = chain([0.0, 1.0, 5.0, 9.0], repeat(9.0))  # made, machine starts, level starts, ends
    monkeypatch.setattr("certify.progress._now", lambda: next(clock))
    progress = Progress()  # stderr is captured here: not a terminal
    assert progress.enabled is False and progress.logging is True
    progress.machine(2, 12, "ref-5x3-20.toml")
    progress.level(1, 3, 1, 1_000_000)
    progress("REF-5X3-20", 1_000_000, SimpleNamespace(spins=500_000))
    progress("REF-5X3-20", 1_000_000, SimpleNamespace(spins=1_000_000))
    progress.emit("level 1: done")
    progress.done()
    captured = capsys.readouterr()
    assert captured.out == "level 1: done\n"
    assert captured.err.splitlines() == [
        "slotcert: machine 2 of 12 (ref-5x3-20.toml): exact figures",
        "slotcert: machine 2 of 12 (ref-5x3-20.toml), level 1 of 3 (bet level 1): "
        "1,000,000 spins in 4.00 s (0.25M spins/s)",
    ]
    quiet = Progress(enabled=False)
    quiet.machine(1, 1, "x.toml")
    quiet.level(1, 1, 1, 10)
    quiet.update(10)
    quiet.done()
    assert capsys.readouterr() == ("", "")


def _compile_something() -> None:
    """Compile a fresh numba function (no cache): a real ``numba:compile`` event."""
    import numba

    numba.njit(cache=False)(lambda x: x + 1)(1)


def test_the_compile_message_only_while_numba_compiles():
    """Said once, when a compile starts; never on a warm run (no compile, no message)."""
    log = io.StringIO()
    progress = Progress(enabled=False, log=True, log_file=log)
    progress.machine(1, 1, "x.toml")
    assert COMPILING not in log.getvalue()  # nothing compiled yet
    _compile_something()
    _compile_something()
    progress.done()
    assert log.getvalue().count(COMPILING) == 1
    after = io.StringIO()
    done = Progress(enabled=False, log=True, log_file=after)
    done.done()  # listening stopped: a compile now is not reported
    _compile_something()
    assert after.getvalue() == ""


def test_compile_watch_reports_start_and_end():
    from certify.progress import CompileWatch

    seen: list[bool] = []
    watch = CompileWatch(seen.append)
    try:
        _compile_something()
    finally:
        watch.close()
    assert seen == [True, False]


def test_certify_logs_phases_and_levels_off_a_terminal(tmp_path, capsys):
    from testpaths import DATA, JURISDICTIONS

    from certify.cli import main

    argv = ["certify", str(DATA / "tiny_lines.toml"), "--jurisdiction"]
    argv += [str(JURISDICTIONS / "pt.toml"), "--spins", "20000", "--seed", "1", "--no-html"]
    main([*argv, "--out", str(tmp_path / "a")])
    err = capsys.readouterr().err.splitlines()
    assert "slotcert: tiny_lines.toml: exact figures" in err
    levels = [line for line in err if "level 1 of" in line]
    assert levels and re.search(r"20,000 spins in [\d.]+ s \([\d.,]+M? ?spins/s\)", levels[0])
    assert any(line.endswith("writing the certificate, PAR sheet and report") for line in err)
    main([*argv, "--out", str(tmp_path / "b"), "-q"])
    quiet = capsys.readouterr().err
    assert "exact figures" not in quiet and "spins in" not in quiet
