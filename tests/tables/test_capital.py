"""Banker capital limit: settlement kernel vs twin, invariants, uncapped MC vs exact."""

from decimal import Decimal

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from tables_support import PAIKAO, POKER

from certify.tables import _kernels, _twins, exact_results, load_table
from certify.tables.capital import capital_report, capital_study

rounds_st = st.integers(1, 9).flatmap(
    lambda n: st.tuples(
        st.lists(st.sampled_from([0, 1, 2]), min_size=n, max_size=n),
        st.permutations(list(range(n))),
        st.lists(st.integers(1, 500).map(float), min_size=n, max_size=n),
        st.integers(0, 3000).map(float),
    )
)


@settings(max_examples=200, deadline=None)
@given(rounds_st, st.booleans(), st.booleans())
def test_settle_kernel_equals_twin(case, cap_loss, cap_gain):
    outcomes, order, stakes, capital = case
    got = _kernels.settle(
        np.array(outcomes), np.array(order), np.array(stakes), capital, 0.05, cap_loss, cap_gain
    )
    want = _twins.settle(outcomes, order, stakes, capital, 0.05, cap_loss, cap_gain)
    assert abs(got - want) < 1e-9


@settings(max_examples=200, deadline=None)
@given(rounds_st)
def test_capping_the_loss_never_helps_and_capping_the_gain_never_hurts(case):
    outcomes, order, stakes, capital = case
    free = _twins.settle(outcomes, order, stakes, capital, 0.05, False, False)
    assert _twins.settle(outcomes, order, stakes, capital, 0.05, True, False) <= free + 1e-9
    assert _twins.settle(outcomes, order, stakes, capital, 0.05, False, True) >= free - 1e-9
    if capital >= sum(stakes):
        assert _twins.settle(outcomes, order, stakes, capital, 0.05, True, True) == free


def test_study_matches_exact_when_uncapped_and_is_neutral_with_enough_capital():
    """Oracle for the uncapped return: the exact enumeration (interval from the
    per-round variance, seats of one round being correlated through the banker)."""
    for path in (POKER, PAIKAO):
        table = load_table(path)
        exact = float(exact_results(table)[0].rtp)
        rows = capital_study(table, rounds=40_000, seed=11)
        total = sum(table.capital.stakes)
        for row in rows:
            assert row.uncapped_ci[0] <= exact <= row.uncapped_ci[1]
            if row.capital >= total:
                assert row.change == 0 and row.binds == 0
            if row.mode == "payout":
                assert row.change <= 0
        assert any(r.binds > 0 for r in rows)


def test_capital_report_rows():
    table = load_table(POKER)
    report = capital_report(table, rounds=2_000, seed=1)
    assert report["game"] == "MO-POKER-3-CARTAS"
    assert len(report["rows"]) == 2 * len(table.capital.capitals)
    assert {r["mode"] for r in report["rows"]} == {"payout", "gain_and_loss"}
    assert Decimal(report["rows"][0]["capital"]) == table.capital.capitals[0]


@settings(max_examples=200, deadline=None)
@given(rounds_st, st.booleans(), st.booleans())
def test_total_returned_does_not_depend_on_settlement_order(case, cap_loss, cap_gain):
    """The cap applies to the banker's result of the round; the order only decides
    which seats go short, not how much the players get back in total."""
    outcomes, order, stakes, capital = case
    forward = _kernels.settle(
        np.array(outcomes), np.array(order), np.array(stakes), capital, 0.05, cap_loss, cap_gain
    )
    backward = _kernels.settle(
        np.array(outcomes),
        np.array(order[::-1]),
        np.array(stakes),
        capital,
        0.05,
        cap_loss,
        cap_gain,
    )
    assert abs(forward - backward) < 1e-9


def test_banker_result_stays_within_capital():
    """Oracle: hand-settled round. Banker capital 150; seats (in order) win 100,
    win 100, lose 100, win 100: collected 100, owed 300 -> he may pay 250, the
    last winner gets 50 of his 100 prize.  Players get back 4 x 100 stakes - 100
    lost + 250 x 0.95 prizes = 537.5."""
    back = _kernels.settle(
        np.array([2, 2, 0, 2]),
        np.array([0, 1, 2, 3]),
        np.array([100.0] * 4),
        150.0,
        0.05,
        True,
        True,
    )
    assert back == 400 - 100 + 250 * 0.95
