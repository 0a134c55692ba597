"""``slotcert jackpots ledger|transfer|simulate|returns``: captive values and pools.

Registered through the ``slotcert.commands`` entry point (``register``).
A transfer moves the whole captive value of a pool that cannot be awarded
to a machine or group of the **same model and stakes** (Portaria 1441/95
n.º 6); any other target is refused with one line and exit code 2.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``jackpots`` command with its ``ledger`` and ``transfer`` sub-commands."""
    jp = sub.add_parser("jackpots", help="jackpot and superjackpot ledger and transfers")
    jsub = jp.add_subparsers(dest="jackpots_command", required=True)
    p = jsub.add_parser("ledger", help="captive value of every pool at a date")
    _common(p)
    p.add_argument(
        "--period",
        help="also write ledger-periods.csv: each pool period by period (e.g. D, 12h, 7D), "
        "money to the cent with the sub-cent remainder carried from period to period",
    )
    p.set_defaults(func=_later("cmd_ledger"))
    t = jsub.add_parser(
        "transfer",
        help="move a pool's captive value to a machine or group of the same model and stakes",
    )
    _common(t)
    t.add_argument("--pool", required=True, help="source pool (group id or MACHINE:POOL)")
    t.add_argument("--to", required=True, help="target pool, or a machine id")
    t.add_argument("--reason", default="force majeure: the pool cannot be awarded")
    t.set_defaults(func=_later("cmd_transfer"))
    m = jsub.add_parser(
        "simulate",
        help="simulate a pool over time: amount at hit, spins "
        "and days between hits, liability percentiles",
    )
    m.add_argument("model", metavar="MODEL", help="a superjackpot group or a machine file")
    m.add_argument("--pool", help="the machine's jackpot id (default: its first)")
    m.add_argument("--level", type=int, help="the machine's bet level (default: its highest)")
    m.add_argument(
        "--spins-per-day",
        type=float,
        default=3000.0,
        help="play rate of machines without one (default 3000)",
    )
    m.add_argument("--days", type=int, default=365)
    m.add_argument("--paths", type=int, default=200)
    m.add_argument("--seed", type=int, required=True)
    m.set_defaults(func=_later("cmd_simulate"))
    r = jsub.add_parser(
        "returns",
        help="base, jackpot and total return of every member of a "
        "superjackpot group (reset funding shared at the group's hit rate)",
    )
    r.add_argument("link", metavar="LINK", help="a superjackpot group file")
    r.set_defaults(func=_later("cmd_returns"))


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("dumps", nargs="+", metavar="DUMP", help="meter dumps (CSV, Parquet, JSONL)")
    p.add_argument("--floor", required=True, help="floor file (CSV with jackpot_pools)")
    p.add_argument("--links", nargs="*", default=[], help="superjackpot group files or folders")
    p.add_argument("--hits", help="hit file (CSV: pool_id, machine_id, hit_at, amount)")
    p.add_argument(
        "--transfers",
        nargs="*",
        default=[],
        help="earlier transfer records (JSON files or folders)",
    )
    p.add_argument("--at", help="as-of time, ISO 8601 with offset (default: last reading)")
    p.add_argument("--digits", type=int, default=10, help="meter width (default 10)")
    p.add_argument("--out", required=True, help="output folder")


def _later(name: str) -> Callable[[argparse.Namespace], int]:
    """The command ``name`` of :mod:`meters.jackpot_run`, imported when it runs (pandas, numpy)."""

    def run(args: argparse.Namespace) -> int:
        from meters import jackpot_run

        command: Callable[[argparse.Namespace], int] = getattr(jackpot_run, name)
        return command(args)

    return run
