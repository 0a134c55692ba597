"""Built-in sub-commands: validate, exact, simulate, schema, examples (and ``outcomes``)."""

from __future__ import annotations

import argparse
import json
import logging
import sys
import time
from pathlib import Path
from typing import Any

from certify.bounds import EXACT_BUDGET_S, MAX_EXACT_BUDGET_S
from certify.cli.args import confidence, count, seed
from certify.codes import Code
from certify.errors import ModelError, Problem, UsageError
from certify.kinds import MACHINE, MODEL_KIND_NAMES

EXIT_OK, EXIT_FAIL, EXIT_BAD_INPUT, EXIT_INTERRUPTED = 0, 1, 2, 130
CERTIFY_FAILS = (Code.IMPOSSIBLE_AWARD, Code.NEVER_PAID)
"""Warning codes of ``validate`` that ``certify`` reports as errors (a ``fail`` verdict)."""
log = logging.getLogger("slotcert")

MODELS = "models/machines/ref-5x3-20.toml"


def _epilog(*examples: str) -> str:
    lines = "\n".join(f"  {e}" for e in examples)
    return f"example{'s' if len(examples) > 1 else ''}:\n{lines}\n"


def register(sub: argparse._SubParsersAction) -> None:
    """Add the built-in sub-commands to ``sub``."""
    p = sub.add_parser(
        "validate",
        help="check model files; exit 2 if any is invalid",
        description="Check machine, jurisdiction, link and table files. Every problem is "
        "printed with its file, key path and value; warnings (a return above 100%, a pay "
        "that can never occur) are printed too, but only errors make the exit code 2.",
        epilog=_epilog("slotcert validate models/", f"slotcert validate {MODELS}"),
    )
    p.add_argument(
        "paths",
        nargs="+",
        metavar="PATH",
        help="model files, or folders whose *.toml files are all checked",
    )
    p.set_defaults(func=cmd_validate)

    p = sub.add_parser(
        "exact",
        help="exact returns of a machine or table game",
        description="Exact return, hit frequency, variance and volatility per bet level "
        "by full-cycle enumeration; for a table game every bet's return and house edge.",
        epilog=_epilog(
            f"slotcert exact {MODELS}",
            "slotcert exact models/tables/roulette-french.toml",
            f"slotcert exact {MODELS} --json | jq '.bet_levels[0].exact.rtp'",
        ),
    )
    p.add_argument("model", metavar="MODEL", help="a machine or table file")
    p.add_argument("--json", action="store_true", help="print the full JSON document")
    add_budget_argument(p, "--budget")
    p.set_defaults(func=cmd_exact)

    p = sub.add_parser(
        "simulate",
        help="Monte Carlo simulation of a machine",
        description="Monte Carlo on splittable random streams: the figures depend only on "
        "the seed and --chunk-spins, never on the number of threads or workers. Each bet "
        "level's result is printed as soon as it is finished; Ctrl-C stops the run (exit "
        "130) and keeps what --checkpoint recorded, so the same command resumes it.",
        epilog=_epilog(
            f"slotcert simulate {MODELS} --spins 10M --seed 1",
            f"slotcert simulate {MODELS} --spins 1e9 --seed 1 --level 5 --checkpoint ck/",
        ),
    )
    p.add_argument("model", metavar="MODEL", help="a machine file")
    p.add_argument(
        "--spins",
        type=count(1),
        required=True,
        metavar="N",
        help="spins per bet level: 1000000, 1_000_000, 1e6, 2.5e8 or 10M",
    )
    p.add_argument(
        "--seed", type=seed, required=True, metavar="S", help="seed, a whole number >= 0"
    )
    p.add_argument(
        "--level",
        type=int,
        default=None,
        metavar="L",
        help="bet level to run (default: every level)",
    )
    p.add_argument(
        "--confidence",
        type=confidence,
        default=0.99,
        metavar="C",
        help="confidence of the printed interval, in [0.5, 1) (default 0.99)",
    )
    p.add_argument("--json", action="store_true", help="print JSON")
    add_scale_arguments(p)
    p.add_argument(
        "--chunk-spins",
        type=count(1),
        default=None,
        metavar="N",
        help="spins per chunk (default 2^20); part of what a seed reproduces",
    )
    p.set_defaults(func=cmd_simulate)

    p = sub.add_parser(
        "schema",
        help="print the JSON Schema of a model file kind",
        description="Print a JSON Schema (draft 2020-12) of a model file kind. The TOML "
        "files map onto JSON one to one, so editors and CI can check a model with it.",
        epilog=_epilog("slotcert schema machine > machine.schema.json"),
    )
    p.add_argument(
        "kind",
        choices=MODEL_KIND_NAMES,
        metavar="KIND",
        help=f"one of {', '.join(MODEL_KIND_NAMES)}",
    )
    p.set_defaults(func=cmd_schema)

    p = sub.add_parser(
        "examples",
        help="copy the shipped example models into a folder",
        description="Copy the example machines, jurisdictions, links and table games that "
        "ship with slotcert into DIR (machines/, jurisdictions/, links/, tables/). "
        "Existing files are not overwritten unless --force is given.",
        epilog=_epilog(
            "slotcert examples my-models/ && slotcert validate my-models/",
        ),
    )
    p.add_argument("folder", metavar="DIR", help="where to copy the models")
    p.add_argument("--force", action="store_true", help="overwrite files that exist")
    p.set_defaults(func=cmd_examples)

    from certify.outcomes.cli import register as register_outcomes  # argparse only: no numba

    register_outcomes(sub)


def add_budget_argument(p: argparse.ArgumentParser, flag: str) -> None:
    """The exact calculator's time budget for screen games (``dest="budget"``)."""
    p.add_argument(
        flag,
        dest="budget",
        type=count(1, MAX_EXACT_BUDGET_S),
        default=None,
        metavar="SECONDS",
        help="seconds of work a screen game's full cycle (cascades, clusters, sticky wilds) "
        f"may take at the measured rate before it is refused (default {EXACT_BUDGET_S:.0f}); "
        "its cascade check is given the same",
    )


def add_scale_arguments(p: argparse.ArgumentParser) -> None:
    """``--workers`` / ``--scheduler`` / ``--checkpoint`` (``simulate`` and ``certify``)."""
    where = p.add_mutually_exclusive_group()
    where.add_argument(
        "--workers",
        type=count(1, 4096),
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
    p.add_argument(
        "--device",
        choices=("cpu", "cuda"),
        default="cpu",
        help="where the chunks run: cpu (default) or cuda (an NVIDIA GPU, slotcert[gpu]; "
        "same figures bit for bit; wants small chunks, e.g. --chunk-spins 4096)",
    )


def validate_file(path: Path) -> list[Problem]:
    """Validate one model file of any schema; return its problems (warnings too)."""
    from certify.model.files import LOADERS, expect_kind
    from certify.model.loader import parse_machine, read_toml

    kind = expect_kind(path, *MODEL_KIND_NAMES)
    if kind != MACHINE.name:
        return list(getattr(LOADERS[kind](path), "warnings", ()))  # a table's warnings
    machine, problems = parse_machine(read_toml(path), str(path))
    from certify.admission import admit, award_findings, exact_warnings

    variants = admit(machine, problems)  # what exact, simulate or certify refuses, per option
    out = problems + exact_warnings(machine) + award_findings(machine)
    for variant in variants:
        out += [p for p in return_warnings(variant) if p not in out]
    return out


EXACT_IN_VALIDATE = 10**6
"""Largest base cycle (stop combinations) ``validate`` enumerates to find pays that never pay."""


def return_warnings(machine: Any) -> list[Problem]:
    """Warnings found by computing: a return above 100%, a pay that can never be paid.

    The mean return comes from the per-reel decomposition (milliseconds; ways
    games are not decomposed). Small games (at most :data:`EXACT_IN_VALIDATE`
    stop combinations, the classic 3-reel cabinets) are also enumerated, which
    finds entries no spin ever pays, such as a wilds-only line whose wilds
    multiply a substituted entry above it. Larger games get that check from
    ``slotcert certify`` (``impossible_award``).
    """
    import math

    from certify.engine import compile_machine
    from certify.exact.decompose import mean_return
    from certify.percent import pct

    tables = compile_machine(machine)
    out = []
    for lt in tables.levels:
        rtp = mean_return(tables, lt)
        if rtp is not None and rtp > 1.0:
            out.append(
                Problem(
                    machine.source,
                    "",
                    f"bet level {lt.level}: return {pct(rtp)} is above 100% of the amounts played",
                    Code.RTP_ABOVE_100,
                    "warning",
                )
            )
    if math.prod(len(s) for s in machine.strips) <= EXACT_IN_VALIDATE:
        out += _never_paid(machine, tables)
    if machine.option_label:
        label = machine.option_label
        out = [Problem(p.file, p.path, f"{label}: {p.message}", p.code, p.severity) for p in out]
    return out


def _never_paid(machine: Any, tables: Any) -> list[Problem]:
    from certify.admission import award_findings
    from certify.errors import SlotcertError
    from certify.exact import compute_exact

    try:
        exact = compute_exact(tables)
    except SlotcertError:  # the exact calculator's own limits: certify reports them
        return []
    if exact is None or not exact.levels:
        return []
    where = {("line", e.combo): f"pays[{k}].combo" for k, e in enumerate(machine.pays)}
    where.update({("ways", e.combo): f"pays[{k}].combo" for k, e in enumerate(machine.pays)})
    out = []
    known = {p.path for p in award_findings(machine)}  # reported with their fix already
    for award in exact.levels[0].awards:
        if where.get((award.kind, award.combo), "") in known:
            continue
        if award.probability <= 0:
            out.append(
                Problem(
                    machine.source,
                    where.get((award.kind, award.combo), ""),
                    f"{list(award.combo)} is never paid: no spin makes it the line's highest "
                    "entry (certification fails it as impossible_award)",
                    Code.NEVER_PAID,
                    "warning",
                )
            )
    return out


def cmd_validate(args: argparse.Namespace) -> int:
    """``slotcert validate PATH...``: exit 0 when only warnings, 2 on any error."""
    from certify.model.files import model_files

    worst = EXIT_OK
    for path in model_files(args.paths):
        log.info("%s: validating", path)
        try:
            problems = validate_file(path)
            for problem in problems:
                print(f"slotcert: {problem_line(problem)}", file=sys.stderr)
            fails = sorted({p.code for p in problems if p.code in CERTIFY_FAILS})
            if not args.quiet:
                print(
                    f"{path}: valid, but certification fails it ({', '.join(fails)})"
                    if fails
                    else f"{path}: valid"
                )
        except ModelError as exc:
            for problem in exc.problems:
                print(f"slotcert: {problem_line(problem)}", file=sys.stderr)
            worst = EXIT_BAD_INPUT
        except UsageError as exc:
            print(f"slotcert: {exc}", file=sys.stderr)
            worst = EXIT_BAD_INPUT
    return worst


def problem_line(problem: Problem) -> str:
    """One stderr line for a problem, warnings marked; control characters stripped."""
    from certify.outputs import printable  # model text never drives the terminal

    return printable(f"warning: {problem}" if problem.severity == "warning" else str(problem))


def cmd_exact(args: argparse.Namespace) -> int:
    """``slotcert exact MODEL [--json]``: returns in percent (the JSON keeps fractions)."""
    from certify.model import load_machine
    from certify.model.files import expect_kind

    path = Path(args.model)
    kind = expect_kind(path, "machine", "table")
    if kind == "table":
        from certify.tables import exact_report

        report = exact_report(path)
    else:
        from certify.exact.report import exact_report as machine_report

        report = machine_report(load_machine(path), budget_s=args.budget)
    if args.json or kind == "table":
        print(json.dumps(report, indent=2, sort_keys=True))
    else:
        for line in exact_lines(report):
            print(line)
    return EXIT_OK


def exact_lines(report: dict[str, Any]) -> list[str]:
    """The text of ``slotcert exact``: one line per level, and per free-spin option.

    A game with free-spin options prints every option's levels, each line
    named by its option, and says which option governs (the worst).
    """
    from certify.percent import pct

    options = report.get("free_spin_options")
    if not options:
        options = [report]
    governing = report["machine"].get("option")
    out = []
    for doc in options:
        label = doc["machine"].get("option")
        name = "" if label is None else f"{label}{' (governs)' if label == governing else ''}: "
        for lvl in doc["bet_levels"]:
            ex = lvl["exact"]
            text = (
                f"exact: not feasible ({doc['machine'].get('exact_infeasible')})"
                if ex is None
                else (
                    f"rtp {pct(ex['rtp'], 8)} (base {pct(ex['base_rtp'], 8)}), hit frequency "
                    f"{pct(ex['hit_frequency'], 4)}, variance {ex['variance']:.4f}"
                )
            )
            out.append(f"{name}level {lvl['level']} (bet {lvl['total_bet']}): {text}")
    return out


def cmd_simulate(args: argparse.Namespace) -> int:
    """``slotcert simulate MODEL --spins N --seed S [--workers W | --scheduler ADDR]``.

    Each level's line is printed when the level finishes. On Ctrl-C the
    finished levels stay printed (with ``--json``, a document of the finished
    levels marked ``"interrupted": true``), the checkpoint keeps every chunk
    already recorded, and the exit code is 130.
    """
    from certify.admission import admit
    from certify.api import check_checkpoint_folder
    from certify.checkpoint import CheckpointDir
    from certify.engine.rng import CHUNK_SPINS
    from certify.model import load_machine
    from certify.model.files import expect_kind
    from certify.progress import Progress, terminal_wanted
    from certify.runners import DaskRunner, open_runner

    chunk = CHUNK_SPINS if args.chunk_spins is None else args.chunk_spins
    expect_kind(args.model, "machine")
    machine = load_machine(args.model)
    if args.level is not None and args.level not in machine.bet_levels:
        raise UsageError(f"--level={args.level} is not one of {list(machine.bet_levels)}")
    variants = admit(machine, chunk_spins=chunk)  # validate's refusals, per free-spin option
    if args.checkpoint is not None:
        check_checkpoint_folder(args.checkpoint, "--checkpoint")
    store = (
        None
        if args.checkpoint is None
        else CheckpointDir(args.checkpoint, args.seed, chunk, per_machine=len(variants) > 1)
    )
    rows: list[dict[str, Any]] = []
    wanted = [
        (li, level)
        for li, level in enumerate(machine.bet_levels)
        if args.level is None or level == args.level
    ]
    interrupted = False
    progress = Progress(enabled=False) if args.quiet else None
    try:
        with open_runner(args.scheduler, args.workers, store, args.device) as runner:
            # on a cluster the runner draws one status line for all work instead
            if progress is None:
                progress = (
                    Progress(enabled=False, log=not terminal_wanted())
                    if isinstance(runner, DaskRunner)
                    else Progress()
                )
            for variant in variants:  # each free-spin option is a game of its own
                _simulate_levels(args, variant, wanted, chunk, runner, progress, rows)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        if progress is not None:
            progress.done()
    if args.json:
        from certify.api import simulation_document

        doc = simulation_document(machine, rows)
        if interrupted:
            doc["interrupted"] = True
        print(json.dumps(doc, indent=2, sort_keys=True))
    if interrupted:
        wanted = wanted * len(variants)
        left = len(wanted) - len(rows)
        resume = (
            f"; the finished chunks are kept in {args.checkpoint}: run the same command to resume"
            if args.checkpoint
            else "; add --checkpoint DIR to be able to resume a run"
        )
        print(
            f"slotcert: interrupted: {len(rows)} of {len(wanted)} bet "
            f"level{'s' if len(wanted) != 1 else ''} finished, {left} not{resume}",
            file=sys.stderr,
        )
        return EXIT_INTERRUPTED
    return EXIT_OK


def level_line(row: dict[str, Any]) -> str:
    """The one-line text result of a simulated level (of a free-spin option: named first)."""
    from certify.percent import compared, points

    option = f"{row['option']}: " if "option" in row else ""
    rtp, low, high = compared(row["rtp"], *row["ci"], digits=4)
    return (
        f"{option}level {row['level']}: rtp {rtp} +/- {points(row['std_error'], 4)} "
        f"[{low}, {high}] over {row['spins']:,} spins"
    )


def _simulate_levels(
    args: argparse.Namespace,
    machine: Any,
    wanted: list[tuple[int, int]],
    chunk: int,
    runner: Any,
    progress: Any,
    rows: list[dict[str, Any]],
) -> None:
    """Simulate the ``wanted`` (index, level) pairs, appending one JSON-able row each to ``rows``.

    ``rows`` is filled as levels finish, so an interrupted run keeps the finished ones.
    """
    from certify.api import simulation_row
    from certify.engine import compile_machine, simulate

    tables = None
    for k, (li, level) in enumerate(wanted):
        progress.level(k + 1, len(wanted), level, args.spins)
        if tables is None:  # under the "compiling kernels" phase of the display
            started = time.perf_counter()
            tables = compile_machine(machine)
            log.info("%s: tables built in %.2f s", machine.id, time.perf_counter() - started)
            if args.device == "cuda":
                from certify.engine.gpu import refuse

                refuse(tables, str(args.model))
        started = time.perf_counter()
        res = simulate(
            tables,
            li,
            args.spins,
            args.seed,
            stream=li,
            chunk_spins=chunk,
            runner=runner,
            progress=lambda result: progress.update(result.spins),
        )
        row = simulation_row(res, level, li, args.seed, args.confidence)
        took = time.perf_counter() - started
        log.info(
            "level %d: %s spins in %.2f s (%.1fM spins/s)",
            level,
            f"{res.spins:,}",
            took,
            res.spins / took / 1e6 if took > 0 else float("nan"),
        )
        if args.chunk_spins is not None:
            row["chunk_spins"] = chunk
        if machine.option_label:
            row["option"] = machine.option_label
        rows.append(row)
        if not args.json:
            progress.emit(level_line(row))


def cmd_schema(args: argparse.Namespace) -> int:
    """``slotcert schema KIND``: the JSON Schema of a model file kind."""
    from certify.model.jsonschema import json_schema

    print(json.dumps(json_schema(args.kind), indent=2))
    return EXIT_OK


def cmd_examples(args: argparse.Namespace) -> int:
    """``slotcert examples DIR``: copy the shipped models into ``DIR``."""
    from certify.examples import copy_examples

    written, kept = copy_examples(args.folder, overwrite=args.force)
    if not args.quiet:
        print(
            f"{args.folder}: {len(written)} model file{'s' if len(written) != 1 else ''} written"
            + (f", {len(kept)} kept (use --force to overwrite)" if kept else "")
        )
    return EXIT_OK
