"""A big symbol over consecutive reels' window in free spins, drawn from its own strip.

By symbol it may cover fewer of the reels (``covers``) and show given cells
(``columns``): Novomatic Fairy Queen.
"""

from certify.features.base import PARTS, Feature

FEATURE = Feature(
    name="big_symbol",
    title="one symbol covers several reels' whole window during free spins",
    keys=("free_spins.big_symbol",),
    used=lambda m: m.free_spins is not None and m.free_spins.big_symbol is not None,
    exact=(PARTS,),
    glass=("big_symbol", "big_symbol_covers", "big_symbol_column"),
    twin="features",
    examples=(
        "tests/data/rules/big_symbol.toml",
        "tests/data/real/playngo_fire_joker.toml",
        "tests/data/real/novomatic_fairy_queen.toml",
    ),
)
