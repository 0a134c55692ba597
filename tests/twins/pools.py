"""A slow, obviously-correct twin of the pool kernel: spin by spin, one machine.

Each day the machine plays Poisson(``spins_per_day``) spins; each spin wagers
``stake``, adds ``c x stake`` to the pool (up to the cap, the excess to the
reserve) and then hits with probability ``p``. No thinning, no exponential
clocks: the kernel's shortcuts must give the same distributions.
"""

from __future__ import annotations

import numpy as np


def twin_amounts(
    c: float,
    reset: float,
    cap: float,
    stake: float,
    p: float,
    spins_per_day: float,
    days: int,
    paths: int,
    seed: int,
) -> tuple:
    """Amounts at hit and end-of-horizon liabilities over ``paths`` paths."""
    rng = np.random.default_rng(seed)
    amounts, liabilities = [], []
    for _ in range(paths):
        pool, reserve = reset, 0.0
        for _ in range(days):
            n = rng.poisson(spins_per_day)
            for hit in rng.random(n) < p:
                add = c * stake
                room = cap - pool
                if add > room:
                    reserve += add - room
                    add = room
                pool += add
                if hit:
                    amounts.append(pool)
                    take = min(reserve, reset)
                    reserve -= take
                    pool = reset
        liabilities.append(pool + reserve)
    return np.array(amounts), np.array(liabilities)
