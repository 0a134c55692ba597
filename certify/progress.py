"""Progress of long work: a display on a terminal, log lines elsewhere, nothing with ``-q``.

On a terminal (stderr a tty, ``CI`` unset, ``TERM`` not ``dumb``) a ``rich``
display shows the machine and level counters, a percentage, spins/s and an
ETA; ``rich`` is imported only then. Anywhere else (a pipe, a file, CI) the
same work is told as log lines on stderr: one per phase (a machine's exact
figures, writing its files) and one per finished bet level with the spins/s
measured over that level. ``-q`` (``Progress(enabled=False)``) prints
neither.

Rates are measured over wall time: the spins done since the level started,
divided by the seconds since then (the chunks of a batch arrive together, so
a rate between two of them would be meaningless). The words "compiling
kernels" appear only while numba really compiles (its ``numba:compile``
event: a cache miss), never on a warm run.
"""

from __future__ import annotations

import os
import sys
import time
from typing import IO, Any

COMPILING = "compiling kernels (first run only)…"


def _now() -> float:
    """Seconds of the clock the rates are measured on (``time.perf_counter``)."""
    return time.perf_counter()


def terminal_wanted(stream: IO[str] | None = None) -> bool:
    """Whether a progress display belongs on ``stream`` (default stderr)."""
    stream = sys.stderr if stream is None else stream
    try:
        tty = stream.isatty()
    except (AttributeError, ValueError):
        return False
    return tty and not os.environ.get("CI") and os.environ.get("TERM") != "dumb"


def spins_per_second(spins: int, seconds: float) -> str:
    """``1.2M spins/s``, ``3,400 spins/s``; empty when no time has passed."""
    if seconds <= 0 or spins <= 0:
        return ""
    per_s = spins / seconds
    if per_s < 1e5:
        return f"{per_s:,.0f} spins/s"
    digits = 2 if per_s < 1e7 else 1 if per_s < 1e8 else 0  # three significant digits
    return f"{per_s / 1e6:,.{digits}f}M spins/s"


def _eta(done: int, total: int | None, seconds: float) -> str:
    """``ETA 0:00:42``: the spins left at the level's wall-time rate; empty before any."""
    if not total or done <= 0 or seconds <= 0 or done >= total:
        return ""
    left = round((total - done) * seconds / done)
    return f"ETA {left // 3600}:{left // 60 % 60:02d}:{left % 60:02d}"


class CompileWatch:
    """Calls ``changed(True)`` when numba starts compiling a kernel, ``changed(False)`` when done.

    numba emits ``numba:compile`` only on a cache miss, so a warm run never
    calls ``changed``. Nested compiles (a kernel and the functions it calls)
    count once.
    """

    def __init__(self, changed: Any) -> None:
        from numba.core import event

        watch = self

        class _Listener(event.Listener):
            def on_start(self, ev: Any) -> None:
                watch.depth += 1
                if watch.depth == 1:
                    changed(True)

            def on_end(self, ev: Any) -> None:
                watch.depth = max(watch.depth - 1, 0)
                if watch.depth == 0:
                    changed(False)

        self.depth = 0
        self._event = event
        self._listener = _Listener()
        event.register("numba:compile", self._listener)

    def close(self) -> None:
        """Stop listening."""
        self._event.unregister("numba:compile", self._listener)


class Progress:
    """One progress bar (or log line) per piece of work: a bet level, a machine.

    Parameters
    ----------
    enabled : bool, optional
        Draw the display; default: :func:`terminal_wanted`. ``False`` given
        explicitly (``-q``) also turns the log lines off.
    file : file, optional
        Where to draw (tests pass a buffer); default stderr, or stdout when
        stdout is a terminal, so result lines printed with :meth:`emit` and
        the display share one stream.
    log : bool, optional
        Write log lines (default: when ``enabled`` is left to
        :func:`terminal_wanted` and it says no).
    log_file : file, optional
        Where the log lines go (default stderr).

    Calling the object as ``progress(label, total, result)`` (the
    ``ProgressFn`` of :mod:`certify.batch`) reports ``result.spins`` of
    ``total`` done.

    """

    def __init__(
        self,
        enabled: bool | None = None,
        file: IO[str] | None = None,
        log: bool | None = None,
        log_file: IO[str] | None = None,
    ):
        self.enabled = terminal_wanted() if enabled is None else enabled
        self.logging = (enabled is None and not self.enabled) if log is None else log
        self._file = file
        self._log_file = log_file
        self._rich: Any = None
        self._task: Any = None
        self._label: str | None = ""
        self._prefix = ""
        self._counter = ""
        self._phase = ""
        self._started = _now()  # of the current bar (level) or phase
        self._done = 0
        self._total: int | None = None
        self._finished = False  # the current level's line is logged
        self._compiling = False
        self._told_compiling = False
        self._console_is_stdout = False
        self._watch: CompileWatch | None = None
        if self.enabled or self.logging:
            self._watch = CompileWatch(self._compile_changed)

    # -- what is being worked on -------------------------------------------------

    def machine(self, index: int, count: int, name: str) -> None:
        """Say that machine ``index`` (from 1) of ``count`` starts (its exact figures first)."""
        self._prefix = f"machine {index} of {count} ({name})" if count > 1 else name
        self._label = ""
        self._counter = ""
        self.phase("exact figures")

    def phase(self, what: str) -> None:
        """Say that a phase without a spin count starts: one log line, a pulsing bar."""
        self._phase = what
        self._counter = ""
        self._log(what)
        self._start(None)

    def level(self, index: int, count: int, level: int, total: int) -> None:
        """Start bet level ``index`` (from 1) of ``count``: ``total`` spins."""
        self._counter = f"level {index} of {count} (bet level {level})"
        self._phase = ""
        self._label = None  # the results that follow are this level's, whatever their label
        self._start(total)

    def __call__(self, label: str, total: int, result: object) -> None:
        """Report ``result.spins`` of ``total`` done for ``label``.

        Without a :meth:`level` call first, a new ``label`` (another machine)
        or a count going back (the next level) starts a new bar.
        """
        if not (self.enabled or self.logging):
            return
        done = getattr(result, "spins", 0)
        named = self._label is not None and label != self._label
        if named or self._total is None or done < self._done:
            self._label = label
            self._start(total)
        self.update(done)

    def update(self, done: int) -> None:
        """``done`` spins of the current level are finished."""
        if not (self.enabled or self.logging):
            return
        self._done = done
        if self.logging and self._total and done >= self._total and not self._finished:
            self._finished = True
            took = _now() - self._started
            rate = spins_per_second(done, took)
            self._log(f"{done:,} spins in {took:,.2f} s" + (f" ({rate})" if rate else ""))
        if not self.enabled or self._task is None:
            return
        seconds = _now() - self._started
        rate = spins_per_second(done, seconds)
        total = self._total
        count = f"{done:,}/{total:,} spins" if total else f"{done:,} spins"
        eta = _eta(done, total, seconds)
        self._rich.update(
            self._task,
            completed=done,
            rate=f"{rate}  {eta}".strip(),
            count=count,
            description=self._describe(),
        )
        self._rich.refresh()

    # -- output ------------------------------------------------------------------

    def emit(self, line: str) -> None:
        """Print a result line on stdout without tearing the display."""
        if self._rich is not None and self._console_is_stdout:
            self._rich.console.print(line, markup=False, highlight=False, soft_wrap=True)
        else:
            print(line, flush=True)

    def done(self) -> None:
        """Remove the display (it is transient: results stay, bars go) and stop listening."""
        if self._watch is not None:
            self._watch.close()
            self._watch = None
        if self._rich is not None:
            self._rich.stop()
            self._rich = None
            self._task = None

    # -- internals -----------------------------------------------------------------

    def _compile_changed(self, compiling: bool) -> None:
        self._compiling = compiling
        if compiling and self.logging and not self._told_compiling:
            self._told_compiling = True
            self._log(COMPILING)
        if self.enabled and self._task is not None:
            self._rich.update(self._task, description=self._describe())

    def _where(self) -> str:
        parts = [p for p in (self._prefix, self._counter) if p]
        return ", ".join(parts) or self._label or ""

    def _describe(self) -> str:
        what = self._where()
        if self._phase and not self._counter:
            what = f"{what}: {self._phase}" if what else self._phase
        return f"{what}: {COMPILING}" if self._compiling else what

    def _log(self, what: str) -> None:
        if not self.logging:
            return
        where = self._where()
        line = f"slotcert: {where}: {what}" if where else f"slotcert: {what}"
        print(line, file=self._log_file or sys.stderr, flush=True)

    def _start(self, total: int | None) -> None:
        self._started = _now()
        self._done = 0
        self._total = total
        self._finished = False
        if not self.enabled:
            return
        if self._rich is None:
            self._open()
        if self._task is not None:
            self._rich.remove_task(self._task)
        self._task = self._rich.add_task(
            self._describe(),
            total=None if total is None else max(total, 1),
            rate="",
            count="" if total is None else f"0/{total:,} spins",
        )
        self._rich.refresh()

    def _open(self) -> None:
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            SpinnerColumn,
            TaskProgressColumn,
            TextColumn,
        )
        from rich.progress import Progress as RichProgress

        file = self._file
        if file is None:
            self._console_is_stdout = sys.stdout.isatty()
            file = sys.stdout if self._console_is_stdout else sys.stderr
        console = Console(file=file, force_terminal=self._file is not None or None)
        self._rich = RichProgress(
            SpinnerColumn(),
            TextColumn("{task.description}", markup=False),
            BarColumn(),
            TaskProgressColumn(),
            TextColumn("{task.fields[count]}  {task.fields[rate]}", markup=False),
            console=console,
            transient=True,
            redirect_stdout=False,
            redirect_stderr=False,
        )
        self._rich.start()
