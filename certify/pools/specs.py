"""Build :class:`PoolSpec` objects from a machine's jackpot or a superjackpot group."""

from __future__ import annotations

from certify.errors import UsageError
from certify.exact.cycle import LevelExact
from certify.jackpot_return import link_as_jackpot, spin_probability
from certify.model.links import Link, Member
from certify.model.schema import Jackpot, Machine
from certify.pools.simulate import Player, PoolSpec

DEFAULT_SPINS_PER_DAY = 3000.0


def machine_pool(
    machine: Machine,
    jackpot_id: str,
    level: int,
    spins_per_day: float = DEFAULT_SPINS_PER_DAY,
    exact: list[LevelExact] | None = None,
    machine_id: str = "",
) -> PoolSpec:
    """The pool ``jackpot_id`` of one machine played at ``level``.

    Parameters
    ----------
    machine : Machine
        The model.
    jackpot_id : str
        One of its ``[[jackpots]]``.
    level : int
        The bet level played.
    spins_per_day : float
        Play rate.
    exact : list of LevelExact, optional
        Exact figures per bet level; required for a combination trigger.
    machine_id : str
        The cabinet's id (default: the model id).

    """
    jp = next((j for j in machine.jackpots if j.id == jackpot_id), None)
    if jp is None:
        raise UsageError(
            f"model {machine.id!r} has no jackpot {jackpot_id!r} (it has "
            f"{[j.id for j in machine.jackpots]})"
        )
    if level not in machine.bet_levels:
        raise UsageError(f"level={level} is not one of {list(machine.bet_levels)}")
    li = machine.bet_levels.index(level)
    player = Player(
        machine_id or machine.id,
        float(machine.total_bet(level) * machine.denomination),
        _probability(machine, li, jp, exact),
        spins_per_day,
    )
    return PoolSpec(
        jp.id,
        float(jp.contribution),
        float(jp.reset),
        (player,),
        float(jp.cap) if jp.cap is not None else None,
        jp.overflow,
        float(jp.reserve_rate),
    )


def link_pool(
    link: Link,
    exacts: dict[str, list[LevelExact] | None] | None = None,
    spins_per_day: float = DEFAULT_SPINS_PER_DAY,
) -> PoolSpec:
    """The pool of a superjackpot group; members without a play rate get ``spins_per_day``."""
    trig = link_as_jackpot(link)
    players = tuple(
        _player(m, trig, (exacts or {}).get(m.machine.id), spins_per_day) for m in link.members
    )
    return PoolSpec(
        link.id,
        float(link.contribution),
        float(link.reset),
        players,
        float(link.cap) if link.cap is not None else None,
        link.overflow,
        float(link.reserve_rate),
    )


def _player(
    m: Member, trig: Jackpot, exact: list[LevelExact] | None, default_rate: float
) -> Player:
    li = m.machine.bet_levels.index(m.bet_level)
    return Player(
        m.machine_id,
        float(m.stake),
        _probability(m.machine, li, trig, exact),
        m.spins_per_day or default_rate,
        m.casino,
    )


def _probability(machine: Machine, li: int, jp: Jackpot, exact: list[LevelExact] | None) -> float:
    p = spin_probability(machine, li, jp, exact[li] if exact else None)
    if p is None:
        raise UsageError(
            f"jackpot {jp.id!r} of model {machine.id!r} is won by a combination, a full"
            " window or hold and spin: its hit probability needs the exact figures"
        )
    return p
