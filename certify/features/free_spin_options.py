"""Free-spin options: the player's choice (each certified alone) or drawn by the machine."""

from certify.features.base import EXTRAS, FEATURE_MOMENTS, MIXTURE, Feature

FEATURE = Feature(
    name="free_spin_options",
    title="spins and multiplier chosen by the player, or drawn, when the feature starts",
    keys=("free_spins.options",),
    used=lambda m: m.free_spins is not None and bool(m.free_spins.options),
    simulation=EXTRAS,
    exact=(FEATURE_MOMENTS, MIXTURE),
    glass=(
        "free_spins_options",
        "free_spins_option",
        "free_spins_options_drawn",
        "free_spins_option_drawn",
    ),
    examples=("tests/data/real/netent_piggy_riches.toml",),
)
