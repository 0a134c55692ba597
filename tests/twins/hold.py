"""A slow, obviously-correct twin of the hold-and-spin feature: screen by screen.

The window is a grid of ``rows x reels`` cells, each empty or holding a coin
with its value. The triggering screen's coins take the first cells. Every
respin shows a new screen: each empty cell gets a coin with probability ``p``
(``randrange(den) < num``) and that coin draws its value by weight
(``random.choices``); a screen that adds a coin puts the respins back, one
that adds none uses one up. At the end the locked coins are paid one by one
and a full window adds its jackpot. Nothing is shared with the kernel or the
exact chain but the model.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from certify.model.hold import HoldAndSpin, HoldValue


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
