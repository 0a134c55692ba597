"""Argument types shared by every sub-command: counts, seeds, probabilities.

Each type raises :class:`argparse.ArgumentTypeError` with a message that
names the value, so argparse reports it as one usage line and exit 2.
"""

from __future__ import annotations

import argparse
import math
import re
from decimal import Decimal, InvalidOperation

from certify.bounds import MAX_COUNT, MAX_SEED  # the API checks the same bounds

_SUFFIX = {"": 1, "k": 10**3, "m": 10**6, "g": 10**9, "b": 10**9, "t": 10**12}
_COUNT = re.compile(r"^\s*([0-9][0-9_]*(?:\.[0-9_]*)?(?:e[+]?[0-9]+)?)\s*([kmgbt]?)\s*$", re.I)


def parse_count(text: str, minimum: int = 0, maximum: int = MAX_COUNT) -> int:
    """Parse a count such as ``1000000``, ``1_000_000``, ``1e6``, ``2.5e8``, ``10M`` or ``3k``.

    Suffixes: ``k`` (10^3), ``M`` (10^6), ``G`` or ``B`` (10^9), ``T`` (10^12),
    either case. The value must be a whole number in ``[minimum, maximum]``.

    Raises
    ------
    argparse.ArgumentTypeError
        For anything else (a fraction, a negative number, ``nan``, ``1e24``).

    """
    raw = str(text)
    match = _COUNT.match(raw)
    if match is None or "__" in raw or raw.strip().startswith("_"):
        if raw.strip().startswith("-"):
            raise argparse.ArgumentTypeError(f"{raw!r} is negative; a count is at least {minimum}")
        raise argparse.ArgumentTypeError(
            f"{raw!r} is not a count (write e.g. 1000000, 1_000_000, 1e6, 2.5e8 or 10M)"
        )
    number, suffix = match.groups()
    try:
        value = Decimal(number.replace("_", "")) * _SUFFIX[suffix.lower()]
    except InvalidOperation:
        raise argparse.ArgumentTypeError(f"{raw!r} is not a count") from None
    if value > maximum:
        raise argparse.ArgumentTypeError(f"{raw!r} is too large (at most {maximum:,})")
    if value != value.to_integral_value():
        raise argparse.ArgumentTypeError(f"{raw!r} is not a whole number")
    count = int(value)
    if count < minimum:
        raise argparse.ArgumentTypeError(f"{raw!r} must be at least {minimum}")
    return count


def count(minimum: int = 0, maximum: int = MAX_COUNT):
    """An argparse ``type=`` for counts of at least ``minimum`` (see :func:`parse_count`)."""

    def parse(text: str) -> int:
        return parse_count(text, minimum, maximum)

    parse.__name__ = "count"
    return parse


def seed(text: str) -> int:
    """An argparse ``type=`` for seeds: a whole number in ``[0, 2^128)``."""
    try:
        value = int(str(text).replace("_", ""), 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if not 0 <= value <= MAX_SEED:
        raise argparse.ArgumentTypeError(f"{text!r} must be between 0 and 2^128 - 1")
    return value


def confidence(text: str) -> float:
    """An argparse ``type=`` for a confidence level in ``[0.5, 1)`` (e.g. ``0.99``)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not math.isfinite(value) or not 0.5 <= value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} must be a level in [0.5, 1), e.g. 0.99")
    return value
