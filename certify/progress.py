"""Progress display for long work: percentage, level / machine counters, spins/s, ETA.

Drawn with ``rich`` on a terminal only: silent when stderr is not a terminal,
when ``CI`` is set, or with ``-q``. ``rich`` is imported only when the display
is drawn, so a piped or CI run does not pay for it.

The first result of a process waits for numba to load (or, on the first run
after an install or a code change, compile) its kernels; until then the
display says so instead of showing a meaningless rate. The rate is measured
from the first finished chunk on.
"""

from __future__ import annotations

import os
import sys
import time
from typing import IO, Any

COMPILING = "compiling kernels (first run only)…"


def terminal_wanted(stream: IO[str] | None = None) -> bool:
    """Whether a progress display belongs on ``stream`` (default stderr)."""
    stream = sys.stderr if stream is None else stream
    try:
        tty = stream.isatty()
    except (AttributeError, ValueError):
        return False
    return tty and not os.environ.get("CI") and os.environ.get("TERM") != "dumb"


class Progress:
    """One progress bar per piece of work (a bet level, a machine).

    Parameters
    ----------
    enabled : bool, optional
        Draw the display; default: :func:`terminal_wanted`.
    file : file, optional
        Where to draw (tests pass a buffer); default stderr, or stdout when
        stdout is a terminal, so result lines printed with :meth:`emit` and
        the display share one stream.

    Calling the object as ``progress(label, total, result)`` (the
    ``ProgressFn`` of :mod:`certify.batch`) reports ``result.spins`` of
    ``total`` done.

    """

    def __init__(self, enabled: bool | None = None, file: IO[str] | None = None):
        self.enabled = terminal_wanted() if enabled is None else enabled
        self._file = file
        self._rich: Any = None
        self._task: Any = None
        self._label = ""
        self._prefix = ""
        self._counter = ""
        self._first: tuple[float, int] | None = None
        self._first_seen = False  # any result in this process (kernels loaded)
        self._done = 0
        self._total: int | None = None
        self._console_is_stdout = False

    # -- what is being worked on -------------------------------------------------

    def machine(self, index: int, count: int, name: str) -> None:
        """Say that machine ``index`` (from 1) of ``count`` starts."""
        self._prefix = f"machine {index} of {count} ({name})" if count > 1 else name
        self._label = ""
        self._start(None)  # a pulsing bar while the model loads and its exact cycle runs

    def level(self, index: int, count: int, level: int, total: int) -> None:
        """Start the bar of bet level ``index`` (from 1) of ``count``: ``total`` spins."""
        self._counter = f"level {index} of {count} (bet level {level})"
        self._start(total)

    def __call__(self, label: str, total: int, result: object) -> None:
        """Report ``result.spins`` of ``total`` done for ``label``."""
        if not self.enabled:
            return
        done = getattr(result, "spins", 0)
        if label != self._label or self._task is None or done < self._done:
            self._label = label  # a new machine, or the next simulated level of one
            self._start(total)
        self.update(done)

    def update(self, done: int) -> None:
        """``done`` spins of the current bar are finished."""
        if not self.enabled or self._task is None:
            return
        now = time.perf_counter()
        self._first_seen = True
        self._done = done
        rate = ""
        if self._first is None:
            self._first = (now, done)
        elif now > self._first[0] and done > self._first[1]:
            per_s = (done - self._first[1]) / (now - self._first[0])
            rate = f"{per_s / 1e6:,.1f}M spins/s" if per_s >= 1e5 else f"{per_s:,.0f} spins/s"
        total = self._total
        count = f"{done:,}/{total:,} spins" if total else f"{done:,} spins"
        self._rich.update(
            self._task, completed=done, rate=rate, count=count, description=self._describe()
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
        """Remove the display (it is transient: results stay, bars go)."""
        if self._rich is not None:
            self._rich.stop()
            self._rich = None
            self._task = None

    # -- internals -----------------------------------------------------------------

    def _describe(self) -> str:
        parts = [p for p in (self._prefix, self._counter) if p]
        what = ", ".join(parts) or self._label
        return what if self._first_seen else f"{what}: {COMPILING}"

    def _start(self, total: int | None) -> None:
        if not self.enabled:
            return
        if self._rich is None:
            self._open()
        if self._task is not None:
            self._rich.remove_task(self._task)
        self._first = None
        self._done = 0
        self._total = total
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
            TimeRemainingColumn,
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
            TimeRemainingColumn(),
            console=console,
            transient=True,
            redirect_stdout=False,
            redirect_stderr=False,
        )
        self._rich.start()
