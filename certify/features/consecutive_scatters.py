"""A scatter counted only on the reels in a row from reel 1 that show it (Jaguar Moon)."""

from certify.features.base import FEATURE_MOMENTS, PARTS, Feature

FEATURE = Feature(
    name="consecutive_scatters",
    title="a scatter that counts only on consecutive reels from reel 1",
    keys=("symbols.*.consecutive",),
    used=lambda m: any(s.consecutive for s in m.symbols),
    exact=(PARTS, FEATURE_MOMENTS),
    glass=("counted_consecutive",),
    twin="features",
    twin_model="tests/data/rules/consecutive_scatters.toml",
    examples=(
        "tests/data/rules/consecutive_scatters.toml",
        "tests/data/real/novomatic_jaguar_moon.toml",
    ),
)
