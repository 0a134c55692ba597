"""Help text and count types for plugin sub-commands that do not bring their own.

The ``meters`` and ``jackpots`` commands are registered by their packages;
where one of their parsers has no example or an option has no help, the
text here is used, so ``slotcert COMMAND --help`` is complete for every
command. Their counts and seeds declared as plain ``int`` take the shared
count syntax (``10k``, ``1e6``) and refuse negatives, as every other command
does. A plugin's own text, and any type other than ``int``, always win.
"""

from __future__ import annotations

import argparse

from certify.cli.args import count, seed

EXAMPLES: dict[str, tuple[str, ...]] = {
    "meters": ("slotcert meters reconcile dump.csv --floor floor.csv --out recon/",),
    "meters reconcile": (
        "slotcert meters reconcile dump.parquet --floor floor.csv --counts counts.csv --out recon/",
        "slotcert meters reconcile dumps/*.csv --floor floor.csv "
        "--jurisdiction models/jurisdictions/pt.toml --out recon/",
    ),
    "meters simulate": (
        "slotcert meters simulate --machines 50 --days 14 --faults all --out floor/",
    ),
    "jackpots": ("slotcert jackpots returns models/links/atlantico.toml",),
    "jackpots ledger": (
        "slotcert jackpots ledger dump.csv --floor floor.csv --links models/links --out ledger/",
    ),
    "jackpots transfer": (
        "slotcert jackpots transfer dump.csv --floor floor.csv --links models/links "
        "--hits hits.csv --pool LIS-0202:local-mega --to LIS-0201 --out ledger/",
    ),
    "jackpots simulate": (
        "slotcert jackpots simulate models/links/atlantico.toml --days 365 --paths 200 --seed 1",
    ),
    "jackpots returns": ("slotcert jackpots returns models/links/atlantico.toml",),
}

OPTIONS: dict[tuple[str, str], str] = {
    ("jackpots transfer", "reason"): "why the pool cannot be awarded, kept in the transfer record "
    "(default: %(default)s)",
    ("jackpots simulate", "days"): "days of play simulated (default %(default)s)",
    ("jackpots simulate", "paths"): "independent pool histories simulated (default %(default)s)",
    ("jackpots simulate", "seed"): "seed, a whole number >= 0",
    ("meters simulate", "machines"): "machines on the simulated floor (default %(default)s)",
    ("meters simulate", "days"): "days simulated (default %(default)s)",
    ("meters simulate", "seed"): "seed (default %(default)s)",
    ("meters simulate", "digits"): "meter width: meters roll over at 10^digits "
    "(default %(default)s)",
    ("meters simulate", "format"): "dump format (default %(default)s)",
    ("meters simulate", "out"): "output folder: floor.csv, counts.csv, injected.csv and the dump",
}


TYPES = {
    ("jackpots simulate", "days"): count(1),
    ("jackpots simulate", "paths"): count(1),
    ("jackpots simulate", "seed"): seed,
    ("meters simulate", "machines"): count(1),
    ("meters simulate", "days"): count(1),
    ("meters simulate", "per_day"): count(1),
    ("meters simulate", "seed"): seed,
    ("meters reconcile", "pieces"): count(1),
}


def subcommands(parser: argparse.ArgumentParser, prefix: str = ""):
    """``(name, parser)`` of every sub-command below ``parser``, nested ones as ``"a b"``."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                full = f"{prefix} {name}".strip()
                yield full, sub
                yield from subcommands(sub, full)


def fill(parser: argparse.ArgumentParser) -> None:
    """Give plugin parsers an example and their options help where they have none."""
    for name, sub in subcommands(parser):
        if not sub.epilog and name in EXAMPLES:
            examples = EXAMPLES[name]
            lines = "\n".join(f"  {e}" for e in examples)
            sub.epilog = f"example{'s' if len(examples) > 1 else ''}:\n{lines}\n"
        for action in sub._actions:
            if not action.help and (name, action.dest) in OPTIONS:
                action.help = OPTIONS[(name, action.dest)]
            if action.type is int and (name, action.dest) in TYPES:
                action.type = TYPES[(name, action.dest)]
