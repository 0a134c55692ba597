"""Multipliers the window or the spin draws: per cell, per full reel, per paid spin."""

from certify.features.base import EXTRAS, FULL_CYCLE, TILTED, Feature

FEATURE = Feature(
    name="window_multipliers",
    title="cells, whole reels or a drawn factor multiply the spin's wins",
    keys=(
        "symbols.*.window_multiplier",
        "symbols.*.full_reel_multiplier",
        "rules.spin_multiplier",
    ),
    used=lambda m: (
        bool(m.rules.spin_multipliers)
        or any(s.window_multiplier > 1 or s.full_reel_multipliers for s in m.symbols)
    ),
    simulation=EXTRAS,
    exact=(FULL_CYCLE, TILTED),
    glass=(
        "window_multiplier",
        "full_reel_multiplier",
        "full_reel_multiplier_drawn",
        "spin_multiplier_drawn",
    ),
    twin_model="tests/data/rules/reel_multipliers.toml",
    examples=("tests/data/rules/reel_multipliers.toml",),
)
