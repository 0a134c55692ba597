"""Cascades: winning symbols vanish, the rest fall, new ones refill (from the strip or drawn)."""

from certify.features.base import REFILL_CHAIN, SCREEN_CYCLE, SCREEN_KERNEL, SCREENS, Feature

FEATURE = Feature(
    name="cascade",
    title="wins vanish and the window refills until a screen pays nothing",
    keys=("cascade",),
    used=lambda m: m.cascade is not None,
    path=SCREENS,
    simulation=SCREEN_KERNEL,
    exact=(SCREEN_CYCLE, REFILL_CHAIN),
    glass=("cascade", "cascade_trigger_vanishes"),
    par=("cascade_lengths", "cascade_steps"),
    twin="screens",
    examples=(
        "models/machines/cascade-5x3-10.toml",
        "tests/data/real/ct_king_of_clovers.toml",
        "tests/data/rules/random_refill.toml",
    ),
    prebuilt="models/machines/cascade-5x3-10.toml",
)
