"""Ordering, rollover, reset and quarantine rules on hand-made dumps."""

import numpy as np
import pandas as pd
import pytest

from meters.config import Config, from_jurisdiction
from meters.floor import load_floor
from meters.reconcile import reconcile

FLOOR = (
    "machine_id,model,bet_level,denomination,jackpot_pools,theoretical_rtp,sigma,digits\n"
    "A,,,0.05,,0.92,5,{digits}\n"
)
METERS = [
    "coin_in",
    "coin_out",
    "jackpot_handpaid",
    "coin_drop",
    "games_played",
    "games_won",
    "games_lost",
]


def history(n=10, step_h=24, start=None, games=100, base=1_000_000):
    """Cumulative readings of machine A: every interval plays ``games`` games of 10 credits."""
    t0 = pd.Timestamp(start or "2026-01-01T06:00:00Z")
    k = np.arange(n)
    frame = pd.DataFrame(
        {
            "machine_id": "A",
            "read_at": [(t0 + pd.Timedelta(hours=step_h * i)).isoformat() for i in k],
        }
    )
    gp = base + games * k
    won = base // 4 + (games // 4) * k
    frame["coin_in"] = 10 * gp
    frame["coin_out"] = 9 * gp
    frame["jackpot_handpaid"] = 0
    frame["coin_drop"] = 3 * gp
    frame["games_played"] = gp
    frame["games_won"] = won
    frame["games_lost"] = gp - won
    return frame


def run(tmp_path, frame, digits=10, **cfg):
    dump = tmp_path / "d.csv"
    frame.to_csv(dump, index=False)
    floor = tmp_path / "floor.csv"
    floor.write_text(FLOOR.format(digits=digits))
    result = reconcile([str(dump)], load_floor(floor), None, Config(digits=digits, **cfg))
    assert result.rows_in == result.rows_reconciled + result.rows_quarantined
    return result


def codes(result):
    return sorted(result.findings["code"])


@pytest.mark.parametrize("digits", [8, 10])
def test_rollover_is_info_and_delta_is_modular(tmp_path, digits):
    frame = history(6)
    top = 10**digits
    frame["coin_in"] = (top - 2500 + 10 * 100 * np.arange(6)) % top
    result = run(tmp_path, frame, digits)
    assert codes(result) == ["rollover"]
    f = result.findings.iloc[0]
    assert f["meter"] == "coin_in" and f["severity"] == "info"
    assert f["period_start"] == "2026-01-03T06:00:00Z"
    assert (result.periods["coin_in"] == 1000).all()


def test_value_wider_than_the_meter_is_quarantined(tmp_path):
    frame = history(6)
    frame.loc[3, "coin_drop"] = 10**8 + 5
    result = run(tmp_path, frame, 8)
    q = result.quarantine
    assert len(q) == 1 and q["source_line"].iloc[0] == 5
    assert "exceeds the meter width" in q["reason"].iloc[0]
    assert codes(result) == ["malformed_row"]


def test_reset_in_the_middle_of_a_period(tmp_path):
    frame = history(48, step_h=1, games=10)  # hourly readings over two days
    meters = frame[METERS].to_numpy()
    clear = meters[20] + (meters[21] - meters[20]) // 2  # RAM clear between readings 20 and 21
    frame.loc[21:, METERS] = meters[21:] - clear
    result = run(tmp_path, frame)
    assert codes(result) == ["reset"]
    reset = result.findings.iloc[0]
    assert (reset["period_start"], reset["period_end"]) == (
        "2026-01-02T02:00:00Z",
        "2026-01-02T03:00:00Z",
    )
    day = result.periods.set_index("period").loc["2026-01-02T00:00:00Z"]
    assert day["lost_intervals"] == 1 and day["intervals"] == 24
    assert day["games_played"] == 23 * 10  # the interval cut by the clear is not counted
    for m in METERS:
        assert (result.periods[m].dropna() >= 0).all()


def test_timestamp_out_of_order_is_quarantined_not_a_reset(tmp_path):
    frame = history(12)
    frame.loc[[4, 8], "read_at"] = frame.loc[[8, 4], "read_at"].to_numpy()
    result = run(tmp_path, frame)
    assert codes(result) == ["out_of_order", "out_of_order"]
    assert sorted(result.quarantine["source_line"]) == [6, 10]


def test_duplicates_identical_and_conflicting(tmp_path):
    frame = history(8)
    conflicting = frame.iloc[[5]].assign(coin_out=frame["coin_out"].iloc[5] + 1)
    frame = pd.concat([frame, frame.iloc[[3]], conflicting], ignore_index=True)
    result = run(tmp_path, frame)
    reasons = sorted(result.quarantine["reason"])
    assert codes(result) == ["duplicate_row", "duplicate_row"]
    assert reasons[0].startswith("identical to") and "different meter values" in reasons[1]


def test_impossible_single_meter_value(tmp_path):
    frame = history(10)
    frame.loc[5, "coin_out"] = 12
    result = run(tmp_path, frame)
    assert codes(result) == ["malformed_row"]
    assert "impossible value: coin_out" in result.quarantine["reason"].iloc[0]


def test_missing_value_of_a_reported_meter(tmp_path):
    frame = history(10).astype({"coin_drop": "Int64"})
    frame.loc[4, "coin_drop"] = pd.NA
    result = run(tmp_path, frame)
    assert codes(result) == ["malformed_row"]
    assert "no value for meter coin_drop" in result.quarantine["reason"].iloc[0]


def test_missing_required_meter_and_stuck_meter(tmp_path):
    frame = history(10).drop(columns=["coin_drop"])
    frame.loc[6:, "coin_out"] = frame["coin_out"].iloc[5]
    frame.loc[6:, "games_won"] = frame["games_won"].iloc[5]  # keep other checks quiet
    frame["games_lost"] = frame["games_played"] - frame["games_won"]
    frame.loc[7:, "coin_out"] += 1  # the meter moves again after one frozen day
    result = run(tmp_path, frame, stuck_min_games=50)
    got = result.findings[["code", "meter", "period_end"]].values.tolist()
    assert ["missing_meter", "coin_drop", "2026-01-10T06:00:00Z"] in got
    assert ["stuck_meter", "prizes_paid", "2026-01-07T06:00:00Z"] in got


def test_time_gap(tmp_path):
    frame = history(10).drop(index=[5]).reset_index(drop=True)
    result = run(tmp_path, frame)
    assert codes(result) == ["time_gap"]
    assert result.findings["observed"].iloc[0] == pytest.approx(48)


def test_digits_from_the_jurisdiction(tmp_path, repo):
    cfg = from_jurisdiction(repo / "models" / "jurisdictions" / "pt.toml", digits=None)
    assert cfg.digits == 10 and cfg.confidence == pytest.approx(0.99)
    assert from_jurisdiction(repo / "models" / "jurisdictions" / "pt.toml", digits=8).digits == 8


def test_rows_without_machine_id_are_malformed_only(tmp_path):
    frame = history(6)
    blank = frame.iloc[[0, 5]].assign(machine_id="")  # far apart: no "machine" to gap
    result = run(tmp_path, pd.concat([frame, blank], ignore_index=True))
    assert codes(result) == ["malformed_row", "malformed_row"]
    assert (result.findings["machine_id"].fillna("") == "").all()
