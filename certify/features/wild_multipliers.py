"""Wilds that multiply the lines they complete: fixed, or drawn per reel and spin."""

from certify.features.base import FULL_CYCLE, PARTS, Feature

FEATURE = Feature(
    name="wild_multipliers",
    title="a wild multiplies the line wins it takes part in (product, max or sum)",
    keys=("symbols.*.multiplier", "rules.wild_multiplier"),
    used=lambda m: (
        any(s.multiplier > 1 or s.multipliers for s in m.symbols)
        or m.rules.wild_multiplier != "product"
    ),
    exact=(FULL_CYCLE, PARTS),
    glass=("wild_multiplier", "wild_drawn", "wild_multiplier_max", "wild_multiplier_sum"),
    examples=("tests/data/rules/ref_max_both.toml",),
)
