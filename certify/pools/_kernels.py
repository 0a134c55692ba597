"""numba kernels of the pool simulation: arrays and scalars only.

One path per chunk, each with its own xoshiro256** stream (state from
:func:`certify.engine.rng.chunk_states`), so a run is identical for any
number of threads. Play is a Poisson process per member (``rate[j]`` spins a
day); each spin of member ``j`` wagers ``stake[j]`` money and hits the pool
with probability ``p_hit[j]``. By thinning, hits form a Poisson process of
rate ``sum(rate * p_hit)``, and the non-winning spins of member ``j`` in an
interval of length ``t`` are Poisson(``rate[j] * t * (1 - p_hit[j])``), so a
path advances from hit to hit (or to the end of the day) in O(members).

Pool rules (money units): each unit wagered adds ``c`` to the pool, up to
``cap``; the excess goes to the reserve (``overflow == 0``) or to the next
reset (``overflow == 1``); ``h`` (hidden rate) goes to the reserve. At a hit
the winner is paid the pool (the winning spin's contribution included), the
pool restarts at ``reset`` (plus any next-reset carry, up to the cap), funded
from the reserve first and by the operator for the rest.

``params`` (float64[6]): c, h, reset, cap (inf: none), overflow, horizon days.
``hits`` rows: amount, day (fractional), group spins since the last hit,
winner, funded by the operator, tail flag. ``daily`` rows per day end: pool,
reserve, carry. ``totals``: contributions, reserve inflow, paid, operator
funding, hits, truncated hits, diverted by the cap.

The cycle open at the horizon is played to its hit (the *tail* hit, flagged,
outside the day balances and totals): statistics over every cycle started
before the horizon are then free of the truncation bias that would favour
short cycles (with ``n`` hits a path, about ``1/n`` of the mean).
"""

from __future__ import annotations

import math

import numpy as np

from certify._numba import jit, prange
from certify.engine._rng import next_u64
from certify.pools._records import Members

H_AMOUNT, H_DAY, H_SPINS, H_WINNER, H_SEED, H_TAIL = range(6)
N_HIT = 6
D_POOL, D_RESERVE, D_CARRY = range(3)
T_CONTRIB, T_RESERVE_IN, T_PAID, T_SEED, T_HITS, T_LOST, T_DIVERTED = range(7)
N_TOTALS = 7


@jit(inline="always")
def uniform(rng):
    """A double in [0, 1) from the top 53 bits of the next output."""
    return np.float64(next_u64(rng) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@jit(inline="always")
def exponential(rng):
    """An Exp(1) draw."""
    return -math.log1p(-uniform(rng))


@jit
def poisson(rng, lam):
    """A Poisson(lam) draw: inversion below 10, Hörmann's PTRS above (as NumPy)."""
    if lam <= 0.0:
        return 0
    if lam < 10.0:
        u = uniform(rng)
        p = math.exp(-lam)
        f = p
        k = 0
        while u > f and k < 1000:
            k += 1
            p *= lam / k
            f += p
        return k
    slam = math.sqrt(lam)
    loglam = math.log(lam)
    b = 0.931 + 2.53 * slam
    a = -0.059 + 0.02483 * b
    invalpha = 1.1239 + 1.1328 / (b - 3.4)
    vr = 0.9277 - 3.6224 / (b - 2.0)
    while True:
        u = uniform(rng) - 0.5
        v = uniform(rng)
        us = 0.5 - abs(u)
        k = math.floor((2.0 * a / us + b) * u + lam + 0.43)
        if us >= 0.07 and v <= vr:
            return np.int64(k)
        if k < 0 or (us < 0.013 and v > us):
            continue
        if (math.log(v) + math.log(invalpha) - math.log(a / (us * us) + b)) <= (
            -lam + k * loglam - math.lgamma(k + 1.0)
        ):
            return np.int64(k)


@jit(inline="always")
def play(rng, rate, stake, p_hit, t, counts):
    """Non-winning spins of every member over ``t`` days; returns the money wagered."""
    money = 0.0
    for j in range(rate.shape[0]):
        n = poisson(rng, rate[j] * t * (1.0 - p_hit[j]))
        counts[0] += n
        money += n * stake[j]
    return money


@jit(inline="always")
def feed(state, money, c, h, cap, overflow, totals):
    """Add the contributions of ``money`` wagered; state = pool, reserve, carry."""
    add = c * money
    totals[T_CONTRIB] += add + h * money
    state[1] += h * money
    totals[T_RESERVE_IN] += h * money
    room = cap - state[0]
    if add > room:
        excess = add - room
        add = room
        totals[T_DIVERTED] += excess
        if overflow == 0:
            state[1] += excess
            totals[T_RESERVE_IN] += excess
        else:
            state[2] += excess
    state[0] += add


@jit(inline="always")
def reseed(state, reset, cap, overflow):
    """Restart the pool after a hit; returns the operator's share of the reset."""
    take = min(state[1], reset)
    state[1] -= take
    start = reset
    if overflow == 1:
        start += state[2]
        state[2] = 0.0
        if start > cap:
            state[2] = start - cap
            start = cap
    state[0] = start
    return reset - take


@jit(inline="always")
def winner(rng, weight, total):
    """Index of the winning member, chosen with probability ``weight / total``."""
    u = uniform(rng) * total
    acc = 0.0
    for j in range(weight.shape[0] - 1):
        acc += weight[j]
        if u < acc:
            return j
    return weight.shape[0] - 1


@jit(inline="always")
def record(rng, state, params, members, t, day, counts, out, tot):
    """Play up to a hit ``t`` days ahead, pay it, reseed; write the hit to ``out``.

    ``members``: the member games (:class:`certify.pools._records.Members`).
    """
    c, h, reset, cap = params[0], params[1], params[2], params[3]
    overflow = np.int64(params[4])
    money = play(rng, members.rate, members.stake, members.p_hit, t, counts)
    w = winner(rng, members.weight, members.hit_rate)
    feed(state, money + members.stake[w], c, h, cap, overflow, tot)
    counts[0] += 1
    out[H_AMOUNT] = state[0]
    out[H_DAY] = day
    out[H_SPINS] = counts[0]
    out[H_WINNER] = w
    tot[T_PAID] += state[0]
    tot[T_HITS] += 1
    seed = reseed(state, reset, cap, overflow)
    tot[T_SEED] += seed
    out[H_SEED] = seed
    counts[0] = 0


@jit(parallel=True)
def simulate_paths(states, params, rate, stake, p_hit, hits, n_hits, daily, totals):
    """Simulate one pool path per row of ``states`` (see the module docstring).

    Hits beyond the capacity of ``hits`` are counted in ``totals[:, T_LOST]``
    (their amounts still enter the totals).
    """
    c, h, reset, cap = params[0], params[1], params[2], params[3]
    overflow = np.int64(params[4])
    days = np.int64(params[5])
    weight = rate * p_hit
    hit_rate = weight.sum()
    members = Members(rate, stake, p_hit, weight, hit_rate)
    for path in prange(states.shape[0]):
        rng = states[path].copy()
        state = np.zeros(3)
        state[0] = reset
        tot = totals[path]
        tot[T_SEED] += reset
        counts = np.zeros(1, dtype=np.int64)
        spare = np.zeros(N_HIT)
        k = 0
        for d in range(days):
            left = 1.0
            while True:
                t = exponential(rng) / hit_rate if hit_rate > 0 else np.inf
                if t >= left:
                    money = play(rng, rate, stake, p_hit, left, counts)
                    feed(state, money, c, h, cap, overflow, tot)
                    break
                left -= t
                out = hits[path, k] if k < hits.shape[1] else spare
                record(rng, state, params, members, t, d + 1.0 - left, counts, out, tot)
                k += 1
            daily[path, d, D_POOL] = state[0]
            daily[path, d, D_RESERVE] = state[1]
            daily[path, d, D_CARRY] = state[2]
        if hit_rate > 0:  # finish the cycle open at the horizon (scratch accounts)
            out = hits[path, k] if k < hits.shape[1] else spare
            t = exponential(rng) / hit_rate
            record(rng, state.copy(), params, members, t, days + t, counts, out, np.zeros(N_TOTALS))
            out[H_TAIL] = 1.0
            k += 1
        n_hits[path] = k
        tot[T_LOST] = max(0, k - hits.shape[1])
