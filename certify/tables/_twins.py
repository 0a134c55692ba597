"""Slow, obviously-correct Python twins of the kernels: the tests' oracles.

The hand rankings here are written straight from the seeds' texts (the
annex list of Portaria 14/96/M, art. 7-8 of Portaria 100/89/M) and share no
code with :mod:`certify.tables.hands`.
"""

from __future__ import annotations

from itertools import permutations

MASK = (1 << 64) - 1
POKER_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
POKER_SUITS = ("ouros", "paus", "copas", "espadas")
FIGURES = ("J", "Q", "K")


def _rotl(x: int, k: int) -> int:
    return ((x << k) | (x >> (64 - k))) & MASK


def xoshiro256ss(state: tuple[int, int, int, int]) -> tuple[tuple[int, int, int, int], int]:
    """One xoshiro256** step, as Blackman & Vigna's reference C: (new state, output)."""
    s0, s1, s2, s3 = state
    result = (_rotl((s1 * 5) & MASK, 7) * 9) & MASK
    t = (s1 << 17) & MASK
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = _rotl(s3, 45)
    return (s0, s1, s2, s3), result


def below(state: tuple, n: int) -> tuple[tuple, int]:
    """Twin of ``_kernels.below`` (Lemire, 32-bit): (new state, uniform integer in [0, n)).

    A fresh output's high half ``u`` gives ``m = u * n``; ``m``'s low half below
    ``2^32 mod n`` is rejected and redrawn; the value is ``m``'s high half.
    """
    threshold = (1 << 32) % n
    while True:
        state, x = xoshiro256ss(state)
        m = (x >> 32) * n
        if m & 0xFFFFFFFF >= threshold:
            return state, m >> 32


def _poker_categories() -> list[tuple[int, int]]:
    """The annex list, best first: (points, figures); three figures is (None, 3)."""
    out: list[tuple[int, int]] = [(-1, 3)]
    for points in range(9, -1, -1):
        out += [(points, 2), (points, 1), (points, 0)]
    return out


_CATEGORIES = _poker_categories()


def poker_rank(hand: list[tuple[str, str]]) -> tuple[int, int, int]:
    """Rank a hand of (rank, suit) cards: bigger tuple wins (category, high rank, high suit)."""
    figures = sum(rank in FIGURES for rank, _ in hand)
    total = sum(
        0 if rank in FIGURES or rank == "10" else (1 if rank == "A" else int(rank))
        for rank, _ in hand
    )
    category = (-1, 3) if figures == 3 else (total % 10, figures)
    high = max((POKER_RANKS.index(r), POKER_SUITS.index(s)) for r, s in hand)
    return (-_CATEGORIES.index(category), high[0], high[1])


def poker_zero(hand: list[tuple[str, str]]) -> bool:
    """Zero points and no figure (the banker's advantage, art. 8)."""
    return poker_rank(hand)[0] == -_CATEGORIES.index((0, 0))


def paikao_rank(hand: list[int]) -> tuple[int, int, int]:
    """Rank two tile faces 1-10 (10 = white): (is pair, pair face or points, high face)."""
    a, b = hand
    if a == b:
        return (1, a, a)
    points = (a % 10 + b % 10) % 10
    return (0, points, max(a, b))


def duel_counts(
    deck: list, size: int, rank, zero, banker_wins_zero: bool, banker_wins_equal: bool
) -> tuple[int, int, int]:
    """(lose, push, win) of the player over every ordered deal of two hands from ``deck``.

    Walks every ordered sequence of ``2 * size`` distinct cards: the first
    ``size`` are the player's, the rest the banker's; each unordered pair of
    hands is seen ``(size!)^2`` times, which cancels in probabilities.
    """
    counts = [0, 0, 0]
    for deal in permutations(range(len(deck)), 2 * size):
        player = [deck[i] for i in deal[:size]]
        banker = [deck[i] for i in deal[size:]]
        if banker_wins_zero and zero(player) and zero(banker):
            counts[0] += 1
            continue
        rp, rb = rank(player), rank(banker)
        if rp > rb:
            counts[2] += 1
        elif rp == rb and not banker_wins_equal:
            counts[1] += 1
        else:
            counts[0] += 1
    return counts[0], counts[1], counts[2]


def mc_lookup(states: list[tuple], rounds: list[int], codes: list[list[int]]) -> list:
    """Twin of ``_kernels.mc_lookup`` (one xoshiro256** state per chunk): out[c][b][code]."""
    out = []
    for start, n in zip(states, rounds):
        state, chunk = tuple(start), [[0, 0, 0] for _ in codes]
        for _ in range(n):
            state, m = below(state, len(codes[0]))
            for b, row in enumerate(codes):
                chunk[b][row[m]] += 1
        out.append(chunk)
    return out


def settle(
    outcomes: list[int],
    order: list[int],
    stakes: list[float],
    capital: float,
    commission: float,
    cap_loss: bool,
    cap_gain: bool,
) -> float:
    """Twin of ``_kernels.settle``: money back to the players of one round."""
    won = sum(stakes[s] for s in order if outcomes[s] == 2)
    lost = sum(stakes[s] for s in order if outcomes[s] == 0)
    net = lost - won  # the banker's result without a cap
    if cap_loss and net < -capital:
        pay, take = lost + capital, lost
    elif cap_gain and net > capital:
        pay, take = won, won + capital
    else:
        pay, take = won, lost
    back = 0.0
    for seat in order:
        stake = stakes[seat]
        if outcomes[seat] == 2:
            paid = min(stake, pay)
            pay -= paid
            back += stake + paid * (1.0 - commission)
        elif outcomes[seat] == 1:
            back += stake
        else:
            taken = min(stake, take)
            take -= taken
            back += stake - taken
    return back
