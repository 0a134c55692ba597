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
