"""Named bonus games and plays per pay: each pay entry plays its own game, its times."""

from certify.features.base import EXTRAS, FEATURE_MOMENTS, FULL_CYCLE, Feature

FEATURE = Feature(
    name="bonus_games",
    title="pays play bonus games of their own ([bonus_games]), each its times (bonus_plays)",
    keys=("bonus_games", "pays[].bonus_plays", "scatter_pays[].bonus_plays"),
    used=lambda m: (
        bool(m.bonus_games)
        or any(e.bonus_plays > 1 for e in m.pays)
        or any(s.bonus_plays > 1 for s in m.scatter_pays)
    ),
    simulation=EXTRAS,
    exact=(FULL_CYCLE, FEATURE_MOMENTS),
    glass=(
        "bonus_named",
        "bonus_line_start_times",
        "bonus_line_start_free_times",
        "bonus_scatter_start_times",
    ),
    twin="lines",
    twin_model="tests/data/rules/named_bonus_games.toml",
    examples=(
        "tests/data/rules/named_bonus_games.toml",
        "tests/data/real/megajack_slotopol.toml",
        "tests/data/real/megajack_slotopol_deluxe.toml",
    ),
)
