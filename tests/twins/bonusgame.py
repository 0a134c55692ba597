"""Twin of the bonus games' stages: every play of the game, item by item, in fractions.

Written from the rules in docs/MODELS.md (``[[bonus.stages]]``), not from
``certify.model.bonusgame``: a pick game draws *which hidden item* (each item
its own branch, so equal prizes are different items), a wheel each segment in
turn, and the prize is computed at the end of each play. Exponential, so only
for small games.
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction

from certify.model.schema import Bonus, LadderStage, MultiplierStage, PickStage, WheelStage


def plays(stage: PickStage | WheelStage | LadderStage) -> Iterator[tuple[Fraction, int]]:
    """Each complete play of a pick, wheel or ladder stage: (probability, prize)."""
    if isinstance(stage, PickStage):
        yield from _picks(stage, tuple(range(len(stage.prizes))), [], Fraction(1))
    elif isinstance(stage, WheelStage):
        yield from _spins(stage, stage.spins, 0, 0, Fraction(1))
    else:
        yield from _steps(stage, 0, Fraction(1))


def _picks(stage: PickStage, hidden: tuple[int, ...], shown: list[int], p: Fraction):
    prizes = [stage.prizes[i] for i in shown]
    stopped = bool(prizes) and prizes[-1] is None
    if stopped or len(shown) == stage.picks or not hidden:
        won = [x for x in prizes if x is not None]
        total = sum(won)
        if len(won) >= 2 and len(set(won)) == 1:
            total *= stage.match_multiplier
        yield p, total
        return
    allowed = hidden
    if len(shown) < stage.safe:  # a safe pick is one of the hidden prizes, never a stop
        allowed = tuple(i for i in hidden if stage.prizes[i] is not None)
        if not allowed:
            yield from _picks(stage, (), shown, p)
            return
    for i in allowed:
        rest = tuple(j for j in hidden if j != i)
        yield from _picks(stage, rest, [*shown, i], p / len(allowed))


def _spins(stage: WheelStage, left: int, made: int, prize: int, p: Fraction):
    cap = stage.max_spins or stage.spins
    if left == 0 or made == cap:
        yield p, prize
        return
    whole = sum(s.weight for s in stage.segments)
    for s in stage.segments:
        yield from _spins(stage, left - 1 + s.again, made + 1, prize + s.pays, p * s.weight / whole)


def _steps(stage: LadderStage, rung: int, p: Fraction):
    if rung == len(stage.rungs) - 1:  # the top rung pays
        yield p, stage.rungs[rung]
        return
    whole = stage.climb + stage.collect + stage.lose
    if stage.collect:
        yield p * stage.collect / whole, stage.rungs[rung]
    if stage.lose:
        yield p * stage.lose / whole, 0
    if stage.climb:
        yield from _steps(stage, rung + 1, p * stage.climb / whole)


def bonus_prize_moments(bonus: Bonus) -> tuple[Fraction, Fraction]:
    """E[B], E[B^2] of the bonus prize (in prize units: x total bet or x line bet)."""
    if not bonus.stages:
        total = sum(a.weight for a in bonus.awards)
        e1 = sum(Fraction(a.weight * a.pays, total) for a in bonus.awards)
        e2 = sum(Fraction(a.weight * a.pays**2, total) for a in bonus.awards)
        return e1, e2
    laws: list[list[tuple[Fraction, int]]] = [[(Fraction(1), 0)]]
    mults: list[tuple[Fraction, int]] = [(Fraction(1), 1)]
    for stage in bonus.stages:
        if isinstance(stage, MultiplierStage):
            whole = sum(w for _, w in stage.values)
            mults = [(p * Fraction(w, whole), k * m) for p, k in mults for m, w in stage.values]
        else:
            laws.append(list(plays(stage)))
    sums: list[tuple[Fraction, int]] = [(Fraction(1), 0)]
    for law in laws:
        sums = [(p * q, a + b) for p, a in sums for q, b in law]
    e1 = sum(p * q * a * k for p, a in sums for q, k in mults)
    e2 = sum(p * q * (a * k) ** 2 for p, a in sums for q, k in mults)
    return e1, e2
