"""The progress display: what it shows on a terminal, and that it is silent elsewhere."""

from __future__ import annotations

import io
import re
from types import SimpleNamespace

from certify.progress import COMPILING, Progress, terminal_wanted


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def _text(buffer: io.StringIO) -> str:
    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", buffer.getvalue())


def test_levels_percentage_rate_and_the_compiling_phase(monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    buffer = io.StringIO()
    progress = Progress(enabled=True, file=buffer)
    progress.level(1, 3, 1, 1_000_000)
    first = _text(buffer)
    assert "level 1 of 3 (bet level 1)" in first and COMPILING in first
    progress.update(100_000)  # the first chunk: kernels are loaded, no rate yet
    progress.update(600_000)
    text = _text(buffer)
    assert "60%" in text and "600,000/1,000,000 spins" in text
    assert re.search(r"[0-9.]+M? ?spins/s", text), text
    progress.level(2, 3, 2, 1_000_000)
    later = _text(buffer)[len(text) :]
    assert "level 2 of 3 (bet level 2)" in later and COMPILING not in later
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


def test_silent_when_not_a_terminal_or_in_ci(monkeypatch, capsys):
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    assert terminal_wanted(_Tty()) is True
    assert terminal_wanted(io.StringIO()) is False
    monkeypatch.setenv("CI", "true")
    assert terminal_wanted(_Tty()) is False
    progress = Progress()  # stderr is captured here: not a terminal
    assert progress.enabled is False
    progress.level(1, 1, 1, 10)
    progress.update(5)
    progress.emit("level 1: done")
    progress.done()
    captured = capsys.readouterr()
    assert captured.out == "level 1: done\n" and captured.err == ""
