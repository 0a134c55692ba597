"""Property tests: row counts add up and reconcile is idempotent on random dumps."""

import tempfile
from pathlib import Path

import pandas as pd
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from meters.floor import load_floor
from meters.reconcile import reconcile

FLOOR = (
    "machine_id,model,bet_level,denomination,jackpot_pools,theoretical_rtp,sigma,digits\n"
    "A,,,0.05,,0.92,5,8\nB,,,0.10,p=0.01,0.90,4,10\nC,,,1.00,,0.95,3,10\n"
)
VALUE = st.one_of(
    st.integers(0, 10**8 + 10).map(str),
    st.integers(0, 5000).map(str),
    st.sampled_from(["", "x", "-1", "1.5", "99999999999"]),
)
ROW = st.tuples(
    st.sampled_from(["A", "A", "B", "C", "Z", ""]),
    st.one_of(
        st.integers(0, 12).map(lambda h: f"2026-01-0{1 + h // 6}T{(h % 6) * 4:02d}:00:00+00:00"),
        st.sampled_from(["garbage", "2026-01-01T00:00:00"]),
    ),
    VALUE,
    VALUE,
    VALUE,
    VALUE,
)
COLUMNS = ["machine_id", "read_at", "coin_in", "0001", "games_played", "progressive_contrib"]


def run(folder: Path, frame: pd.DataFrame, name: str):
    dump = folder / name
    frame.to_csv(dump, index=False)
    return reconcile([str(dump)], load_floor(folder / "floor.csv"))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(ROW, min_size=0, max_size=40))
def test_rows_add_up_and_reconcile_is_idempotent(rows):
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "floor.csv").write_text(FLOOR)
        frame = pd.DataFrame(rows, columns=COLUMNS, dtype=str)
        first = run(folder, frame, "d.csv")
        assert first.rows_in == len(rows)
        assert first.rows_in == first.rows_reconciled + first.rows_quarantined
        assert first.quarantine["source_line"].is_unique
        assert (first.quarantine["reason"] != "").all()
        again = run(folder, frame, "d.csv")
        pd.testing.assert_frame_equal(first.findings, again.findings)
        pd.testing.assert_frame_equal(first.periods, again.periods)
        kept = frame.drop(index=first.quarantine["source_line"].to_numpy() - 2)
        second = run(folder, kept, "kept.csv")
        assert second.rows_quarantined == 0
        assert second.rows_reconciled == first.rows_reconciled
        pd.testing.assert_frame_equal(first.periods, second.periods)
        for meter in ("coin_in", "coin_out", "games_played", "progressive_contrib"):
            if meter in first.periods:
                assert (first.periods[meter].dropna() >= 0).all()
