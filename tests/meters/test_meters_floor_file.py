"""Floor and soft-count files: validation with file, line and value in messages."""

import pytest

from certify.errors import InputError
from meters.floor import load_counts, load_floor

HEAD = "machine_id,model,bet_level,denomination,jackpot_pools,theoretical_rtp,sigma\n"


def floor(tmp_path, body, head=HEAD):
    path = tmp_path / "floor.csv"
    path.write_text(head + body)
    return path


def test_par_rows_and_pools(tmp_path):
    f = load_floor(floor(tmp_path, "A,,,0.05,local=0.01;link=0.005,0.92,5\nB,,,1,,0.9,3\n"))
    assert f.loc["A", "rate"] == pytest.approx(0.015)
    assert f.loc["B", "rate"] == 0 and f.loc["A", "digits"] == 10
    assert f.loc["A", "denomination"] == pytest.approx(0.05)


@pytest.mark.parametrize(
    "body, message",
    [
        ("A,,,0,,0.92,5\n", "denomination='0'"),
        ("A,,,0.05,,,5\n", "theoretical_rtp and sigma are required"),
        ("A,,,0.05,,abc,5\n", "theoretical_rtp='abc'"),
        ("A,,,0.05,,0.92,-1\n", "sigma='-1'"),
        ("A,,,0.05,pool=2,0.92,5\n", "each rate must be in"),
        ("A,,,0.05,,0.92,5\nA,,,0.05,,0.92,5\n", "appears more than once"),
        (",,,0.05,,0.92,5\n", "machine_id is empty"),
        ("A,missing.toml,1,0.05,,0.92,5\n", "missing.toml"),
    ],
)
def test_bad_rows_name_file_line_and_value(tmp_path, body, message):
    with pytest.raises((InputError, Exception), match=message) as info:
        load_floor(floor(tmp_path, body))
    assert "floor.csv" in str(info.value)


def test_missing_columns(tmp_path):
    with pytest.raises(InputError, match="denomination"):
        load_floor(floor(tmp_path, "A,0.9\n", head="machine_id,theoretical_rtp\n"))


def test_digits_column_overrides(tmp_path):
    f = load_floor(floor(tmp_path, "A,,,0.05,,0.92,5,8\n", head=HEAD.strip() + ",digits\n"))
    assert f.loc["A", "digits"] == 8


def test_model_row_uses_exact_or_par(tmp_path, repo):
    model = repo / "models" / "machines" / "classic-3r-1.toml"
    f = load_floor(floor(tmp_path, f"E,{model},1,0.25,,0.9,4\n"))
    assert 0.5 < f.loc["E", "theo_rtp"] < 1.2 and f.loc["E", "sigma"] > 0
    with pytest.raises(InputError, match="bet_level=7"):
        load_floor(floor(tmp_path, f"E,{model},7,0.25,,0.9,4\n"))


def test_counts_file(tmp_path):
    path = tmp_path / "c.csv"
    path.write_text(
        "machine_id,period_start,period_end,amount\n"
        "A,2026-01-01T06:00:00+01:00,2026-01-02T06:00:00+01:00,12.5\n"
    )
    c = load_counts(path)
    assert c["amount"].iloc[0] == 12.5 and c["end"].iloc[0] > c["start"].iloc[0]
    path.write_text("machine_id,period_start,period_end,amount\nA,x,2026-01-02T06:00:00Z,1\n")
    with pytest.raises(InputError, match="line 2"):
        load_counts(path)


@pytest.mark.parametrize(
    "body",
    [
        "A,,,0.05,local=0.01;link=0.005,0.92,5,\n B ,, 3 ,1, ,.9,3e0,8\nC,,+2,1E-2,p=0,1.5,0.1,0\n",
        "A,,,0.05,,0.92,5,\nB,,,0.10,x=0.3|y=0.1,0.999999999999999999999,7.25,15\n",
    ],
)
def test_column_wise_floor_equals_row_by_row(tmp_path, body, monkeypatch):
    """Oracle: the row-by-row reading (Decimal per value) of the same file, exactly."""
    import pandas as pd

    import meters.floor as floor_module

    path = floor(tmp_path, body, head=HEAD.strip() + ",digits\n")
    fast = load_floor(path)
    assert (
        floor_module._plain_floor(
            pd.read_csv(path, dtype=str, keep_default_na=False, skipinitialspace=True), 10
        )
        is not None
    )
    monkeypatch.setattr(floor_module, "_plain_floor", lambda raw, digits: None)
    pd.testing.assert_frame_equal(fast, load_floor(path), check_exact=True)
