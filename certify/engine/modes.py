"""``expands = {chance = [k, n]}``: wilds that fill their reel in a spin drawn with chance k/n.

CT Interactive's Groovy Powers draws a "bonus mode" for each spin (1 in 15) in
which a wild on reels 2-4 fills its reel; otherwise the wild stays a plain
wild. Each phase is played as two parts (:class:`certify.engine.paint.Parts`):
the plain reel set and the one whose column rule expands those wilds. Their
first reel's stop weights are scaled by n - k and k, so the parts' cycles are
in proportion to the modes' chances and add up as the painted games' do; the
simulation draws the part (the mode) by the same weights. The mode is not in
the stops, so outcome logs of such a game are not replayed (its stops still
are tested).
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from certify.engine.paint import Parts, ReelSet
from certify.model.schema import Machine


def drawn_chance(machine: Machine) -> tuple[int, int] | None:
    """The chance (k, n) of the spins where wilds expand, or None."""
    return next((s.expands_chance for s in machine.symbols if s.expands_chance), None)


def chance_expanding(machine: Machine) -> frozenset[str]:
    """The wilds that fill their reel in the drawn mode."""
    return frozenset(s.name for s in machine.symbols if s.expands_chance)


def mode_parts(
    plain: ReelSet,
    expanded: ReelSet,
    chance: tuple[int, int],
    reweighted: Callable[[ReelSet, np.ndarray, np.ndarray], ReelSet],
) -> Parts:
    """The two parts of a phase: plain (chance 1 - k/n), then expanded (k/n)."""
    k, n = chance
    sets = (_scaled(plain, n - k, reweighted), _scaled(expanded, k, reweighted))
    g = math.gcd(n - k, k)
    weights = np.array([(n - k) // g, k // g], dtype=np.int64)
    return Parts(sets, weights, np.zeros(plain.weight.shape, dtype=np.int64))


def _scaled(reels: ReelSet, factor: int, reweighted: Callable) -> ReelSet:
    """``reels`` with its first reel's stop weights x ``factor`` (its cycle x factor)."""
    weight = reels.weight.copy()
    weight[0] *= factor
    return reweighted(reels, reels.window, weight)
