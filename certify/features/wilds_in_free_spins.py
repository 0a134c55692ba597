"""Regular or scatter symbols that play as wilds during free spins."""

from certify.features.base import FULL_CYCLE, Feature

FEATURE = Feature(
    name="wilds_in_free_spins",
    title="a symbol turns wild for the free spins",
    keys=("symbols.*.wild_in_free_spins",),
    used=lambda m: any(s.wild_in_free_spins for s in m.symbols),
    exact=(FULL_CYCLE,),
    glass=("wild_in_free_spins",),
    twin="features",
    examples=("tests/data/real/ct_vikings_fun.toml",),
)
