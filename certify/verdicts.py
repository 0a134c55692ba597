"""The verdicts, once: their names, which is worse, the order they are shown in, exit codes.

A bet level's verdict is ``pass``, ``inconclusive``, ``fail`` or ``error``
(SPEC 4, decided in :func:`certify.stats.level_verdict`); a machine's is the
worst of its levels'; ``invalid`` marks a file that could not be certified at
all. A :class:`Verdict` member *is* its string (``Verdict.PASS == "pass"``).
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum


class Verdict(StrEnum):
    """A certification verdict."""

    PASS = "pass"
    INCONCLUSIVE = "inconclusive"
    FAIL = "fail"
    ERROR = "error"
    INVALID = "invalid"


SEVERITY_ORDER: tuple[str, ...] = tuple(
    str(v) for v in (Verdict.PASS, Verdict.INCONCLUSIVE, Verdict.FAIL, Verdict.ERROR)
)
"""The level verdicts from best to worst (error > fail > inconclusive > pass)."""

DISPLAY_ORDER: tuple[str, ...] = tuple(
    str(v) for v in (Verdict.PASS, Verdict.FAIL, Verdict.INCONCLUSIVE, Verdict.ERROR)
)
"""The order reports count verdicts in (batch index, summary line); ``invalid`` comes last."""

EXIT_STATUS: dict[str, int] = {
    Verdict.PASS: 0,
    Verdict.INCONCLUSIVE: 1,
    Verdict.FAIL: 1,
    Verdict.ERROR: 1,
}
"""``slotcert certify``'s exit code for a machine's verdict (a bad file exits 2)."""


def worst(verdicts: Iterable[str]) -> str:
    """The worst of several verdicts (error > fail > inconclusive > pass); none is an error."""
    given = list(verdicts)
    return max(given, key=SEVERITY_ORDER.index) if given else Verdict.ERROR
