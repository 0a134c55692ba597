"""Each ``record --fault`` is found at the size docs/OUTCOMES.md documents for the 3-reel
SMALL-FEATURES game (its power table: at least 99% of 200 logs of that size fail), and
the faultless log of the same seed passes."""

from __future__ import annotations

import pytest

from certify.outcomes.record import record_outcomes
from certify.outcomes.verify import verify_outcomes

# games a log needs to find the fault at alpha = 0.01 with 99% probability (docs/OUTCOMES.md)
SIZES = {"pay": 25, "feature": 400, "bias": 400, "serial": 2000}
KIND = {"pay": "payout", "feature": "feature", "bias": "stops", "serial": "serial"}


@pytest.mark.parametrize("fault", list(SIZES))
def test_fault_found_at_documented_size(tmp_path, small, fault):
    """The fault's own test fails (payout, feature order, stop fit, serial pairs); the same
    seed without the fault passes every test."""
    games = SIZES[fault]
    bad, good = tmp_path / "bad.parquet", tmp_path / "good.parquet"
    record_outcomes(small, games, 7, bad, fault=fault)
    record_outcomes(small, games, 7, good)
    found = verify_outcomes(bad, small)
    assert found.verdict == "fail"
    assert any(t["kind"] == KIND[fault] and t["verdict"] == "fail" for t in found.tests)
    clean = verify_outcomes(good, small)
    assert clean.verdict == "pass", [t for t in clean.tests if t["verdict"] == "fail"]
    assert clean.mismatch_count == 0


def test_pay_fault_names_the_screen(tmp_path, small):
    """Every wrongly paid screen is a finding naming game, phase, stops, expected and paid."""
    log = tmp_path / "bad.csv"
    summary = record_outcomes(small, 200, 3, log, fault="pay")
    r = verify_outcomes(log, small)
    assert r.mismatch_count == len(r.mismatches) > 0
    m = r.mismatches[0]
    assert m["kind"] == "payout" and m["paid"] > m["expected"] and len(m["stops"].split("-")) == 3
    assert summary["entry"]


def test_feature_fault_is_a_free_spin_too_many(tmp_path, small):
    """One free spin beyond the award: the feature check names the extra free screen of each
    game found (a retrigger near the cap of 9 may then also leave the counts apart)."""
    log = tmp_path / "bad.jsonl"
    record_outcomes(small, 400, 7, log, fault="feature")
    r = verify_outcomes(log, small)
    assert {m["kind"] for m in r.mismatches} == {"feature"}
    extra = {m["game"] for m in r.mismatches if "beyond the free spins awarded" in m["message"]}
    assert extra and extra == {m["game"] for m in r.mismatches}
    assert all(m["phase"] == "free" for m in r.mismatches)


def test_raw_output_joins_the_family(tmp_path, small):
    """--raw: good words pass with the log; words with a stuck bit fail the raw tests."""
    import numpy as np

    log = tmp_path / "log.parquet"
    record_outcomes(small, 300, 7, log)
    rng = np.random.default_rng(2)
    good, bad = tmp_path / "good.bin", tmp_path / "bad.bin"
    words = rng.integers(0, 2**32, 40_000, dtype=np.uint32)
    words.astype("<u4").tofile(good)
    (words | np.uint32(1)).astype("<u4").tofile(bad)
    r = verify_outcomes(log, small, raw=good)
    assert r.verdict == "pass" and sum(t["kind"] == "raw" for t in r.tests) == 7
    r = verify_outcomes(log, small, raw=bad)
    assert any(t["kind"] == "raw" and t["verdict"] == "fail" for t in r.tests)
