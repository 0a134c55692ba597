"""A cascade's length pays: a sequence of screens that lasts long enough wins a prize."""

from certify.features.base import SCREEN_CYCLE, SCREEN_KERNEL, SCREENS, Feature

FEATURE = Feature(
    name="chain_pays",
    title="a cascade that lasts k screens or more pays a prize by its length",
    keys=("cascade.chain_pays",),
    used=lambda m: m.cascade is not None and bool(m.cascade.chain_pays),
    path=SCREENS,
    simulation=SCREEN_KERNEL,
    exact=(SCREEN_CYCLE,),
    glass=("chain_pays", "chain_pays_more"),
    par=("cascade_lengths",),
    twin="screens",
    twin_model="tests/data/rules/chain_pays.toml",
    examples=("tests/data/rules/chain_pays.toml", "tests/data/real/ct_win_feast.toml"),
    prebuilt="models/machines/cascade-5x3-10.toml",
)
