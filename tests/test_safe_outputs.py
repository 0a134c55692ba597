"""Outputs never follow a symlink planted in --out; CSV cells never become formulas."""

from __future__ import annotations

import csv
import os

import pandas as pd
import pytest
from testpaths import DATA, JURISDICTIONS

from certify.cli import main
from certify.outputs import atomic_path, neutral_cell, neutral_frame, write_text
from reports.parcsv import write_par_csv

PT = str(JURISDICTIONS / "pt.toml")


def _plant(out, names, outside):
    """Symlink every name in ``out`` to its own file in ``outside``; return the targets."""
    out.mkdir(parents=True, exist_ok=True)
    outside.mkdir(parents=True, exist_ok=True)
    targets = {}
    for name in names:
        target = outside / f"victim-{name}"
        target.write_text("precious\n")
        os.symlink(target, out / name)
        targets[name] = target
    return targets


def _untouched(out, targets):
    for name, target in targets.items():
        assert target.read_text() == "precious\n", name
        assert not (out / name).is_symlink(), name
        assert (out / name).is_file(), name


def test_helper_replaces_a_symlink_and_cleans_up_on_error(tmp_path):
    targets = _plant(tmp_path / "out", ["a.txt"], tmp_path / "outside")
    write_text(tmp_path / "out" / "a.txt", "new\n")
    _untouched(tmp_path / "out", targets)
    assert (tmp_path / "out" / "a.txt").read_text() == "new\n"
    with pytest.raises(RuntimeError), atomic_path(tmp_path / "out" / "b.txt") as tmp:
        tmp.write_text("half")
        raise RuntimeError
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["a.txt"]


def test_certify_outputs_do_not_follow_planted_symlinks(tmp_path):
    out = tmp_path / "out"
    names = [
        "TINY-3X1.certificate.json",
        "TINY-3X1.par.csv",
        "TINY-3X1.html",
        "index.html",
        "batch.json",
    ]
    targets = _plant(out, names, tmp_path / "outside")
    main(
        [
            "certify",
            str(DATA / "tiny_lines.toml"),
            "--jurisdiction",
            PT,
            "--spins",
            "2000",
            "--seed",
            "1",
            "--out",
            str(out),
        ]
    )
    _untouched(out, targets)
    assert "TINY-3X1" in (out / "TINY-3X1.par.csv").read_text() or (out / "TINY-3X1.par.csv")


def test_meters_outputs_do_not_follow_planted_symlinks(tmp_path):
    floor = tmp_path / "floor.csv"
    floor.write_text(
        "machine_id,model,bet_level,denomination,jackpot_pools,theoretical_rtp,sigma\n"
        "A,,,0.05,,0.92,5\n"
    )
    dump = tmp_path / "d.csv"
    dump.write_text(
        "machine_id,read_at,coin_in\nA,2026-01-01T06:00:00Z,1\nA,2026-01-01T07:00:00Z,x\n"
    )
    out = tmp_path / "out"
    names = [
        "findings.csv",
        "periods.csv",
        "quarantine.csv",
        "machines.csv",
        "summary.json",
        "report.html",
    ]
    targets = _plant(out, names, tmp_path / "outside")
    main(["meters", "reconcile", str(dump), "--floor", str(floor), "--out", str(out)])
    _untouched(out, targets)
    assert sorted(p.name for p in out.iterdir()) == sorted(names)  # no temporary left


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ('=HYPERLINK("http://x","y")', '\'=HYPERLINK("http://x","y")'),
        ("+1+cmd", "'+1+cmd"),
        ("-2+3", "'-2+3"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\tx", "'\tx"),
        ("\rx", "'\rx"),
        ("-5", "-5"),
        ("-0.25", "-0.25"),
        ("+1e3", "+1e3"),
        ("A B", "A B"),
        (-5, -5),
        (-0.5, -0.5),
    ],
)
def test_neutral_cell(value, expected):
    assert neutral_cell(value) == expected


def test_neutral_frame_keeps_numbers_and_fixes_text():
    frame = pd.DataFrame(
        {
            "id": pd.Categorical(["=cmd", "ok", "=cmd"]),
            "text": ["@x", "y", None],
            "n": [-1.5, 2.0, -3.0],
        }
    )
    fixed = neutral_frame(frame)
    assert list(fixed["id"].astype(str)) == ["'=cmd", "ok", "'=cmd"]
    assert list(fixed["text"].iloc[:2]) == ["'@x", "y"]
    assert fixed["n"].tolist() == [-1.5, 2.0, -3.0]
    assert list(frame["id"].astype(str)) == ["=cmd", "ok", "=cmd"]  # input unchanged


def test_par_csv_neutralises_symbol_names(tmp_path):
    certificate = {
        "awards": [
            {
                "level": 1,
                "kind": "line",
                "combo": ['=HYPERLINK("http://evil","x")', "A"],
                "pays": 5,
                "probability": 0.25,
                "one_in": 4.0,
                "rtp_contribution": -0.5,
            },
            {
                "level": 1,
                "kind": "@scatter",
                "combo": ["A"],
                "pays": -2,
                "probability": 0.5,
                "one_in": None,
                "rtp_contribution": None,
            },
        ]
    }
    path = tmp_path / "x.par.csv"
    write_par_csv(certificate, path)
    rows = list(csv.reader(path.open(newline="")))
    assert rows[1][3] == '\'=HYPERLINK("http://evil","x") A'  # level, section, kind, combo
    assert rows[1][rows[0].index("rtp_contribution")] == "-0.5"
    assert rows[2][2] == "'@scatter"
    assert rows[2][4] == "-2"


def test_meters_csv_neutralises_machine_ids(tmp_path):
    floor = tmp_path / "floor.csv"
    floor.write_text(
        "machine_id,model,bet_level,denomination,jackpot_pools,theoretical_rtp,sigma\n"
        "A,,,0.05,,0.92,5\n"
    )
    dump = tmp_path / "d.csv"
    dump.write_text(
        "machine_id,read_at,coin_in\n"
        '"=HYPERLINK(""http://evil"",""x"")",2026-01-01T06:00:00Z,1\n'
        "@SUM(1),2026-01-01T06:00:00Z,x\n"
    )
    out = tmp_path / "out"
    main(["meters", "reconcile", str(dump), "--floor", str(floor), "--out", str(out)])
    for name in ("findings.csv", "quarantine.csv"):
        for row in csv.DictReader((out / name).open(newline="")):
            for key, cell in row.items():
                assert not cell.startswith(("=", "+", "@", "\t", "\r")), (name, key, cell)
                if cell.startswith("-"):
                    float(cell)  # a negative number, never text
    q = list(csv.DictReader((out / "quarantine.csv").open(newline="")))
    assert {r["machine_id"] for r in q} == {'\'=HYPERLINK("http://evil","x")', "'@SUM(1)"}
