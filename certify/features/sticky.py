"""Sticky wilds: a wild stays where it landed until the free spins end."""

from certify.features.base import SCREEN_KERNEL, SCREENS, STICKY_CHAIN, Feature

FEATURE = Feature(
    name="sticky",
    title="a wild held in place for the rest of the free spins",
    keys=("symbols.*.sticky",),
    used=lambda m: any(s.sticky for s in m.symbols),
    path=SCREENS,
    simulation=SCREEN_KERNEL,
    exact=(STICKY_CHAIN,),
    glass=("sticky",),
    par=("sticky_spins", "sticky_held"),
    twin="features",
    examples=("tests/data/small_sticky.toml",),
    prebuilt="tests/data/small_sticky.toml",
)
