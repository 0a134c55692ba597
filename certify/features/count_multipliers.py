"""The free spins' multiplier by the count of symbols that started them (Jaguar Moon)."""

from certify.features.base import FEATURE_MOMENTS, Feature

FEATURE = Feature(
    name="count_multipliers",
    title="free spins multiplied by the count that started them",
    keys=("free_spins.multiplier_by_count",),
    used=lambda m: m.free_spins is not None and bool(m.free_spins.multiplier_by_count),
    exact=(FEATURE_MOMENTS,),
    glass=("free_spins_multiplier_by_count", "free_spins_multiplier_award"),
    twin="features",
    twin_model="tests/data/rules/consecutive_scatters.toml",
    examples=(
        "tests/data/rules/consecutive_scatters.toml",
        "tests/data/real/novomatic_jaguar_moon.toml",
    ),
)
