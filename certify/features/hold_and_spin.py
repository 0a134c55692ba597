"""Hold and spin: coins lock, respins reset, prizes and jackpots add up."""

from certify.features.base import EXTRAS, FULL_CYCLE, HOLD_CHAIN, Feature

FEATURE = Feature(
    name="hold_and_spin",
    title="a coin count starts respins where locked coins' values add up",
    keys=("hold_and_spin",),
    used=lambda m: m.hold_and_spin is not None,
    simulation=EXTRAS,
    exact=(FULL_CYCLE, HOLD_CHAIN),
    glass=("hold_and_spin", "hold_full", "hold_jackpots"),
    par=("hold_coins", "hold_prizes"),
    twin="hold",
    examples=("models/machines/hold-5x3-20.toml",),
    prebuilt="models/machines/hold-5x3-20.toml",
)
