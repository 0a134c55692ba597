"""The ``slotcert`` command line: argument parsing and exit codes.

Exit codes: 0 all pass, 1 any fail / inconclusive / error-level finding,
2 bad input or usage, 130 interrupted (Ctrl-C). Errors are one readable line
each on stderr; ``--debug`` (before or after the sub-command) shows the
traceback. A closed stdout (``slotcert exact MODEL | head``) ends the command
quietly with exit 0.

Sub-commands of other packages (``meters``, ``jackpots``) register themselves
through the ``slotcert.commands`` entry-point group, so ``certify`` never
imports them.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from typing import Any, NoReturn

from certify import __version__
from certify.errors import ModelError, SlotcertError
from certify.outputs import printable

EXIT_OK, EXIT_FAIL, EXIT_BAD_INPUT, EXIT_INTERRUPTED = 0, 1, 2, 130


class _Formatter(argparse.HelpFormatter):
    """Wraps descriptions; keeps texts written on several lines (the examples) as written."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        if "\n" in text:
            return "".join(indent + line for line in text.splitlines(keepends=True))
        return super()._fill_text(text, width, indent)


class _Parser(argparse.ArgumentParser):
    """An argument parser whose usage errors exit 2 with one line.

    Every parser of the tree (sub-commands of plugins included) takes the
    common options ``-q``, ``-v`` and ``--debug``, so they may be written
    before or after the sub-command; only the top-level parser sets their
    defaults.
    """

    def __init__(self, *args: Any, top: bool = False, **kwargs: Any):
        kwargs.setdefault("formatter_class", _Formatter)
        super().__init__(*args, **kwargs)
        default = None if top else argparse.SUPPRESS
        common = self.add_argument_group("common options")
        noise = common.add_mutually_exclusive_group()
        noise.add_argument(
            "-q",
            "--quiet",
            action="store_true",
            default=False if top else default,
            help="no progress display and no informational lines; errors still shown",
        )
        noise.add_argument(
            "-v",
            "--verbose",
            action="count",
            default=0 if top else default,
            help="log what is done (-vv: more)",
        )
        common.add_argument(
            "--debug",
            action="store_true",
            default=False if top else default,
            help="show a traceback on errors",
        )

    def error(self, message: str) -> NoReturn:
        """Print a one-line usage error and exit 2."""
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: error: {message}\n")


BUILTIN = ("validate", "exact", "simulate", "schema", "examples", "outcomes")

EPILOG = """\
exit codes: 0 all pass, 1 any fail / inconclusive / error-level finding,
            2 bad input or usage, 130 interrupted
examples:
  slotcert validate models/
  slotcert exact models/machines/ref-5x3-20.toml
  slotcert simulate models/machines/ref-5x3-20.toml --spins 10M --seed 1
  slotcert certify models/machines --jurisdiction models/jurisdictions/pt.toml \\
      --spins 1e7 --seed 1 --out out/
run "slotcert COMMAND --help" for a command's options and an example.
"""


def build_parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    """Build the parser with built-in and plugin sub-commands.

    Plugins are only imported when the command is not a built-in one, so a
    ``simulate`` process starts without loading pandas, jinja2 or matplotlib.
    """
    from certify.cli import commands

    parser = _Parser(
        prog="slotcert",
        top=True,
        description="Certify slot machines and table games, reconcile meters and jackpot ledgers.",
        epilog=EPILOG,
    )
    parser.add_argument("--version", action="version", version=f"slotcert {__version__}")
    sub = parser.add_subparsers(
        dest="command", required=True, parser_class=_Parser, metavar="COMMAND"
    )
    commands.register(sub)
    words = [a for a in (sys.argv[1:] if argv is None else argv) if not a.startswith("-")]
    if words and words[0] in BUILTIN:
        return parser
    from importlib.metadata import entry_points  # 20 ms: only when plugins are needed

    # plugins are found through their entry points: one not installed is simply absent,
    # and one that fails to import is a broken install, raised as it is
    for entry in entry_points(group="slotcert.commands"):
        entry.load()(sub)
    from certify.cli import helptext

    helptext.fill(parser)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command line and return its exit code."""
    try:
        args = build_parser(argv).parse_args(argv)
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    _logging(args)
    try:
        from certify.compiler import configure  # the command line's numba options, once

        configure()
        return int(args.func(args))
    except BrokenPipeError:
        return _stdout_closed()
    except ModelError as exc:
        for problem in exc.problems:  # model text never drives the terminal
            print(printable(f"slotcert: {problem}"), file=sys.stderr)
        return EXIT_BAD_INPUT
    except (SlotcertError, OSError) as exc:
        if args.debug:
            raise
        print(f"slotcert: error: {_one_line(exc)}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        print("slotcert: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except Exception as exc:  # noqa: BLE001 - last line of defence, never a traceback
        if args.debug:
            raise
        print(
            f"slotcert: internal error: {type(exc).__name__}: {_one_line(exc)} "
            "(run with --debug for details)",
            file=sys.stderr,
        )
        return EXIT_FAIL


def console(argv: list[str] | None = None) -> NoReturn:
    """The ``slotcert`` program: :func:`main`, then leave without Python's teardown.

    Tearing down the interpreter (numba's compiled-code objects among the
    modules) took 0.15-0.2 s after the work was done, a third of a short
    run's start-up budget. Every file is closed by then; stdout and stderr
    are flushed here before ``os._exit``.
    """
    code = main(argv)
    logging.shutdown()
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        code = _stdout_closed()
    try:
        sys.stderr.flush()
    except OSError:
        pass
    os._exit(code)


def _stdout_closed() -> int:
    """The reader of stdout went away (``| head``): stop quietly, exit 0.

    stdout is pointed at /dev/null so that the interpreter's last flush does
    not print "Broken pipe" either.
    """
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass
    return EXIT_OK


def _logging(args: argparse.Namespace) -> None:
    """``-v``: the ``slotcert`` logger's INFO lines on stderr (timings, files); ``-vv``: DEBUG."""
    verbose = getattr(args, "verbose", 0) or 0
    if verbose:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("slotcert: %(message)s"))
        log = logging.getLogger("slotcert")
        log.handlers.clear()  # main() may run more than once in a process
        log.addHandler(handler)
        log.setLevel(logging.INFO if verbose == 1 else logging.DEBUG)


def _one_line(exc: BaseException) -> str:
    text = str(exc) or type(exc).__name__
    if isinstance(exc, OSError) and exc.filename:
        text = f"{exc.filename}: {exc.strerror or text}"
    return printable(" ".join(text.split()))


if __name__ == "__main__":  # pragma: no cover
    console()
