"""Exact figures of a game whose free-spin option the machine draws (``weight``).

The option is drawn when the feature starts, independently of the spin that
triggered it, and kept for the whole feature (retriggers included). A paid
spin's win is then distributed as the mixture, by the options' weights, of
the wins of the game played with each option alone
(:meth:`~certify.model.schema.Machine.option_machines`): every mean (return,
its parts, hit and trigger frequencies, award odds, pool hits) and the second
moment mix linearly, and the variance follows from the mixed second moment.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from fractions import Fraction

from certify.exact.cycle import AwardExact, ExactResult, LevelExact
from certify.model.schema import Machine

MEANS = (
    "rtp",
    "line_rtp",
    "scatter_rtp",
    "free_spins_rtp",
    "bonus_rtp",
    "hit_frequency",
    "fs_probability",
    "bonus_probability",
    "win_cap_rtp",
)


def drawn_exact(
    machine: Machine, exact_of: Callable[[Machine], ExactResult | None]
) -> ExactResult | None:
    """The exact figures of ``machine`` (drawn options) from ``exact_of`` each option alone."""
    fs = machine.free_spins
    assert fs is not None and fs.options_drawn
    results = [exact_of(variant) for variant in machine.option_machines()]
    if any(r is None for r in results):
        return None
    total = sum(o.weight or 0 for o in fs.options)
    shares = [float(Fraction(o.weight or 0, total)) for o in fs.options]
    done = [r for r in results if r is not None]
    levels = [mix_level([r.levels[i] for r in done], shares) for i in range(len(done[0].levels))]
    first = done[0]
    return ExactResult(first.machine_id, first.cycle, f"{first.method}, options mixed", levels)


def mix_level(parts: list[LevelExact], shares: list[float]) -> LevelExact:
    """One bet level's figures: the options' figures mixed by their probabilities."""
    means = {k: sum(p * getattr(x, k) for x, p in zip(parts, shares, strict=True)) for k in MEANS}
    second = sum(p * (x.variance + x.rtp**2) for x, p in zip(parts, shares, strict=True))
    awards = [
        AwardExact(
            a.kind,
            a.combo,
            a.pays,
            sum(p * x.awards[i].probability for x, p in zip(parts, shares, strict=True)),
        )
        for i, a in enumerate(parts[0].awards)
    ]
    pools = sorted({name for x in parts for name in x.pool_hits})
    hits = {
        n: sum(p * x.pool_hits.get(n, 0.0) for x, p in zip(parts, shares, strict=True))
        for n in pools
    }
    return dataclasses.replace(
        parts[0], **means, variance=second - means["rtp"] ** 2, awards=awards, pool_hits=hits
    )
