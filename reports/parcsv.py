"""The PAR sheet as CSV: one row per award and bet level."""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

from certify.outputs import neutral_cell

PAR_COLUMNS = ("level", "kind", "combo", "pays", "probability", "one_in", "rtp_contribution")


def write_par_csv(certificate: dict[str, Any], path: Path) -> None:
    """Write the certificate's awards as ``<id>.par.csv``."""
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(PAR_COLUMNS)
        for a in certificate["awards"]:
            writer.writerow(
                map(
                    neutral_cell,
                    [
                        a["level"],
                        a["kind"],
                        " ".join(a["combo"]),
                        a["pays"],
                        repr(a["probability"]),
                        "" if a["one_in"] is None else f"{a['one_in']:.6g}",
                        "" if a["rtp_contribution"] is None else repr(a["rtp_contribution"]),
                    ],
                )
            )
