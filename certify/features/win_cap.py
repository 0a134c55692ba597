"""A cap on one spin's whole win, x the total bet."""

from certify.features.base import EXTRAS, FEATURE_MOMENTS, FULL_CYCLE, Feature

FEATURE = Feature(
    name="win_cap",
    title="a spin (with its features) never pays more than the cap",
    keys=("rules.win_cap",),
    used=lambda m: m.rules.win_cap is not None,
    simulation=EXTRAS,
    exact=(FULL_CYCLE, FEATURE_MOMENTS),
    glass=("win_cap",),
    twin_model="tests/data/rules/win_cap.toml",
    examples=("tests/data/rules/win_cap.toml", "tests/refusals/hold_cap_3r.toml"),
    prebuilt="tests/data/small_ways.toml",
)
