"""Bonus games: a prize table, or staged rules (pick, wheel, ladder, multiplier)."""

from certify.features.base import EXTRAS, FEATURE_MOMENTS, FULL_CYCLE, Feature

FEATURE = Feature(
    name="bonus",
    title="a trigger or a line starts a bonus game whose prize law is exact",
    keys=("bonus", "pays[].bonus", "scatter_pays[].bonus"),
    used=lambda m: m.bonus is not None,
    simulation=EXTRAS,
    exact=(FULL_CYCLE, FEATURE_MOMENTS),
    glass=(
        "bonus",
        "bonus_trigger",
        "bonus_award",
        "bonus_game",
        "bonus_game_rules",
        "bonus_line_start_free",
        "bonus_scatter_start",
    ),
    twin="lines",
    twin_model="tests/data/rules/bonus_games.toml",
    examples=(
        "tests/data/rules/bonus_games.toml",
        "tests/data/real/megajack_champagne.toml",
        "tests/data/real/playtech_golden_tour.toml",
    ),
)
