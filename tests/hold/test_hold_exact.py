"""The exact hold-and-spin chain against oracles written apart from it.

Oracles (all exact, compared with ``==`` on Fractions):
* brute force over a tiny grid: every pattern of coin appearances on every
  respin (each cell by name, probability ``p^shown (1-p)^(empty-shown)``) and
  every assignment of values to the final coins;
* the collapsed chain: from ``L`` locked coins the next respin that locks
  anything locks ``k`` with probability ``b(k) (1 - q^R) / (1 - q)``, with
  ``q = (1-p)^(cells-L)`` (the respins that show nothing form a geometric
  run), and the feature stops at ``L`` with probability ``q^R``;
* a hand-worked example.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from math import comb

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from certify.exact.hold import final_count_distribution, hold_exact, hold_exact_by_start
from certify.model.hold import HoldAndSpin, HoldValue
from certify.model.schema import Trigger

VALUES = (HoldValue(3, 1, None), HoldValue(2, 4, None), HoldValue(1, None, "MINI"))
PRIZES = (("MINI", 10), ("GRAND", 50))


def _hs(respins: int, p: Fraction, values=VALUES, full: str | None = "GRAND", count=1):
    return HoldAndSpin(Trigger("COIN", count), respins, p, values, full, PRIZES)


def brute_force(hs: HoldAndSpin, rows: int, reels: int, start: int, progressive: set[str]):
    """Distribution of N, E[A], E[A^2], P(full) and hits by enumerating everything."""
    grid = frozenset(itertools.product(range(rows), range(reels)))
    p = hs.cell_probability
    finals: dict[frozenset, Fraction] = {}

    def play(locked: frozenset, left: int, prob: Fraction) -> None:
        if left == 0 or locked == grid:
            finals[locked] = finals.get(locked, Fraction(0)) + prob
            return
        empty = sorted(grid - locked)
        for shown in itertools.product((False, True), repeat=len(empty)):
            new = frozenset(cell for cell, s in zip(empty, shown) if s)
            pr = p ** len(new) * (1 - p) ** (len(empty) - len(new))
            if new:
                play(locked | new, hs.respins, prob * pr)
            else:
                play(locked, left - 1, prob * pr)

    play(frozenset(sorted(grid)[:start]), hs.respins, Fraction(1))
    prizes = dict(hs.jackpots)
    total_weight = sum(v.weight for v in hs.values)
    dist = [Fraction(0)] * (rows * reels + 1)
    mean = second = full = Fraction(0)
    hits: dict[str, Fraction] = {}
    for locked, prob in finals.items():
        dist[len(locked)] += prob
        is_full = locked == grid
        full += prob * is_full
        for assignment in itertools.product(hs.values, repeat=len(locked)):
            pr = prob
            award = Fraction(0)
            won = [v.jackpot for v in assignment if v.jackpot is not None]
            for v in assignment:
                pr *= Fraction(v.weight, total_weight)
                if v.jackpot is None:
                    award += v.pays
                elif v.jackpot not in progressive:
                    award += prizes[v.jackpot]
            if is_full and hs.full_window is not None:
                won.append(hs.full_window)
                if hs.full_window not in progressive:
                    award += prizes[hs.full_window]
            mean += pr * award
            second += pr * award * award
            for name in won:
                hits[name] = hits.get(name, Fraction(0)) + pr
    return dist, mean, second, full, hits


CASES = [
    # rows, reels, respins, p, start, full window, progressive
    (2, 2, 2, Fraction(1, 2), 1, "GRAND", set()),
    (2, 2, 2, Fraction(3, 10), 1, "GRAND", set()),
    (2, 2, 2, Fraction(3, 10), 2, None, set()),
    (2, 2, 2, Fraction(1, 3), 3, "GRAND", {"MINI"}),
    (2, 2, 2, Fraction(1, 3), 4, "GRAND", {"GRAND"}),
    (2, 2, 1, Fraction(2, 5), 1, "GRAND", set()),
    (2, 2, 3, Fraction(1, 10), 2, "MINI", set()),
    (1, 3, 2, Fraction(7, 10), 1, "GRAND", {"MINI", "GRAND"}),
]


@pytest.mark.parametrize(("rows", "reels", "respins", "p", "start", "full", "progressive"), CASES)
def test_chain_equals_brute_force_on_a_tiny_grid(rows, reels, respins, p, start, full, progressive):
    hs = _hs(respins, p, full=full)
    dist, mean, second, p_full, hits = brute_force(hs, rows, reels, start, progressive)
    ex = hold_exact(hs, rows * reels, start, progressive)
    assert ex.final_count == tuple(dist)
    assert sum(ex.final_count) == 1
    assert ex.mean == mean
    assert ex.second_moment == second
    assert ex.full_probability == p_full
    got = dict(ex.jackpot_hits) | dict(ex.progressive_hits)
    assert {k: v for k, v in got.items() if v} == hits
    assert set(dict(ex.progressive_hits)) == progressive & set(hs.jackpot_names())
    assert ex.distribution.sum() == pytest.approx(1.0, abs=1e-15)


def collapsed(cells: int, start: int, respins: int, p: Fraction) -> list[Fraction]:
    """Final-count distribution through the geometric runs of empty respins."""
    reach = [Fraction(0)] * (cells + 1)
    reach[start] = Fraction(1)
    final = [Fraction(0)] * (cells + 1)
    for locked in range(start, cells):
        e = cells - locked
        q = (1 - p) ** e
        final[locked] = reach[locked] * q**respins
        run = sum(q**j for j in range(respins))  # respins before one that locks
        for k in range(1, e + 1):
            reach[locked + k] += reach[locked] * run * comb(e, k) * p**k * (1 - p) ** (e - k)
    final[cells] = reach[cells]
    return final


@settings(max_examples=40, deadline=None)
@given(
    cells=st.integers(1, 16),
    data=st.data(),
    respins=st.integers(1, 4),
    num=st.integers(1, 99),
)
def test_chain_equals_the_collapsed_chain(cells, data, respins, num):
    start = data.draw(st.integers(0, cells))
    p = Fraction(num, 100)
    dist = final_count_distribution(cells, start, respins, p)
    assert list(dist) == collapsed(cells, start, respins, p)
    assert sum(dist) == 1
    assert all(x == 0 for x in dist[:start])


def test_hand_worked_example():
    """2 cells, 1 respin, p = 1/2, one value paying 1, 1 coin to start, full window 10.

    The respin fills the empty cell with probability 1/2: then N = 2 and
    A = 1 + 1 + 10 = 12; otherwise the feature ends with N = 1 and A = 1. So
    E[N] = 3/2, E[N^2] = 5/2, P(full) = 1/2, E[A] = (1 + 12)/2 = 13/2 and
    E[A^2] = (1 + 144)/2 = 145/2. Without the full-window prize E[A] = 3/2.
    """
    hs = HoldAndSpin(
        Trigger("COIN", 1), 1, Fraction(1, 2), (HoldValue(1, 1, None),), "GRAND", (("GRAND", 10),)
    )
    ex = hold_exact(hs, 2, 1)
    assert ex.final_count == (0, Fraction(1, 2), Fraction(1, 2))
    assert (ex.mean_count, ex.mean_count_sq) == (Fraction(3, 2), Fraction(5, 2))
    assert ex.full_probability == Fraction(1, 2)
    assert ex.mean == Fraction(13, 2)
    assert ex.second_moment == Fraction(145, 2)
    assert ex.variance == Fraction(145, 2) - Fraction(169, 4)
    assert ex.jackpot_hits == (("GRAND", Fraction(1, 2)),)
    assert hold_exact(hs, 2, 1, progressive={"GRAND"}).mean == Fraction(3, 2)


def test_a_full_start_is_a_full_window_at_once():
    hs = _hs(3, Fraction(1, 5))
    ex = hold_exact(hs, 4, 4)
    assert ex.final_count == (0, 0, 0, 0, 1)
    m = Fraction(3 * 1 + 2 * 4 + 1 * 10, 6)
    assert ex.mean == 4 * m + 50


def test_coin_moments_and_hits_of_the_spec_block():
    """m and v of the SPEC values; hits = E[N] w / W (+ P(full) for the full window)."""
    values = (
        HoldValue(60, 1, None),
        HoldValue(25, 2, None),
        HoldValue(10, 5, None),
        HoldValue(4, None, "MINI"),
        HoldValue(1, None, "MAJOR"),
    )
    prizes = (("MINI", 10), ("MINOR", 25), ("MAJOR", 100), ("GRAND", 1000))
    hs = HoldAndSpin(Trigger("COIN", 6), 3, Fraction(3, 100), values, "GRAND", prizes)
    ex = hold_exact(hs, 15, 6)
    m = Fraction(60 + 50 + 50 + 40 + 100, 100)
    assert ex.coin_mean == m
    assert ex.coin_variance == Fraction(60 + 100 + 250 + 400 + 10_000, 100) - m * m
    hits = dict(ex.jackpot_hits)
    assert hits["MINI"] == ex.mean_count * Fraction(4, 100)
    assert hits["MINOR"] == 0
    assert hits["GRAND"] == ex.full_probability
    assert ex.mean == ex.mean_count * m + 1000 * ex.full_probability
    assert 0 < ex.full_probability < Fraction(1, 10_000)
    pooled = hold_exact(hs, 15, 6, progressive={"MAJOR", "GRAND"})
    assert pooled.progressive_hits == (
        ("MAJOR", ex.mean_count / 100),
        ("GRAND", ex.full_probability),
    )
    assert pooled.mean == ex.mean_count * (m - 1)


@pytest.mark.parametrize(
    ("cells", "start", "message"),
    [(4, 0, r"start must be in \[1, 4\], got 0"), (4, 5, r"start must be in \[1, 4\], got 5")],
)
def test_bad_start_is_refused(cells, start, message):
    with pytest.raises(ValueError, match=message):
        hold_exact(_hs(2, Fraction(1, 2)), cells, start)


def test_an_unknown_jackpot_is_refused():
    hs = _hs(2, Fraction(1, 2), values=(HoldValue(1, None, "pool-x"),), full=None)
    with pytest.raises(ValueError, match='jackpot "pool-x" is neither'):
        hold_exact(hs, 4, 1)
    assert hold_exact(hs, 4, 1, progressive={"pool-x"}).mean == 0


def test_every_start_at_once():
    hs = _hs(2, Fraction(1, 3), count=2)
    every = hold_exact_by_start(hs, 4, {"MINI"})
    assert list(every) == [2, 3, 4]
    assert every[3] == hold_exact(hs, 4, 3, {"MINI"})
    assert every[4].full_probability == 1
