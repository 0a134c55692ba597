"""Pool simulation against closed forms, a spin-by-spin twin, and its own accounts.

Oracles and tolerances:
* amount at hit (one stake, no cap): ``reset + c x stake / p_spin``; with a
  mystery trigger of probability ``p`` per credit (``k`` credits a spin) that
  is about ``reset + c x denomination / p`` (the brief's form); 4.5 standard
  errors;
* with a cap and ``overflow = "reserve"``: ``reset + c x stake x E[min(N, m)]``
  (:func:`certify.jackpot_return.geometric_capped_mean`), 4.5 SE;
* group spins between hits geometric(p) (one machine) with mean
  ``sum(rate) / sum(rate x p)``; days between hits exponential with rate
  ``sum(rate x p)``: Kolmogorov-Smirnov, p-value > 1e-3;
* winners in proportion to ``rate x p``: chi-square, p-value > 1e-3;
* money: contributions + operator funding = paid + final balances, to 1e-9
  relative, on every path.
"""

from __future__ import annotations

import json

import numba
import numpy as np
import pytest
from scipy import stats
from testpaths import ROOT
from twins.pools import twin_amounts

from certify.jackpot_return import expected_amount, geometric_capped_mean, pool_return
from certify.model.links import load_link
from certify.pools import Player, PoolSpec, simulate_pool
from certify.pools.specs import link_pool
from certify.pools.summary import closed_form, summarize

Z = 4.5
P_CREDIT, CREDITS, DENOM = 5e-6, 20, 0.05  # mystery: 5e-6 per credit, 20 credits a spin
P_SPIN = -np.expm1(CREDITS * np.log1p(-P_CREDIT))  # 1 - (1 - p)^k
STAKE = CREDITS * DENOM


def _one(cap=None, overflow="reserve", rate=2000.0, reserve_rate=0.0):
    return PoolSpec(
        "local", 0.01, 100.0, (Player("M-1", STAKE, P_SPIN, rate),), cap, overflow, reserve_rate
    )


@pytest.fixture(scope="module")
def uncapped():
    return simulate_pool(_one(), days=365, paths=160, seed=11)


def _near(sample: np.ndarray, target: float) -> None:
    se = sample.std(ddof=1) / np.sqrt(sample.size)
    assert abs(sample.mean() - target) < Z * se, (sample.mean(), target, se)


def test_mystery_amount_at_hit_is_reset_plus_c_over_p(uncapped):
    _near(uncapped.amounts, 100.0 + 0.01 * STAKE / P_SPIN)
    _near(uncapped.amounts, 100.0 + 0.01 * DENOM / P_CREDIT)  # per-credit form of the brief


def test_spins_between_hits_are_geometric(uncapped):
    assert stats.kstest(uncapped.spins, stats.geom(P_SPIN).cdf).pvalue > 1e-3
    _near(uncapped.spins.astype(float), 1 / P_SPIN)


def test_days_between_hits_are_exponential(uncapped):
    rate = 2000.0 * P_SPIN
    assert stats.kstest(uncapped.days_between, stats.expon(scale=1 / rate).cdf).pvalue > 1e-3
    per_path = uncapped.hits_in_horizon / uncapped.paths / uncapped.days
    assert abs(per_path - rate) < Z * np.sqrt(rate / uncapped.days / uncapped.paths)


def test_money_adds_up_on_every_path(uncapped):
    scale = uncapped.totals.max()
    assert uncapped.balance_error() < 1e-9 * scale


def test_cap_diverts_to_the_reserve():
    cap = 150.0
    run = simulate_pool(_one(cap=cap), days=365, paths=120, seed=12)
    a = 0.01 * STAKE
    mean_n = geometric_capped_mean(P_SPIN, (cap - 100.0) / a)
    _near(run.amounts, 100.0 + a * mean_n)
    assert run.amounts.max() <= cap + 1e-9
    amount, diverted = expected_amount(100.0, 0.01, cap, "reserve", STAKE, P_SPIN)
    assert amount == pytest.approx(100.0 + a * mean_n)
    per_hit = run.totals[:, 6].sum() / run.hits_in_horizon
    assert per_hit == pytest.approx(diverted, rel=0.05)
    assert run.balance_error() < 1e-9 * run.totals.max()
    # the reserve funds resets: the operator pays less than one reset a hit
    assert run.operator_seed.mean() < 100.0


def test_next_reset_overflow_pays_everything_back():
    """Long-run mean amount is min(cap, reset + c/q) when nothing leaves the pool."""
    cap = 160.0  # below reset + c/q = 200: the carry makes later pools start higher
    run = simulate_pool(_one(cap=cap, overflow="next-reset"), days=365, paths=120, seed=13)
    assert run.amounts.max() <= cap + 1e-9
    assert run.amounts.mean() == pytest.approx(cap, rel=0.01)
    assert run.balance_error() < 1e-9 * run.totals.max()
    roomy = simulate_pool(_one(cap=260.0, overflow="next-reset"), days=365, paths=120, seed=19)
    target = 100.0 + 0.01 * STAKE / P_SPIN  # about 200: the carry is paid at later hits
    assert roomy.amounts.mean() == pytest.approx(target, rel=0.02)
    assert expected_amount(100.0, 0.01, 260.0, "next-reset", STAKE, P_SPIN)[0] == pytest.approx(
        target
    )


def test_kernel_matches_spin_by_spin_twin():
    """Same model, independent streams: amounts and liabilities agree (two-sample KS)."""
    p, stake, cap = 0.01, 1.0, 103.0
    spec = PoolSpec("t", 0.02, 100.0, (Player("T", stake, p, 40.0),), cap, "reserve")
    run = simulate_pool(spec, days=100, paths=60, seed=14)
    amounts, liabilities = twin_amounts(0.02, 100.0, cap, stake, p, 40.0, 100, 60, seed=15)
    assert stats.ks_2samp(run.amounts, amounts).pvalue > 1e-3
    assert stats.ks_2samp(run.liability[:, -1], liabilities).pvalue > 1e-3


def _group():
    players = (
        Player("EST-1", 1.00, 2e-5, 3000.0, "Estoril"),
        Player("EST-2", 0.40, 1e-5, 5000.0, "Estoril"),
        Player("LIS-1", 2.00, 3e-5, 1000.0, "Lisboa"),
        Player("LIS-2", 0.50, 0.0, 4000.0, "Lisboa"),
    )  # cannot win, still feeds
    return PoolSpec("SJ", 0.005, 1000.0, players)


def test_linked_group_closed_forms():
    spec = _group()
    run = simulate_pool(spec, days=365, paths=100, seed=16)
    rate, stake, p = spec.arrays()
    hits = (rate * p).sum()
    _near(run.amounts, 1000.0 + 0.005 * (rate * stake).sum() / hits)
    _near(run.spins.astype(float), rate.sum() / hits)
    assert stats.kstest(run.days_between, stats.expon(scale=1 / hits).cdf).pvalue > 1e-3
    counts = np.bincount(run.winners, minlength=4)
    assert counts[3] == 0
    expected = (rate * p)[:3] / hits * counts.sum()
    assert stats.chisquare(counts[:3], expected).pvalue > 1e-3
    form = closed_form(spec)
    assert form["amount"] == pytest.approx(1000.0 + 0.005 * (rate * stake).sum() / hits)


def test_simulated_return_matches_certified_return():
    """Paid over coin-in on long paths -> q x E[amount] of certify.jackpot_return."""
    spec = _one(cap=150.0)
    run = simulate_pool(spec, days=730, paths=120, seed=17)
    coin_in = run.totals[:, 0].sum() / 0.01
    paid = run.totals[:, 2].sum() - 100.0 * run.paths  # less the initial seeds
    certified = pool_return(spec_pool(), STAKE, P_SPIN).rtp
    assert paid / coin_in == pytest.approx(certified, rel=0.03)


def spec_pool():
    from decimal import Decimal

    from certify.model.schema import Jackpot

    return Jackpot("local", "standalone", Decimal("0.01"), Decimal("100"), Decimal("150"))


def test_runs_are_reproducible_and_thread_independent():
    spec = _group()
    a = simulate_pool(spec, days=60, paths=8, seed=5)
    threads = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        b = simulate_pool(spec, days=60, paths=8, seed=5)
    finally:
        numba.set_num_threads(threads)
    assert np.array_equal(a.amounts, b.amounts) and np.array_equal(a.daily, b.daily)
    c = simulate_pool(spec, days=60, paths=8, seed=5, stream=1)
    assert not np.array_equal(a.daily, c.daily)
    first = simulate_pool(spec, days=60, paths=3, seed=5)  # path i depends on i only
    assert np.array_equal(first.daily, a.daily[:3])


def test_summary_liability_percentiles_of_the_shipped_group():
    link = load_link(ROOT / "models" / "links" / "atlantico.toml")
    spec = link_pool(link)
    run = simulate_pool(spec, days=365, paths=100, seed=18)
    s = summarize(run)
    lia = s["liability_at_horizon"]
    assert 5000.0 <= lia["p50"] <= lia["p90"] <= lia["p99"]
    assert s["liability_max_over_horizon"]["p99"] >= lia["p99"]
    assert s["closed_form"]["days"] == pytest.approx(1 / spec.hits_per_day)
    assert s["balance_error"] < 1e-6
    assert s["hits"] == run.hits_in_horizon == run.amounts.size - run.paths > 0
    assert set(s["wins"]["by_casino"]) == {"Casino Estoril", "Casino Lisboa"}
    assert sum(s["wins"]["by_machine"].values()) == s["hits"]


def test_few_hits_a_path_are_not_biased_towards_short_cycles():
    """SJ-ATLANTICO hits about 9 times a year: the cycle open at the horizon is
    played out, so cycle statistics keep no 1/9 truncation bias."""
    spec = link_pool(load_link(ROOT / "models" / "links" / "atlantico.toml"))
    run = simulate_pool(spec, days=365, paths=300, seed=20)
    form = closed_form(spec)
    _near(run.amounts, form["amount"])
    _near(run.days_between, form["days"])
    _near(run.spins.astype(float), form["spins"])


def test_simulate_command_prints_the_summary(capsys):
    from certify.cli import main

    group = str(ROOT / "models" / "links" / "atlantico.toml")
    assert main(["jackpots", "simulate", group, "--days", "30", "--paths", "4", "--seed", "1"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["pool"] == "SJ-ATLANTICO" and doc["paths"] == 4 and doc["days"] == 30
    assert doc["closed_form"]["method"] == "exact"
