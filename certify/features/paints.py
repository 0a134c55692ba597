"""A symbol that paints the block of cells around where it lands wild."""

from certify.features.base import PARTS, Feature

FEATURE = Feature(
    name="paints",
    title="a landing symbol turns the cells around it into a wild",
    keys=("symbols.*.paints",),
    used=lambda m: any(s.paints is not None for s in m.symbols),
    exact=(PARTS,),
    glass=("paints",),
    twin="features",
    examples=("tests/data/rules/paints.toml",),
)
