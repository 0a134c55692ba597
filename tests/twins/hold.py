"""A slow, obviously-correct twin of the hold-and-spin feature: screen by screen.

The window is a grid of ``rows x reels`` cells, each empty or holding a coin
with its value. The triggering screen's coins take the first cells. Every
respin shows a new screen: each empty cell gets a coin with probability ``p``
(``randrange(den) < num``) and that coin draws its value by weight
(``random.choices``); a screen that adds a coin puts the respins back, one
that adds none uses one up. At the end the locked coins are paid one by one
and a full window adds its jackpot. Nothing is shared with the kernel or the
exact chain but the model.

:func:`capped_rtp` is the brute force of a whole hold game under ``[rules]
win_cap`` (the cap needs the award's distribution, not its moments).
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction

from certify.model.hold import HoldAndSpin, HoldValue
from twins import lines


@dataclass
class Feature:
    """One played feature: award x total bet, coins locked, full window, jackpots won."""

    award: int
    locked: int
    full: bool
    jackpots: Counter


def _pay(hs: HoldAndSpin, name: str, progressive: set[str]) -> int:
    return 0 if name in progressive else dict(hs.jackpots)[name]


def play(
    hs: HoldAndSpin, rows: int, reels: int, start: int, rng: random.Random, progressive: set[str]
) -> Feature:
    """Play one feature on a fresh window."""
    window: list[list[HoldValue | None]] = [[None] * reels for _ in range(rows)]
    values = list(hs.values)
    weights = [v.weight for v in values]
    num, den = hs.cell_probability.numerator, hs.cell_probability.denominator

    def coin() -> HoldValue:
        return rng.choices(values, weights)[0]

    placed = 0
    for r in range(rows):
        for c in range(reels):
            if placed < start:
                window[r][c] = coin()
                placed += 1
    left = hs.respins
    while left > 0 and any(cell is None for row in window for cell in row):
        added = False
        for r in range(rows):
            for c in range(reels):
                if window[r][c] is None and rng.randrange(den) < num:
                    window[r][c] = coin()
                    added = True
        left = hs.respins if added else left - 1
    award, won = 0, Counter()
    coins = [cell for row in window for cell in row if cell is not None]
    for value in coins:
        if value.jackpot is None:
            award += value.pays or 0
        else:
            award += _pay(hs, value.jackpot, progressive)
            won[value.jackpot] += 1
    full = len(coins) == rows * reels
    if full and hs.full_window is not None:
        award += _pay(hs, hs.full_window, progressive)
        won[hs.full_window] += 1
    return Feature(award, len(coins), full, won)


def play_many(
    hs: HoldAndSpin,
    rows: int,
    reels: int,
    start: int,
    n: int,
    seed: int,
    progressive: set[str] | None = None,
) -> list[Feature]:
    """Play ``n`` features with ``random.Random(seed)``."""
    rng = random.Random(seed)
    return [play(hs, rows, reels, start, rng, progressive or set()) for _ in range(n)]


def award_distribution(hs, cells: int, start: int) -> dict[Fraction, Fraction]:
    """P(award = a) of one feature started by ``start`` coins, x total bet (fixed prizes).

    Every respin pattern (which empty cells show a coin) and every assignment
    of values to the locked coins, in Fractions.
    """
    p = hs.cell_probability
    finals: dict[int, Fraction] = {}

    def play(locked: int, left: int, prob: Fraction) -> None:
        if left == 0 or locked == cells:
            finals[locked] = finals.get(locked, Fraction(0)) + prob
            return
        empty = cells - locked
        for shown in itertools.product((False, True), repeat=empty):
            new = sum(shown)
            pr = p**new * (1 - p) ** (empty - new)
            play(locked + new, hs.respins if new else left - 1, prob * pr)

    play(start, hs.respins, Fraction(1))
    prizes, total = dict(hs.jackpots), sum(v.weight for v in hs.values)
    out: dict[Fraction, Fraction] = {}
    for n, prob in finals.items():
        for coins in itertools.product(hs.values, repeat=n):
            pr = prob
            award = Fraction(0)
            for v in coins:
                pr *= Fraction(v.weight, total)
                award += v.pays if v.jackpot is None else prizes[v.jackpot]
            if n == cells and hs.full_window is not None:
                award += prizes[hs.full_window]
            out[award] = out.get(award, Fraction(0)) + pr
    return out


def capped_rtp(m, li: int = 0) -> Fraction:
    """Return of a hold game with ``[rules] win_cap`` by brute force (a Fraction).

    Every stop combination of the base strips (line wins by :mod:`twins.lines`),
    and where the coins start the feature, every final award of
    :func:`award_distribution`; each spin pays min(line wins + award, win_cap x
    total bet) (SPEC 3.1a: the cap is on the spin's whole win, its feature included).
    """
    hs, tb = m.hold_and_spin, m.total_bet(m.bet_levels[li])
    cap = m.rules.win_cap * tb
    total = s = 0
    for stops, w in lines.cycle(m, m.strips, m.weights):
        win = lines.window(m.strips, stops, m.rows)
        base, _ = lines.spin_value(m, win, li)
        n = lines.count(win, hs.trigger.symbol)
        if n >= hs.trigger.count:
            dist = award_distribution(hs, m.rows * m.reels, n)
            value = sum(pr * min(base + a * tb, cap) for a, pr in dist.items())
        else:
            value = Fraction(min(base, cap))
        total += w
        s += w * value
    return s / total / tb
