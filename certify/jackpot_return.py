"""Return of jackpot pools per bet level: what a player gets back from each pool.

A pool pays its value at each hit, so its return per unit wagered at a bet
level is ``q x A``: ``q`` the hit probability per unit of money wagered at
that level, ``A`` the expected amount at hit. Without a cap ``A = reset +
c / q_group`` (``c`` the contribution rate, ``q_group`` the pool's hit
probability per unit of money over all the play that feeds it), so a
standalone pool returns ``c + q x reset``: the contribution plus the reset
funding at the exact hit rate.

* A **cap** with ``overflow = "reserve"`` diverts contributions above the cap
  to the reserve: ``A = reset + c x E[min(X, L)]`` (``X`` the money wagered
  between hits, ``L = (cap - reset) / c``), exact for a single stake
  (geometric spins) and the exponential approximation for a mixed group.
  With ``overflow = "next-reset"`` nothing leaves the pool's players:
  ``A = min(cap, reset + c / q_group)`` in the long run.
* The **reserve** (hidden rate, NJ 13:69E-1.39A(a)5) funds the next reset,
  so it is already inside ``q x reset``; it is not added again. A reserve
  that grows beyond what resets need is a captive value (reported as
  ``reserve_surplus``, not counted in the return).
* A level that **cannot win** the pool (below ``min_bet_level``, or an
  impossible combination) returns 0 from it, although its wagers contribute.
* **Linked pools** seen from one machine (:func:`jackpot_rtp`) assume every
  member plays like this machine at this level (exact for ``same_model``
  groups of one stake); :func:`group_returns` shares the reset funding over a
  real group at the group's hit rate.

A combination trigger needs the exact per-spin probability; without it the
return of that pool is its contribution alone (stated in ``PoolReturn.exact``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from certify.exact.cycle import LevelExact
from certify.model.schema import Jackpot, Machine

if TYPE_CHECKING:
    from certify.model.links import Link


@dataclass(frozen=True)
class PoolReturn:
    """One pool's return at one bet level, per unit of money wagered."""

    pool: str
    eligible: bool
    exact: bool  # False when a combo probability was not available
    hit_probability: float  # per spin at this level
    contribution: float
    reset_funding: float  # q x reset
    mean_amount: float  # expected amount at hit (money); 0 when never hit
    diverted: float  # cap overflow to the reserve, per unit wagered
    reserve_surplus: float  # reserve inflow beyond what resets need, per unit wagered
    rtp: float


def spin_probability(
    machine: Machine, level_index: int, trigger: Jackpot, exact: LevelExact | None
) -> float | None:
    """Probability that one spin at a level hits the pool (None: unknown).

    Mystery triggers: each credit wagered is an independent chance ``p``, so
    a spin of ``k`` credits hits with ``1 - (1 - p)^k``. Combination
    triggers: the exact expected occurrences per spin of the replaced pay.
    A pool that hold and spin or a full window awards adds those exact
    expected hits per spin (``LevelExact.pool_hits``); a pool with no other
    trigger has only those.
    """
    level = machine.bet_levels[level_index]
    if trigger.min_bet_level is not None and level < trigger.min_bet_level:
        return 0.0
    held = exact.pool_hits.get(trigger.id, 0.0) if exact is not None else 0.0
    if trigger.mystery is not None:  # plus what a full window or hold and spin wins
        k = machine.total_bet(level)
        return held - math.expm1(k * math.log1p(-float(trigger.mystery)))
    if exact is None:
        return None
    combo = trigger.trigger_combo
    if combo is None:
        return held
    return held + sum(a.probability for a in exact.awards[: len(machine.pays)] if a.combo == combo)


def geometric_capped_mean(p: float, m: float) -> float:
    """``E[min(N, m)]`` for ``N`` geometric on 1, 2, ... with success ``p``, ``m >= 0``.

    With ``f = floor(m)``: ``(1 - (1-p)^f (1 + f p)) / p + m (1-p)^f``.
    """
    if math.isinf(m):
        return 1.0 / p
    f = math.floor(m)
    tail = math.exp(f * math.log1p(-p))
    return (1.0 - tail * (1.0 + f * p)) / p + m * tail


def expected_amount(
    reset: float, contribution: float, cap: float | None, overflow: str, stake: float, p_spin: float
) -> tuple[float, float]:
    """Expected amount at hit and money diverted per hit, one stake (exact).

    The winning spin's contribution is in the pool before it is paid.
    """
    a = contribution * stake
    if cap is None or a == 0:
        return reset + a / p_spin, 0.0
    if overflow == "next-reset":
        return min(cap, reset + a / p_spin), 0.0
    mean_n = geometric_capped_mean(p_spin, (cap - reset) / a)
    return reset + a * mean_n, a * (1.0 / p_spin - mean_n)


def expected_amount_mixed(
    reset: float, contribution: float, cap: float | None, overflow: str, q_group: float
) -> tuple[float, float]:
    """Expected amount at hit and money diverted per hit, mixed group.

    Money wagered between hits is taken as exponential with rate ``q_group``
    per unit of money (the limit of many small stakes).
    """
    c = contribution
    if cap is None or c == 0:
        return reset + c / q_group, 0.0
    if overflow == "next-reset":
        return min(cap, reset + c / q_group), 0.0
    reach = q_group * (cap - reset) / c
    kept = c * (-math.expm1(-reach)) / q_group
    return reset + kept, c / q_group - kept


def pool_return(
    pool: Jackpot | Link, stake: float, p_spin: float | None, q_group: float | None = None
) -> PoolReturn:
    """Return of one pool for play at one stake (see the module docstring).

    Parameters
    ----------
    pool : Jackpot or Link
        The pool's parameters (contribution, reset, cap, overflow, reserve).
    stake : float
        Money wagered per spin.
    p_spin : float or None
        Hit probability per spin at this stake; None when unknown.
    q_group : float, optional
        Hits per unit of money over the whole group; default ``p_spin / stake``
        (the group plays like this stake).

    """
    c, reset = float(pool.contribution), float(pool.reset)
    cap = float(pool.cap) if pool.cap is not None else None
    name = pool.id
    if p_spin is None:
        return PoolReturn(name, True, False, float("nan"), c, 0.0, 0.0, 0.0, 0.0, c)
    if p_spin <= 0:
        return PoolReturn(name, False, True, 0.0, c, 0.0, 0.0, 0.0, 0.0, 0.0)
    q = p_spin / stake
    if q_group is None or math.isclose(q_group, q, rel_tol=1e-12):
        amount, diverted = expected_amount(reset, c, cap, pool.overflow, stake, p_spin)
        q_group = q
    else:
        amount, diverted = expected_amount_mixed(reset, c, cap, pool.overflow, q_group)
    inflow = float(pool.reserve_rate) + q_group * diverted
    surplus = max(0.0, inflow - q_group * reset)
    return PoolReturn(
        name, True, True, p_spin, c, q * reset, amount, q_group * diverted, surplus, q * amount
    )


def level_pools(machine: Machine, level_index: int, exact: LevelExact | None) -> list[PoolReturn]:
    """Every pool of a machine at a bet level, seen from the machine alone."""
    level = machine.bet_levels[level_index]
    stake = float(machine.total_bet(level) * machine.denomination)
    return [
        pool_return(jp, stake, spin_probability(machine, level_index, jp, exact))
        for jp in machine.jackpots
    ]


def jackpot_rtp(machine: Machine, level_index: int, exact: LevelExact | None) -> float:
    """Jackpot return per unit wagered at a bet level (0 without jackpots)."""
    return float(sum((p.rtp for p in level_pools(machine, level_index, exact)), 0.0))


@dataclass(frozen=True)
class MemberReturn:
    """Base, jackpot and total return of one member of a superjackpot group."""

    machine_id: str
    model: str
    bet_level: int
    base_rtp: float | None
    group: PoolReturn
    own_jackpot_rtp: float

    @property
    def jackpot_rtp(self) -> float:
        """The group pool plus the machine's own (non-group) pools."""
        return self.group.rtp + self.own_jackpot_rtp

    @property
    def rtp(self) -> float | None:
        """Base plus jackpot return (None without a base figure)."""
        return None if self.base_rtp is None else self.base_rtp + self.jackpot_rtp


def group_returns(link: Link, exacts: dict[str, list[LevelExact] | None]) -> list[MemberReturn]:
    """Per-member returns of a superjackpot group, reset funding shared by the group.

    Parameters
    ----------
    link : Link
        The loaded group.
    exacts : dict
        Model id -> exact figures per bet level (``None`` when not feasible).

    The group's hit rate per unit of money weights members by coin-in
    (``spins_per_day x stake``; equal spins when the file gives no rates).

    """
    rows = []
    for m in link.members:
        levels = exacts.get(m.machine.id)
        li = m.machine.bet_levels.index(m.bet_level)
        ex = levels[li] if levels else None
        trig = link_as_jackpot(link)
        rows.append((m, li, ex, float(m.stake), spin_probability(m.machine, li, trig, ex)))
    rates = [m.spins_per_day or 1.0 for m in link.members]
    if not all(m.spins_per_day for m in link.members):
        rates = [1.0] * len(link.members)  # equal spins unless every member has a rate
    known = all(r[4] is not None for r in rows)
    money = sum(w * r[3] for w, r in zip(rates, rows, strict=True))
    hits = sum(w * (r[4] or 0.0) for w, r in zip(rates, rows, strict=True))
    q_group = hits / money if known else None
    out = []
    for m, li, ex, stake, p in rows:
        pool = pool_return(link, stake, p, q_group if q_group else None)
        own = sum(
            x.rtp
            for x, jp in zip(level_pools(m.machine, li, ex), m.machine.jackpots, strict=True)
            if jp.link != link.id
        )
        out.append(
            MemberReturn(m.machine_id, m.machine.id, m.bet_level, ex.rtp if ex else None, pool, own)
        )
    return out


def link_as_jackpot(link: Link) -> Jackpot:
    """A superjackpot group's pool as a :class:`Jackpot` (for the per-machine helpers)."""
    return Jackpot(
        link.id,
        "linked",
        link.contribution,
        link.reset,
        link.cap,
        link.overflow,
        link.reserve_rate,
        link.trigger_combo,
        link.min_bet_level,
        link.mystery,
        link.id,
    )
