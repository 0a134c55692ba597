"""Three-card poker and Pai Kao: the fast exact count against independent enumerators."""

from fractions import Fraction
from math import comb

import numpy as np
import pytest
from tables_support import PAIKAO, POKER

from certify.tables import _twins, exact_results, load_table
from certify.tables.duel import duel_space
from certify.tables.duel_exact import duel_odds, duel_odds_brute
from certify.tables.hands import all_hands, poker_card_arrays, poker_keys

RANKS = _twins.POKER_RANKS
SUITS = _twins.POKER_SUITS


def _card(rank, suit):
    return RANKS.index(rank) * 4 + SUITS.index(suit)


REDUCED_DECKS = [  # each holds figures, tens, zero-without-figure hands and ties on points
    [
        ("A", "ouros"),
        ("9", "espadas"),
        ("K", "copas"),
        ("10", "paus"),
        ("Q", "ouros"),
        ("5", "copas"),
        ("5", "espadas"),
        ("J", "paus"),
        ("2", "ouros"),
    ],
    [
        ("K", "espadas"),
        ("K", "ouros"),
        ("Q", "copas"),
        ("J", "espadas"),
        ("10", "copas"),
        ("10", "ouros"),
        ("3", "paus"),
        ("7", "ouros"),
        ("4", "espadas"),
    ],
]


def _fast_odds_on(deck, banker_wins_zero):
    ids = np.array([_card(r, s) for r, s in deck])
    hands = all_hands(len(deck), 3)
    points, figure = poker_card_arrays(RANKS, ("J", "Q", "K"))
    keys, zero = poker_keys(ids[hands], points, figure)
    return duel_odds(hands, keys, zero, len(deck), banker_wins_zero, True)


@pytest.mark.parametrize("deck", REDUCED_DECKS)
@pytest.mark.parametrize("banker_wins_zero", [True, False])
def test_poker_fast_count_equals_brute_force_on_reduced_decks(deck, banker_wins_zero):
    """Oracle: every ordered deal of 6 of the 9 cards, ranked from the annex list."""
    lose, push, win = _twins.duel_counts(
        deck, 3, _twins.poker_rank, _twins.poker_zero, banker_wins_zero, True
    )
    odds = _fast_odds_on(deck, banker_wins_zero)
    total = lose + push + win
    assert odds.total == comb(9, 3) * comb(6, 3)
    assert odds.probabilities() == (
        Fraction(win, total),
        Fraction(push, total),
        Fraction(lose, total),
    )


def test_poker_fast_count_equals_numba_walk_over_all_407m_pairs():
    """Oracle: the kernel that visits all 22,100 x 22,100 hand pairs, skipping overlaps."""
    space = duel_space(load_table(POKER))
    for bwz in (True, False):
        brute = duel_odds_brute(space.hands, space.keys, space.zero, bwz, True)
        odds = duel_odds(space.hands, space.keys, space.zero, 52, bwz, True)
        assert odds == brute
        assert odds.total == 22100 * 18424


def test_brute_kernel_equals_python_twin_on_pai_kao():
    """The numba walk against the Python walk (twin) on the 20-tile space, push rule on."""
    space = duel_space(load_table(PAIKAO))
    tiles = [face for face in range(1, 11) for _ in range(2)]

    def zero(hand):
        return hand[0] != hand[1] and (hand[0] + hand[1]) % 10 == 0

    lose, push, win = _twins.duel_counts(tiles, 2, _twins.paikao_rank, zero, True, False)
    brute = duel_odds_brute(space.hands, space.keys, space.zero, True, False)
    assert (brute.lose * 4, brute.push * 4, brute.win * 4) == (lose, push, win)


@pytest.mark.parametrize("bwz, bwe", [(True, True), (False, True), (True, False), (False, False)])
def test_paikao_fast_count_equals_brute_force_over_every_deal(bwz, bwe):
    """Oracle: all 20x19x18x17 ordered deals of four tiles, ranked from art. 7-8."""
    tiles = [face for face in range(1, 11) for _ in range(2)]

    def zero(hand):
        return hand[0] != hand[1] and (hand[0] + hand[1]) % 10 == 0

    lose, push, win = _twins.duel_counts(tiles, 2, _twins.paikao_rank, zero, bwz, bwe)
    space = duel_space(load_table(PAIKAO))
    odds = duel_odds(space.hands, space.keys, space.zero, 20, bwz, bwe)
    total = lose + push + win
    assert odds.probabilities() == (
        Fraction(win, total),
        Fraction(push, total),
        Fraction(lose, total),
    )
    assert (push > 0) == (not bwe)


def test_banker_advantages_cost_the_player():
    """Art. 8 of both seeds only moves results to the banker: with it the player wins less."""
    space = duel_space(load_table(POKER))
    with_rule = duel_odds(space.hands, space.keys, space.zero, 52, True, True)
    without = duel_odds(space.hands, space.keys, space.zero, 52, False, True)
    assert with_rule.win < without.win


def test_player_and_banker_bets_mirror_each_other():
    for path in (POKER, PAIKAO):
        player, banker = exact_results(load_table(path))
        assert player.probabilities == banker.probabilities[::-1]
        assert player.returns[2] == 1 + Fraction(95, 100)


@pytest.mark.parametrize("path, n", [(POKER, 52), (PAIKAO, 20)], ids=["poker", "paikao"])
def test_without_banker_advantages_the_duel_is_symmetric(path, n):
    """Oracle: symmetry. With art. 8 switched off neither side is favoured, so
    P(win) = P(lose); poker has no pushes, so P(win) = 1/2 and the player's return
    is 1/2 x (1 + 0.95) = 39/40."""
    space = duel_space(load_table(path))
    odds = duel_odds(space.hands, space.keys, space.zero, n, False, False)
    assert odds.win == odds.lose
    if path == POKER:
        win, push, lose = odds.probabilities()
        assert push == 0 and win * Fraction(195, 100) == Fraction(39, 40)


@pytest.mark.parametrize("path, n", [(POKER, 52), (PAIKAO, 20)], ids=["poker", "paikao"])
def test_zero_rule_moves_exactly_half_the_zero_against_zero_deals(path, n):
    """Oracle: a direct count. Art. 8 (zero vs zero goes to the banker) turns into
    losses exactly the zero-vs-zero deals the player would otherwise win: half of
    the ordered disjoint zero/zero pairs (their keys never tie, or tie only on
    identical faces, which the banker already takes)."""
    space = duel_space(load_table(path))
    zero_hands = [set(h) for h, z in zip(space.hands.tolist(), space.zero) if z]
    pairs = sum(1 for a in zero_hands for b in zero_hands if not a & b)
    keys = [k for k, z in zip(space.keys.tolist(), space.zero) if z]
    ties = sum(
        1
        for i, a in enumerate(zero_hands)
        for j, b in enumerate(zero_hands)
        if not a & b and keys[i] == keys[j]
    )
    with_rule = duel_odds(space.hands, space.keys, space.zero, n, True, True)
    without = duel_odds(space.hands, space.keys, space.zero, n, False, True)
    assert without.win - with_rule.win == (pairs - ties) // 2
