"""The PAR sheet's award table as CSV: one row per award and bet level, a total row per level.

Columns: see :data:`reports.par.AWARD_COLUMNS`. Floats are written with
``repr`` (shortest round-trip form), so reading the file back gives the
certificate's numbers exactly; an empty cell is "not applicable". Per level,
``rtp_contribution`` sums to the certified return (the ``total`` row leaves
it empty and states the return in ``cumulative_rtp`` and ``certified_rtp``)::

    df = pandas.read_csv("out/REF-5X3-20.par.csv")
    df.groupby("level").rtp_contribution.sum()     # == the certified return per level
"""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

from certify.outputs import atomic_path, neutral_cell
from reports.par import AWARD_COLUMNS, award_rows
from reports.parfigures import feature_table_sections, figure_sections

PAR_COLUMNS = AWARD_COLUMNS


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return repr(float(value))  # numpy floats print as np.float64(...)
    return str(value)


def write_par_csv(certificate: dict[str, Any], path: Path) -> None:
    """Write the certificate's award table as ``<id>.par.csv`` (atomically, never via a symlink)."""
    with atomic_path(path) as tmp, tmp.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(PAR_COLUMNS)
        for row in award_rows(certificate):
            writer.writerow([neutral_cell(_cell(v)) for v in row])


def feature_frame_rows(certificate: dict[str, Any]) -> tuple[list[str], list[list[Any]]]:
    """The PAR figures and per-feature tables as one table (header, rows).

    A ``section`` column, then every column any of them has (empty where a
    section has no such column).
    """
    sections = figure_sections(certificate) + feature_table_sections(certificate)
    columns: list[str] = []
    for s in sections:
        columns += [c for c in s.columns if c not in columns]
    rows = []
    for s in sections:
        for r in s.rows:
            values = dict(zip(s.columns, r, strict=False))
            rows.append([s.name, *(values.get(c) for c in columns)])
    return ["section", *columns], rows


def write_par_features_csv(certificate: dict[str, Any], path: Path) -> None:
    """Write ``<id>.par-features.csv``: return ranges, win probabilities, feature tables.

    Read one section with ``df[df.section == "hold_coins"].dropna(axis=1, how="all")``.
    """
    header, rows = feature_frame_rows(certificate)
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(header)
        for row in rows:
            writer.writerow([neutral_cell(_cell(v)) for v in row])
