"""The ``slotcert`` command line: argument parsing and exit codes.

Exit codes: 0 all pass, 1 any fail / inconclusive / error-level finding,
2 bad input or usage. Errors are one readable line each on stderr; ``--debug``
shows the traceback.

Sub-commands of other packages (``meters``, ``jackpots``) register themselves
through the ``slotcert.commands`` entry-point group, so ``certify`` never
imports them.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from typing import NoReturn

from certify import __version__
from certify.errors import ModelError, SlotcertError

EXIT_OK, EXIT_FAIL, EXIT_BAD_INPUT = 0, 1, 2


class _Parser(argparse.ArgumentParser):
    """An argument parser whose usage errors exit 2 with one line."""

    def error(self, message: str) -> None:  # type: ignore[override]
        """Print a one-line usage error and exit 2."""
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: error: {message}\n")


BUILTIN = ("validate", "exact", "simulate")


def build_parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    """Build the parser with built-in and plugin sub-commands.

    Plugins are only imported when the command is not a built-in one, so a
    ``simulate`` process starts without loading pandas, jinja2 or matplotlib.
    """
    from certify.cli import commands

    parser = _Parser(prog="slotcert", description="Certify slot machines and audit meters.")
    parser.add_argument("--version", action="version", version=f"slotcert {__version__}")
    parser.add_argument("--debug", action="store_true", help="show tracebacks")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    commands.register(sub)
    words = [a for a in (sys.argv[1:] if argv is None else argv) if not a.startswith("-")]
    if words and words[0] in BUILTIN:
        return parser
    from importlib.metadata import entry_points  # 20 ms: only when plugins are needed

    for entry in entry_points(group="slotcert.commands"):
        try:
            entry.load()(sub)
        except ImportError:  # a plugin package that is not built yet
            continue
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command line and return its exit code."""
    args = build_parser(argv).parse_args(argv)
    try:
        return int(args.func(args))
    except ModelError as exc:
        for problem in exc.problems:
            print(f"slotcert: {problem}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except (SlotcertError, OSError) as exc:
        if args.debug:
            raise
        print(f"slotcert: error: {_one_line(exc)}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        print("slotcert: interrupted", file=sys.stderr)
        return EXIT_FAIL
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
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


def _one_line(exc: BaseException) -> str:
    text = str(exc) or type(exc).__name__
    if isinstance(exc, OSError) and exc.filename:
        text = f"{exc.filename}: {exc.strerror or text}"
    return " ".join(text.split())


if __name__ == "__main__":  # pragma: no cover
    console()
