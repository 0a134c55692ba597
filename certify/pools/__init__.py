"""Jackpot pool simulation: value over time, amount at hit, liability."""

from certify.pools.simulate import Player, PoolRun, PoolSpec, simulate_pool

__all__ = ["Player", "PoolRun", "PoolSpec", "simulate_pool"]
