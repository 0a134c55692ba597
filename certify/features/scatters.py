"""Scatter pays and how scatters are counted (their reels, wilds, double symbols, units).

A ``[[scatter_pays]]`` symbol may also be a regular or wild symbol: it pays by its
count anywhere (as landed, one a cell; a wild as itself only) and still plays on
the lines (CT Caribbean Adventure's free spins: ``free_spins_pays`` on every symbol).
"""

from certify.features.base import EXTRAS, FULL_CYCLE, Feature

FEATURE = Feature(
    name="scatters",
    title="symbols paid by their count anywhere in the window (scatters, or any symbol)",
    keys=(
        "scatter_pays",
        "symbols.*.reels",
        "symbols.*.wilds_count",
        "symbols.*.counts_as",
        "rules.scatter_unit",
        "rules.exclusive_scatters",
    ),
    used=lambda m: (
        bool(m.scatter_pays) or any(s.reels or s.wilds_count or s.counts_as for s in m.symbols)
    ),
    simulation=EXTRAS,
    exact=(FULL_CYCLE,),
    glass=(
        "scatter_pays",
        "scatter_rule",
        "scatter_rule_line_bet",
        "counted_on_reels",
        "wilds_count_as",
        "counts_as",
        "exclusive_scatters",
        "count_pays",
        "count_pays_free_spins",
    ),
    twin_model="tests/data/rules/scatter_counting.toml",
    examples=(
        "tests/data/rules/scatter_counting.toml",
        "models/machines/ref-5x3-20.toml",
        "tests/data/rules/screen_counting.toml",
        "tests/data/real/ct_sugar_town.toml",
        "tests/data/rules/count_pays_many.toml",
    ),
)
