"""Exact figures of screen games (SPEC 3.1b) by brute force over the full cycle.

A ``refill = "strip"`` cascade is fixed by its stops: every stop combination
is played screen by screen (:mod:`certify.exact._screens`), so the cycle's
(trigger count, bonus flag) buckets are exact and the rest of the exact
calculator (free-spin and bonus moments) applies unchanged. Cluster games
(with or without a strip cascade) are enumerated the same way when their
cycle is small (:data:`MAX_SCREEN_CYCLE` stop combinations). A
``refill = "random"`` cascade has no finite cycle: simulation only.

:func:`enumerate_screens` is the drop-in for
:func:`certify.exact.cycle.enumerate_cycle`; :func:`compute_screen_exact`
gives the whole :class:`~certify.exact.cycle.ExactResult` of a screen game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from certify.engine.kernel_inputs import game_inputs, level_inputs, reel_inputs, reel_sets
from certify.engine.limits import MAX_SCREENS, cascade_probe
from certify.engine.screens import cascade_of, cluster_pays_of, screen_inputs, screen_problems
from certify.engine.tables import GameTables, LevelTables, compile_machine
from certify.errors import Problem
from certify.exact import _screens as k
from certify.exact.cycle import (
    AwardExact,
    ExactResult,
    LevelExact,
    _Buckets,
    _buckets,
    _feature_by_count,
    _outputs,
    bonus_by_bucket,
    exact_infeasible,
    spin_score,
)
from certify.exact.sticky import sticky_feature_moments, sticky_infeasible
from certify.model.reader import join
from certify.model.schema import Machine
from certify.model.screens import sticky_symbol

MAX_SCREEN_CYCLE = 20_000_000
"""Stop combinations a screen game's exact calculator plays, every screen of each (default)."""

RANDOM_REFILL = 'cascade refill = "random": simulation only'


@dataclass(frozen=True)
class ScreenCycle:
    """The full cycle of one phase of a screen game.

    Attributes
    ----------
    buckets : _Buckets
        As :func:`certify.exact.cycle.enumerate_cycle` returns them (awards
        per line award key).
    scatter_sum : int
        Weighted scatter credits over the cycle (screen multipliers included).
    cluster_awards : ndarray
        Weighted paid groups per ``cluster_pays`` entry.
    longest : int
        The longest sequence of the cycle, in screens.

    """

    buckets: _Buckets
    scatter_sum: int
    cluster_awards: np.ndarray
    longest: int


def screen_cycle_size(tables: GameTables) -> int:
    """Distinct stop combinations of the cycle (base, plus the free spins' own reel set)."""
    return sum(int(np.prod([int(n) for n in s.length], dtype=object)) for s in reel_sets(tables))


def screen_infeasible_reason(tables: GameTables, max_cycle: int = MAX_SCREEN_CYCLE) -> str | None:
    """Why a screen game has no exact figures (None: it has)."""
    m = tables.machine
    problems = screen_problems(m)
    if problems:
        return str(problems[0])
    cascade = cascade_of(m)
    if cascade is not None and cascade.refill == "random":
        return RANDOM_REFILL
    size = screen_cycle_size(tables)
    if size > max_cycle:
        return (
            f"a screen game's full cycle of {size:,} stop combinations is above {max_cycle:,} "
            "(every screen of every combination is played)"
        )
    if any(s.cycle >= 1 << 62 for s in reel_sets(tables)):
        return "the weighted cycle does not fit 62-bit integers"
    sticky = sticky_infeasible(tables)
    if sticky is not None:
        return sticky
    return exact_infeasible(tables, max_cycle)  # the win cap with features, engine bounds


def screen_cycle(
    tables: GameTables,
    lt: LevelTables,
    phase: int,
    capped: bool = True,
    max_screens: int | None = None,
) -> ScreenCycle:
    """Play every stop combination of the reel set of ``phase`` (0 base game, 1 free spins).

    ``max_screens`` overrides the cascade's (a probe of the longest sequence).
    """
    sets = reel_sets(tables)
    ps = 0 if phase == 0 else len(sets) - 1
    scr = screen_inputs(tables, lt.level_index)
    if max_screens is not None:
        scr = scr._replace(max_screens=max_screens)
    score = spin_score(tables, lt, phase)
    rows = int(sets[ps].length[0])
    w, wb, wb2, hit, _ = _outputs(tables, lt, rows)
    n_aw = lt.n_keys + len(cluster_pays_of(tables.machine)) + 1
    aw = np.zeros((rows, n_aw), dtype=np.int64)
    sc = np.zeros(rows, dtype=np.int64)
    longest = np.zeros(rows, dtype=np.int64)
    k.enumerate_screen_cycle(
        ps,
        phase,
        reel_inputs(tables),
        level_inputs(lt, tables),
        game_inputs(tables),
        scr,
        score.scatter_pay,
        score.excl,
        score.cap if capped else 0,
        w,
        wb,
        wb2,
        hit,
        aw,
        sc,
        longest,
    )
    buckets = _buckets(tables, w, wb, wb2, hit, aw[:, : max(lt.n_keys, 1)])
    off = lt.n_keys
    return ScreenCycle(
        buckets,
        sum(int(x) for x in sc),
        aw[:, off : off + len(cluster_pays_of(tables.machine))].sum(axis=0),
        int(longest.max(initial=0)),
    )


def enumerate_screens(
    tables: GameTables, lt: LevelTables, phase: int, capped: bool = True
) -> _Buckets:
    """Drop-in for :func:`certify.exact.cycle.enumerate_cycle` on a screen game."""
    return screen_cycle(tables, lt, phase, capped).buckets


def longest_cascade(machine: Machine | GameTables) -> int | None:
    """The longest sequence of a strip cascade's full cycle, in screens (None: not known).

    None when the machine has no cascade, refills at random or has a cycle
    above :data:`MAX_SCREEN_CYCLE`, or when the check's work is beyond its bound
    (:func:`certify.engine.limits.cascade_probe`). The probe stops a sequence at
    up to ``10 x max_screens + 100`` screens (an endless cascade reports that).
    """
    m = machine.machine if isinstance(machine, GameTables) else machine
    probe = cascade_probe(m)  # None: no strip cascade, or too much work to check (limits)
    if probe is None or screen_problems(m):
        return None
    tables = machine if isinstance(machine, GameTables) else compile_machine(machine)
    if screen_cycle_size(tables) > MAX_SCREEN_CYCLE:
        return None
    lt = tables.levels[0]
    phases = (0, 1) if tables.fs_counted >= 0 else (0,)
    return max(screen_cycle(tables, lt, p, False, probe).longest for p in phases)


def compute_screen_exact(
    machine: Machine | GameTables, max_cycle: int = MAX_SCREEN_CYCLE
) -> ExactResult | None:
    """Exact figures of every level of a screen game, or None (:func:`screen_infeasible_reason`)."""
    tables = machine if isinstance(machine, GameTables) else compile_machine(machine)
    if screen_infeasible_reason(tables, max_cycle) is not None:
        return None
    levels = [_level_exact(tables, lt) for lt in tables.levels]
    return ExactResult(tables.machine.id, screen_cycle_size(tables), "full-cycle screens", levels)


def _free_spin_moments(
    tables: GameTables, lt: LevelTables, bonus: dict[int, tuple[float, float]]
) -> dict[int, tuple[float, float]]:
    """E[F], E[F^2] of the feature by trigger count (as ``cycle._free_spin_moments``)."""
    if tables.fs_counted < 0:
        return {}
    if sticky_symbol(tables.machine) is not None:
        return sticky_feature_moments(tables, lt, bonus)
    return _feature_by_count(tables, enumerate_screens(tables, lt, 1), bonus)


def _level_exact(tables: GameTables, lt: LevelTables) -> LevelExact:
    cyc = screen_cycle(tables, lt, 0)
    base = cyc.buckets
    bonus = bonus_by_bucket(tables, lt)
    fs_moments = _free_spin_moments(tables, lt, bonus)
    nb = tables.bonus_jmax + 1
    total = base.total
    mean = var_sum = fs_mean = bonus_mean = hit = fs_p = bonus_p = 0.0
    for b in range(base.w.shape[0]):
        wgt = float(base.w[b])
        if wgt == 0:
            continue
        count, j = divmod(b, nb)
        ef, ef2 = fs_moments.get(count, (0.0, 0.0))
        eb, eb2 = bonus.get(j, (0.0, 0.0))
        extra = ef + eb
        mean += base.wb[b] + wgt * extra
        var_sum += base.wb2[b] + 2 * base.wb[b] * extra + wgt * (ef2 + eb2 + 2 * ef * eb)
        triggered = count in fs_moments or j > 0
        hit += wgt if triggered else float(base.hit[b])
        fs_mean += wgt * ef
        bonus_mean += wgt * eb
        fs_p += wgt if count in fs_moments else 0.0
        bonus_p += wgt if j > 0 else 0.0
    tb = lt.total_bet
    ew = mean / total
    line_sum = sum(base.wb)
    cap_sum = 0.0
    if spin_score(tables, lt, 0).cap > 0:
        cap_sum = float(line_sum - sum(screen_cycle(tables, lt, 0, capped=False).buckets.wb))
    scatter = cyc.scatter_sum / total
    return LevelExact(
        level_index=lt.level_index,
        level=lt.level,
        total_bet=tb,
        rtp=ew / tb,
        line_rtp=(line_sum / total - scatter - cap_sum / total) / tb,
        win_cap_rtp=cap_sum / total / tb,
        scatter_rtp=scatter / tb,
        free_spins_rtp=fs_mean / total / tb,
        bonus_rtp=bonus_mean / total / tb,
        hit_frequency=hit / total,
        variance=(var_sum / total - ew * ew) / tb**2,
        fs_probability=fs_p / total,
        bonus_probability=bonus_p / total,
        awards=_awards(tables, lt, cyc, fs_p / total, bonus_p / total),
    )


def _awards(
    tables: GameTables, lt: LevelTables, cyc: ScreenCycle, fs_p: float, bonus_p: float
) -> list[AwardExact]:
    """Line (or cluster) awards as expected occurrences per spin over the whole sequence."""
    m = tables.machine
    total = cyc.buckets.total
    out = []
    if lt.n_keys:
        per_entry = cyc.buckets.awards[: lt.n_keys] @ lt.award_keys
        kind = "ways" if tables.is_ways else "line"
        out = [
            AwardExact(kind, e.combo, int(lt.credits[e.index]), float(per_entry[e.index]) / total)
            for e in m.pays
        ]
    for i, cp in enumerate(cluster_pays_of(m)):
        out.append(
            AwardExact(
                "cluster",
                (cp.symbol,) * cp.size,
                cp.pays * lt.total_bet,
                float(cyc.cluster_awards[i]) / total,
            )
        )
    if m.free_spins is not None:
        out.append(
            AwardExact(
                "free_spins", (m.free_spins.trigger.symbol,) * m.free_spins.trigger.count, 0, fs_p
            )
        )
    if m.bonus is not None:
        out.append(
            AwardExact("bonus", (m.bonus.trigger.symbol,) * m.bonus.trigger.count, 0, bonus_p)
        )
    return out


def check_cascade_cycle(machine: Any) -> int | None:
    """The longest sequence (in screens) of the full cycle of a ``refill = "strip"`` cascade.

    Parameters
    ----------
    machine : Machine or GameTables
        A machine with a cascade (its ``cascade`` attribute).

    Returns
    -------
    int or None
        The longest sequence over every stop combination of the base strips
        and of the free spins' (the first screen included; a probe stops at
        :func:`certify.engine.limits.cascade_probe` screens, so an endless cascade reports
        that many), or None when there is no strip cascade, the game is not
        played by the screen kernels, or the cycle is larger than
        :data:`certify.exact.screens.MAX_SCREEN_CYCLE`.

    """
    return longest_cascade(machine)


def cascade_cycle_problem(machine: Any, file: str, where: str = "cascade") -> Problem | None:
    """The located error of a strip cascade whose cycle can exceed ``max_screens``, or None.

    The message reads ``cascade.max_screens: a cycle of 60 screens exceeds 50``.
    """
    cascade = getattr(machine, "cascade", None)
    if cascade is None:
        return None
    longest = check_cascade_cycle(machine)
    if longest is None or longest <= cascade.max_screens:
        return None
    endless = longest >= (cascade_probe(machine) or 0)  # the probe's limit
    size = f"at least {longest} screens (it may never end)" if endless else f"{longest} screens"
    fix = (
        "change the strips so that every sequence ends"
        if endless or longest > MAX_SCREENS
        else f"raise cascade.max_screens to {longest}"
    )
    return Problem(
        file,
        join(where, "max_screens"),
        f"a cycle of {size} exceeds {cascade.max_screens}; {fix}",
        "cascade_too_long",
    )
