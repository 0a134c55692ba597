"""The command line for people: counts, usage errors, exit codes 0/1/2/130, pipes, help."""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import time

import pytest
from testpaths import DATA, JURISDICTIONS, MACHINES, ROOT

from certify.cli import build_parser, main
from certify.cli.args import MAX_COUNT, parse_count

PT = str(JURISDICTIONS / "pt.toml")
TINY = str(DATA / "tiny_lines.toml")
REF = str(MACHINES / "ref-5x3-20.toml")


def _default_sigint() -> None:
    """A test run started in the background of a shell ignores SIGINT; its children must not."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _cli(*args: str, **kwargs) -> subprocess.Popen:
    env = {**os.environ, "CI": "1"}
    return subprocess.Popen(
        [sys.executable, "-m", "certify", *args],
        env=env,
        text=True,
        cwd=ROOT,
        preexec_fn=_default_sigint,
        **kwargs,
    )


# -- counts ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("1000000", 10**6),
        ("1_000_000", 10**6),
        ("1e6", 10**6),
        ("1E6", 10**6),
        ("2.5e8", 250_000_000),
        ("10M", 10**7),
        ("10m", 10**7),
        ("3k", 3000),
        ("1.5k", 1500),
        ("2G", 2 * 10**9),
        ("0", 0),
    ],
)
def test_counts_in_every_usual_spelling(text, value):
    assert parse_count(text) == value


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("1.5", "not a whole number"),
        ("2.5e-1", "not a count"),
        ("-5", "negative"),
        ("-1e6", "negative"),
        ("1e24", "too large"),
        ("nan", "not a count"),
        ("inf", "not a count"),
        ("abc", "not a count"),
        ("1__000", "not a count"),
        ("", "not a count"),
    ],
)
def test_counts_refused(text, why):
    with pytest.raises(argparse.ArgumentTypeError, match=why):
        parse_count(text)


def test_count_limit_is_inclusive():
    assert parse_count(str(MAX_COUNT)) == MAX_COUNT
    with pytest.raises(argparse.ArgumentTypeError):
        parse_count(str(MAX_COUNT + 1))


@pytest.mark.parametrize(
    "extra",
    [
        ["--spins", "1e24", "--seed", "1"],
        ["--spins", "1.5", "--seed", "1"],
        ["--spins", "-3", "--seed", "1"],
        ["--spins", "0", "--seed", "1"],
        ["--spins", "1e3", "--seed", "-1"],
        ["--spins", "1e3", "--seed", "1.5"],
        ["--spins", "1e3", "--seed", "1", "--confidence", "1.5"],
        ["--spins", "1e3", "--seed", "1", "--confidence", "nan"],
        ["--spins", "1e3", "--seed", "1", "--chunk-spins", "0"],
    ],
)
def test_bad_numbers_are_one_line_usage_errors(capsys, extra):
    with pytest.raises(SystemExit) as stop:
        main(["simulate", TINY, *extra])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1, err
    assert err.startswith("slotcert simulate: error: argument --")


def test_certify_takes_the_same_counts(tmp_path, capsys):
    args = ["certify", TINY, "--jurisdiction", PT, "--seed", "1", "--out", str(tmp_path)]
    with pytest.raises(SystemExit) as stop:
        main([*args, "--spins", "2.5"])
    assert stop.value.code == 2
    capsys.readouterr()
    assert main([*args, "--spins", "20k", "--no-html"]) == 1  # TINY is built to fail
    batch = json.loads((tmp_path / "batch.json").read_text())
    assert batch["spins"] == 20_000


def test_simulate_accepts_counts_and_prints_each_level(capsys):
    assert main(["simulate", TINY, "--spins", "2e4", "--seed", "3", "--chunk-spins", "1e4"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert [line.split(":")[0] for line in out] == ["level 1", "level 2"]
    assert "over 20,000 spins" in out[0]


@pytest.mark.parametrize(
    "argv",
    [
        ["jackpots", "simulate", "x.toml", "--seed", "-1"],
        ["jackpots", "simulate", "x.toml", "--seed", "1", "--paths", "1.5"],
        ["meters", "simulate", "--out", "o", "--machines", "-3"],
    ],
)
def test_plugin_counts_and_seeds_are_checked_the_same_way(capsys, argv):
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1


def test_plugin_counts_take_the_count_syntax():
    args = build_parser(["meters"]).parse_args(
        ["meters", "simulate", "--out", "o"] + ["--machines", "1k"]
    )
    assert args.machines == 1000


# -- global options ----------------------------------------------------------------------------


def test_version(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    assert capsys.readouterr().out.startswith("slotcert ")


@pytest.mark.parametrize(
    "argv",
    [
        ["--debug", "validate", "NOPE.toml"],
        ["validate", "NOPE.toml", "--debug"],
        ["validate", "--debug", "NOPE.toml"],
    ],
)
def test_debug_before_or_after_the_command(argv):
    args = build_parser(argv).parse_args(argv)
    assert args.debug is True


def test_quiet_and_verbose_anywhere():
    assert build_parser().parse_args(["-q", "validate", "x"]).quiet is True
    assert build_parser().parse_args(["validate", "x", "-q"]).quiet is True
    assert build_parser().parse_args(["validate", "x", "-vv"]).verbose == 2
    defaults = build_parser().parse_args(["validate", "x"])
    assert (defaults.quiet, defaults.verbose, defaults.debug) == (False, 0, False)


def test_verbose_logs_timings(capsys):
    import logging

    try:
        assert main(["simulate", TINY, "--spins", "1e4", "--seed", "1", "--level", "2", "-v"]) == 0
    finally:
        logging.getLogger("slotcert").handlers.clear()
    err = capsys.readouterr().err
    assert "slotcert: level 2: 10,000 spins in" in err and "spins/s" in err


def test_quiet_validate_prints_nothing_on_success(capsys):
    assert main(["validate", PT, "-q"]) == 0
    assert capsys.readouterr().out == ""


COMMANDS = ("validate", "exact", "simulate", "schema", "examples", "outcomes")
COMMANDS += ("certify", "verify", "keygen")
PLUGINS = ("meters", "jackpots")


def test_every_option_has_help_and_every_command_an_example(capsys):
    from certify.cli.helptext import subcommands

    parser = build_parser(["certify"])  # loads the plugin commands too
    seen = set()
    for name, sub in subcommands(parser):
        seen.add(name.split()[0])
        assert "example" in (sub.epilog or ""), name
        for action in sub._actions:
            if isinstance(action, argparse._HelpAction | argparse._SubParsersAction):
                continue
            assert action.help and action.help != argparse.SUPPRESS, (name, action.dest)
        sub.format_help()  # every %(default)s in a help text resolves
    assert seen == set(COMMANDS + PLUGINS)


# -- model files of the wrong kind, empty folders ----------------------------------------------


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["simulate", PT, "--spins", "1e3", "--seed", "1"],
            "is a jurisdiction file (slotcert/jurisdiction@1), expected a machine",
        ),
        (["exact", PT], "is a jurisdiction file (slotcert/jurisdiction@1), expected a machine"),
        (
            ["verify", "not-read.certificate.json", PT],
            "is a jurisdiction file (slotcert/jurisdiction@1), expected a machine",
        ),
        (
            ["exact", str(ROOT / "models" / "links" / "atlantico.toml")],
            "is a link file (slotcert/link@1), expected a machine or a table",
        ),
    ],
)
def test_a_file_of_the_wrong_kind_is_one_line(capsys, argv, message):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1, err
    assert message in err


def test_certify_with_a_machine_as_jurisdiction_is_one_line(tmp_path, capsys):
    code = main(
        ["certify", TINY, "--jurisdiction", TINY, "--spins", "0", "--seed", "1"]
        + ["--out", str(tmp_path)]
    )
    err = capsys.readouterr().err
    assert code == 2
    assert err.strip().splitlines() == [
        f"slotcert: error: {TINY}: is a machine file (slotcert/machine@1), expected a jurisdiction"
    ]


@pytest.mark.parametrize("command", ["validate", "certify"])
def test_an_empty_folder_is_a_usage_error(tmp_path, capsys, command):
    empty = tmp_path / "empty"
    empty.mkdir()
    argv = [command, str(empty)]
    if command == "certify":
        argv += ["--jurisdiction", PT, "--spins", "0", "--seed", "1", "--out", str(tmp_path / "o")]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1
    assert "holds no model files" in err


def test_certify_on_a_folder_without_machines_is_a_usage_error(tmp_path, capsys):
    argv = ["certify", str(JURISDICTIONS), "--jurisdiction", PT, "--spins", "0", "--seed", "1"]
    assert main([*argv, "--out", str(tmp_path), "-q"]) == 2
    assert "no machine files" in capsys.readouterr().err


# -- validate: warnings do not fail ------------------------------------------------------------


def test_validate_prints_warnings_and_exits_0(tmp_path, capsys):
    model = tmp_path / "generous.toml"
    text = (DATA / "tiny_lines.toml").read_text().replace("pays = 10", "pays = 400")
    text += '\n[[pays]]\ncombo = ["S", "S", "S"]\npays = 7\n'  # reel 3 has no S: never occurs
    model.write_text(text)
    assert main(["validate", str(model)]) == 0
    captured = capsys.readouterr()
    assert f"{model}: valid" in captured.out
    warnings = [line for line in captured.err.splitlines() if "warning:" in line]
    assert any("above 100%" in line for line in warnings), captured.err
    assert any("can never occur" in line for line in warnings), captured.err


def test_validate_warns_of_a_pay_that_is_never_paid(capsys):
    # TINY's x2 wild makes A A A (10 x 2 x 2 x 2 = 80) outpay W W W (50) on every W W W line
    assert main(["validate", TINY]) == 0
    err = capsys.readouterr().err
    assert f"warning: {TINY}: pays[2].combo: ['W', 'W', 'W'] is never paid" in err


def test_validate_exit_2_on_errors_only(tmp_path, capsys):
    bad = tmp_path / "bad.toml"
    bad.write_text((DATA / "tiny_lines.toml").read_text().replace('"A", "B", "W", "S"]', '"X"]'))
    assert main(["validate", str(bad), PT]) == 2
    captured = capsys.readouterr()
    assert 'unknown symbol "X"' in captured.err
    assert f"{PT}: valid" in captured.out


# -- closed pipes ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "argv",
    [
        ["validate", str(ROOT / "models")],
        ["exact", str(ROOT / "models" / "tables" / "roulette-french.toml")],
        ["simulate", TINY, "--spins", "2e4", "--seed", "1", "--json"],
        ["jackpots", "returns", str(ROOT / "models" / "links" / "atlantico.toml")],
        ["schema", "machine"],
    ],
    ids=["validate", "exact", "simulate", "jackpots", "schema"],
)
def test_a_closed_pipe_ends_quietly_with_exit_0(argv):
    read, write = os.pipe()
    os.close(read)  # the reader is gone before the first line is written (`| head -0`)
    try:
        proc = _cli(*argv, stdout=write, stderr=subprocess.PIPE)
    finally:
        os.close(write)
    _, err = proc.communicate(timeout=120)
    assert "Broken pipe" not in err and "Traceback" not in err, err
    assert "BrokenPipe" not in err, err
    assert proc.returncode == 0, err


# -- Ctrl-C ----------------------------------------------------------------------------------------


@pytest.mark.slow
def test_ctrl_c_during_simulate_exits_130_keeping_finished_levels_and_checkpoint(tmp_path):
    ck = tmp_path / "ck"
    argv = ["simulate", REF, "--spins", "5e7", "--seed", "5", "--chunk-spins", "65536"]
    argv += ["--checkpoint", str(ck)]
    proc = _cli(*argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    first = proc.stdout.readline()  # level 1 is finished and printed
    assert first.startswith("level 1: rtp"), first
    deadline = time.monotonic() + 60
    while not list(ck.glob("s1-*.npz")):  # level 2 has recorded chunks
        assert proc.poll() is None and time.monotonic() < deadline
        time.sleep(0.005)
    proc.send_signal(signal.SIGINT)
    rest, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert rest == ""  # level 2 and 3 did not finish
    assert "Traceback" not in err
    assert err.strip().splitlines()[-1].startswith("slotcert: interrupted: 1 of 3 bet levels")
    assert "run the same command to resume" in err
    kept = {p.name: p.stat().st_mtime_ns for p in ck.glob("s1-*.npz")}
    assert kept, "the chunks of the interrupted level are kept"
    rerun = _cli(*argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out, err = rerun.communicate(timeout=300)
    assert rerun.returncode == 0, err
    lines = out.splitlines()
    assert lines[0] == first.rstrip("\n") and len(lines) == 3
    assert {p.name: p.stat().st_mtime_ns for p in ck.glob("s1-*.npz") if p.name in kept} == kept


def test_ctrl_c_in_process_keeps_finished_levels_in_json(monkeypatch, capsys):
    from certify.engine import simulate as engine_simulate

    calls = []

    def interrupted(*args, **kwargs):
        calls.append(args[1])
        if len(calls) == 2:
            raise KeyboardInterrupt
        return engine_simulate(*args, **kwargs)

    monkeypatch.setattr("certify.engine.simulate", interrupted)
    code = main(["simulate", TINY, "--spins", "1e4", "--seed", "1", "--json"])
    captured = capsys.readouterr()
    assert code == 130
    doc = json.loads(captured.out)
    assert doc["interrupted"] is True
    assert [row["level"] for row in doc["bet_levels"]] == [1]
    assert "interrupted: 1 of 2 bet levels" in captured.err


# -- schema and examples ---------------------------------------------------------------------------


def test_schema_command_prints_a_2020_12_schema(capsys):
    assert main(["schema", "jurisdiction"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert "min_rtp" in doc["properties"]


def test_schema_of_an_unknown_kind_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["schema", "casino"])
    assert stop.value.code == 2


def test_examples_copies_models_that_validate(tmp_path, capsys):
    target = tmp_path / "mine"
    assert main(["examples", str(target)]) == 0
    assert "written" in capsys.readouterr().out
    names = sorted(p.relative_to(target).as_posix() for p in target.rglob("*.toml"))
    shipped = sorted(p.relative_to(ROOT / "models").as_posix() for p in ROOT.glob("models/*/*"))
    assert names == shipped
    assert main(["validate", str(target), "-q"]) == 0
    assert main(["examples", str(target)]) == 0
    assert "kept (use --force to overwrite)" in capsys.readouterr().out
