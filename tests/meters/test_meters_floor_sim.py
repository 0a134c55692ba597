"""End to end on simulated floors: clean, with every fault, across formats and paths."""

import pandas as pd
import pytest
from meters_helpers import unmatched

from meters.faults import FAULT_KINDS
from meters.floor import load_counts, load_floor
from meters.reconcile import reconcile
from meters.simulate import simulate_floor


def reconcile_files(paths, **kwargs):
    return reconcile(
        [str(paths["dump"])], load_floor(paths["floor"]), load_counts(paths["counts"]), **kwargs
    )


def test_clean_floor_has_no_findings(clean_sim, tmp_path):
    result = reconcile_files(clean_sim.write(tmp_path, "parquet"))
    assert result.errors == 0
    assert result.findings.empty, result.findings.to_string()
    assert result.rows_quarantined == 0 and result.rows_reconciled == result.rows_in
    assert len(result.periods) == 60 * 21


def test_every_injected_fault_is_found_and_nothing_else(faulty_sim, faulty_files):
    result = reconcile_files(faulty_files["csv"])
    injected = pd.read_csv(faulty_files["csv"]["injected"])
    assert set(injected["kind"]) >= set(FAULT_KINDS)
    missed, extra = unmatched(result.findings, injected)
    assert missed == [] and extra == []
    assert result.rows_in == result.rows_reconciled + result.rows_quarantined
    assert set(result.quarantine["code"]) == {
        "duplicate_row",
        "out_of_order",
        "malformed_row",
        "unknown_machine",
    }


@pytest.mark.parametrize("other", ["parquet-sas", "jsonl-sas", "csv-sas"])
def test_formats_and_sas_codes_give_identical_findings(faulty_files, other):
    base = reconcile_files(faulty_files["csv"])
    alt = reconcile_files(faulty_files[other])
    cols = [
        "machine_id",
        "period_start",
        "period_end",
        "code",
        "severity",
        "meter",
        "expected",
        "observed",
    ]
    pd.testing.assert_frame_equal(base.findings[cols], alt.findings[cols])
    pd.testing.assert_frame_equal(base.periods, alt.periods)


@pytest.mark.parametrize(
    "how",
    [
        dict(pieces=7, batch_rows=97),
        dict(block_rows=50),
        dict(pieces=3, block_rows=100, batch_rows=200),
    ],
)
def test_piecewise_equals_in_memory(faulty_files, tmp_path, how):
    whole = reconcile_files(faulty_files["parquet-sas"])
    parts = reconcile_files(faulty_files["parquet-sas"], workdir=str(tmp_path), **how)
    for name in ("findings", "periods", "quarantine", "totals"):
        pd.testing.assert_frame_equal(getattr(whole, name), getattr(parts, name))
    assert (whole.rows_in, whole.rows_reconciled) == (parts.rows_in, parts.rows_reconciled)


def test_reconcile_is_idempotent(faulty_files, tmp_path):
    paths = faulty_files["csv"]
    first, again = reconcile_files(paths), reconcile_files(paths)
    pd.testing.assert_frame_equal(first.findings, again.findings)
    # reconciling only the rows that were kept quarantines nothing more
    rows = pd.read_csv(paths["dump"], dtype=str, keep_default_na=False)
    kept = rows.drop(index=first.quarantine["source_line"].to_numpy() - 2)
    dump = tmp_path / "kept.csv"
    kept.to_csv(dump, index=False)
    second = reconcile([str(dump)], load_floor(paths["floor"]), load_counts(paths["counts"]))
    assert second.rows_quarantined == 0
    assert second.rows_reconciled == first.rows_reconciled
    pd.testing.assert_frame_equal(first.periods, second.periods)


def test_hourly_readings_at_eight_digits_with_faults(tmp_path):
    sim = simulate_floor(30, 6, seed=5, per_day=24, digits=8, faults="all")
    paths = sim.write(tmp_path, "parquet")
    from meters.config import Config

    result = reconcile(
        [str(paths["dump"])],
        load_floor(paths["floor"], 8),
        load_counts(paths["counts"]),
        Config(digits=8),
    )
    missed, extra = unmatched(result.findings, pd.read_csv(paths["injected"]))
    assert missed == [] and extra == []


@pytest.mark.slow
@pytest.mark.parametrize("faults", [(), "all"])
def test_full_floor_500_machines_90_days(tmp_path, faults):
    sim = simulate_floor(500, 90, seed=2026, faults=faults)
    paths = sim.write(tmp_path, "parquet", sas=True)
    result = reconcile_files(paths)
    missed, extra = unmatched(result.findings, pd.read_csv(paths["injected"]))
    assert missed == [] and extra == []
    if not faults:
        assert result.errors == 0 and result.findings.empty


def test_small_pages_restores_numpy_setting(monkeypatch):
    from numpy._core import multiarray

    from meters.reconcile import small_pages

    monkeypatch.delenv("NUMPY_MADVISE_HUGEPAGE", raising=False)
    before = multiarray._set_madvise_hugepage(True)
    try:
        with small_pages():
            assert multiarray._set_madvise_hugepage(False) is False
        assert multiarray._set_madvise_hugepage(True) is True
    finally:
        multiarray._set_madvise_hugepage(before)


@pytest.mark.parametrize("pieces", [1, 3])
def test_rows_spread_over_several_dumps(faulty_files, tmp_path, pieces):
    paths = faulty_files["csv"]
    rows = pd.read_csv(paths["dump"], dtype=str, keep_default_na=False)
    odd, even = tmp_path / "odd.csv", tmp_path / "even.parquet"
    rows.iloc[1::2].to_csv(odd, index=False)
    even_rows = rows.iloc[0::2]
    pd.DataFrame(
        {
            c: even_rows[c]
            if c in ("machine_id", "read_at")
            else pd.to_numeric(even_rows[c]).astype("Int64")
            for c in rows
        }
    ).to_parquet(even)
    whole = reconcile_files(paths)
    split = reconcile(
        [str(odd), str(even)],
        load_floor(paths["floor"]),
        load_counts(paths["counts"]),
        pieces=pieces,
        workdir=str(tmp_path),
    )
    cols = ["machine_id", "period_start", "period_end", "code", "meter", "expected", "observed"]
    pd.testing.assert_frame_equal(whole.findings[cols], split.findings[cols])
    pd.testing.assert_frame_equal(whole.periods, split.periods)
    assert split.rows_in == whole.rows_in == split.rows_reconciled + split.rows_quarantined
