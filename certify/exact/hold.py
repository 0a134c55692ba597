r"""Exact moments of a hold-and-spin feature (SPEC 3.1b), in rational arithmetic.

The chain
---------
The state is (locked coins ``L``, respins left ``r``). On a respin each of the
``e = cells - L`` empty cells shows a coin independently with probability
``p``, so ``k`` new coins lock with the binomial probability
``C(e, k) p^k (1 - p)^(e - k)``. ``k > 0`` leads to ``(L + k, respins)``;
``k = 0`` to ``(L, r - 1)``. The feature ends (absorbs) at ``r = 0`` or at
``L = cells``. ``L`` never decreases and, for a fixed ``L``, ``r`` only
decreases, so one forward pass over ``L`` ascending, ``r`` descending, gives
the probability of reaching every state and the distribution of the final
count ``N`` exactly: ``O(cells^2 x respins)`` rational operations
(:func:`final_count_distribution`).

The award
---------
Every locked coin (those of the triggering screen included) carries a value
``X_i`` drawn independently of the chain and of the other coins, with mean
``m`` and variance ``v`` (x total bet; values paying a progressive pool count
0 here). With ``F`` the full-window prize (0 if none or progressive) and
``S = X_1 + ... + X_N``, the award is ``A = S + F 1[N = cells]``.
Conditioning on ``N``: ``E[S | N] = N m`` and ``E[S^2 | N] = N v + N^2 m^2``;
the full-window event is a function of ``N``, so
``E[S 1_full] = m E[N; full] = m cells P(full)``. Hence

.. math::

    E[A]   &= E[N] m + P(full) F \\
    E[A^2] &= E[N] v + E[N^2] m^2 + 2 F m E[N; full] + P(full) F^2

with ``E[N; full] = cells P(full)``. A jackpot ``j`` is won
``E[N] w_j / W`` times on average (its coin weight over the total weight),
plus ``P(full)`` when it is the full-window prize.

Arithmetic
----------
Everything is computed in :class:`fractions.Fraction` (exact: the cell
probability is a decimal, the weights integers); :class:`HoldExact` holds the
Fractions and offers float views (``distribution``, :meth:`HoldExact.floats`).

Hand-worked example (``tests/hold/test_hold_exact.py``): 2 cells, 1 respin,
``p = 1/2``, one value paying 1, started by 1 coin, full window paying 10.
The one respin fills the other cell with probability 1/2 (``N = 2``,
``A = 2 + 10``), else the feature ends with ``N = 1``, ``A = 1``:
``E[A] = (1 + 12) / 2 = 13/2`` and ``E[A^2] = (1 + 144) / 2 = 145/2``. The
formula agrees: ``m = 1, v = 0, E[N] = 3/2, E[N^2] = 5/2, P(full) = 1/2``
gives ``3/2 + 5 = 13/2`` and ``0 + 5/2 + 2 x 10 x 1 x 1 + 50 = 145/2``.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import comb

import numpy as np

from certify.model.hold import HoldAndSpin


@dataclass(frozen=True)
class HoldExact:
    """Exact figures of one hold-and-spin feature, x total bet.

    Parameters
    ----------
    cells : int
        Window cells.
    start : int
        Coins locked by the triggering screen.
    final_count : tuple of Fraction
        ``P(N = n)`` for ``n = 0 .. cells`` (zero below ``start``).
    mean : Fraction
        ``E[A]``: fixed prizes only (progressive pools excluded).
    second_moment : Fraction
        ``E[A^2]``, the same award.
    full_probability : Fraction
        ``P(N = cells)``.
    mean_count, mean_count_sq : Fraction
        ``E[N]`` and ``E[N^2]``.
    coin_mean, coin_variance : Fraction
        Mean and variance of one coin's value (progressive values as 0).
    jackpot_hits : tuple of (str, Fraction)
        Expected wins per feature of each fixed-prize jackpot (in ``mean``).
    progressive_hits : tuple of (str, Fraction)
        Expected wins per feature of each progressive pool (not in ``mean``).

    """

    cells: int
    start: int
    final_count: tuple[Fraction, ...]
    mean: Fraction
    second_moment: Fraction
    full_probability: Fraction
    mean_count: Fraction
    mean_count_sq: Fraction
    coin_mean: Fraction
    coin_variance: Fraction
    jackpot_hits: tuple[tuple[str, Fraction], ...]
    progressive_hits: tuple[tuple[str, Fraction], ...]

    @property
    def distribution(self) -> np.ndarray:
        """``P(N = n)``, ``n = 0 .. cells``, as a float64 array."""
        return np.array([float(x) for x in self.final_count], dtype=np.float64)

    @property
    def variance(self) -> Fraction:
        """``Var[A] = E[A^2] - E[A]^2``."""
        return self.second_moment - self.mean * self.mean

    def floats(self) -> dict[str, float]:
        """The scalar figures as floats (mean, second moment, variance, P(full), E[N])."""
        return {
            "mean": float(self.mean),
            "second_moment": float(self.second_moment),
            "variance": float(self.variance),
            "full_probability": float(self.full_probability),
            "mean_count": float(self.mean_count),
        }


def final_count_distribution(
    cells: int, start: int, respins: int, p: Fraction
) -> tuple[Fraction, ...]:
    """Distribution of the final number of locked coins, from the absorbing chain.

    Parameters
    ----------
    cells : int
        Window cells (>= 1).
    start : int
        Coins locked at the start, ``0 <= start <= cells``.
    respins : int
        Respins left at the start and after each respin that locks a coin (>= 1).
    p : Fraction
        Chance that one empty cell shows a coin on one respin, in (0, 1).

    Returns
    -------
    tuple of Fraction
        ``P(N = n)`` for ``n = 0 .. cells``; sums to 1 exactly.

    """
    if not 0 <= start <= cells or respins < 1 or not 0 < p < 1:
        raise ValueError(f"need 0 <= start <= cells, respins >= 1, 0 < p < 1: {start=} {cells=}")
    a, d = p.numerator, p.denominator
    scale = _scales(cells, start, respins)
    # reach[L][r] * d**scale[L][r]: probability (an integer numerator) that a
    # respin is about to be played with L locked and r respins left
    reach = [[0] * (respins + 1) for _ in range(cells + 1)]
    final = [Fraction(0)] * (cells + 1)
    reach[start][respins] = 1
    for locked in range(start, cells):
        empty = cells - locked
        # one respin: k new coins with probability step[k] / d**empty
        step = [comb(empty, k) * a**k * (d - a) ** (empty - k) for k in range(empty + 1)]
        row, here = reach[locked], scale[locked]
        for left in range(respins, 0, -1):
            x = row[left]
            if not x:
                continue
            for k in range(1, empty + 1):
                lift = scale[locked + k][respins] - here[left] - empty
                reach[locked + k][respins] += x * step[k] * d**lift
            if left > 1:
                row[left - 1] += x * step[0] * d ** (here[left - 1] - here[left] - empty)
            else:
                final[locked] = Fraction(x * step[0], d ** (here[left] + empty))
    final[cells] = Fraction(reach[cells][respins], d ** scale[cells][respins])
    return tuple(final)


def _scales(cells: int, start: int, respins: int) -> list[list[int]]:
    """Per state, the largest power of the denominator on any path into it.

    A respin with ``e`` empty cells multiplies a path's probability by an
    integer over ``d**e``; holding each state's probability over the largest
    such power keeps the chain in integer arithmetic (no gcd per operation).
    """
    scale = [[0] * (respins + 1) for _ in range(cells + 1)]
    for locked in range(start, cells):
        empty = cells - locked
        for left in range(respins, 0, -1):
            out = scale[locked][left] + empty
            for k in range(1, empty + 1):
                scale[locked + k][respins] = max(scale[locked + k][respins], out)
            if left > 1:
                scale[locked][left - 1] = max(scale[locked][left - 1], out)
    return scale


def hold_exact(
    hs: HoldAndSpin, cells: int, start: int, progressive: set[str] | frozenset[str] = frozenset()
) -> HoldExact:
    """Exact award moments, full-window probability and jackpot hits of the feature.

    Parameters
    ----------
    hs : HoldAndSpin
        The feature.
    cells : int
        Window cells (rows x reels).
    start : int
        Coins locked by the triggering screen, ``hs.trigger.count <= start <= cells``.
    progressive : set of str
        Jackpot names that pay a progressive pool: their expected hits go to
        ``progressive_hits`` and they add nothing to the award moments.

    Returns
    -------
    HoldExact
        See the module docstring for the method.

    """
    if not hs.trigger.count <= start <= cells:
        raise ValueError(f"start must be in [{hs.trigger.count}, {cells}], got {start}")
    dist = final_count_distribution(cells, start, hs.respins, hs.cell_probability)
    en = sum((n * x for n, x in enumerate(dist)), Fraction(0))
    en2 = sum((n * n * x for n, x in enumerate(dist)), Fraction(0))
    full = dist[cells]
    m, v = _coin_moments(hs, progressive)
    f = Fraction(0)
    if hs.full_window is not None and hs.full_window not in progressive:
        f = Fraction(_prize(hs, hs.full_window))
    mean = en * m + full * f
    second = en * v + en2 * m * m + 2 * f * m * cells * full + full * f * f
    hits = _jackpot_hits(hs, en, full)
    return HoldExact(
        cells=cells,
        start=start,
        final_count=dist,
        mean=mean,
        second_moment=second,
        full_probability=full,
        mean_count=en,
        mean_count_sq=en2,
        coin_mean=m,
        coin_variance=v,
        jackpot_hits=tuple((j, h) for j, h in hits if j not in progressive),
        progressive_hits=tuple((j, h) for j, h in hits if j in progressive),
    )


def _prize(hs: HoldAndSpin, name: str) -> int:
    prizes = dict(hs.jackpots)
    if name not in prizes:
        raise ValueError(f'jackpot "{name}" is neither a fixed prize nor progressive')
    return prizes[name]


def _coin_pay(hs: HoldAndSpin, index: int, progressive: set[str] | frozenset[str]) -> int:
    value = hs.values[index]
    if value.jackpot is None:
        return value.pays or 0
    return 0 if value.jackpot in progressive else _prize(hs, value.jackpot)


def _coin_moments(
    hs: HoldAndSpin, progressive: set[str] | frozenset[str]
) -> tuple[Fraction, Fraction]:
    total = sum(v.weight for v in hs.values)
    pays = [_coin_pay(hs, i, progressive) for i in range(len(hs.values))]
    m = Fraction(sum(v.weight * x for v, x in zip(hs.values, pays)), total)
    m2 = Fraction(sum(v.weight * x * x for v, x in zip(hs.values, pays)), total)
    return m, m2 - m * m


def _jackpot_hits(
    hs: HoldAndSpin, mean_count: Fraction, full: Fraction
) -> list[tuple[str, Fraction]]:
    total = sum(v.weight for v in hs.values)
    out = []
    for name in hs.jackpot_names():
        weight = sum(v.weight for v in hs.values if v.jackpot == name)
        hits = mean_count * Fraction(weight, total)
        if hs.full_window == name:
            hits += full
        out.append((name, hits))
    return out


def hold_exact_by_start(
    hs: HoldAndSpin, cells: int, progressive: set[str] | frozenset[str] = frozenset()
) -> dict[int, HoldExact]:
    """:func:`hold_exact` for every possible start, ``hs.trigger.count .. cells``.

    The cycle's trigger buckets give how many coins the triggering screen
    shows; each count starts its own chain (``O(cells^3 x respins)`` in all).
    """
    return dict(_by_start(hs, cells, frozenset(progressive)))


@lru_cache(maxsize=16)
def _by_start(
    hs: HoldAndSpin, cells: int, progressive: frozenset[str]
) -> tuple[tuple[int, HoldExact], ...]:
    """:func:`hold_exact_by_start`, kept: every bet level and check asks for the same chain."""
    return tuple(
        (start, hold_exact(hs, cells, start, progressive))
        for start in range(hs.trigger.count, cells + 1)
    )
