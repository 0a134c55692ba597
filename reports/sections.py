"""The PAR sheet's table type, shared by :mod:`reports.par` and :mod:`reports.parfigures`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Section:
    """One table of the PAR sheet: a name, its columns, and rows of plain values."""

    name: str
    title: str
    columns: tuple[str, ...]
    rows: list[tuple[Any, ...]]
    percent: tuple[str, ...] = ()  # columns holding fractions shown as percentages
