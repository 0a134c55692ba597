"""The command line: SIGKILL then rerun gives the uninterrupted figures; --workers agrees.

Oracle: the same command run uninterrupted on local threads; tolerance: none
(the JSON texts are compared).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pandas as pd
import pytest
from testpaths import DATA, JURISDICTIONS, MACHINES

from certify.checkpoint import machine_dir
from certify.cli import main
from certify.model import load_machine


def folder(path) -> str:
    """A model's checkpoint folder in a batch: its id and fingerprint (``machine_dir``)."""
    return machine_dir(load_machine(path))


MODEL = str(DATA / "small_features.toml")
RUN = [
    "simulate",
    MODEL,
    "--spins",
    str(128 * 32768),
    "--seed",
    "77",
    "--chunk-spins",
    "32768",
    "--level",
    "3",
    "--json",
]


def _cli(args: list[str]) -> subprocess.Popen:
    env = {**os.environ, "CI": "1"}
    return subprocess.Popen(
        [sys.executable, "-m", "certify", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        text=True,
    )


def _kill_after(proc: subprocess.Popen, folder, files: int, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while len(list(folder.glob("s*.npz"))) < files:
        assert proc.poll() is None, "the run ended before it could be killed"
        assert time.monotonic() < deadline
        time.sleep(0.005)
    proc.send_signal(signal.SIGKILL)
    proc.wait()


@pytest.mark.parametrize("where", ["local", "scheduler"])
def test_sigkill_then_same_command_resumes_to_identical_figures(tmp_path, capsys, request, where):
    """Killed and resumed on local threads, or both sending chunks to the shared cluster."""
    assert main(RUN) == 0
    uninterrupted = capsys.readouterr().out
    folder = tmp_path / "ck"
    command = [*RUN, "--checkpoint", str(folder)]
    if where == "scheduler":
        command += ["--scheduler", request.getfixturevalue("scheduler")]
    proc = _cli(command)
    _kill_after(proc, folder, 3)
    kept = {f.name: f.stat().st_mtime_ns for f in folder.glob("s*.npz")}
    covered = sum(int(name.split("-n")[1].split(".")[0]) for name in kept)
    assert covered < 128, "killed too late to show a resume"
    rerun = _cli(command)
    out, err = rerun.communicate(timeout=120)
    assert rerun.returncode == 0, err
    assert out == uninterrupted
    assert {f.name: f.stat().st_mtime_ns for f in folder.glob("s*.npz") if f.name in kept} == kept
    names = [f.name for f in folder.glob("s*.npz")]
    assert sum(int(name.split("-n")[1].split(".")[0]) for name in names) == 128


@pytest.mark.parametrize("where", ["--workers", "--scheduler"])
def test_simulate_on_a_cluster_prints_the_local_figures(capsys, tmp_path, request, where):
    args = [
        "simulate",
        MODEL,
        "--spins",
        "300000",
        "--seed",
        "3",
        "--chunk-spins",
        "16384",
        "--json",
    ]
    assert main(args) == 0
    local = capsys.readouterr().out
    cluster = (
        ["--workers", "2"]
        if where == "--workers"
        else ["--scheduler", request.getfixturevalue("scheduler")]
    )
    assert main([*args, *cluster, "--checkpoint", str(tmp_path)]) == 0
    assert capsys.readouterr().out == local
    assert json.loads(local)["bet_levels"][0]["chunk_spins"] == 16384


def test_a_mismatched_checkpoint_is_exit_2_with_one_line(capsys, tmp_path):
    args = [
        "simulate",
        MODEL,
        "--spins",
        "50000",
        "--seed",
        "3",
        "--chunk-spins",
        "16384",
        "--checkpoint",
        str(tmp_path),
    ]
    assert main(args) == 0
    capsys.readouterr()
    args[args.index("--seed") + 1] = "4"
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err == (
        f"slotcert: error: {tmp_path / 'manifest.json'}: checkpoint was written for "
        "seed 3, this run has 4; remove the directory or choose another "
        "--checkpoint\n"
    )


def test_workers_and_scheduler_exclude_each_other(capsys):
    with pytest.raises(SystemExit) as info:
        main(
            [
                "simulate",
                MODEL,
                "--spins",
                "10",
                "--seed",
                "1",
                "--workers",
                "2",
                "--scheduler",
                "tcp://127.0.0.1:1",
            ]
        )
    assert info.value.code == 2
    assert "not allowed with argument" in capsys.readouterr().err


def test_no_workers_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["simulate", MODEL, "--spins", "10", "--seed", "1", "--workers", "0"])
    assert stop.value.code == 2
    assert capsys.readouterr().err == (
        "slotcert simulate: error: argument --workers: '0' must be at least 1\n"
    )


def test_unreachable_scheduler_is_exit_2(capsys):
    import dask

    with dask.config.set({"distributed.comm.timeouts.connect": "1s"}):
        code = main(
            ["simulate", MODEL, "--spins", "10", "--seed", "1", "--scheduler", "tcp://127.0.0.1:9"]
        )
    assert code == 2
    err = capsys.readouterr().err
    assert err.startswith("slotcert: error: --scheduler='tcp://127.0.0.1:9': cannot connect")
    assert err.count("\n") == 1


def test_certify_batch_on_the_cluster_writes_the_local_files(tmp_path, scheduler):
    paths = [str(MACHINES / "classic-3r-1.toml"), MODEL, str(DATA / "tiny_lines.toml")]
    common = [
        "certify",
        *paths,
        "--jurisdiction",
        str(JURISDICTIONS / "pt.toml"),
        "--spins",
        "400000",
        "--seed",
        "9",
        "--no-html",
    ]
    local_code = main([*common, "--out", str(tmp_path / "local")])
    cluster_code = main(
        [
            *common,
            "--out",
            str(tmp_path / "cluster"),
            "--scheduler",
            scheduler,
            "--checkpoint",
            str(tmp_path / "ck"),
        ]
    )
    assert local_code == cluster_code
    local = sorted(p.name for p in (tmp_path / "local").iterdir())
    assert local == sorted(p.name for p in (tmp_path / "cluster").iterdir())
    for name in local:
        a, b = (tmp_path / d / name for d in ("local", "cluster"))
        if name.endswith(".json"):
            a_doc, b_doc = json.loads(a.read_text()), json.loads(b.read_text())
            for doc in (a_doc, b_doc):
                doc.get("run", {}).pop("runtime_s", None)
                # the issue time (and the certificate number made from it) is the run's own
                doc.pop("issued_utc", None)
                doc.pop("certificate", None)
                for row in doc.get("machines", []):
                    row.pop("certificate", None)
            assert a_doc == b_doc, name
        elif name.endswith(".xlsx"):  # a zip with its own timestamps: compare the cells
            a_book, b_book = (pd.read_excel(p, sheet_name=None, header=1) for p in (a, b))
            assert a_book.keys() == b_book.keys(), name
            for sheet in a_book:
                if sheet != "summary":  # the summary names the certificate number and date
                    pd.testing.assert_frame_equal(a_book[sheet], b_book[sheet])
        else:
            assert a.read_bytes() == b.read_bytes(), name
    assert sorted(p.name for p in (tmp_path / "ck").iterdir()) == [
        folder(MACHINES / "classic-3r-1.toml"),
        folder(DATA / "small_features.toml"),
        folder(DATA / "tiny_lines.toml"),
    ]
    # everything is in the checkpoint now: a rerun sends nothing and writes the same figures
    again = main([*common, "--out", str(tmp_path / "again"), "--checkpoint", str(tmp_path / "ck")])
    assert again == local_code
    for name in local:
        if name.endswith(".certificate.json"):
            a_doc, b_doc = (
                json.loads((tmp_path / d / name).read_text()) for d in ("local", "again")
            )
            for doc in (a_doc, b_doc):
                doc.get("run", {}).pop("runtime_s", None)
                doc.pop("certificate", None)  # issue time and number: the run's own
            assert a_doc == b_doc, name


def test_certify_refuses_one_stale_machine_checkpoint_and_goes_on(tmp_path, capsys):
    paths = [str(MACHINES / "classic-3r-1.toml"), str(DATA / "tiny_lines.toml")]
    common = [
        "certify",
        *paths,
        "--jurisdiction",
        str(JURISDICTIONS / "pt.toml"),
        "--spins",
        "20000",
        "--no-html",
        "--checkpoint",
        str(tmp_path / "ck"),
    ]
    assert main([*common, "--seed", "1", "--out", str(tmp_path / "a")]) in (0, 1)
    stale = tmp_path / "ck" / folder(DATA / "tiny_lines.toml")
    for file in stale.iterdir():
        file.unlink()
    stale.rmdir()
    capsys.readouterr()
    code = main([*common, "--seed", "2", "--out", str(tmp_path / "b")])
    assert code == 2
    err = capsys.readouterr().err
    manifest = tmp_path / "ck" / folder(MACHINES / "classic-3r-1.toml") / "manifest.json"
    assert (
        f"slotcert: {manifest}: checkpoint was written for seed 1, this run has 2; remove "
        "the directory or choose another --checkpoint\n"
    ) in err
    batch = json.loads((tmp_path / "b" / "batch.json").read_text())
    assert [row["verdict"] for row in batch["machines"]][0] == "invalid"
    assert batch["machines"][1]["machine_id"] == "TINY-3X1"
    assert batch["machines"][1]["verdict"] != "invalid"
