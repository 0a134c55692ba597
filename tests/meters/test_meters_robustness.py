"""Issue 15, "nothing silently wrong": every odd input is a located error or a quarantined row.

Each test is the smallest dump that once aborted with an internal error, refused a whole
dump for one bad row, or reconciled a wrong row; the oracle is the documented rule
(docs/METERS.md) written out by hand.
"""

from __future__ import annotations

import json

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from certify.cli import main

FLOOR = (
    "machine_id,model,bet_level,denomination,jackpot_pools,theoretical_rtp,sigma\n"
    "A,,,0.05,,0.92,5\n"
)
HEADER = "machine_id,read_at,coin_in,coin_out,games_played,coin_drop\n"


def _row(h, stamp=None, coin_in=None, machine="A"):
    """Reading ``h`` of machine A (hourly from 2026-01-01T00:00Z), optionally altered."""
    stamp = stamp or f"2026-01-01T{h:02d}:00:00Z"
    coin_in = 100 * (h + 1) if coin_in is None else coin_in
    return f"{machine},{stamp},{coin_in},{90 * (h + 1)},{10 * (h + 1)},{50 * (h + 1)}"


def _hourly(n=6, start=0):
    """Readings of machine A, hourly: coin_in 100/h, coin_out 90/h, games 10/h, drop 50/h."""
    return [_row(h) for h in range(start, start + n)]


def _run(tmp_path, dump_name, dump_text, counts=None, floor=FLOOR, extra=()):
    """Reconcile one dump; return (exit code, stderr, outputs or None)."""
    (tmp_path / "floor.csv").write_text(floor, encoding="utf-8")
    dump = tmp_path / dump_name
    if isinstance(dump_text, bytes):
        dump.write_bytes(dump_text)
    elif dump_text is not None:
        dump.write_text(dump_text, encoding="utf-8")
    args = ["meters", "reconcile", str(dump), "--floor", str(tmp_path / "floor.csv")]
    if counts is not None:
        (tmp_path / "counts.csv").write_bytes(
            counts if isinstance(counts, bytes) else counts.encode()
        )
        args += ["--counts", str(tmp_path / "counts.csv")]
    out = tmp_path / "out"
    code = main([*args, "--out", str(out), *extra])
    if not (out / "summary.json").exists():
        return code, None
    summary = json.loads((out / "summary.json").read_text())
    assert summary["rows_balanced"] is True
    assert summary["rows_in"] == summary["rows_reconciled"] + summary["rows_quarantined"]
    read = {"keep_default_na": False, "dtype": str}
    return code, {
        "summary": summary,
        "findings": pd.read_csv(out / "findings.csv", **read),
        "quarantine": pd.read_csv(out / "quarantine.csv", **read),
    }


def _reasons(out):
    return dict(zip(out["quarantine"]["source_line"], out["quarantine"]["reason"], strict=True))


def _codes(out):
    return sorted(out["findings"]["code"])


# --- item 1: runs that aborted with no output --------------------------------------------


def test_reading_in_year_9999_is_quarantined(tmp_path, capsys):
    rows = _hourly(4)
    rows[2] = _row(2, stamp="9999-12-31T00:00:00Z")
    code, out = _run(tmp_path, "d.csv", HEADER + "\n".join(rows) + "\n")
    assert "internal error" not in capsys.readouterr().err
    assert out is not None and code == 1
    assert list(out["quarantine"]["source_line"]) == ["4"]
    assert "9999-12-31" in _reasons(out)["4"] and "read_at" in _reasons(out)["4"]
    assert _codes(out) == ["malformed_row"]


def test_soft_count_bound_in_year_9999_is_a_located_input_error(tmp_path, capsys):
    counts = (
        "machine_id,period_start,period_end,amount\n"
        "A,2026-01-01T00:00:00Z,2026-01-01T05:00:00Z,1\n"
        "A,2026-01-01T05:00:00Z,9999-12-31T00:00:00Z,1\n"
    )
    code, _ = _run(tmp_path, "d.csv", HEADER + "\n".join(_hourly()) + "\n", counts=counts)
    err = capsys.readouterr().err
    assert code == 2 and "internal error" not in err
    assert "counts.csv" in err and "line 3" in err and "9999-12-31" in err


@pytest.mark.parametrize("line", ["null", "[1,2,3]", '"text"', "42"])
def test_json_line_that_is_not_an_object_is_quarantined(tmp_path, capsys, line):
    good = [
        {"machine_id": "A", "read_at": f"2026-01-01T0{h}:00:00Z", "coin_in": 100 * (h + 1)}
        for h in range(3)
    ]
    text = "\n".join([json.dumps(good[0]), line, json.dumps(good[1]), json.dumps(good[2])])
    code, out = _run(tmp_path, "d.jsonl", text + "\n")
    assert "internal error" not in capsys.readouterr().err
    assert out is not None and code == 1
    assert list(out["quarantine"]["source_line"]) == ["2"]
    assert "JSON object" in _reasons(out)["2"]
    assert out["summary"]["rows_reconciled"] == 3


def test_zero_row_parquet_dump_reconciles_to_empty_outputs(tmp_path, capsys):
    (tmp_path / "floor.csv").write_text(FLOOR)
    table = pa.table(
        {
            "machine_id": pa.array([], pa.string()),
            "read_at": pa.array([], pa.timestamp("ns", "UTC")),
            "coin_in": pa.array([], pa.int64()),
        }
    )
    pq.write_table(table, tmp_path / "d.parquet")
    code, out = _run(tmp_path, "d.parquet", None)
    assert "internal error" not in capsys.readouterr().err
    assert out is not None and code == 0
    assert out["summary"]["rows_in"] == 0 and out["findings"].empty
    assert out["summary"]["machines_without_readings"] == 1


def test_zero_row_parquet_dump_in_pieces(tmp_path, capsys):
    (tmp_path / "floor.csv").write_text(FLOOR)
    table = pa.table(
        {
            "machine_id": pa.array([], pa.string()),
            "read_at": pa.array([], pa.string()),
            "0000": pa.array([], pa.float64()),
        }
    )
    pq.write_table(table, tmp_path / "d.parquet")
    code, out = _run(tmp_path, "d.parquet", None, extra=("--pieces", "2"))
    assert "internal error" not in capsys.readouterr().err
    assert out is not None and code == 0 and out["summary"]["rows_in"] == 0


@pytest.mark.parametrize("name", ["d.csv", "d.parquet"])
def test_dump_without_any_meter_column_is_a_located_input_error(tmp_path, capsys, name):
    (tmp_path / "floor.csv").write_text(FLOOR)
    if name.endswith(".csv"):
        (tmp_path / name).write_text("machine_id,read_at\nA,2026-01-01T00:00:00Z\n")
    else:
        table = pa.table({"machine_id": ["A"], "read_at": ["2026-01-01T00:00:00Z"]})
        pq.write_table(table, tmp_path / name)
    code, _ = _run(tmp_path, name, None)
    err = capsys.readouterr().err
    assert code == 2 and name in err and "no meter column" in err


# --- item 2: low items ---------------------------------------------------------------------


@pytest.mark.parametrize("stamp", ["2026-01-01", "2026-01-01T03:00:00", "2026-01-01 03:00"])
def test_time_without_utc_offset_is_quarantined(tmp_path, stamp):
    rows = _hourly(5)
    rows[3] = _row(3, stamp=stamp)
    code, out = _run(tmp_path, "d.csv", HEADER + "\n".join(rows) + "\n")
    assert out is not None and code == 1
    assert list(out["quarantine"]["source_line"]) == ["5"]
    assert "no UTC offset" in _reasons(out)["5"]


def test_soft_count_without_utc_offset_is_a_located_input_error(tmp_path, capsys):
    counts = "machine_id,period_start,period_end,amount\nA,2026-01-01,2026-01-02,1\n"
    code, _ = _run(tmp_path, "d.csv", HEADER + "\n".join(_hourly()) + "\n", counts=counts)
    err = capsys.readouterr().err
    assert code == 2 and "counts.csv" in err and "line 2" in err and "offset" in err


@pytest.mark.parametrize("stamp", ["2200-01-01T02:30:00Z", "1970-01-01T02:30:00Z"])
def test_reading_stamped_far_away_is_a_bad_time_stamp_not_a_reset(tmp_path, stamp):
    rows = _hourly(8)
    rows[3] = _row(3, stamp=stamp)
    code, out = _run(tmp_path, "d.csv", HEADER + "\n".join(rows) + "\n")
    assert out is not None
    assert list(out["quarantine"]["source_line"]) == ["5"]
    assert "time stamp" in _reasons(out)["5"]
    # no reset; the only gap is the two-hour hole the unplaceable reading leaves
    assert set(_codes(out)) <= {"malformed_row", "time_gap"} and "malformed_row" in _codes(out)
    gaps = out["findings"][out["findings"]["code"] == "time_gap"]
    assert gaps["observed"].astype(float).le(2.0).all()


def test_utf8_bom_is_accepted(tmp_path):
    text = HEADER + "\n".join(_hourly()) + "\n"
    floor = "\ufeff" + FLOOR
    counts = (
        "\ufeffmachine_id,period_start,period_end,amount\n"
        "A,2026-01-01T00:00:00Z,2026-01-01T05:00:00Z,12.50\n"
    )
    code, out = _run(
        tmp_path, "d.csv", ("\ufeff" + text).encode("utf-8"), counts=counts, floor=floor
    )
    assert out is not None and code == 0
    assert out["summary"]["rows_reconciled"] == 6 and out["quarantine"].empty


def test_row_with_many_extra_fields_quarantines_that_row_only(tmp_path):
    rows = _hourly(5)
    rows[2] = rows[2] + "," + ",".join(["7"] * 40)
    code, out = _run(tmp_path, "d.csv", HEADER + "\n".join(rows) + "\n")
    assert out is not None and code == 1
    assert list(out["quarantine"]["source_line"]) == ["4"]
    assert "too many fields" in _reasons(out)["4"]


@pytest.mark.parametrize("fmt", ["csv", "jsonl"])
def test_uint64_value_quarantines_that_row_only(tmp_path, fmt):
    huge = 18446744073709551615
    if fmt == "csv":
        rows = _hourly(5)
        rows[2] = _row(2, coin_in=huge)
        text = HEADER + "\n".join(rows) + "\n"
    else:
        recs = [
            {"machine_id": "A", "read_at": f"2026-01-01T0{h}:00:00Z", "coin_in": 100 * (h + 1)}
            for h in range(5)
        ]
        recs[2]["coin_in"] = huge
        text = "\n".join(json.dumps(r) for r in recs) + "\n"
    code, out = _run(tmp_path, f"d.{fmt}", text)
    assert out is not None and code == 1
    lines = list(out["quarantine"]["source_line"])
    assert lines == (["4"] if fmt == "csv" else ["3"])


def test_uint64_parquet_value_quarantines_that_row_only(tmp_path):
    (tmp_path / "floor.csv").write_text(FLOOR)
    table = pa.table(
        {
            "machine_id": ["A"] * 4,
            "read_at": [f"2026-01-01T0{h}:00:00Z" for h in range(4)],
            "coin_in": pa.array([100, 200, 2**64 - 1, 400], pa.uint64()),
        }
    )
    pq.write_table(table, tmp_path / "d.parquet")
    code, out = _run(tmp_path, "d.parquet", None)
    assert out is not None and code == 1
    assert list(out["quarantine"]["source_line"]) == ["3"]


@pytest.mark.parametrize("fmt", ["csv", "jsonl"])
def test_latin1_byte_quarantines_that_row_only(tmp_path, fmt):
    if fmt == "csv":
        rows = [r.encode() for r in _hourly(5)]
        rows[2] = _row(2, machine="A\xe9").encode("latin-1")
        data = HEADER.encode() + b"\n".join(rows) + b"\n"
        bad = "4"
    else:
        recs = [
            json.dumps(
                {"machine_id": "A", "read_at": f"2026-01-01T0{h}:00:00Z", "coin_in": 100 * (h + 1)}
            ).encode()
            for h in range(5)
        ]
        recs[2] = recs[2].replace(b'"A"', b'"A\xe9"')
        data = b"\n".join(recs) + b"\n"
        bad = "3"
    code, out = _run(tmp_path, f"d.{fmt}", data)
    assert out is not None and code == 1
    assert list(out["quarantine"]["source_line"]) == [bad]
    assert "UTF-8" in _reasons(out)[bad]
    assert out["summary"]["rows_reconciled"] == 4


@pytest.mark.parametrize("value", ["12345.0000000000000001", "1e3", "12345.5", "0x10"])
def test_value_that_is_not_exactly_whole_is_malformed(tmp_path, value):
    rows = _hourly(5)
    rows[2] = _row(2, coin_in=value)
    code, out = _run(tmp_path, "d.csv", HEADER + "\n".join(rows) + "\n")
    assert out is not None and code == 1
    assert list(out["quarantine"]["source_line"]) == ["4"]
    assert value in _reasons(out)["4"]


@pytest.mark.parametrize("value", ["300", "300.0", "300.000", "+300", " 300 "])
def test_whole_numbers_in_text_are_accepted(tmp_path, value):
    rows = _hourly(5)
    rows[2] = _row(2, coin_in=value)
    code, out = _run(tmp_path, "d.csv", HEADER + "\n".join(rows) + "\n")
    assert out is not None and code == 0 and out["quarantine"].empty


def test_soft_count_for_a_machine_not_on_the_floor_is_a_finding(tmp_path):
    counts = (
        "machine_id,period_start,period_end,amount\n"
        "A,2026-01-01T00:00:00Z,2026-01-01T05:00:00Z,12.50\n"
        "GHOST,2026-01-01T00:00:00Z,2026-01-01T05:00:00Z,12.5\n"
    )
    code, out = _run(tmp_path, "d.csv", HEADER + "\n".join(_hourly()) + "\n", counts=counts)
    assert out is not None and code == 1
    f = out["findings"]
    assert list(f["code"]) == ["unknown_machine"] and list(f["machine_id"]) == ["GHOST"]
    assert "soft count" in f["message"].iloc[0]
    assert f["source_rows"].iloc[0].endswith("counts.csv:3")


# --- item 4: drop tolerance per machine ------------------------------------------------------


@pytest.mark.parametrize("inflation, flagged", [(1.10, True), (0.90, True), (1.01, False)])
def test_drop_tolerance_bites_alike_on_every_denomination(tmp_path, inflation, flagged):
    """5,000 credits of drop a day; a count off by 10% is flagged on 0.01, 0.05 and 1.00."""
    denoms = {"P": "0.01", "N": "0.05", "D": "1.00"}
    floor = (
        "machine_id,model,bet_level,denomination,jackpot_pools,theoretical_rtp,sigma\n"
        + "".join(f"{m},,,{d},,0.92,5\n" for m, d in denoms.items())
    )
    rows, counts = [], ["machine_id,period_start,period_end,amount"]
    for m, d in denoms.items():
        for h in range(25):
            stamp = f"2026-01-{1 + h // 24:02d}T{h % 24:02d}:00:00Z"
            rows.append(f"{m},{stamp},{1000 * h},{920 * h},{10 * h},{5000 * h // 24}")
        metered = (5000 * 24 // 24) * float(d)
        counts.append(f"{m},2026-01-01T00:00:00Z,2026-01-02T00:00:00Z,{metered * inflation:.2f}")
    code, out = _run(
        tmp_path,
        "d.csv",
        HEADER + "\n".join(rows) + "\n",
        counts="\n".join(counts) + "\n",
        floor=floor,
    )
    assert out is not None
    drops = out["findings"][out["findings"]["code"] == "drop_variance"]
    assert sorted(drops["machine_id"]) == (sorted(denoms) if flagged else [])


def test_drop_tolerance_floor_is_100_credits_of_the_machine(tmp_path):
    """On a 0.01 machine 1.50 of difference on a tiny drop (> 1.00 = 100 credits) is flagged."""
    floor = FLOOR.splitlines()[0] + "\nP,,,0.01,,0.92,5\n"
    rows = [f"P,2026-01-01T{h:02d}:00:00Z,{1000 * h},{920 * h},{10 * h},{10 * h}" for h in range(6)]
    counts = (
        "machine_id,period_start,period_end,amount\n"
        "P,2026-01-01T00:00:00Z,2026-01-01T05:00:00Z,2.00\n"
    )
    code, out = _run(tmp_path, "d.csv", HEADER + "\n".join(rows) + "\n", counts=counts, floor=floor)
    assert out is not None
    drops = out["findings"][out["findings"]["code"] == "drop_variance"]
    assert list(drops["machine_id"]) == ["P"]  # metered 0.50, counted 2.00


# --- item 3: which of two out-of-order rows is the mis-stamped one --------------------------


def _four_hourly(stamps):
    """Readings every 4 h (coin_in 400, games 40, drop 200 per reading), times as given."""
    return [
        f"A,{t},{400 * (i + 1)},{360 * (i + 1)},{40 * (i + 1)},{200 * (i + 1)}"
        for i, t in enumerate(stamps)
    ]


def _stamp(hours):
    return (pd.Timestamp("2026-01-01T00:00:00Z") + pd.Timedelta(hours=hours)).strftime(
        "%Y-%m-%dT%H:%M:%SZ"
    )


def test_reading_stamped_too_early_is_the_one_quarantined(tmp_path):
    """Reading k+2 stamped 3 h after reading k (between k and k+1): k+2 is out of order."""
    hours = [4 * i for i in range(8)]
    hours[3] = hours[1] + 3  # reading 3 (line 5) mis-stamped: 7 h instead of 12 h
    code, out = _run(tmp_path, "d.csv", HEADER + "\n".join(_four_hourly(map(_stamp, hours))) + "\n")
    assert out is not None
    assert list(out["quarantine"]["source_line"]) == ["5"]
    assert list(out["quarantine"]["code"]) == ["out_of_order"]


def test_reading_stamped_too_late_is_the_one_quarantined(tmp_path):
    """The mirror case: reading k+1 stamped after k+2 is still the one set aside."""
    hours = [4 * i for i in range(8)]
    hours[2] = hours[3] + 1  # reading 2 (line 4) mis-stamped: 13 h instead of 8 h
    code, out = _run(tmp_path, "d.csv", HEADER + "\n".join(_four_hourly(map(_stamp, hours))) + "\n")
    assert out is not None
    assert list(out["quarantine"]["source_line"]) == ["4"]
    assert list(out["quarantine"]["code"]) == ["out_of_order"]


@pytest.mark.parametrize("unit", ["s", "ns"])
def test_parquet_bad_time_stamps_are_quarantined(tmp_path, unit):
    """Typed Parquet times: 1970 (and, in seconds, year 9999, beyond the ns range) are bad."""
    import datetime as dt

    (tmp_path / "floor.csv").write_text(FLOOR)
    utc = dt.UTC
    times = [dt.datetime(2026, 1, 1, h, tzinfo=utc) for h in range(5)]
    times[2] = dt.datetime(1970, 1, 1, 2, tzinfo=utc)
    if unit == "s":
        times[3] = dt.datetime(9999, 12, 31, tzinfo=utc)
    table = pa.table(
        {
            "machine_id": ["A"] * 5,
            "read_at": pa.array(times, pa.timestamp(unit, "UTC")),
            "coin_in": [100 * (h + 1) for h in range(5)],
        }
    )
    pq.write_table(table, tmp_path / "d.parquet")
    code, out = _run(tmp_path, "d.parquet", None)
    assert out is not None
    bad = ["3", "4"] if unit == "s" else ["3"]
    assert list(out["quarantine"]["source_line"]) == bad
    assert all("bad time stamp" in _reasons(out)[b] for b in bad)
    assert "reset" not in _codes(out)


@pytest.mark.parametrize(
    ("value", "bad"),
    [("12345.0000000000000001", True), ("1e3", True), ("300.5", True), ("300.0", False)],
)
def test_json_number_that_is_not_exactly_whole_is_malformed(tmp_path, value, bad):
    recs = [
        json.dumps(
            {
                "machine_id": "A",
                "read_at": f"2026-01-01T0{h}:00:00Z",
                "coin_in": 100 * (h + 1),
                "coin_out": 90 * (h + 1),
                "coin_drop": 50 * (h + 1),
            }
        )
        for h in range(5)
    ]
    recs[2] = recs[2].replace('"coin_in": 300', f'"coin_in": {value}')
    code, out = _run(tmp_path, "d.jsonl", "\n".join(recs) + "\n")
    assert out is not None
    assert list(out["quarantine"]["source_line"]) == (["3"] if bad else [])
    if bad:
        assert value in _reasons(out)["3"]
