"""False alarms: 200 faultless logs, the family-wise failure rate within the binomial
interval of alpha (SPEC 10: a faultless log passes at the stated rate)."""

from __future__ import annotations

from scipy import stats

from certify.outcomes.record import record_outcomes
from certify.outcomes.verify import verify_outcomes

LOGS, GAMES, ALPHA = 200, 300, 0.01


def test_faultless_logs_fail_at_most_at_alpha(tmp_path, small):
    """200 logs of 300 games of the 3-reel game (seeds 2000..2199): the number failing lies
    in the two-sided 99% binomial interval of Binomial(200, 0.01), [0, 6] (Holm keeps the
    family-wise rate at or below alpha, so few or none fail). No log has a finding."""
    failed = 0
    log = tmp_path / "log.parquet"
    for s in range(LOGS):
        record_outcomes(small, GAMES, 2000 + s, log)
        r = verify_outcomes(log, small)
        assert r.mismatch_count == 0
        failed += r.verdict == "fail"
    low, high = stats.binom.ppf([0.005, 0.995], LOGS, ALPHA)
    assert low <= failed <= high
