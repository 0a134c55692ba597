"""Full-window pays: one symbol over the whole window (or given reels) multiplies or wins a pool."""

from certify.features.base import EXTRAS, FULL_CYCLE, Feature

FEATURE = Feature(
    name="full_window",
    title="a window full of one symbol multiplies the spin's wins or wins a jackpot",
    keys=("full_window_pays",),
    used=lambda m: bool(m.full_window_pays),
    simulation=EXTRAS,
    exact=(FULL_CYCLE,),
    glass=(
        "full_window",
        "full_window_all",
        "full_window_reels",
        "full_window_wilds",
        "full_window_screen",
    ),
    par=("full_window",),
    twin="features",
    twin_model="tests/data/small_full_window.toml",
    examples=("tests/data/small_full_window.toml", "tests/data/real/ct_king_of_clovers.toml"),
    prebuilt="tests/data/small_full_window.toml",
)
