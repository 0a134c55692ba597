"""Jackpot pools: standalone or linked, funded by contributions, on top of the return."""

from certify.features.base import FULL_CYCLE, POOL_HITS, Feature

FEATURE = Feature(
    name="jackpots",
    title="progressive pools won by a combination, hold and spin or a full window",
    keys=("jackpots",),
    used=lambda m: bool(m.jackpots),
    exact=(FULL_CYCLE, POOL_HITS),
    glass=("jackpots", "jackpot_standalone", "jackpot_linked"),
    twin="pools",
    examples=("models/machines/jackpot-5x3.toml",),
    prebuilt="models/machines/jackpot-5x3.toml",
)
