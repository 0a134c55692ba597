"""Monte Carlo cross-check of the exact figures, in seeded independent chunks.

Chunk ``i`` of a run with seed ``s`` draws from the xoshiro256** stream
:func:`certify.engine.rng.chunk_states` gives the slots' chunk ``i`` of stream
0 (``SeedSequence(s, spawn_key=(0, i))``): one generator and one stream scheme
for every game, and a run is the same for any number of threads.  A kernel
only counts results (lose, push, win); the return estimate and its interval
follow from the counts and the exact money back per result.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from certify.engine.rng import chunk_states
from certify.stats import z_value
from certify.tables import _kernels
from certify.tables._records import DuelHands
from certify.tables.duel import DuelSpace, duel_space
from certify.tables.exact import lookup_codes
from certify.tables.hands import binom_table
from certify.tables.schema import Table


def chunk_streams(seed: int, chunks: int) -> np.ndarray:
    """The xoshiro256** states (chunks, 4) of a table run: chunks ``0 .. chunks - 1``, stream 0."""
    return chunk_states(seed, 0, chunks)


def split_rounds(rounds: int, chunks: int) -> np.ndarray:
    """Rounds per chunk: as equal as possible, the first chunks taking the remainder."""
    out = np.full(chunks, rounds // chunks, dtype=np.int64)
    out[: rounds % chunks] += 1
    return out


def duel_hands(table: Table, space: DuelSpace) -> DuelHands:
    """The duel kernels' hand space of a three-card poker or Pai Kao table."""
    return DuelHands(
        space.n_cards,
        space.size,
        space.keys,
        space.zero,
        binom_table(space.n_cards, space.size),
        table.banker_wins_zero,
        table.banker_wins_equal,
    )


@dataclass(frozen=True)
class Estimate:
    """Monte Carlo estimate of one bet's return per unit staked."""

    counts: tuple[int, int, int]
    rtp: float
    std_error: float
    ci: tuple[float, float]

    def covers(self, value: float) -> bool:
        """True when ``value`` is inside the confidence interval."""
        return self.ci[0] <= value <= self.ci[1]


def estimate(counts: np.ndarray, returns: tuple, confidence: float = 0.99) -> Estimate:
    """Mean return, its standard error and a normal interval from result counts."""
    n = int(counts.sum())
    values = np.array([float(r) for r in returns])
    mean = float((counts * values).sum() / n)
    var = float((counts * (values - mean) ** 2).sum() / max(n - 1, 1))
    se = math.sqrt(var / n)
    z = z_value(confidence)
    win, push, lose = (int(c) for c in counts)
    return Estimate((win, push, lose), mean, se, (mean - z * se, mean + z * se))


def simulate_counts(
    table: Table, rounds: int | None = None, seed: int | None = None, chunks: int | None = None
) -> np.ndarray:
    """Result counts per bet, shape (bets, 3): lose, push, win.

    Parameters
    ----------
    table : Table
        A loaded table game.
    rounds, seed, chunks : int, optional
        Override the table's ``[simulation]`` settings.

    """
    sim = table.simulation
    seeds = chunk_streams(sim.seed if seed is None else seed, chunks or sim.chunks)
    per = split_rounds(rounds or sim.rounds, len(seeds))
    if table.game.kind in ("roulette", "fantan"):
        codes = lookup_codes(table)
        out = np.zeros((len(seeds), codes.shape[0], 3), dtype=np.int64)
        _kernels.mc_lookup(seeds, per, codes, out)
        return out.sum(axis=0)
    space = duel_space(table)
    out = np.zeros((len(seeds), 3), dtype=np.int64)
    _kernels.mc_duel(seeds, per, duel_hands(table, space), out)
    player = out.sum(axis=0)
    return np.array([player[::-1] if bet.side == "banker" else player for bet in table.bets])
