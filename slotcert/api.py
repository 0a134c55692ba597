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


def write_certificates(
    batch: BatchResult,
    out: PathLike,
    html: bool = True,
    *,
    pdf: bool = False,
) -> list[Path]:
    """Write what ``slotcert certify --out`` writes for a certified batch.

    Per certified machine ``<id>.certificate.json``, ``<id>.par.csv``,
    ``<id>.par.xlsx`` and (``html``) ``<id>.html`` and (``pdf``, needs
    Chromium) its A4 ``<id>.pdf``, with the same safe file names; then
    ``batch.json`` and (``html``) ``index.html``. The certificates name the
    batch's lab (drafts without one) and are signed with its ``sign_key``
    (see :func:`slotcert.certify`). Invalid files get a row in ``batch.json``
    and no files.

    Returns
    -------
    list of Path
        The files written, in order.

    """
    from datetime import UTC, datetime

    from reports import certify_run as cmd
    from reports.signing import load_private_key

    if pdf and not html:
        raise UsageError("pdf prints the HTML report: it needs html=True")
    if pdf:
        from reports.pdf import find_chromium

        find_chromium()
    issuer = cmd.Issuer(
        batch.lab,
        batch.issued or datetime.now(UTC).replace(microsecond=0),
        load_private_key(batch.sign_key) if batch.sign_key else None,
    )
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    taken: set[str] = set()
    rows, written = [], []
    for result in batch.machines:
        cert = result.certification
        row = cmd.new_row(result.path, result.error)
        rows.append(row)
        if cert is None:
            continue
        stem = cmd.safe_name(cert.machine.id, taken)
        certificate, row["files"] = cmd.write_machine_files(cert, folder, stem, issuer)
        cmd.fill_row(row, cert, certificate)
        if html:
            row["files"] += cmd.write_report(certificate, cert, folder, stem, pdf)
        written += [folder / name for name in row["files"]]
    document = cmd.batch_document(batch.jurisdiction, batch.spins, batch.seed, issuer, rows)
    cmd.write_batch(folder, document)
    written.append(folder / "batch.json")
    if html:
        cmd.write_index(document, folder)
        written.append(folder / "index.html")
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
