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
from certify.outputs import FORMULA_STARTS, atomic_path
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


def _text_cell(sheet: Any, value: str, font: Any = None) -> Any:
    """A cell that is text whatever it starts with: never a formula, never an error code.

    openpyxl reads ``"=..."`` as a formula and ``"#N/A"`` as an error; a symbol,
    machine id or lab name from a model or the command line is neither. Text
    a spreadsheet would evaluate when edited also gets Excel's quote prefix.
    """
    from openpyxl.cell import WriteOnlyCell

    cell = WriteOnlyCell(sheet, value=value)
    cell.data_type = "s"
    if value.startswith(FORMULA_STARTS):
        cell.quotePrefix = True
    if font is not None:
        cell.font = font
    return cell


def _row(sheet: Any, section: Section, values: tuple[Any, ...], font: Any = None) -> list[Any]:
    """The cells of one row: text as text, numbers with their format."""
    from openpyxl.cell import WriteOnlyCell

    cells = []
    for i, value in enumerate(values):
        if isinstance(value, str):
            cells.append(_text_cell(sheet, value, font))
            continue
        cell = WriteOnlyCell(sheet, value=value)
        column = section.columns[i] if i < len(section.columns) else ""
        fmt = _format(section, column, value)
        if fmt:
            cell.number_format = fmt
        if font is not None:
            cell.font = font
        cells.append(cell)
    return cells


def _widths(sheet: Any, section: Section) -> None:
    from openpyxl.utils import get_column_letter

    for i, column in enumerate(section.columns, start=1):
        width = max([len(str(column))] + [len(str(r[i - 1])) for r in section.rows[:200]])
        sheet.column_dimensions[get_column_letter(i)].width = min(max(width, 8) + 2, 60)


def write_par_xlsx(certificate: dict[str, Any], machine: Machine, path: Path) -> None:
    """Write every PAR section to ``path`` (one sheet each); atomically.

    The workbook is streamed (openpyxl's write-only mode: time and memory
    linear in the rows) into a fresh temporary file beside ``path``, renamed
    into place (:func:`certify.outputs.atomic_path`: a symlink is never followed).
    """
    from openpyxl import Workbook
    from openpyxl.styles import Font

    book = Workbook(write_only=True)
    bold, title = Font(bold=True), Font(bold=True, size=12)
    for section in par_sections(certificate, machine):
        sheet = book.create_sheet(section.name[:31])
        _widths(sheet, section)
        sheet.freeze_panes = "A3"
        sheet.append([_text_cell(sheet, str(section.title), title)])
        sheet.append([_text_cell(sheet, str(c), bold) for c in section.columns])
        for row in section.rows:
            total = bool(row) and row[1:3] == ("total", "total")
            sheet.append(_row(sheet, section, tuple(row), bold if total else None))
    with atomic_path(path) as tmp:
        book.save(tmp)
