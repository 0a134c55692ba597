"""One exception hierarchy for the whole tool; the CLI maps it to exit code 2."""

from __future__ import annotations

from dataclasses import dataclass

from certify.codes import Code


class SlotcertError(Exception):
    """Base class of every error slotcert raises on purpose."""


@dataclass(frozen=True)
class Problem:
    """One validation problem, located in a file by a key path.

    Parameters
    ----------
    file : str
        The file the problem is in.
    path : str
        The key path inside the file, e.g. ``reels.strips[2][17]``.
    message : str
        What is wrong, naming the offending value.
    code : str
        A stable machine-readable code, e.g. ``unknown_symbol``.
    severity : str
        ``"error"`` or ``"warning"``.

    """

    file: str
    path: str
    message: str
    code: str = Code.INVALID
    severity: str = "error"

    def __str__(self) -> str:
        where = f"{self.file}: {self.path}: " if self.path else f"{self.file}: "
        return f"{where}{self.message}"


class ModelError(SlotcertError, ValueError):
    """A model file (machine, jurisdiction, link, table) is invalid.

    Carries every problem found in the file, so one run reports them all.
    """

    def __init__(self, problems: list[Problem]):
        self.problems = list(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


class UsageError(SlotcertError, ValueError):
    """The command line or an argument value is wrong."""


class InputError(SlotcertError, ValueError):
    """An input data file (dump, floor file, checkpoint) cannot be used."""


class EngineError(SlotcertError, RuntimeError):
    """The engine and the exact calculator disagree, or a kernel failed."""
