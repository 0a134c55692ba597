"""The parts of the Python API that sit on ``reports`` and ``meters``.

:mod:`certify.api` computes (``certify`` imports neither package); this
module writes certificates and reports, reconciles meter dumps, and copies
the shipped example models.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from certify.api import BatchResult, PathLike, UsageError

if TYPE_CHECKING:
    import pandas as pd


def write_certificates(batch: BatchResult, out: PathLike, html: bool = True) -> list[Path]:
    """Write ``<id>.certificate.json``, ``<id>.par.csv`` (and ``<id>.html``) per machine.

    The same files as ``slotcert certify --out`` per certified machine, with
    the same safe file names; invalid files are skipped. Returns the paths written.
    """
    from reports.certificate import build_certificate, write_json
    from reports.certify_cmd import _write_html, safe_name
    from reports.parcsv import write_par_csv

    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    taken: set[str] = set()
    written = []
    for result in batch.machines:
        cert = result.certification
        if cert is None:
            continue
        certificate = build_certificate(cert)
        stem = safe_name(cert.machine.id, taken)
        write_json(certificate, folder / f"{stem}.certificate.json")
        write_par_csv(certificate, folder / f"{stem}.par.csv")
        written += [folder / f"{stem}.certificate.json", folder / f"{stem}.par.csv"]
        if html:
            _write_html(certificate, cert, folder / f"{stem}.html")
            written.append(folder / f"{stem}.html")
    return written


@dataclass
class MeterReconciliation:
    """What a meter reconciliation found: findings, periods, quarantined rows, totals."""

    result: Any

    @property
    def errors(self) -> int:
        """Number of error-level findings."""
        return int(self.result.errors)

    @property
    def findings(self) -> pd.DataFrame:
        """One row per finding (severity, code, machine, period, message...)."""
        return self.result.findings

    def to_frame(self) -> pd.DataFrame:
        """The findings (the same table as ``findings.csv``)."""
        return self.result.findings

    def to_dict(self) -> dict[str, Any]:
        """Counts and the findings as records."""
        r = self.result
        return {
            "rows_in": r.rows_in,
            "rows_reconciled": r.rows_reconciled,
            "rows_quarantined": r.rows_quarantined,
            "errors": self.errors,
            "findings": r.findings.to_dict(orient="records"),
        }


def reconcile_meters(
    dumps: PathLike | Sequence[PathLike],
    floor: PathLike,
    counts: PathLike | None = None,
    jurisdiction: PathLike | None = None,
    out: PathLike | None = None,
    **config: Any,
) -> MeterReconciliation:
    """Reconcile meter dumps across a floor (``slotcert meters reconcile``).

    Parameters
    ----------
    dumps : path or list of paths
        CSV, Parquet or JSONL meter dumps.
    floor : path
        The floor file (CSV).
    counts : path, optional
        A soft-count file.
    jurisdiction : path, optional
        Meter width, confidence and required meters from a jurisdiction file.
    out : path, optional
        Also write findings.csv, periods.csv, quarantine.csv, machines.csv,
        summary.json and report.html there.
    **config
        Fields of :class:`meters.config.Config` (``digits``, ``period``,
        ``confidence``...).

    """
    from meters.config import Config, from_jurisdiction
    from meters.floor import floor_currency, load_counts, load_floor
    from meters.reconcile import reconcile

    files = [str(dumps)] if isinstance(dumps, str | Path) else [str(d) for d in dumps]
    if not files:
        raise UsageError("dumps: no meter dump given (a CSV, Parquet or JSONL file, or a list)")
    known = {f.name for f in dataclasses.fields(Config)}
    unknown = sorted(set(config) - known)
    if unknown:
        raise UsageError(f"unknown settings {unknown}: the settings are {sorted(known)}")
    cfg = from_jurisdiction(jurisdiction, **config) if jurisdiction else Config(**config)
    floor_frame = load_floor(floor, cfg.digits)
    count_frame = load_counts(counts, floor_frame) if counts else None
    result = reconcile(files, floor_frame, count_frame, cfg)
    if out is not None:
        from meters.operator_report import View
        from meters.report import write_outputs

        inputs = {"dumps": files, "floor": str(floor), "counts": counts and str(counts)}
        view = View(currency=floor_currency(floor_frame))
        write_outputs(result, out, cfg, inputs, floor=floor_frame, view=view)
    return MeterReconciliation(result)


def examples(folder: PathLike, overwrite: bool = False) -> list[Path]:
    """Copy the shipped example models into ``folder``; return the files written."""
    from certify.examples import copy_examples

    return copy_examples(folder, overwrite)[0]
