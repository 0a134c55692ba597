"""What a feature declares (:class:`Feature`) and the words its fields use."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

CYCLE = "cycle"  # played spin by spin: the full cycle, the prefix simulation kernels
SCREENS = "screens"  # a window kept between screens: the screen kernels (SPEC 3.1b)

# the simulation kernel's branches (certify.engine.simulate: ways_flag, extras_flag)
PLAIN, EXTRAS, WAYS_KERNEL, SCREEN_KERNEL = "plain", "extras", "ways", "screens"

# the exact methods (docs/ARCHITECTURE.md names where each lives)
FULL_CYCLE = "full cycle"  # every stop combination, lines shared by reel prefixes (exact/cycle.py)
STATE_DP = "state dp"  # the line automaton's states reel by reel (exact/statedp.py)
FEATURE_MOMENTS = "feature moments"  # free-spin and bonus recursions (exact/features.py)
SCREEN_CYCLE = "screen cycle"  # every start's whole sequence of screens (exact/screens.py)
PARTS = "parts"  # the game split into weighted parts, each a full cycle (engine/paint.py)
TILTED = "tilted weights"  # per-stop factors as tilted weights (exact/factors.py)
MIXTURE = "mixture"  # a drawn option's games played alone and mixed (exact/options.py)
HOLD_CHAIN = "hold chain"  # the respins' Markov chain (exact/hold.py)
STICKY_CHAIN = "sticky chain"  # the held cells' chain (exact/sticky.py)
REFILL_CHAIN = "refill chain"  # a random refill's screens, layer by layer (exact/refill.py)
POOL_HITS = "pool hits"  # a jackpot's hit probability, on top of the return (jackpot_return.py)


@dataclass(frozen=True)
class Feature:
    """One game feature, as every layer meets it.

    Parameters
    ----------
    name : str
        Short name (the module's).
    title : str
        One line: what the feature is, in a cabinet's words.
    keys : tuple of str
        The model key paths it owns (``cascade``, ``symbols.*.sticky``,
        ``pays[].bonus``); a key's owner is the longest declared prefix.
    used : callable
        ``used(machine) -> bool``: whether a parsed machine uses it.
    path : str
        :data:`CYCLE` or :data:`SCREENS`: the path that plays a game using it.
    simulation : str
        The kernel branch it needs: ``plain``, ``extras`` (pruned from games
        without it), ``ways`` or ``screens``.
    exact : tuple of str
        The exact methods that cover it.
    glass : tuple of str
        The pay-glass text keys (``reports/i18n/*.toml``) that describe it.
    par : tuple of str
        The PAR sections (``par-features.csv``) it adds, if any.
    twin : str
        The twin module of ``tests/twins`` that plays it (``lines``,
        ``features``, ``hold``, ``screens``, ``bonusgame``, ``pools``).
    twin_model : str
        A model small enough for the twin's brute force ("" if none is).
    examples : tuple of str
        Model files (from the repository root) that use it; the generated
        tests play each.
    prebuilt : str
        The model whose certification compiles its kernels into the shipped
        bundle (a shipped model, or a coverage model of ``prebuilt_build``).

    """

    name: str
    title: str
    keys: tuple[str, ...]
    used: Callable[[Any], bool]
    path: str = CYCLE
    simulation: str = PLAIN
    exact: tuple[str, ...] = (FULL_CYCLE,)
    glass: tuple[str, ...] = ()
    par: tuple[str, ...] = ()
    twin: str = "lines"
    twin_model: str = ""
    examples: tuple[str, ...] = ()
    prebuilt: str = "models/machines/ref-5x3-20.toml"
