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


def test_exact_budget_is_seconds(capsys):
    """``slotcert exact --budget`` takes whole seconds from 1 to a week; anything else is a
    usage error (exit 2, one line naming the value), before any model is read."""
    for bad in ("0", "-5", "1.5", "nan", "1e9"):
        try:
            code = main(["exact", "models/machines/ref-5x3-20.toml", "--budget", bad])
        except SystemExit as exc:  # argparse exits on a bad value
            code = int(exc.code or 0)
        assert code == 2, bad
        assert bad in capsys.readouterr().err
    root = Path(__file__).resolve().parents[1]
    assert (
        main(["exact", str(root / "models" / "machines" / "ref-5x3-20.toml"), "--budget", "120"])
        == 0
    )


def test_the_api_checks_the_budget():
    import pytest

    from certify.errors import UsageError
    from slotcert import exact

    root = Path(__file__).resolve().parents[1]
    for bad in (0, -1.0, float("nan"), float("inf"), True, "60"):
        with pytest.raises(UsageError):
            exact(root / "models" / "machines" / "ref-5x3-20.toml", budget_s=bad)
