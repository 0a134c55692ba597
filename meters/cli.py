"""``slotcert meters ...``: reconcile meter dumps, simulate a floor.

Registered through the ``slotcert.commands`` entry point (``register``).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from certify.errors import InputError, UsageError
from certify.inputs import regular_file

if TYPE_CHECKING:
    from meters.operator_report import View

EXIT_OK, EXIT_FAIL = 0, 1


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``meters`` command with its ``reconcile`` and ``simulate`` sub-commands."""
    meters = sub.add_parser("meters", help="reconcile meter dumps against a floor")
    msub = meters.add_subparsers(dest="meters_command", required=True)
    p = msub.add_parser("reconcile", help="reconcile meter dumps; exit 1 on error findings")
    p.add_argument("dumps", nargs="+", metavar="DUMP", help="CSV, Parquet or JSONL dumps")
    p.add_argument("--floor", required=True, help="floor file (CSV)")
    p.add_argument(
        "--counts",
        help="soft-count file (CSV: machine_id, period_start, period_end and amount in money "
        "or counted_drop in credits: the header decides)",
    )
    p.add_argument("--out", required=True, help="output folder")
    p.add_argument("--digits", type=int, help="meter width (default 10, or the jurisdiction's)")
    p.add_argument(
        "--jurisdiction", help="jurisdiction file: meter width, confidence, required meters"
    )
    p.add_argument("--period", default="D", help="period length, e.g. D, 12h, 7D (default D)")
    p.add_argument("--confidence", type=float, help="hold band confidence (default 0.99)")
    p.add_argument(
        "--pieces",
        type=int,
        default=1,
        help="partition by machine into N pieces on disk (bounded memory)",
    )
    _view_options(p)
    p.add_argument(
        "--currency",
        help="currency of the floor's money (ISO 4217, e.g. EUR) when the floor file has no "
        "currency column and names no model",
    )
    p.set_defaults(func=cmd_reconcile)
    r = msub.add_parser(
        "report",
        help="print the operator's tables of a reconciliation folder (floor summary, "
        "machines, findings by severity)",
        epilog="examples:\n"
        "  slotcert meters report recon/\n"
        "  slotcert meters report recon/ --severity error --machine M00012,M00031\n"
        "  slotcert meters report recon/ --show findings --code drop_variance\n",
    )
    r.add_argument("folder", metavar="DIR", help="output folder of meters reconcile")
    _view_options(r)
    r.add_argument(
        "--show",
        choices=("summary", "machines", "findings", "all"),
        default="all",
        help="which table to print (default all)",
    )
    r.set_defaults(func=cmd_report)
    s = msub.add_parser("simulate", help="simulate a floor and write its dumps")
    s.add_argument("--machines", type=int, default=50)
    s.add_argument("--days", type=int, default=14)
    s.add_argument("--seed", type=int, default=0)
    s.add_argument("--per-day", type=int, default=1, help="readings per day")
    s.add_argument("--digits", type=int, default=10)
    s.add_argument("--format", choices=("csv", "parquet", "jsonl"), default="csv")
    s.add_argument("--sas", action="store_true", help="SAS meter codes as headers")
    s.add_argument("--faults", default="", help="comma-separated fault kinds, or 'all'")
    s.add_argument("--out", required=True)
    s.set_defaults(func=cmd_simulate)


def _view_options(p: argparse.ArgumentParser) -> None:
    """The report's filters (``--severity``, ``--machine``, ``--code``)."""
    p.add_argument(
        "--severity",
        choices=("error", "warning", "info"),
        help="show findings at or above this severity in the report (findings.csv keeps all)",
    )
    p.add_argument(
        "--machine",
        action="append",
        default=[],
        metavar="ID",
        help="show only this machine's findings and row (repeat, or comma-separate)",
    )
    p.add_argument(
        "--code",
        action="append",
        default=[],
        metavar="CODE",
        help="show only findings of this code (repeat, or comma-separate)",
    )


def _view(args: argparse.Namespace, currency: str = "") -> View:
    """The report filters of the command line (unknown codes are usage errors)."""
    from meters.codes import Code
    from meters.operator_report import View

    machines = tuple(m.strip() for a in args.machine for m in a.split(",") if m.strip())
    codes = tuple(c.strip() for a in args.code for c in a.split(",") if c.strip())
    unknown = sorted(set(codes) - {c.value for c in Code})
    if unknown:
        raise UsageError(
            f"--code {', '.join(unknown)}: no such finding code "
            f"(codes: {', '.join(c.value for c in Code)})"
        )
    return View(args.severity, machines, codes, currency)


def cmd_reconcile(args: argparse.Namespace) -> int:
    """Run ``meters reconcile``; 1 if any error-level finding, else 0."""
    from meters.config import Config, from_jurisdiction
    from meters.floor import floor_currency, load_counts, load_floor
    from meters.reconcile import reconcile, small_pages
    from meters.report import ChartDrawer, write_outputs

    overrides = {"digits": args.digits, "confidence": args.confidence, "period": args.period}
    if args.jurisdiction:
        cfg = from_jurisdiction(args.jurisdiction, **overrides)
    else:
        cfg = Config(**{k: v for k, v in overrides.items() if v is not None})
    if args.pieces < 1:
        raise InputError(f"--pieces={args.pieces} must be at least 1")
    for dump in args.dumps:
        regular_file(dump, "meter dump")
    with ChartDrawer() as drawer:  # imports matplotlib on the other core meanwhile
        floor = load_floor(args.floor, cfg.digits)
        view = _view(args, floor_currency(floor, args.currency))
        counts = load_counts(args.counts, floor) if args.counts else None
        with small_pages():
            result = reconcile(args.dumps, floor, counts, cfg, pieces=args.pieces)
        info = write_outputs(
            result,
            args.out,
            cfg,
            {"dumps": list(args.dumps), "floor": args.floor, "counts": args.counts},
            drawer,
            floor,
            view,
        )
    print(
        f"rows: {info['rows_in']} in, {info['rows_reconciled']} reconciled, "
        f"{info['rows_quarantined']} quarantined; findings: "
        f"{info['severity']['error']} error, {info['severity']['warning']} warning, "
        f"{info['severity']['info']} info -> {args.out}"
    )
    return EXIT_FAIL if info["severity"]["error"] else EXIT_OK


def cmd_simulate(args: argparse.Namespace) -> int:
    """Run ``meters simulate``: write floor.csv, counts.csv, injected.csv and a dump."""
    from meters.simulate import simulate_floor

    kinds = [k.strip() for k in args.faults.split(",") if k.strip()]
    try:
        sim = simulate_floor(
            args.machines,
            args.days,
            args.seed,
            args.per_day,
            args.digits,
            faults="all" if kinds == ["all"] else kinds,
        )
    except ValueError as exc:
        raise InputError(str(exc)) from None
    paths = sim.write(args.out, args.format, args.sas)
    print(
        f"{len(sim.readings)} readings of {len(sim.floor)} machines -> {paths['dump']}; "
        f"{len(sim.injected)} expected findings in {paths['injected']}"
    )
    return EXIT_OK


def cmd_report(args: argparse.Namespace) -> int:
    """Run ``meters report``: print the operator's tables of an output folder."""
    from meters.operator_report import print_report

    print_report(Path(args.folder), _view(args), args.show)
    return EXIT_OK
