"""The feature registry: one module per game feature, read by dispatch, tests and docs.

Each module of this package declares one :class:`~certify.features.base.Feature`:
the model keys it owns, whether a machine uses it, the path that plays it
(the full cycle or the screen kernels), the simulation kernel's branch it
needs, the exact methods that cover it, its pay-glass text keys and PAR
sections, the twin that plays it, the models that exercise it (the generated
tests in ``tests/features/test_registry.py`` play every one of them) and the
model whose certification compiles its kernels into the shipped bundle
(``prebuilt/``). :data:`REGISTRY` lists them in the order a reader meets them
in a model file. The package imports nothing of slotcert, so the model, the
engine and the reports may all read it.

Adding a feature starts here (``docs/ARCHITECTURE.md``, "Adding a feature").
"""

from __future__ import annotations

from typing import Any

from certify.features import (
    base_game,
    big_symbol,
    bonus,
    bonus_games,
    cascade,
    chain_pays,
    clusters,
    consecutive_scatters,
    count_multipliers,
    expanding_symbol,
    free_spin_options,
    free_spins,
    full_window,
    heights,
    hold_and_spin,
    jackpots,
    line_rules,
    paints,
    reel_wilds,
    scatters,
    sticky,
    ways,
    wild_multipliers,
    wild_scatter,
    wilds_in_free_spins,
    win_cap,
    window_multipliers,
)
from certify.features.base import CYCLE, SCREENS, Feature

REGISTRY: tuple[Feature, ...] = (
    base_game.FEATURE,
    ways.FEATURE,
    line_rules.FEATURE,
    wild_multipliers.FEATURE,
    reel_wilds.FEATURE,
    wild_scatter.FEATURE,
    wilds_in_free_spins.FEATURE,
    sticky.FEATURE,
    paints.FEATURE,
    scatters.FEATURE,
    consecutive_scatters.FEATURE,
    window_multipliers.FEATURE,
    heights.FEATURE,
    free_spins.FEATURE,
    free_spin_options.FEATURE,
    count_multipliers.FEATURE,
    expanding_symbol.FEATURE,
    big_symbol.FEATURE,
    bonus.FEATURE,
    bonus_games.FEATURE,
    jackpots.FEATURE,
    win_cap.FEATURE,
    full_window.FEATURE,
    hold_and_spin.FEATURE,
    cascade.FEATURE,
    chain_pays.FEATURE,
    clusters.FEATURE,
)
BY_NAME = {f.name: f for f in REGISTRY}

__all__ = [
    "BY_NAME",
    "CYCLE",
    "REGISTRY",
    "SCREENS",
    "Feature",
    "features_of",
    "owner",
    "play_path",
]


def features_of(machine: Any) -> tuple[Feature, ...]:
    """The registered features ``machine`` uses, in registry order."""
    return tuple(f for f in REGISTRY if f.used(machine))


def play_path(machine: Any) -> str:
    """:data:`SCREENS` when a feature of ``machine`` keeps a window between screens.

    Else :data:`CYCLE`: the full cycle and the prefix simulation kernels play it.
    """
    return SCREENS if any(f.path == SCREENS for f in features_of(machine)) else CYCLE


def owner(key: str) -> Feature | None:
    """The feature owning a model key path (``cascade.refill``, ``symbols.*.sticky``).

    The longest declared prefix wins: ``free_spins.big_symbol.reels`` belongs
    to the big symbol, ``free_spins.spins`` to the free spins.
    """
    best: tuple[int, Feature | None] = (-1, None)
    for f in REGISTRY:
        for k in f.keys:
            if (key == k or key.startswith(k + ".") or key.startswith(k + "[")) and len(k) > best[
                0
            ]:
                best = (len(k), f)
    return best[1]
