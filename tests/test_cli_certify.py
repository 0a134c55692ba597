"""The certify command: batches with a broken file, exit codes, safe file names."""

from __future__ import annotations

import json

from testpaths import DATA, JURISDICTIONS

from certify.cli import main

PT = str(JURISDICTIONS / "pt.toml")


def _copy(src, dst, **replace):
    text = src.read_text()
    for old, new in replace.items():
        text = text.replace(old, new)
    dst.write_text(text)


def test_folder_with_one_broken_file_reports_it_and_certifies_the_rest(tmp_path, capsys):
    folder = tmp_path / "models"
    folder.mkdir()
    _copy(DATA / "tiny_lines.toml", folder / "a.toml")
    (folder / "b.toml").write_text("schema = 'slotcert/machine@1'\n[machine\n")
    out = tmp_path / "out"
    code = main(
        [
            "certify",
            str(folder),
            "--jurisdiction",
            PT,
            "--spins",
            "20000",
            "--seed",
            "1",
            "--out",
            str(out),
            "--no-html",
        ]
    )
    err = capsys.readouterr().err
    assert code == 2
    assert "not valid TOML" in err and "Traceback" not in err
    rows = json.loads((out / "batch.json").read_text())["machines"]
    assert [r["verdict"] for r in rows] == ["fail", "invalid"]
    assert rows[1]["error"].startswith("1 problem:")
    assert (out / "TINY-3X1.certificate.json").exists()


def test_machine_ids_cannot_escape_out(tmp_path):
    folder = tmp_path / "models"
    folder.mkdir()
    _copy(DATA / "tiny_lines.toml", folder / "a.toml", **{'id = "TINY-3X1"': 'id = "../../evil/x"'})
    _copy(DATA / "tiny_lines.toml", folder / "b.toml", **{'id = "TINY-3X1"': 'id = "/etc/y"'})
    out = tmp_path / "deep" / "out"
    main(
        [
            "certify",
            str(folder),
            "--jurisdiction",
            PT,
            "--spins",
            "1000",
            "--seed",
            "1",
            "--out",
            str(out),
            "--no-html",
        ]
    )
    written = sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())
    assert all("/" not in name for name in written)
    assert not (tmp_path / "evil").exists()
    assert written == [
        "___evil_x.certificate.json",
        "___evil_x.par-features.csv",
        "___evil_x.par.csv",
        "___evil_x.par.xlsx",
        "_etc_y.certificate.json",
        "_etc_y.par-features.csv",
        "_etc_y.par.csv",
        "_etc_y.par.xlsx",
        "batch.json",
    ]


def test_missing_jurisdiction_is_exit_2(tmp_path, capsys):
    code = main(
        [
            "certify",
            str(DATA / "tiny_lines.toml"),
            "--jurisdiction",
            str(tmp_path / "none.toml"),
            "--spins",
            "10",
            "--seed",
            "1",
            "--out",
            str(tmp_path),
        ]
    )
    assert code == 2
    assert "no such file" in capsys.readouterr().err


def test_usage_error_is_exit_2(capsys):
    try:
        main(["certify", "--spins", "x"])
    except SystemExit as exc:
        assert exc.code == 2
    assert "Traceback" not in capsys.readouterr().err


def test_tiny_rtp_above_100_is_a_warning_finding(tmp_path):
    out = tmp_path / "o"
    main(
        [
            "certify",
            str(DATA / "tiny_lines.toml"),
            "--jurisdiction",
            PT,
            "--spins",
            "10000",
            "--seed",
            "2",
            "--out",
            str(out),
            "--no-html",
        ]
    )
    cert = json.loads((out / "TINY-3X1.certificate.json").read_text())
    codes = {(f["severity"], f["code"]) for f in cert["findings"]}
    assert ("warning", "rtp_above_100") in codes
    assert ("error", "impossible_award") in codes  # W W W is never paid as such


def test_folder_skips_other_model_kinds_and_says_so(tmp_path, capsys):
    folder = tmp_path / "models"
    folder.mkdir()
    _copy(DATA / "tiny_lines.toml", folder / "a.toml")
    _copy(JURISDICTIONS / "pt.toml", folder / "pt.toml")
    out = tmp_path / "out"
    main(
        [
            "certify",
            str(folder),
            "--jurisdiction",
            PT,
            "--spins",
            "1000",
            "--seed",
            "1",
            "--out",
            str(out),
            "--no-html",
        ]
    )
    assert "pt.toml: skipped (slotcert/jurisdiction@1, not a machine)" in capsys.readouterr().err
    rows = json.loads((out / "batch.json").read_text())["machines"]
    assert [r["machine_id"] for r in rows] == ["TINY-3X1"]
