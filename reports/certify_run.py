"""The ``slotcert certify`` run: every machine certified, its files written, the batch summed.

The parser lives in :mod:`reports.certify_cmd`, which imports this module only
when the command runs (``slotcert --help`` loads neither numba nor pandas).
"""

from __future__ import annotations

import argparse
import re
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from certify import __version__, warmup
from certify.batch import certify_machine, load_for_certification
from certify.checkpoint import CheckpointDir
from certify.engine.rng import CHUNK_SPINS
from certify.errors import EngineError, InputError, ModelError, SlotcertError, UsageError
from certify.kinds import BATCH
from certify.lab import is_draft
from certify.model import load_jurisdiction
from certify.model.files import expect_kind
from certify.model.files import machine_files as listed_machine_files
from certify.outputs import atomic_path, write_text
from certify.progress import Progress
from certify.runners import DaskRunner, open_runner
from certify.verdicts import DISPLAY_ORDER, EXIT_STATUS, Verdict
from reports.certificate import build_certificate, write_json
from reports.parcsv import write_par_csv, write_par_features_csv
from reports.parxlsx import write_par_xlsx
from reports.signing import DRAFT_LAB, identity, load_lab, load_private_key, sign_certificate

EXIT_FOR = EXIT_STATUS


def safe_name(machine_id: str, taken: set[str]) -> str:
    """A file-name stem from a machine id: no separators, no dot-dot, unique."""
    stem = re.sub(r"[^A-Za-z0-9._-]", "_", machine_id).lstrip(".") or "machine"
    stem = stem.replace("..", "_")[:120]
    name, k = stem, 2
    while name.lower() in taken:
        name, k = f"{stem}-{k}", k + 1
    taken.add(name.lower())
    return name


def run(args: argparse.Namespace) -> int:
    """Certify every machine file; one bad file is reported and the rest still run.

    With ``--workers`` or ``--scheduler`` the machines' chunks are spread over a
    Dask cluster together, several machines at a time, and each machine's files
    are written as soon as it and the machines before it are done (file order
    keeps the output names deterministic).
    """
    if args.pdf:
        from reports.pdf import find_chromium

        if args.no_html:
            raise UsageError("--pdf prints the HTML report: it cannot go with --no-html")
        find_chromium()
    expect_kind(args.jurisdiction, "jurisdiction")
    jurisdiction = load_jurisdiction(args.jurisdiction)
    files = machine_files(args.paths, quiet=args.quiet)
    if not files:
        raise UsageError(f"no machine files in {' '.join(args.paths)}")
    args.issuer = Issuer(
        load_lab(args.lab, args.lab_config),
        datetime.now(UTC).replace(microsecond=0),
        load_private_key(args.sign_key) if args.sign_key else None,
    )
    if args.issuer.draft:
        print(
            "slotcert: no --lab or --lab-config: the certificates are DRAFTS "
            "(their titles, numbers and reports say so)",
            file=sys.stderr,
        )
    if args.spins == 0:
        print(
            "slotcert: --spins 0: exact-only certification (no simulation); "
            "the certificates and reports say so",
            file=sys.stderr,
        )
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    store = (
        None if args.checkpoint is None else CheckpointDir(args.checkpoint, args.seed, CHUNK_SPINS)
    )
    with open_runner(args.scheduler, args.workers, store, args.device) as runner:
        rows, code = _certify_all(files, jurisdiction, args, out, runner)
    batch = batch_document(jurisdiction, args.spins, args.seed, args.issuer, rows)
    write_batch(out, batch)
    if not args.no_html:
        write_index(batch, out)
    for row in rows:
        print(console_line(row))
        for warning in row.get("warnings") or []:
            print(f"{'':>14}{warning}")
    print(summary_line(rows, out / ("batch.json" if args.no_html else "index.html")))
    return code


def batch_document(
    jurisdiction: Any, spins: int, seed: int, issuer: Issuer, rows: list[dict[str, Any]]
) -> dict[str, Any]:
    """``batch.json``: the run's plan, who issued it, one row per file, the verdict counts."""
    return {
        "schema": BATCH.schema,
        "jurisdiction": jurisdiction.id,
        "jurisdiction_name": jurisdiction.name,
        "min_rtp": float(jurisdiction.min_rtp),
        "confidence": float(jurisdiction.confidence),
        "spins": spins,
        "seed": seed,
        "mode": "exact-only" if spins == 0 else "exact and simulation",
        "issued_utc": issuer.issued_utc,
        **issuer.batch_fields(),
        "tool": {"name": "slotcert", "version": __version__},
        "machines": rows,
        "counts": _counts(rows),
    }


def write_batch(out: Path, batch: dict[str, Any]) -> None:
    """Write ``batch.json`` into ``out``."""
    write_json(batch, out / "batch.json")


def new_row(path: Path | str, error: str | None = None) -> dict[str, Any]:
    """A file's ``batch.json`` row before certification (``invalid`` until filled)."""
    return {
        "path": str(path),
        "machine_id": None,
        "verdict": Verdict.INVALID,
        "reason": None,
        "min_base_rtp": None,
        "min_total_rtp": None,
        "error": error,
        "warnings": [],
        "files": [],
    }


def fill_row(row: dict[str, Any], cert: Any, certificate: dict[str, Any]) -> None:
    """Fill a certified file's row: machine, verdict and why, certificate, warnings, returns."""
    row.update(
        machine_id=cert.machine.id,
        verdict=cert.verdict,
        reason=cert.reason,
        certificate=certificate["certificate"]["number"],
        warnings=[
            f"{f['severity']}: {f['code']}: {f['message']}"
            for f in certificate["findings"]
            if f["severity"] in ("warning", "error")
        ],
        **_returns(certificate),
    )


@dataclass(frozen=True)
class Issuer:
    """Who issues a run's certificates: the lab (empty: drafts), the issue time, the signing key."""

    lab: dict[str, Any]
    issued: datetime
    key: Any = None  # an Ed25519 private key, or None: unsigned

    @property
    def draft(self) -> bool:
        """No laboratory named: the certificates are drafts."""
        return is_draft(self.lab)

    @property
    def issued_utc(self) -> str:
        """The issue time as written in the certificates (``2026-12-01T12:00:00Z``)."""
        return self.issued.isoformat().replace("+00:00", "Z")

    def batch_fields(self) -> dict[str, Any]:
        """``lab``, ``draft`` and ``signed`` of ``batch.json``."""
        return {
            "lab": self.lab or {"name": DRAFT_LAB},
            "draft": self.draft,
            "signed": self.key is not None,
        }


def console_line(row: dict[str, Any]) -> str:
    """A machine's result line: verdict, id, file, and why when it did not pass.

    ``        fail  LOWBALL-3R-1     models/machines/lowball-3r-1.toml — exact return
    73.88% < minimum 80.00% at level 1``
    """
    why = row.get("error") or (row.get("reason") if row["verdict"] != Verdict.PASS else None)
    return f"{row['verdict']:>12}  {row['machine_id'] or '-':<16} {row['path']}" + (
        f" — {why}" if why else ""
    )


def write_machine_files(
    cert: Any, out: Path, stem: str, issuer: Issuer
) -> tuple[dict[str, Any], list[str]]:
    """Write a certified machine's certificate, PAR CSVs and workbook; return both.

    The HTML report (and its PDF) are :func:`write_report`'s.

    Returns
    -------
    tuple
        The certificate as written (identity and signature included) and the
        names of the files written in ``out``.

    """
    certificate = build_certificate(cert)
    certificate["certificate"] = identity(certificate, issuer.lab, issuer.issued)
    if issuer.key is not None:
        certificate = sign_certificate(certificate, issuer.key)
    write_json(certificate, out / f"{stem}.certificate.json")
    with atomic_path(out / f"{stem}.par.csv") as tmp:
        write_par_csv(certificate, tmp)
    with atomic_path(out / f"{stem}.par-features.csv") as tmp:
        write_par_features_csv(certificate, tmp)
    write_par_xlsx(certificate, cert.machine, out / f"{stem}.par.xlsx")
    names = ("certificate.json", "par.csv", "par-features.csv", "par.xlsx")
    return certificate, [f"{stem}.{name}" for name in names]


def write_report(
    certificate: dict[str, Any], cert: Any, out: Path, stem: str, pdf: bool = False
) -> list[str]:
    """Write ``<stem>.html`` (and with ``pdf`` its A4 print ``<stem>.pdf``); return the names."""
    _write_html(certificate, cert, out / f"{stem}.html")
    if not pdf:
        return [f"{stem}.html"]
    from reports.pdf import write_pdf

    write_pdf(out / f"{stem}.html", out / f"{stem}.pdf")
    return [f"{stem}.html", f"{stem}.pdf"]


def summary_line(rows: list[dict[str, Any]], where: Path) -> str:
    """``6 machines: 5 pass, 1 fail — out/index.html``."""
    counts = _counts(rows)
    order = (*DISPLAY_ORDER, Verdict.INVALID)
    parts = [f"{counts[v]} {v}" for v in order if counts.get(v)]
    parts += [f"{n} {v}" for v, n in counts.items() if v not in order]
    noun = "machine" if len(rows) == 1 else "machines"
    return f"{len(rows)} {noun}: {', '.join(parts) or 'none'} — {where}"


def machine_files(paths: list[str], quiet: bool = False) -> list[Path]:
    """Files to certify (:func:`certify.model.files.machine_files`), skipped ones listed.

    In a folder, the other model kinds (jurisdictions, links, tables) are
    listed as skipped; a file that cannot be read is kept, so it is reported
    as invalid.
    """

    def skipped(path: Path, schema: str) -> None:
        if not quiet:
            print(f"slotcert: {path}: skipped ({schema}, not a machine)", file=sys.stderr)

    return listed_machine_files(paths, skipped)


def _certify_all(
    paths: list[Path], jurisdiction, args, out: Path, runner
) -> tuple[list[dict[str, Any]], int]:
    """Certify ``paths`` in order, or a few at a time when ``runner`` is a cluster."""
    rows: list[dict[str, Any]] = []
    taken: set[str] = set()
    code = 0
    if not isinstance(runner, DaskRunner):
        progress = Progress(enabled=False) if args.quiet else Progress()
        helper = warmup.start(paths, args.spins > 0)  # a first run: a second process compiles ahead
        try:
            for k, path in enumerate(paths):
                progress.machine(k + 1, len(paths), path.name)
                row, status = _certify_one(path, jurisdiction, args, out, taken, progress, runner)
                rows.append(row)
                code = max(code, status)
        finally:  # Ctrl-C too: the checkpoint keeps the finished chunks
            progress.done()
            warmup.stop(helper)
        return rows, code
    pool = ThreadPoolExecutor(max_workers=max(1, min(len(paths), 4)))
    try:
        futures = [pool.submit(_compute, path, jurisdiction, args, None, runner) for path in paths]
        for path, future in zip(paths, futures, strict=True):
            row, status = _certify_one(
                path, jurisdiction, args, out, taken, None, computed=future.result()
            )
            rows.append(row)
            code = max(code, status)
    finally:  # on Ctrl-C, don't wait for the machines not started; closing the client ends the rest
        pool.shutdown(wait=False, cancel_futures=True)
    return rows, code


def _compute(
    path: Path, jurisdiction, args, progress: Progress | None, runner
) -> tuple[Any, dict[str, Any], int]:
    """Load and certify one file: ``(certification or None, batch row, exit status)``."""
    row = new_row(path)
    try:
        expect_kind(path, "machine")
        machine, warnings = load_for_certification(path)
        if args.device == "cuda" and args.spins > 0:
            from certify.engine.gpu import refuse_machine

            refuse_machine(machine, str(path))
        cert = certify_machine(
            machine,
            jurisdiction,
            args.spins,
            args.seed,
            progress,
            warnings,
            runner=runner,
            budget_s=getattr(args, "budget", None),
        )
    except ModelError as exc:
        for problem in exc.problems:
            print(f"slotcert: {problem}", file=sys.stderr)
        n = len(exc.problems)
        row["error"] = f"{n} problem{'s' if n != 1 else ''}: {exc.problems[0]}"
        return None, row, 2
    except (UsageError, InputError, EngineError) as exc:
        print(f"slotcert: {exc}", file=sys.stderr)
        row["error"] = str(exc)
        return None, row, 2
    return cert, row, 0


def _certify_one(
    path: Path,
    jurisdiction,
    args,
    out: Path,
    taken: set[str],
    progress: Progress | None,
    runner=None,
    computed: tuple | None = None,
) -> tuple[dict[str, Any], int]:
    """Certify one file (or take its ``computed`` certification) and write its files."""
    cert, row, status = computed or _compute(path, jurisdiction, args, progress, runner)
    if cert is None:
        return row, status
    machine = cert.machine
    if progress is not None:
        progress.phase("writing the certificate, PAR sheet and report")
    stem = safe_name(machine.id, taken)
    certificate, row["files"] = write_machine_files(cert, out, stem, args.issuer)
    fill_row(row, cert, certificate)
    status = EXIT_FOR[cert.verdict]
    if not args.no_html:
        try:
            row["files"] += write_report(certificate, cert, out, stem, args.pdf)
        except SlotcertError as exc:
            print(f"slotcert: {path}: HTML report not written: {exc}", file=sys.stderr)
            row["error"] = f"HTML report not written: {exc}"
            status = 2
    return row, status


def _returns(certificate: dict[str, Any]) -> dict[str, Any]:
    base, total = [], []
    for lvl in certificate["bet_levels"]:
        ex, sim = lvl["exact"], lvl["simulation"]
        if ex is not None:
            base.append(ex["base_rtp"])
            total.append(ex["rtp"])
        elif sim is not None:
            base.append(sim["rtp"])
    return {
        "min_base_rtp": min(base) if base else None,
        "min_total_rtp": min(total) if total else None,
    }


def _counts(rows: list[dict[str, Any]]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for row in rows:
        counts[row["verdict"]] = counts.get(row["verdict"], 0) + 1
    return counts


def _write_html(certificate: dict[str, Any], cert, path: Path) -> None:
    """The machine's report; its plots come from the certificate (traces, histograms)."""
    from reports.html import render_machine_report  # jinja2 and matplotlib: only when drawn

    html = render_machine_report(certificate, cert.machine)
    write_text(path, html)


def write_index(batch: dict[str, Any], out: Path) -> None:
    """Write the batch's ``index.html`` into ``out``."""
    from reports.html import render_batch_index

    html = render_batch_index(batch["machines"], batch)
    write_text(out / "index.html", html)
