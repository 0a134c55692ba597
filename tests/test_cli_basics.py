"""The command line never shows a traceback on bad input."""

from pathlib import Path

from certify.cli import main


def test_missing_file_is_exit_2_one_line(capsys, tmp_path):
    code = main(["validate", str(tmp_path / "nope.toml")])
    err = capsys.readouterr().err
    assert code == 2
    assert "no such file" in err
    assert "Traceback" not in err


def test_malformed_toml_is_exit_2(capsys, tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("schema = \n")
    assert main(["validate", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "not valid TOML" in err and str(bad) in err


def test_jurisdictions_shipped_are_valid(capsys):
    root = Path(__file__).resolve().parents[1]
    assert main(["validate", str(root / "models" / "jurisdictions")]) == 0
