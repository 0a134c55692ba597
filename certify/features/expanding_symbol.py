"""Book of Ra's expanding symbol: drawn when the free spins start, it fills its reels."""

from certify.features.base import EXTRAS, FEATURE_MOMENTS, FULL_CYCLE, Feature

FEATURE = Feature(
    name="expanding_symbol",
    title="a symbol drawn for the free spins expands over every reel it shows on",
    keys=("free_spins.expanding_symbol",),
    used=lambda m: m.free_spins is not None and bool(m.free_spins.expanding_symbol),
    simulation=EXTRAS,
    exact=(FULL_CYCLE, FEATURE_MOMENTS),
    glass=("expanding_symbol",),
    par=("expanding_symbol",),
    twin="features",
    examples=("models/machines/book-5x3-10.toml",),
    prebuilt="models/machines/book-5x3-10.toml",
)
