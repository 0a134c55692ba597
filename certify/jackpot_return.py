"""Return of jackpot pools per bet level: contributions plus reset funding.

Per unit wagered, a pool returns its contribution rate (and any reserve rate,
which is paid out later as a reset or overflow) plus the reset money the
operator puts in at each hit: ``P(hit per spin) x reset / (total bet x
denomination)``. For a mystery trigger with probability ``p`` per credit
wagered that is ``p x reset / denomination``.
"""

from __future__ import annotations

from certify.engine.tables import jackpot_entries
from certify.exact.cycle import LevelExact
from certify.model.schema import Machine


def jackpot_rtp(machine: Machine, level_index: int, exact: LevelExact | None) -> float:
    """Jackpot return per unit wagered at a bet level (0 without jackpots).

    Combination triggers need the exact hit probability; without it the
    reset funding of those pools is left out (contributions still count).
    """
    level = machine.bet_levels[level_index]
    money_per_spin = float(machine.total_bet(level) * machine.denomination)
    replaced = jackpot_entries(machine, level)
    total = 0.0
    for jp in machine.jackpots:
        total += float(jp.contribution + jp.reserve_rate)
        if jp.mystery is not None:
            total += float(jp.mystery * jp.reset / machine.denomination)
            continue
        hit = 0.0
        if exact is not None:
            hit = sum(a.probability for a in exact.awards[: len(machine.pays)]
                      if replaced.get(_index(machine, a.combo)) == jp.id)
        total += hit * float(jp.reset) / money_per_spin
    return total


def _index(machine: Machine, combo: tuple[str, ...]) -> int:
    for e in machine.pays:
        if e.combo == combo:
            return e.index
    return -1
