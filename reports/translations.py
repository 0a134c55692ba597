"""Translation tables for the pay-glass (``reports/i18n/<code>.toml``).

Portuguese (``pt.toml``) is the reference: every other table must have the same
keys and the same ``{placeholders}``. A language without a table is an error,
never a machine translation.
"""

from __future__ import annotations

import re
import string
import tomllib
from dataclasses import dataclass
from decimal import Decimal
from functools import cache, lru_cache
from pathlib import Path

from certify.codes import Code
from certify.errors import ModelError, Problem

I18N_DIR = Path(__file__).parent / "i18n"
REFERENCE = "pt"
_CODE = re.compile(r"^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$")


@dataclass(frozen=True)
class Translation:
    """One language's pay-glass text and number format."""

    code: str
    name: str
    decimal: str
    thousands: str
    money_format: str
    text: dict[str, str]

    def t(self, key: str, **values: object) -> str:
        """Return the text ``key`` with its ``{placeholders}`` filled in."""
        return self.text[key].format(**values)

    def number(self, value: int | Decimal, places: int = 0) -> str:
        """Format ``value`` with this language's separators, e.g. ``1 234,50`` in Portuguese."""
        text = f"{Decimal(value):,.{places}f}"
        return text.replace(",", "\0").replace(".", self.decimal).replace("\0", self.thousands)

    def money(self, amount: Decimal, currency: str, places: int = 2) -> str:
        """Format an amount of money in ``currency``, e.g. ``0,25 EUR``."""
        return self.money_format.format(amount=self.number(amount, places), currency=currency)

    def percent(self, rate: Decimal) -> str:
        """Format a rate as a percentage without trailing zeros: ``0.0125`` -> ``1,25%``."""
        text = format((rate * 100).normalize(), "f")
        return text.replace(".", self.decimal) + "%"


def available_languages() -> list[str]:
    """Return the codes of the languages that have a translation table, sorted."""
    return sorted(p.stem for p in I18N_DIR.glob("*.toml"))


def translation(code: str) -> Translation:
    """Load the translation table for ``code``.

    Raises
    ------
    ModelError
        When there is no table for ``code``, or the table is incomplete.

    """
    if not _CODE.match(code) or not (I18N_DIR / f"{code}.toml").is_file():
        raise ModelError([missing_language(code, "", "")])
    return _load(code)


def missing_language(code: str, file: str, path: str) -> Problem:
    """Return the problem reported for a language that has no translation table."""
    return Problem(
        file or "pay-glass",
        path,
        f"no pay-glass translation for language {code!r} (have: "
        f"{', '.join(available_languages())}); add reports/i18n/{code}.toml "
        "written by a translator",
        Code.NO_TRANSLATION,
    )


@cache
def _load(code: str) -> Translation:
    path = I18N_DIR / f"{code}.toml"
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    problems = _check(data, code, str(path))
    if problems:
        raise ModelError(problems)
    fmt = data["format"]
    return Translation(
        code, data["name"], fmt["decimal"], fmt["thousands"], fmt["money"], dict(data["text"])
    )


def _check(data: dict, code: str, file: str) -> list[Problem]:
    """Every key and placeholder of the reference table, nothing else."""
    problems = []
    if data.get("language") != code:
        problems.append(
            Problem(file, "language", f"must be {code!r}, got {data.get('language')!r}", Code.I18N)
        )
    for key in ("decimal", "thousands", "money"):
        if not isinstance(data.get("format", {}).get(key), str):
            problems.append(Problem(file, f"format.{key}", "is required", Code.I18N))
    if not isinstance(data.get("name"), str):
        problems.append(Problem(file, "name", "is required", Code.I18N))
    text = data.get("text", {})
    ref = text if code == REFERENCE else _reference_text()
    for key in sorted(set(ref) | set(text)):
        if key not in text:
            problems.append(Problem(file, f"text.{key}", "is missing", Code.I18N))
        elif key not in ref:
            problems.append(Problem(file, f"text.{key}", f"is not in {REFERENCE}.toml", Code.I18N))
        elif _fields(text[key]) != _fields(ref[key]):
            problems.append(
                Problem(
                    file,
                    f"text.{key}",
                    f"placeholders {_fields(text[key])} "
                    f"differ from {REFERENCE}.toml {_fields(ref[key])}",
                    Code.I18N,
                )
            )
    return problems


@lru_cache(maxsize=1)
def _reference_text() -> dict[str, str]:
    data = tomllib.loads((I18N_DIR / f"{REFERENCE}.toml").read_text(encoding="utf-8"))
    return dict(data["text"])


def _fields(template: str) -> list[str]:
    return sorted({name for _, name, _, _ in string.Formatter().parse(template) if name})
