"""A wild that is also a scatter (Book of Ra's book)."""

from certify.features.base import FULL_CYCLE, Feature

FEATURE = Feature(
    name="wild_scatter",
    title="a wild also counted and paid as a scatter anywhere",
    keys=("symbols.*.scatter",),
    used=lambda m: any(s.scatter for s in m.symbols),
    exact=(FULL_CYCLE,),
    glass=("wild_scatter",),
    twin="features",
    examples=("models/machines/book-5x3-10.toml",),
    prebuilt="models/machines/book-5x3-10.toml",
)
