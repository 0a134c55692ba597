"""Wilds that fill their reel when they show (always, in free spins, or in a drawn mode)."""

from certify.features.base import FULL_CYCLE, PARTS, Feature

FEATURE = Feature(
    name="reel_wilds",
    title="an expanding wild fills its whole reel",
    keys=("symbols.*.expands",),
    used=lambda m: any(s.expands or s.expands_chance for s in m.symbols),
    exact=(FULL_CYCLE, PARTS),
    glass=("expands", "expands_free_spins", "expands_chance"),
    twin="features",
    examples=("models/machines/reelwild-5x3-20.toml",),
    prebuilt="models/machines/reelwild-5x3-20.toml",
)
