"""``slotcert certify PATH... --jurisdiction J --spins N --seed S --out DIR``."""

from __future__ import annotations

import argparse
import re
import sys
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from certify import __version__, warmup
from certify.batch import certify_machine, load_for_certification
from certify.checkpoint import CheckpointDir
from certify.cli.args import count, seed
from certify.cli.commands import add_scale_arguments
from certify.cluster import DaskRunner, open_runner
from certify.engine.rng import CHUNK_SPINS
from certify.errors import EngineError, InputError, ModelError, SlotcertError, UsageError
from certify.kinds import BATCH
from certify.model import load_jurisdiction
from certify.model.files import expect_kind
from certify.model.files import machine_files as listed_machine_files
from certify.outputs import atomic_path, write_text
from certify.progress import COMPILING, Progress
from certify.verdicts import DISPLAY_ORDER, EXIT_STATUS, Verdict
from reports.certificate import build_certificate, write_json
from reports.parcsv import write_par_csv
from reports.parxlsx import write_par_xlsx
from reports.signing import identity, load_lab, load_private_key, sign_certificate

EXIT_FOR = EXIT_STATUS


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``certify`` sub-command."""
    p = sub.add_parser(
        "certify",
        help="certify machine models against a jurisdiction",
        description="Certify every machine file (folders: every machine in them) against a "
        "jurisdiction: exact cycle, simulation, verdict per bet level, certificate, HTML "
        "report and PAR CSV per machine, batch.json and index.html. One bad file is "
        "reported and counted; the others still run. Ctrl-C stops (exit 130); with "
        "--checkpoint the same command resumes.",
        epilog="example:\n  slotcert certify models/machines --jurisdiction "
        "models/jurisdictions/pt.toml --spins 1e7 --seed 1 --out out/\n",
    )
    p.add_argument(
        "paths", nargs="+", metavar="PATH", help="machine files, or folders of model files"
    )
    p.add_argument(
        "--jurisdiction", required=True, metavar="FILE", help="a jurisdiction file (its rules)"
    )
    p.add_argument(
        "--spins",
        type=count(0),
        required=True,
        metavar="N",
        help="spins per simulated bet level: 1e7, 10M, 10_000_000 (0: exact only)",
    )
    p.add_argument(
        "--seed", type=seed, required=True, metavar="S", help="seed, a whole number >= 0"
    )
    p.add_argument("--out", required=True, metavar="DIR", help="output folder (created)")
    p.add_argument("--no-html", action="store_true", help="skip the HTML reports")
    p.add_argument(
        "--pdf",
        action="store_true",
        help="also print each HTML report to <id>.pdf (needs Chromium)",
    )
    p.add_argument("--lab", metavar="NAME", help="issuing laboratory, named on each certificate")
    p.add_argument(
        "--lab-config",
        metavar="FILE",
        help="TOML file with the lab's name, id, accreditation, address, contact",
    )
    p.add_argument(
        "--sign-key",
        metavar="KEY",
        help="sign each certificate with this Ed25519 PEM private key (see slotcert keygen)",
    )
    add_scale_arguments(p)
    p.set_defaults(func=run)


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
    args.lab_info = load_lab(args.lab, args.lab_config)
    args.signing_key = load_private_key(args.sign_key) if args.sign_key else None
    args.issued = datetime.now(UTC).replace(microsecond=0)
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
    batch = {
        "schema": BATCH.schema,
        "jurisdiction": jurisdiction.id,
        "jurisdiction_name": jurisdiction.name,
        "min_rtp": float(jurisdiction.min_rtp),
        "confidence": float(jurisdiction.confidence),
        "spins": args.spins,
        "seed": args.seed,
        "mode": "exact-only" if args.spins == 0 else "exact and simulation",
        "issued_utc": args.issued.isoformat().replace("+00:00", "Z"),
        "lab": args.lab_info,
        "tool": {"name": "slotcert", "version": __version__},
        "signed": args.signing_key is not None,
        "machines": rows,
        "counts": _counts(rows),
    }
    write_json(batch, out / "batch.json")
    if not args.no_html:
        _write_index(batch, out)
    for row in rows:
        print(
            f"{row['verdict']:>12}  {row['machine_id'] or '-':<16} {row['path']}"
            + (f"  ({row['error']})" if row["error"] else "")
        )
        for warning in row.get("warnings") or []:
            print(f"{'':>14}{warning}")
    print(summary_line(rows, out / ("batch.json" if args.no_html else "index.html")))
    return code


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
        if warmup.kernels_cold() and not args.quiet and not progress.enabled:
            print(f"slotcert: {COMPILING}", file=sys.stderr)  # a terminal's display says so
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
    row: dict[str, Any] = {
        "path": str(path),
        "machine_id": None,
        "verdict": Verdict.INVALID,
        "min_base_rtp": None,
        "min_total_rtp": None,
        "error": None,
        "warnings": [],
        "files": [],
    }
    try:
        expect_kind(path, "machine")
        machine, warnings = load_for_certification(path)
        if args.device == "cuda" and args.spins > 0:
            from certify.engine.gpu import refuse_machine

            refuse_machine(machine, str(path))
        cert = certify_machine(
            machine, jurisdiction, args.spins, args.seed, progress, warnings, runner=runner
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
    certificate = build_certificate(cert)
    certificate["certificate"] = identity(certificate, args.lab_info, args.issued)
    if args.signing_key is not None:
        certificate = sign_certificate(certificate, args.signing_key)
    stem = safe_name(machine.id, taken)
    write_json(certificate, out / f"{stem}.certificate.json")
    with atomic_path(out / f"{stem}.par.csv") as tmp:
        write_par_csv(certificate, tmp)
    row["files"] = [f"{stem}.certificate.json", f"{stem}.par.csv"]
    write_par_xlsx(certificate, machine, out / f"{stem}.par.xlsx")
    row["files"].append(f"{stem}.par.xlsx")
    row.update(
        machine_id=machine.id,
        verdict=cert.verdict,
        certificate=certificate["certificate"]["number"],
        warnings=[
            f"{f['severity']}: {f['code']}: {f['message']}"
            for f in certificate["findings"]
            if f["severity"] in ("warning", "error")
        ],
        **_returns(certificate),
    )
    status = EXIT_FOR[cert.verdict]
    if not args.no_html:
        try:
            _write_html(certificate, cert, out / f"{stem}.html")
            row["files"].append(f"{stem}.html")
            if args.pdf:
                from reports.pdf import write_pdf

                write_pdf(out / f"{stem}.html", out / f"{stem}.pdf")
                row["files"].append(f"{stem}.pdf")
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


def _write_index(batch: dict[str, Any], out: Path) -> None:
    from reports.html import render_batch_index

    html = render_batch_index(batch["machines"], batch)
    write_text(out / "index.html", html)
