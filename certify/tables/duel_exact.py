"""Exact player-vs-banker odds over every ordered pair of disjoint hands.

For three-card poker that is 22,100 x 18,424 = 407,170,400 pairs.  Instead of
walking them, for each player hand P we count the banker hands B, disjoint
from P, whose key is below / equal to P's, by inclusion-exclusion over the
cards P and B could share:

    #{B disjoint from P : key(B) < k} = sum over S subset of P of
        (-1)^|S| #{B containing S : key(B) < k}

The counts "containing S" come from one key histogram per card subset S of
size < hand size (52 + 1,326 histograms for poker); the |S| = hand size term
is P itself.  Everything is integer arithmetic, so the result is exact.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations

import numpy as np

from certify.tables.hands import binom_table


@dataclass(frozen=True)
class DuelOdds:
    """Exact counts of the player's results against the banker."""

    win: int
    push: int
    lose: int

    @property
    def total(self) -> int:
        """Number of ordered (player, banker) hand pairs counted."""
        return self.win + self.push + self.lose

    def probabilities(self) -> tuple[Fraction, Fraction, Fraction]:
        """(win, push, lose) as exact fractions."""
        return (
            Fraction(self.win, self.total),
            Fraction(self.push, self.total),
            Fraction(self.lose, self.total),
        )


def disjoint_below_equal(
    hands: np.ndarray, keys: np.ndarray, n_cards: int
) -> tuple[np.ndarray, np.ndarray]:
    """Per hand P: disjoint hands with a smaller key, and with an equal key.

    Parameters
    ----------
    hands : ndarray of int, shape (H, h)
        Every h-subset of ``range(n_cards)``, each row sorted.
    keys : ndarray of int, shape (H,)
        Non-negative hand keys.
    n_cards : int
        Size of the deck the hands are drawn from.

    Returns
    -------
    below, equal : ndarray of int64, shape (H,)

    """
    size = hands.shape[1]
    width = int(keys.max()) + 1
    below = np.zeros(len(hands), dtype=np.int64)
    equal = np.zeros(len(hands), dtype=np.int64)
    binom = binom_table(n_cards, size)
    for j in range(size):
        picks = list(combinations(range(size), j))
        index = [_subset_index(hands[:, list(p)], binom) for p in picks]
        hist = np.zeros((int(binom[n_cards, j]), width), dtype=np.int64)
        for idx in index:
            np.add.at(hist, (idx, keys), 1)
        strictly = np.cumsum(hist, axis=1) - hist
        sign = -1 if j % 2 else 1
        for idx in index:
            below += sign * strictly[idx, keys]
            equal += sign * hist[idx, keys]
    equal += -1 if size % 2 else 1  # S = P: P itself has P's key
    return below, equal


def _subset_index(cols: np.ndarray, binom: np.ndarray) -> np.ndarray:
    out = np.zeros(len(cols), dtype=np.int64)
    for i in range(cols.shape[1]):
        out += binom[cols[:, i], i + 1]
    return out


def duel_odds(
    hands: np.ndarray,
    keys: np.ndarray,
    zero: np.ndarray,
    n_cards: int,
    banker_wins_zero: bool,
    banker_wins_equal: bool,
) -> DuelOdds:
    """Exact player results against the banker, both hands dealt from one deck.

    Requires zero hands to hold the lowest keys (true for both seed games), so
    a zero player hand can only beat zero banker hands.
    """
    if zero.any() and (~zero).any() and keys[zero].max() >= keys[~zero].min():
        raise ValueError("zero hands must have the lowest keys")
    below, equal = disjoint_below_equal(hands, keys, n_cards)
    size = hands.shape[1]
    banker_hands = int(binom_table(n_cards, size)[n_cards - size, size])  # per player hand
    blocked = zero if banker_wins_zero else np.zeros_like(zero)
    win = int(below[~blocked].sum())
    push = 0 if banker_wins_equal else int(equal[~blocked].sum())
    return DuelOdds(win=win, push=push, lose=len(hands) * banker_hands - win - push)


def duel_odds_brute(
    hands: np.ndarray,
    keys: np.ndarray,
    zero: np.ndarray,
    banker_wins_zero: bool,
    banker_wins_equal: bool,
) -> DuelOdds:
    """The same counts by visiting every pair of hands (numba, all cores).

    The independent check of :func:`duel_odds`: 22,100^2 = 488 million pairs
    for three-card poker, overlapping ones skipped by a bit-mask test.
    Decks of at most 64 cards.
    """
    from certify.tables._kernels import duel_counts_brute

    if hands.size and int(hands.max()) >= 64:
        raise ValueError("bit masks hold at most 64 cards")
    masks = np.zeros(len(hands), dtype=np.uint64)
    for i in range(hands.shape[1]):
        masks |= np.uint64(1) << hands[:, i].astype(np.uint64)
    out = np.zeros((len(hands), 3), dtype=np.int64)
    duel_counts_brute(
        masks,
        np.ascontiguousarray(keys, dtype=np.int64),
        np.ascontiguousarray(zero, dtype=np.bool_),
        banker_wins_zero,
        banker_wins_equal,
        out,
    )
    lose, push, win = (int(x) for x in out.sum(axis=0))
    return DuelOdds(win=win, push=push, lose=lose)
