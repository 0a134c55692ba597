"""The base game every model has: identity, bet, symbols, strips, paylines, line pays."""

from certify.features.base import FULL_CYCLE, STATE_DP, Feature

FEATURE = Feature(
    name="base_game",
    title="reels, paylines and a pay table read from reel 1 (SPEC 3.1)",
    keys=(
        "schema",
        "machine",
        "bet",
        "symbols",
        "symbols.*.kind",
        "symbols.*.substitutes",
        "groups",
        "reels",
        "pays",
        "rules",
    ),
    used=lambda m: True,
    exact=(FULL_CYCLE, STATE_DP),
    glass=("paylines", "wild", "winning_sequences", "rule_lines"),
    twin_model="models/machines/classic-3r-1.toml",
    examples=("models/machines/ref-5x3-20.toml", "models/machines/classic-3r-1.toml"),
)
