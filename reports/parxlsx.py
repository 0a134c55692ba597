"""The PAR sheet as an Excel workbook (``<id>.par.xlsx``), written with openpyxl.

One worksheet per section of :func:`reports.par.par_sections` (summary,
figures per level, the award table of each bet level, pay table, feature
tables, reel strips, symbol counts). Each sheet starts with a title row, then
a header row, then the data, so ``pandas.read_excel(path, sheet_name=name,
header=1)`` reads it back. Numbers are stored as numbers (never text):
returns and rates carry a percentage format, probabilities a scientific one,
counts an integer one; the values themselves are the certificate's floats.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from certify.model.schema import Machine
from reports.par import Section, par_sections

PERCENT = "0.0000%"
SCIENTIFIC = "0.000000E+00"
ODDS = "#,##0.0"
INTEGER = "#,##0"


def _format(section: Section, column: str, value: Any) -> str | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    if column in section.percent:
        return PERCENT
    if column.startswith("probability"):
        return SCIENTIFIC
    if column == "one_in":
        return ODDS
    if isinstance(value, int):
        return INTEGER
    return None


def write_par_xlsx(certificate: dict[str, Any], machine: Machine, path: Path) -> None:
    """Write every PAR section to ``path`` (one sheet each); atomically."""
    from openpyxl import Workbook
    from openpyxl.styles import Font
    from openpyxl.utils import get_column_letter

    book = Workbook()
    book.remove(book.active)
    bold = Font(bold=True)
    for section in par_sections(certificate, machine):
        sheet = book.create_sheet(section.name[:31])
        sheet.append([section.title])
        sheet["A1"].font = Font(bold=True, size=12)
        sheet.append(list(section.columns))
        for cell in sheet[2]:
            cell.font = bold
        for row in section.rows:
            sheet.append(list(row))
            for column, cell in zip(section.columns, sheet[sheet.max_row], strict=False):
                fmt = _format(section, column, cell.value)
                if fmt:
                    cell.number_format = fmt
            if row and row[1:3] == ("total", "total"):
                for cell in sheet[sheet.max_row]:
                    cell.font = bold
        sheet.freeze_panes = "A3"
        for i, column in enumerate(section.columns, start=1):
            width = max([len(str(column))] + [len(str(r[i - 1])) for r in section.rows[:200]])
            sheet.column_dimensions[get_column_letter(i)].width = min(max(width, 8) + 2, 60)
    tmp = path.with_suffix(path.suffix + ".tmp")
    book.save(tmp)
    tmp.replace(path)
