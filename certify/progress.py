"""Progress lines on a terminal (spins/s, ETA); silent in CI or when piped."""

from __future__ import annotations

import os
import sys
import time


class Progress:
    """Prints one updating status line to stderr when it is a terminal."""

    def __init__(self, enabled: bool | None = None):
        if enabled is None:
            enabled = sys.stderr.isatty() and not os.environ.get("CI")
        self.enabled = enabled
        self.started: dict[str, float] = {}

    def __call__(self, label: str, total: int, result: object) -> None:
        """Report ``result.spins`` of ``total`` done for ``label``."""
        if not self.enabled:
            return
        now = time.perf_counter()
        start = self.started.setdefault(label, now)
        done = getattr(result, "spins", 0)
        rate = done / (now - start) if now > start else 0.0
        eta = (total - done) / rate if rate > 0 else float("nan")
        sys.stderr.write(
            f"\r{label}: {done:,}/{total:,} spins  {rate / 1e6:,.1f}M spins/s  ETA {eta:,.0f} s   "
        )
        sys.stderr.flush()

    def done(self) -> None:
        """End the status line."""
        if self.enabled:
            sys.stderr.write("\n")
