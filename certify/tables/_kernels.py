"""Numba kernels of the table games: arrays and scalars in, caller-allocated ``out``.

Randomness is explicit and the slots' own: every chunk carries its own
xoshiro256** state from :func:`certify.engine.rng.chunk_states` (the
``SeedSequence`` stream scheme of the whole tool) and draws through
:func:`certify.engine._rng.next_below`; no kernel touches a global generator,
so a chunk's draws depend only on (seed, chunk index).  Each kernel has a
slow Python twin in :mod:`certify.tables._twins`.

Outcome codes: 0 lose, 1 push, 2 win (for the player / the bettor).
"""

from __future__ import annotations

import numpy as np

from certify._numba import jit, prange
from certify.engine._rng import next_below

_LOSE, _PUSH, _WIN = 0, 1, 2


@jit
def below(state, n):  # pragma: no cover - compiled
    """A uniform integer in ``[0, n)`` from the chunk's xoshiro256** ``state`` (4 words)."""
    return next_below(state, n)


@jit
def duel_outcome(kp, zp, kb, zb, banker_wins_zero, banker_wins_equal):  # pragma: no cover
    """Player-vs-banker result from hand keys and zero flags (0 lose, 1 push, 2 win)."""
    if zp and zb and banker_wins_zero:
        return _LOSE
    if kp > kb:
        return _WIN
    if kp == kb and not banker_wins_equal:
        return _PUSH
    return _LOSE


@jit(parallel=True)
def duel_counts_brute(
    masks, keys, zero, banker_wins_zero, banker_wins_equal, out
):  # pragma: no cover - compiled
    """Count outcomes over all ordered pairs of disjoint hands (bit masks); out is (H, 3)."""
    n = masks.shape[0]
    for p in prange(n):
        w = 0
        u = 0
        lo = 0
        for b in range(n):
            if masks[p] & masks[b]:
                continue
            r = duel_outcome(
                keys[p], zero[p], keys[b], zero[b], banker_wins_zero, banker_wins_equal
            )
            if r == _WIN:
                w += 1
            elif r == _PUSH:
                u += 1
            else:
                lo += 1
        out[p, 0] = lo
        out[p, 1] = u
        out[p, 2] = w


@jit(parallel=True)
def mc_lookup(states, rounds, codes, out):  # pragma: no cover - compiled
    """Uniform outcome per round; ``out[c, b, codes[b, m]] += 1`` for every bet b."""
    n_bets, n_out = codes.shape
    for c in prange(states.shape[0]):
        state = states[c].copy()
        for _ in range(rounds[c]):
            m = below(state, n_out)
            for b in range(n_bets):
                out[c, b, codes[b, m]] += 1


@jit
def deal(state, deck, count):  # pragma: no cover - compiled
    """Partial Fisher-Yates: make ``deck[:count]`` a uniform ordered draw without replacement."""
    n = deck.shape[0]
    for i in range(count):
        j = i + below(state, n - i)
        t = deck[i]
        deck[i] = deck[j]
        deck[j] = t


@jit
def hand_index(deck, start, size, binom):  # pragma: no cover - compiled
    """Combinadic index of the cards ``deck[start:start+size]`` (sorted in place)."""
    for i in range(start + 1, start + size):
        v = deck[i]
        j = i - 1
        while j >= start and deck[j] > v:
            deck[j + 1] = deck[j]
            j -= 1
        deck[j + 1] = v
    idx = 0
    for i in range(size):
        idx += binom[deck[start + i], i + 1]
    return idx


@jit(inline="always")
def hands_outcome(hands, p, b):  # pragma: no cover - compiled
    """:func:`duel_outcome` of player hand ``p`` against banker hand ``b`` (indices)."""
    return duel_outcome(
        hands.keys[p],
        hands.zero[p],
        hands.keys[b],
        hands.zero[b],
        hands.banker_wins_zero,
        hands.banker_wins_equal,
    )


@jit(parallel=True)
def mc_duel(states, rounds, hands, out):  # pragma: no cover - compiled
    """Deal a player hand then a banker hand per round; ``out[c, outcome] += 1``.

    ``hands``: the game's hand space (:class:`certify.tables._records.DuelHands`).
    """
    size = hands.size
    for c in prange(states.shape[0]):
        state = states[c].copy()
        deck = np.arange(hands.n_cards)
        for _ in range(rounds[c]):
            deal(state, deck, 2 * size)
            p = hand_index(deck, 0, size, hands.binom)
            b = hand_index(deck, size, size, hands.binom)
            out[c, hands_outcome(hands, p, b)] += 1


@jit
def settle(outcomes, order, stakes, capital, commission, cap_loss, cap_gain):  # pragma: no cover
    """Money returned to the players of one round, seats settled in ``order``.

    The banker's result of the round (stakes collected - prizes paid) is kept
    within ``[-capital, +capital]`` (seed 001 art. 5.3, seed 002 art. 5.c cap
    both sides; ``cap_loss`` / ``cap_gain`` switch each side).  When the loss
    side binds, losers pay in full and winners are paid in ``order`` until
    ``capital`` + collections run out; when the gain side binds, winners are
    paid in full and losers pay in ``order`` until ``capital`` + payouts are
    reached.  A winner keeps his stake; commission is charged on the prize
    actually paid.
    """
    lost = 0.0
    won = 0.0
    for k in range(order.shape[0]):
        if outcomes[order[k]] == _WIN:
            won += stakes[order[k]]
        elif outcomes[order[k]] == _LOSE:
            lost += stakes[order[k]]
    pay = min(won, capital + lost) if cap_loss else won
    take = min(lost, capital + won) if cap_gain else lost
    back = 0.0
    for k in range(order.shape[0]):
        stake = stakes[order[k]]
        r = outcomes[order[k]]
        if r == _WIN:
            paid = min(stake, pay)
            pay -= paid
            back += stake + paid * (1.0 - commission)
        elif r == _PUSH:
            back += stake
        else:
            taken = min(stake, take)
            take -= taken
            back += stake - taken
    return back


@jit(parallel=True)
def mc_capital(states, rounds, seats, hands, rule, out):  # pragma: no cover
    """Whole rounds at a banked table, settled with and without the capital cap.

    ``hands``: the game's hand space (:class:`certify.tables._records.DuelHands`);
    ``rule``: stakes, capital, commission and whether the gain is capped too
    (:class:`certify.tables._records.CapitalRule`).

    ``out[c]`` sums over chunk c's rounds: money back to the players with the
    cap on the banker's loss (and on his gain, with ``cap_gain``), money back
    without a cap, the squared difference of the two, the rounds where the
    cap changed anything, and the squared money back without a cap.

    Seat 0 is the banker; the four dice count seats from the banker (as 1)
    counter-clockwise and the first seat dealt is the first settled.
    """
    size = hands.size
    stakes, capital, commission = rule.stakes, rule.capital, rule.commission
    for c in prange(states.shape[0]):
        state = states[c].copy()
        deck = np.arange(hands.n_cards)
        outcomes = np.zeros(seats - 1, dtype=np.int64)
        order = np.zeros(seats - 1, dtype=np.int64)
        for _ in range(rounds[c]):
            deal(state, deck, seats * size)
            b = hand_index(deck, 0, size, hands.binom)
            for s in range(1, seats):
                p = hand_index(deck, s * size, size, hands.binom)
                outcomes[s - 1] = hands_outcome(hands, p, b)
            dice = 4
            for _d in range(4):
                dice += below(state, 6)
            first = (dice - 1) % seats
            k = 0
            for step in range(seats):
                seat = (first + step) % seats
                if seat != 0:
                    order[k] = seat - 1
                    k += 1
            capped = settle(outcomes, order, stakes, capital, commission, True, rule.cap_gain)
            free = settle(outcomes, order, stakes, capital, commission, False, False)
            out[c, 0] += capped
            out[c, 1] += free
            out[c, 2] += (capped - free) ** 2
            if capped != free:
                out[c, 3] += 1.0
            out[c, 4] += free * free
