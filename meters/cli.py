"""``slotcert meters ...``: reconcile meter dumps, simulate a floor.

Registered through the ``slotcert.commands`` entry point (``register``).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from certify.errors import InputError

EXIT_OK, EXIT_FAIL = 0, 1


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``meters`` command with its ``reconcile`` and ``simulate`` sub-commands."""
    meters = sub.add_parser("meters", help="reconcile meter dumps against a floor")
    msub = meters.add_subparsers(dest="meters_command", required=True)
    p = msub.add_parser("reconcile", help="reconcile meter dumps; exit 1 on error findings")
    p.add_argument("dumps", nargs="+", metavar="DUMP", help="CSV, Parquet or JSONL dumps")
    p.add_argument("--floor", required=True, help="floor file (CSV)")
    p.add_argument(
        "--counts", help="soft-count file (CSV: machine_id, period_start, period_end, amount)"
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
    p.set_defaults(func=cmd_reconcile)
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


def cmd_reconcile(args: argparse.Namespace) -> int:
    """Run ``meters reconcile``; 1 if any error-level finding, else 0."""
    from meters.config import Config, from_jurisdiction
    from meters.floor import load_counts, load_floor
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
        if not Path(dump).is_file():
            raise InputError(f"{dump}: no such file")
    with ChartDrawer() as drawer:  # imports matplotlib on the other core meanwhile
        floor = load_floor(args.floor, cfg.digits)
        counts = load_counts(args.counts) if args.counts else None
        with small_pages():
            result = reconcile(args.dumps, floor, counts, cfg, pieces=args.pieces)
        info = write_outputs(
            result,
            args.out,
            cfg,
            {"dumps": list(args.dumps), "floor": args.floor, "counts": args.counts},
            drawer,
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
