"""Free spins: a trigger, spins by count, a multiplier, retriggers, strips and pays of their own."""

from certify.features.base import EXTRAS, FEATURE_MOMENTS, FULL_CYCLE, Feature

FEATURE = Feature(
    name="free_spins",
    title="a scatter count awards free spins, played with their own multiplier and strips",
    keys=(
        "free_spins",
        "pays[].free_spins_multiplier",
        "pays[].free_spins_pays",
        "scatter_pays[].free_spins_pays",
    ),
    used=lambda m: m.free_spins is not None,
    simulation=EXTRAS,
    exact=(FULL_CYCLE, FEATURE_MOMENTS),
    glass=(
        "free_spins",
        "free_spins_trigger",
        "free_spins_award",
        "free_spins_multiplier",
        "free_spins_multiplier_drawn",
        "free_spins_retrigger",
        "free_spins_no_retrigger",
        "free_spins_retrigger_once",
        "free_spins_retrigger_awards",
        "free_spins_max",
        "free_spins_strips",
        "free_spins_pays",
        "unmultiplied_rule",
    ),
    twin_model="tests/data/rules/retrigger_spins.toml",
    examples=("models/machines/book-5x3-10.toml", "tests/data/rules/retrigger_spins.toml"),
    prebuilt="models/machines/book-5x3-10.toml",
)
