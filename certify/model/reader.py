"""A small typed reader over parsed TOML that collects located problems.

Every getter records a :class:`~certify.errors.Problem` (file, key path,
message naming the value) instead of raising, so one pass reports every
problem of a file at once.
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Any

from certify.codes import Code
from certify.errors import ModelError, Problem

_MISSING = object()


def join(path: str, key: str | int) -> str:
    """Extend a key path: ``join("reels", "strips")`` -> ``reels.strips``."""
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else key


class Reader:
    """Collects problems for one file while values are read from it."""

    def __init__(self, file: str):
        self.file = file
        self.problems: list[Problem] = []

    def error(self, path: str, message: str, code: Code) -> None:
        """Record an error at ``path`` with a registered ``code`` (:mod:`certify.codes`)."""
        self.problems.append(Problem(self.file, path, message, code, "error"))

    def warn(self, path: str, message: str, code: Code) -> None:
        """Record a warning at ``path`` with a registered ``code`` (:mod:`certify.codes`)."""
        self.problems.append(Problem(self.file, path, message, code, "warning"))

    @property
    def errors(self) -> list[Problem]:
        """The error-level problems so far."""
        return [p for p in self.problems if p.severity == "error"]

    def raise_if_errors(self) -> None:
        """Raise a :class:`ModelError` with every problem if any is an error."""
        if self.errors:
            raise ModelError(self.problems)

    def table(
        self, data: Any, path: str, required: tuple[str, ...], optional: tuple[str, ...] = ()
    ) -> dict[str, Any]:
        """Check ``data`` is a table with the required keys and no unknown key."""
        if not isinstance(data, dict):
            self.error(path, f"must be a table, got {_show(data)}", Code.TYPE)
            return {}
        for key in required:
            if key not in data:
                self.error(join(path, key), "is required", Code.MISSING_KEY)
        allowed = set(required) | set(optional)
        for key in data:
            if key not in allowed:
                self.error(join(path, key), f"unknown key {key!r}", Code.UNKNOWN_KEY)
        return data

    def integer(
        self,
        data: dict[str, Any],
        key: str,
        path: str,
        minimum: int | None = None,
        default: Any = _MISSING,
    ) -> int | None:
        """Read an integer (not a bool, not a float) at least ``minimum``."""
        value = data.get(key, default)
        where = join(path, key)
        if value is _MISSING or (value is None and default is None):
            return None
        return self.check_int(value, where, minimum)

    def check_int(self, value: Any, where: str, minimum: int | None = None) -> int | None:
        """Check that ``value`` is an integer at least ``minimum``."""
        if isinstance(value, bool) or not isinstance(value, int):
            self.error(where, f"must be an integer, got {_show(value)}", Code.TYPE)
            return None
        if minimum is not None and value < minimum:
            self.error(where, f"must be at least {minimum}, got {value}", Code.RANGE)
            return None
        return value

    def string(
        self,
        data: dict[str, Any],
        key: str,
        path: str,
        choices: tuple[str, ...] | None = None,
        default: Any = _MISSING,
    ) -> str | None:
        """Read a non-empty string, optionally one of ``choices``."""
        value = data.get(key, default)
        where = join(path, key)
        if value is _MISSING or (value is None and default is None):
            return None
        if not isinstance(value, str) or not value:
            self.error(where, f"must be a non-empty string, got {_show(value)}", Code.TYPE)
            return None
        if choices is not None and value not in choices:
            self.error(where, f"must be one of {', '.join(choices)}, got {value!r}", Code.CHOICE)
            return None
        return value

    def boolean(self, data: dict[str, Any], key: str, path: str, default: bool) -> bool:
        """Read a boolean."""
        value = data.get(key, default)
        if not isinstance(value, bool):
            self.error(join(path, key), f"must be true or false, got {_show(value)}", Code.TYPE)
            return default
        return value

    def money(
        self, data: dict[str, Any], key: str, path: str, default: Any = _MISSING
    ) -> Decimal | None:
        """Read money (or a rate) written as a decimal string such as ``"0.05"``."""
        value = data.get(key, default)
        if value is _MISSING or value is None:
            return None
        return self.decimal(value, join(path, key))

    def decimal(self, value: Any, where: str) -> Decimal | None:
        """Parse a decimal string; floats are refused (money is never a float)."""
        if not isinstance(value, str):
            self.error(
                where,
                f'must be a decimal string such as "0.05", got {_show(value)}',
                Code.NOT_DECIMAL,
            )
            return None
        try:
            number = Decimal(value)
        except InvalidOperation:
            number = Decimal("NaN")
        if not number.is_finite():
            self.error(where, f"is not a decimal number: {value!r}", Code.NOT_DECIMAL)
            return None
        if number < 0:
            self.error(where, f"must not be negative, got {value!r}", Code.RANGE)
            return None
        return number

    def array(
        self, data: dict[str, Any], key: str, path: str, default: Any = _MISSING
    ) -> list[Any] | None:
        """Read a non-empty array."""
        value = data.get(key, default)
        if value is _MISSING or (value is None and default is None):
            return None
        if not isinstance(value, list) or not value:
            self.error(join(path, key), f"must be a non-empty array, got {_show(value)}", Code.TYPE)
            return None
        return value


def _show(value: Any) -> str:
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        return "an array" if value else "an empty array"
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
