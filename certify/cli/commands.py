"""Built-in sub-commands: validate, exact, simulate, certify, verify."""

from __future__ import annotations

import argparse
import functools
import json
import sys
from pathlib import Path
from typing import Any

from certify.errors import ModelError, Problem, UsageError
from certify.model import load_jurisdiction, load_machine, schema_of

EXIT_OK, EXIT_FAIL, EXIT_BAD_INPUT = 0, 1, 2


def register(sub: argparse._SubParsersAction) -> None:
    """Add the built-in sub-commands to ``sub``."""
    p = sub.add_parser("validate", help="check model files; exit 2 if any is invalid")
    p.add_argument("paths", nargs="+", metavar="PATH")
    p.set_defaults(func=cmd_validate)

    p = sub.add_parser("exact", help="exact returns of a machine or table game")
    p.add_argument("model", metavar="MODEL")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=cmd_exact)

    p = sub.add_parser("simulate", help="Monte Carlo simulation of a machine")
    p.add_argument("model", metavar="MODEL")
    p.add_argument("--spins", type=int, required=True, metavar="N")
    p.add_argument("--seed", type=int, required=True, metavar="S")
    p.add_argument(
        "--level",
        type=int,
        default=None,
        metavar="L",
        help="bet level to run (default: every level)",
    )
    p.add_argument("--confidence", type=float, default=0.99)
    p.add_argument("--json", action="store_true", help="print JSON")
    add_scale_arguments(p)
    p.add_argument(
        "--chunk-spins",
        type=int,
        default=None,
        metavar="N",
        help="spins per chunk (default 2^20); part of what a seed reproduces",
    )
    p.set_defaults(func=cmd_simulate)


def add_scale_arguments(p: argparse.ArgumentParser) -> None:
    """``--workers`` / ``--scheduler`` / ``--checkpoint`` (``simulate`` and ``certify``)."""
    where = p.add_mutually_exclusive_group()
    where.add_argument(
        "--workers",
        type=int,
        default=None,
        metavar="W",
        help="run chunks on a local Dask cluster of W worker processes",
    )
    where.add_argument(
        "--scheduler",
        default=None,
        metavar="ADDR",
        help="run chunks on the Dask cluster at ADDR (tcp://host:8786)",
    )
    p.add_argument(
        "--checkpoint",
        default=None,
        metavar="DIR",
        help="record finished chunks in DIR and resume from them",
    )


def model_files(paths: list[str]) -> list[Path]:
    """Expand folders into the ``*.toml`` files they hold, sorted."""
    files: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            files.extend(sorted(path.rglob("*.toml")))
        else:
            files.append(path)
    return files


def validate_file(path: Path) -> list[Problem]:
    """Validate one model file of any schema; return its problems (warnings too)."""
    from certify.model.loader import parse_machine, read_toml

    schema = schema_of(path)
    if schema == "slotcert/jurisdiction@1":
        load_jurisdiction(path)
        return []
    if schema == "slotcert/table@1":
        from certify.tables import load_table

        return list(load_table(path).warnings)
    if schema == "slotcert/link@1":
        from certify.model.links import load_link

        load_link(path)
        return []
    machine, problems = parse_machine(read_toml(path), str(path))
    from certify.engine.limits import check_machine

    check_machine(machine, problems)  # what the engine refuses is invalid here too
    return problems


def cmd_validate(args: argparse.Namespace) -> int:
    """``slotcert validate PATH...``."""
    worst = EXIT_OK
    for path in model_files(args.paths):
        try:
            for problem in validate_file(path):
                print(f"slotcert: {problem_line(problem)}", file=sys.stderr)
            print(f"{path}: valid")
        except ModelError as exc:
            for problem in exc.problems:
                print(f"slotcert: {problem_line(problem)}", file=sys.stderr)
            worst = EXIT_BAD_INPUT
    return worst


def problem_line(problem: Problem) -> str:
    """One stderr line for a problem, warnings marked."""
    return f"warning: {problem}" if problem.severity == "warning" else str(problem)


def cmd_exact(args: argparse.Namespace) -> int:
    """``slotcert exact MODEL [--json]``."""
    path = Path(args.model)
    schema = schema_of(path)
    if schema == "slotcert/table@1":
        from certify.tables import exact_report

        report = exact_report(path)
    elif schema == "slotcert/machine@1":
        from certify.exact.report import exact_report as machine_report

        report = machine_report(load_machine(path))
    else:
        raise UsageError(f"{path}: not a machine or table model (schema {schema!r})")
    if args.json or schema == "slotcert/table@1":
        print(json.dumps(report, indent=2, sort_keys=True))
    else:
        for lvl in report["bet_levels"]:
            ex = lvl["exact"]
            text = (
                f"exact: not feasible ({report['machine'].get('exact_infeasible')})"
                if ex is None
                else (
                    f"rtp {ex['rtp']:.10f} (base {ex['base_rtp']:.10f}), hit frequency "
                    f"{ex['hit_frequency']:.6f}, variance {ex['variance']:.4f}"
                )
            )
            print(f"level {lvl['level']} (bet {lvl['total_bet']}): {text}")
    return EXIT_OK


def cmd_simulate(args: argparse.Namespace) -> int:
    """``slotcert simulate MODEL --spins N --seed S [--workers W | --scheduler ADDR]``."""
    from certify.checkpoint import CheckpointDir
    from certify.cluster import open_runner
    from certify.engine import compile_machine
    from certify.engine.rng import CHUNK_SPINS

    chunk = CHUNK_SPINS if args.chunk_spins is None else args.chunk_spins
    if args.spins <= 0:
        raise UsageError(f"--spins={args.spins} must be positive")
    if chunk <= 0:
        raise UsageError(f"--chunk-spins={chunk} must be positive")
    machine = load_machine(args.model)
    if args.level is not None and args.level not in machine.bet_levels:
        raise UsageError(f"--level={args.level} is not one of {list(machine.bet_levels)}")
    tables = compile_machine(machine)
    if chunk > CHUNK_SPINS:  # the win bounds assume chunks of at most 2^20 spins
        from certify.engine.limits import check_machine

        check_machine(machine, chunk_spins=chunk)
    store = (
        None
        if args.checkpoint is None
        else CheckpointDir(args.checkpoint, args.seed, chunk, per_machine=False)
    )
    with open_runner(args.scheduler, args.workers, store) as runner:
        rows = _simulate_levels(args, tables, chunk, runner)
    doc = {"machine": {"id": machine.id, "name": machine.name}, "bet_levels": rows}
    if args.json:
        print(json.dumps(doc, indent=2, sort_keys=True))
    else:
        for r in rows:
            print(
                f"level {r['level']}: rtp {r['rtp']:.6f} +/- {r['std_error']:.6f} "
                f"[{r['ci'][0]:.6f}, {r['ci'][1]:.6f}] over {r['spins']:,} spins"
            )
    return EXIT_OK


def _simulate_levels(args: argparse.Namespace, tables, chunk: int, runner) -> list[dict]:
    """Simulate the requested bet levels; one JSON-able row each."""
    from certify.cluster import DaskRunner
    from certify.engine import simulate
    from certify.progress import Progress
    from certify.stats import interval

    # on a cluster the runner draws one status line for all work instead
    progress = Progress(enabled=False if isinstance(runner, DaskRunner) else None)
    rows = []
    for li, level in enumerate(tables.machine.bet_levels):
        if args.level is not None and level != args.level:
            continue
        res = simulate(
            tables,
            li,
            args.spins,
            args.seed,
            stream=li,
            chunk_spins=chunk,
            runner=runner,
            progress=functools.partial(_report_progress, progress, f"level {level}", args.spins),
        )
        low, high = interval(res.rtp, res.std_error, args.confidence)
        row = {
            "level": level,
            "total_bet": res.total_bet,
            "spins": res.spins,
            "seed": args.seed,
            "stream": li,
            "rtp": res.rtp,
            "std_error": res.std_error,
            "ci": [low, high],
            "hit_frequency": res.hit_frequency,
            "max_win": res.max_win,
            "free_spins_triggers": res.fs_triggers,
            "bonus_triggers": res.bonus_triggers,
        }
        if args.chunk_spins is not None:
            row["chunk_spins"] = chunk
        rows.append(row)
    progress.done()
    return rows


def _report_progress(progress: Any, label: str, spins: int, result: Any) -> None:
    """Forward a running simulation result to the progress line."""
    progress(label, spins, result)
