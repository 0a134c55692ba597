"""Simulate the value of a jackpot pool over time: one machine or a linked group.

A :class:`PoolSpec` says how the pool is fed (contribution, hidden rate,
reset, cap, overflow) and who plays it (per member: stake, hit probability
per spin, spins per day). :func:`simulate_pool` runs independent paths, one
random stream per path (:func:`certify.engine.rng.chunk_states`), and
returns a :class:`PoolRun` with every hit (amount, day, spins since the last
hit, winner), the pool/reserve/carry balances at each day end, and the
money totals of each path.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from certify.engine.rng import chunk_states
from certify.errors import UsageError
from certify.pools import _kernels as K


@dataclass(frozen=True)
class Player:
    """One machine feeding a pool: money per spin, hit probability, play rate."""

    machine_id: str
    stake: float
    p_hit: float
    spins_per_day: float
    casino: str = ""


@dataclass(frozen=True)
class PoolSpec:
    """A pool and the machines that feed it (money in the pool's currency)."""

    id: str
    contribution: float
    reset: float
    players: tuple[Player, ...]
    cap: float | None = None
    overflow: str = "reserve"
    reserve_rate: float = 0.0

    def arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Spins per day, stake and hit probability per member, as float64 arrays."""
        rate = np.array([p.spins_per_day for p in self.players], dtype=np.float64)
        stake = np.array([p.stake for p in self.players], dtype=np.float64)
        p_hit = np.array([p.p_hit for p in self.players], dtype=np.float64)
        return rate, stake, p_hit

    @property
    def hits_per_day(self) -> float:
        """Expected hits a day over the group."""
        return float(sum(p.spins_per_day * p.p_hit for p in self.players))

    @property
    def coin_in_per_day(self) -> float:
        """Expected money wagered a day over the group."""
        return float(sum(p.spins_per_day * p.stake for p in self.players))


@dataclass
class PoolRun:
    """Result of :func:`simulate_pool`; hit arrays are flattened over paths.

    Hit arrays hold every cycle started before the horizon, the last one of
    each path played past it (``in_horizon`` False); use them for the
    distributions, and ``in_horizon`` to count hits in the horizon.
    """

    spec: PoolSpec
    days: int
    seed: int
    amounts: np.ndarray
    hit_days: np.ndarray
    spins: np.ndarray
    winners: np.ndarray
    operator_seed: np.ndarray
    path_of_hit: np.ndarray
    daily: np.ndarray
    totals: np.ndarray
    in_horizon: np.ndarray

    @property
    def hits_in_horizon(self) -> int:
        """Hits inside the horizon (the tail hit of each path left out)."""
        return int(self.in_horizon.sum())

    @property
    def paths(self) -> int:
        """Number of simulated paths."""
        return int(self.daily.shape[0])

    @property
    def days_between(self) -> np.ndarray:
        """Days of every cycle started before the horizon (from day 0 or the last hit)."""
        out = [
            np.diff(self.hit_days[self.path_of_hit == path], prepend=0.0)
            for path in range(self.paths)
        ]
        return np.concatenate(out) if out else np.zeros(0)

    @property
    def liability(self) -> np.ndarray:
        """Captive value (pool + reserve + next-reset carry) at each day end."""
        return self.daily.sum(axis=2)

    def balance_error(self) -> float:
        """Largest |contributions + operator funding - paid - final balances| of a path."""
        t = self.totals
        final = self.daily[:, -1, :].sum(axis=1)
        gap = t[:, K.T_CONTRIB] + t[:, K.T_SEED] - t[:, K.T_PAID] - final
        return float(np.abs(gap).max())


def simulate_pool(
    spec: PoolSpec, days: int, paths: int, seed: int, stream: int = 0, capacity: int | None = None
) -> PoolRun:
    """Simulate ``paths`` independent histories of ``days`` days of a pool.

    Parameters
    ----------
    spec : PoolSpec
        The pool and its players.
    days, paths : int
        Horizon and number of independent paths.
    seed, stream : int
        Path ``i`` draws from ``chunk_states(seed, i, 1, stream)``, whatever
        the number of threads.
    capacity : int, optional
        Hits stored per path (default: mean + 8 sd + 16); the run is redone
        with more room if a path overflows it.

    """
    _check(spec, days, paths)
    rate, stake, p_hit = spec.arrays()
    mean = spec.hits_per_day * days
    room = capacity or int(mean + 8 * math.sqrt(mean) + 17)
    params = np.array(
        [
            spec.contribution,
            spec.reserve_rate,
            spec.reset,
            spec.cap if spec.cap is not None else np.inf,
            1.0 if spec.overflow == "next-reset" else 0.0,
            days,
        ],
        dtype=np.float64,
    )
    states = chunk_states(seed, 0, paths, stream)
    while True:
        hits = np.zeros((paths, room, K.N_HIT))
        n_hits = np.zeros(paths, dtype=np.int64)
        daily = np.zeros((paths, days, 3))
        totals = np.zeros((paths, K.N_TOTALS))
        K.simulate_paths(states, params, rate, stake, p_hit, hits, n_hits, daily, totals)
        if n_hits.max(initial=0) <= room:
            break
        room = int(n_hits.max() * 1.5) + 16
    keep = np.arange(room)[None, :] < n_hits[:, None]
    flat = hits[keep]
    return PoolRun(
        spec,
        days,
        seed,
        flat[:, K.H_AMOUNT],
        flat[:, K.H_DAY],
        flat[:, K.H_SPINS].astype(np.int64),
        flat[:, K.H_WINNER].astype(np.int64),
        flat[:, K.H_SEED],
        np.repeat(np.arange(paths), n_hits),
        daily,
        totals,
        flat[:, K.H_TAIL] == 0,
    )


def _check(spec: PoolSpec, days: int, paths: int) -> None:
    if days < 1 or paths < 1:
        raise UsageError(f"days={days} and paths={paths} must be at least 1")
    if not spec.players:
        raise UsageError(f"pool {spec.id!r} has no players")
    if not 0 <= spec.contribution < 1 or not 0 <= spec.reserve_rate < 1:
        raise UsageError(
            f"pool {spec.id!r}: contribution={spec.contribution!r} and "
            f"reserve_rate={spec.reserve_rate!r} must be in [0, 1)"
        )
    for p in spec.players:
        if not (p.stake > 0 and 0 <= p.p_hit < 1 and p.spins_per_day >= 0):
            raise UsageError(
                f"pool {spec.id!r}: player {p.machine_id!r} needs stake > 0, "
                f"p_hit in [0, 1) and spins_per_day >= 0, got {p!r}"
            )
    if spec.cap is not None and spec.cap < spec.reset:
        raise UsageError(f"pool {spec.id!r}: cap={spec.cap!r} is below reset={spec.reset!r}")
