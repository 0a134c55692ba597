"""``slotcert certify PATH... --jurisdiction J --spins N --seed S --out DIR``: the parser.

The run itself is :mod:`reports.certify_run`, imported when the command runs.
"""

from __future__ import annotations

import argparse

from certify.cli.args import count, seed
from certify.cli.commands import add_budget_argument, add_scale_arguments


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
    add_budget_argument(p, "--exact-budget")
    add_scale_arguments(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Certify every machine file (:func:`reports.certify_run.run`)."""
    from reports import certify_run

    return certify_run.run(args)
