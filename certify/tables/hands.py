"""Hands of the banked games as integer keys: a bigger key beats a smaller one.

Three-card poker (Portaria 14/96/M, annex): a card is ``rank * 4 + suit``
with ranks and suits in ascending order of value, so a card's id is its
tie-break value.  Classes, lowest first: ``points * 3 + figures`` for
0-9 points and 0-2 figures, then three figures (class 30); the key is
``class * 52 + highest card``.  Zero-without-figures is class 0.

Mahjong Pai Kao (Portaria 100/89/M, art. 7): a tile is ``face * copies + k``
with faces 1-9 then white (face index 0-9).  Non-pairs have class
``points`` (white counts 0), pairs class ``10 + face``; the key is
``class * 10 + highest face``, so equal keys mean equal faces.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np

THREE_FIGURES = 30
POKER_CARDS = 52


def binom_table(n: int, k: int) -> np.ndarray:
    """``out[i, j] = C(i, j)`` for ``0 <= i <= n``, ``0 <= j <= k`` (int64)."""
    out = np.zeros((n + 1, k + 1), dtype=np.int64)
    out[:, 0] = 1
    for i in range(1, n + 1):
        for j in range(1, k + 1):
            out[i, j] = out[i - 1, j - 1] + out[i - 1, j]
    return out


def all_hands(n: int, size: int) -> np.ndarray:
    """Every ``size``-subset of ``range(n)``, sorted within, row = combinadic index."""
    binom = binom_table(n, size)
    out = np.zeros((int(binom[n, size]), size), dtype=np.int64)
    for combo in combinations(range(n), size):
        out[sum(int(binom[c, i + 1]) for i, c in enumerate(combo))] = combo
    return out


def poker_card_arrays(
    ranks: tuple[str, ...], figures: tuple[str, ...], suits: int = 4
) -> tuple[np.ndarray, np.ndarray]:
    """Points and figure flags per card id for ranks in ascending order of value."""
    points = np.zeros(len(ranks) * suits, dtype=np.int64)
    figure = np.zeros(len(ranks) * suits, dtype=np.bool_)
    for r, name in enumerate(ranks):
        value = 0 if name in figures else (1 if name == "A" else int(name) % 10)
        points[r * suits : (r + 1) * suits] = value
        figure[r * suits : (r + 1) * suits] = name in figures
    return points, figure


def poker_keys(
    hands: np.ndarray, points: np.ndarray, figure: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Keys and zero-without-figures flags of three-card hands of card ids."""
    figs = figure[hands].sum(axis=1)
    pts = points[hands].sum(axis=1) % 10
    cls = np.where(figs == 3, THREE_FIGURES, pts * 3 + figs)
    return cls * POKER_CARDS + hands.max(axis=1), cls == 0


def paikao_keys(hands: np.ndarray, copies: int = 2) -> tuple[np.ndarray, np.ndarray]:
    """Keys and zero-point flags of two-tile hands of tile ids."""
    face = hands // copies
    points = (face + 1) % 10
    pair = face[:, 0] == face[:, 1]
    total = points.sum(axis=1) % 10
    cls = np.where(pair, 10 + face[:, 0], total)
    return cls * 10 + face.max(axis=1), (~pair) & (total == 0)
