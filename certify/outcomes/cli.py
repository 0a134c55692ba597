"""``slotcert outcomes verify|record``: the command line of outcome verification (SPEC 10)."""

from __future__ import annotations

import argparse
import sys

from certify.cli.args import count, seed

EXIT_OK, EXIT_FAIL = 0, 1
MODEL = "models/machines/ref-5x3-20.toml"


def register(sub: argparse._SubParsersAction) -> None:
    """Add ``outcomes`` with its ``verify`` and ``record`` sub-commands."""
    p = sub.add_parser(
        "outcomes",
        help="verify a machine's outcome logs against its certified model",
        description="Is the machine the model? Replay every logged screen by the certified "
        "model, test its stops, return and raw generator output (SPEC 10); or record a log "
        "of the engine's own play, with a known fault when asked.",
        epilog=f"examples:\n  slotcert outcomes record {MODEL} --spins 100000 --seed 1"
        " --out log.parquet\n"
        f"  slotcert outcomes verify log.parquet --model {MODEL} --out out/\n",
    )
    inner = p.add_subparsers(
        dest="outcomes_command", required=True, metavar="ACTION", parser_class=type(p)
    )
    v = inner.add_parser(
        "verify",
        help="verify outcome logs (exit 0 pass, 1 a test fails or a screen is paid wrongly, 2 bad "
        "input)",
        description="Replay each screen of the logs (CSV, JSON lines or Parquet) by the model, "
        "check the feature order, test the stops (chi-square, G, serial, independence, runs, "
        "gap), the return against the exact figures and, with --raw, the generator's raw output "
        "(NIST SP 800-22), Holm-corrected at --alpha. Writes outcomes.json, mismatches.csv, "
        "quarantine.csv and report.html into --out.",
        epilog=f"example:\n  slotcert outcomes verify log.parquet --model {MODEL} --out out/\n",
    )
    v.add_argument(
        "logs", nargs="+", metavar="LOG", help="outcome log files (.csv, .jsonl, .parquet)"
    )
    v.add_argument("--model", required=True, metavar="MODEL", help="the certified machine file")
    v.add_argument("--out", required=True, metavar="DIR", help="folder for the outputs")
    v.add_argument(
        "--level", type=int, default=None, metavar="L", help="keep only bet level L's rows"
    )
    v.add_argument(
        "--alpha", type=float, default=0.01, help="family-wise significance (default 0.01)"
    )
    v.add_argument(
        "--raw", default=None, metavar="RAW.bin", help="raw generator output, 32-bit words"
    )
    v.set_defaults(func=cmd_verify)
    r = inner.add_parser(
        "record",
        help="write a log of the engine's own play, optionally with a fault",
        description="Play SPINS paid games of the model on the engine's streams and write one "
        "row per screen. --fault makes a machine with a known defect: pay (the most frequent "
        "entry pays one credit more per line), bias (the middle reel lands on its first stop "
        "twice as often), serial (each reel repeats its last stop with probability 1/16), "
        "feature (each free-spin award one spin longer).",
        epilog=f"example:\n  slotcert outcomes record {MODEL} --spins 1M --seed 1"
        " --out log.parquet --fault bias\n",
    )
    r.add_argument("model", metavar="MODEL", help="a machine file")
    r.add_argument("--spins", type=count(1), required=True, help="paid games to play")
    r.add_argument("--seed", type=seed, required=True, help="seed of the engine's streams")
    r.add_argument(
        "--out", required=True, metavar="LOG", help="the log to write (.csv, .jsonl, .parquet)"
    )
    r.add_argument(
        "--fault",
        choices=("pay", "bias", "serial", "feature"),
        default=None,
        help="record a machine with this defect (default: none)",
    )
    r.add_argument(
        "--level", type=int, default=None, metavar="L", help="bet level (default: the first)"
    )
    r.set_defaults(func=cmd_record)


def cmd_verify(args: argparse.Namespace) -> int:
    """Run ``outcomes verify``."""
    from certify.outcomes.verify import verify_outcomes

    result = verify_outcomes(
        args.logs, args.model, out=args.out, level=args.level, alpha=args.alpha, raw=args.raw
    )
    if not args.quiet:
        failed = [t for t in result.tests if t["verdict"] == "fail"]
        print(
            f"{result.model_id}: {result.verdict} — rows in {result.rows_in}, "
            f"verified {result.verified}, "
            f"quarantined {result.quarantined}, findings {result.mismatch_count}, "
            f"failed tests {len(failed)}, "
            f"not replayed {sum(result.not_replayed.values())} — {args.out}"
        )
    return EXIT_OK if result.passed else EXIT_FAIL


def cmd_record(args: argparse.Namespace) -> int:
    """Run ``outcomes record``."""
    from certify.outcomes.record import record_outcomes

    summary = record_outcomes(
        args.model, args.spins, args.seed, args.out, fault=args.fault, level=args.level
    )
    if not args.quiet:
        print(
            f"{summary['model']}: {summary['games']} games, {summary['rows']} rows -> {args.out}",
            file=sys.stdout,
        )
    return EXIT_OK
