import json

import numpy as np
import pandas as pd
import pytest

from certify.errors import InputError
from meters.readers import column_map, original_rows, read_dump

HEADER = "machine_id,read_at,coin_in,coin_out\n"


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return path


def test_csv_rows_get_lines_and_reasons(tmp_path):
    path = write(
        tmp_path,
        "d.csv",
        HEADER + "A,2026-01-01T06:00:00+01:00,10,5\n"
        "A,2026-01-02T06:00:00+01:00,12x,5\n"
        "\n"
        "A,2026-01-03T06:00:00,14,5\n"
        "A,yesterday,14,5\n"
        "A,2026-01-04T06:00:00Z,-3,5\n"
        "A,2026-01-05T06:00:00Z,1.5,5\n"
        "A,2026-01-06T06:00:00Z,20,5,99\n"
        ",2026-01-07T06:00:00Z,20,5\n"
        "A,2026-01-08T06:00:00-05:00,,5\n",
    )
    df = read_dump(path)
    assert df["_line"].tolist() == [2, 3, 5, 6, 7, 8, 9, 10, 11]  # blank line 4 is no row
    reasons = df["_bad"].tolist()
    assert reasons[0] == "" and reasons[-1] == ""
    assert "coin_in='12x' is not a number" in reasons[1]
    assert "no UTC offset" in reasons[2]
    assert "not an ISO 8601 time" in reasons[3]
    assert "not a whole non-negative number" in reasons[4]
    assert "not a whole non-negative number" in reasons[5]
    assert reasons[6] == "too many fields"
    assert reasons[7] == "machine_id is empty"
    assert np.isnan(df["coin_in"].iloc[-1])  # empty value: decided per machine later
    assert df["read_at"].iloc[0] == pd.Timestamp("2026-01-01T05:00:00Z").value
    assert df["read_at"].iloc[-1] == pd.Timestamp("2026-01-08T11:00:00Z").value


def test_sas_codes_and_canonical_names_read_the_same(tmp_path):
    a = write(tmp_path, "a.csv", HEADER + "A,2026-01-01T06:00:00Z,10,5\n")
    b = write(tmp_path, "b.csv", "machine_id,read_at,0000,sas_0001\nA,2026-01-01T06:00:00Z,10,5\n")
    da, db = read_dump(a), read_dump(b)
    for col in ["machine_id", "read_at", "coin_in", "coin_out"]:
        pd.testing.assert_series_equal(da[col], db[col])


def test_jsonl_bad_line_is_kept_as_bad_row(tmp_path):
    rows = [
        {"machine_id": "A", "read_at": "2026-01-01T06:00:00Z", "0000": 10},
        {"machine_id": "A", "read_at": "2026-01-02T06:00:00Z", "0000": 11},
    ]
    text = json.dumps(rows[0]) + "\n{oops\n" + json.dumps(rows[1]) + "\n"
    df = read_dump(write(tmp_path, "d.jsonl", text))
    assert df["_line"].tolist() == [1, 2, 3]
    assert df["_bad"].tolist()[0] == "" and df["_bad"].tolist()[2] == ""
    assert "not a JSON object" in df["_bad"].tolist()[1]


def test_parquet_typed_columns(tmp_path):
    frame = pd.DataFrame(
        {
            "machine_id": ["A", "B"],
            "read_at": pd.to_datetime(["2026-01-01T06:00:00Z"] * 2, utc=True),
            "0000": pd.array([10, None], dtype="Int64"),
        }
    )
    path = tmp_path / "d.parquet"
    frame.to_parquet(path)
    df = read_dump(path)
    assert df["_line"].tolist() == [1, 2]
    assert df["coin_in"].iloc[0] == 10 and np.isnan(df["coin_in"].iloc[1])
    assert json.loads(original_rows(str(path), np.array([2]))[2])["machine_id"] == "B"


@pytest.mark.parametrize(
    "headers, message",
    [
        (["machine_id", "read_at", "coin_inn"], "coin_inn"),
        (["machine_id", "read_at", "coin_in", "0000"], "appears twice"),
        (["machine_id", "coin_in"], "read_at"),
    ],
)
def test_bad_headers_are_input_errors(headers, message):
    with pytest.raises(InputError, match=message):
        column_map(headers, "x.csv")


def test_unknown_format_and_missing_file(tmp_path):
    with pytest.raises(InputError, match="unknown dump format"):
        read_dump(tmp_path / "d.xlsx")
    with pytest.raises(InputError, match="no such file"):
        read_dump(tmp_path / "missing.csv")


def test_original_rows_reads_back_text(tmp_path):
    path = write(tmp_path, "d.csv", HEADER + "A,2026-01-01T06:00:00Z,10,5\nB,x,y,z\n")
    assert original_rows(str(path), np.array([3])) == {3: "B,x,y,z"}


def test_parquet_row_groups_are_read_without_reassembly(tmp_path):
    frame = pd.DataFrame(
        {
            "machine_id": ["A"] * 5,
            "read_at": pd.date_range("2026-01-01", periods=5, tz="UTC"),
            "coin_in": pd.array([1, 2, None, -4, 5], dtype="Int64"),
            "coin_out": [1.0, 2.0, 3.0, 4.5, 5.0],
        }
    )
    path = tmp_path / "d.parquet"
    frame.to_parquet(path, row_group_size=2)
    df = read_dump(path)
    np.testing.assert_array_equal(df["coin_in"].to_numpy(), [1, 2, np.nan, np.nan, 5])
    assert "coin_in=-4.0 is not a whole" in df["_bad"].iloc[3]
    assert df["_line"].tolist() == [1, 2, 3, 4, 5]
