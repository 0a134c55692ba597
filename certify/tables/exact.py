"""Exact per-bet results of a table game, as fractions.

Roulette and Fantan: each bet's result on each equally likely outcome (a
pocket of the wheel, a Fantan remainder).  Three-card poker and Pai Kao:
the player's results over every ordered pair of disjoint hands
(:mod:`certify.tables.duel_exact`), mirrored for a bet on the banker.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from certify.tables.duel import duel_space
from certify.tables.duel_exact import duel_odds
from certify.tables.schema import Bet, Table

LOSE, PUSH, WIN = 0, 1, 2


@dataclass(frozen=True)
class BetResult:
    """Exact result of one unit staked on one bet.

    ``returns`` is the money back (stake included) on lose, push, win.
    """

    bet: Bet
    probabilities: tuple[Fraction, Fraction, Fraction]
    returns: tuple[Fraction, Fraction, Fraction]

    @property
    def rtp(self) -> Fraction:
        """Expected money back per unit staked."""
        return sum((p * r for p, r in zip(self.probabilities, self.returns)), Fraction(0))

    @property
    def variance(self) -> Fraction:
        """Variance of the money back per unit staked."""
        second = sum((p * r * r for p, r in zip(self.probabilities, self.returns)), Fraction(0))
        return second - self.rtp**2


def returns_of(bet: Bet, commission: Fraction) -> tuple[Fraction, Fraction, Fraction]:
    """Money back on (lose, push, win): the stake is kept on a win, the prize pays commission."""
    return Fraction(0), Fraction(1), 1 + bet.pays * (1 - commission)


def lookup_codes(table: Table) -> np.ndarray:
    """Result code of every bet (rows) on every equally likely outcome (columns)."""
    codes = np.zeros((len(table.bets), len(table.outcomes)), dtype=np.int64)
    for b, bet in enumerate(table.bets):
        for m, outcome in enumerate(table.outcomes):
            codes[b, m] = WIN if outcome in bet.win else PUSH if outcome in bet.tie else LOSE
    return codes


def exact_results(table: Table) -> list[BetResult]:
    """Exact probabilities and returns of every bet of ``table``.

    Parameters
    ----------
    table : Table
        A loaded table game.

    Returns
    -------
    list of BetResult
        In the order of ``table.bets``.

    """
    if table.game.kind in ("roulette", "fantan"):
        probs = _lookup_probabilities(table)
    else:
        space = duel_space(table)
        odds = duel_odds(
            space.hands,
            space.keys,
            space.zero,
            space.n_cards,
            table.banker_wins_zero,
            table.banker_wins_equal,
        )
        win, push, lose = odds.probabilities()
        probs = [
            (win, push, lose) if bet.side == "banker" else (lose, push, win) for bet in table.bets
        ]
    return [
        BetResult(bet, p, returns_of(bet, table.commission)) for bet, p in zip(table.bets, probs)
    ]


def _lookup_probabilities(table: Table) -> list[tuple[Fraction, Fraction, Fraction]]:
    codes = lookup_codes(table)
    n = codes.shape[1]
    out = []
    for row in codes:
        lose, push, win = (Fraction(int((row == c).sum()), n) for c in (LOSE, PUSH, WIN))
        out.append((lose, push, win))
    return out
