"""``python -m certify.tables exact|simulate|capital TABLE``: JSON on stdout.

A stop-gap entry point for the Monte Carlo cross-check and the banker capital
study until the ``slotcert`` command line grows table sub-commands.
"""

from __future__ import annotations

import argparse
import json
import sys

from certify.errors import ModelError


def main(argv: list[str] | None = None) -> int:
    """Run one table command; exit 2 on an invalid table."""
    parser = argparse.ArgumentParser(prog="python -m certify.tables")
    parser.add_argument("command", choices=("exact", "simulate", "capital"))
    parser.add_argument("table")
    parser.add_argument("--rounds", type=int, default=None)
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args(argv)
    from certify.tables import load_table, table_report
    from certify.tables.capital import capital_report
    from certify.tables.report import simulation_report

    try:
        table = load_table(args.table)
    except ModelError as exc:
        for problem in exc.problems:
            print(f"slotcert: {problem}", file=sys.stderr)
        return 2
    if args.command == "exact":
        report = table_report(table)
    elif args.command == "simulate":
        report = simulation_report(table, args.rounds, args.seed)
    elif table.capital is None:
        print(f"slotcert: {args.table}: no [capital] section", file=sys.stderr)
        return 2
    else:
        report = capital_report(table, args.rounds, args.seed)
    print(json.dumps(report, indent=2, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
