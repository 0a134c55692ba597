"""Exact figures of screen games (SPEC 3.1b) by brute force over the full cycle.

A ``refill = "strip"`` cascade is fixed by its stops: every stop combination
is played screen by screen (:mod:`certify.exact._screens`), so the cycle's
(trigger count, bonus flag) buckets are exact and the rest of the exact
calculator (free-spin and bonus moments) applies unchanged. Cluster games
(with or without a strip cascade) are enumerated the same way. Line games
share the first screen between the starts by reel prefixes
(:func:`certify.exact._screens.enumerate_line_screens`). A
``refill = "random"`` cascade has no cycle of stops: where its window is small
it is played as a chain over the refill draws (:mod:`certify.exact.refill`),
otherwise it is simulation only.

Feasibility (SPEC 3.1c) is the work the enumeration will really do, not a
count of combinations: :func:`screen_work` plays a fixed sample of starts to
measure the screens a start shows (and, on a line game, how many starts pay
on their first screen at all), prices each screen by the paylines or cells it
evaluates, and the game is refused when that work is above what
:data:`SCREEN_BUDGET_S` seconds do at the measured rate
(:data:`SCREEN_RATE`); games of up to :data:`SCREEN_FREE_CYCLE` combinations
are never sampled.

:func:`enumerate_screens` is the drop-in for
:func:`certify.exact.cycle.enumerate_cycle`; :func:`compute_screen_exact`
gives the whole :class:`~certify.exact.cycle.ExactResult` of a screen game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from certify.bounds import EXACT_BUDGET_S
from certify.engine.kernel_inputs import game_inputs, level_inputs, reel_inputs, reel_sets
from certify.engine.limits import MAX_SCREENS, cascade_probe
from certify.engine.screen_records import CycleSums, ScreenPhase
from certify.engine.screens import (
    cluster_pays_of,
    play_sequences,
    screen_inputs,
    screen_problems,
)
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
from certify.exact.refill import chain_refusal, refill_chain
from certify.exact.sticky import sticky_feature_moments, sticky_infeasible
from certify.model.reader import join
from certify.model.schema import Machine
from certify.model.screens import random_refill, sticky_symbol

SCREEN_BUDGET_S = EXACT_BUDGET_S
"""Seconds of enumeration (at :data:`SCREEN_RATE`) a screen game's exact figures may take
by default (``budget_s`` of the functions below raises it)."""

SCREEN_RATE = 4.0e8
"""Work units a second of the screen enumeration on two cores (measured, docs/PERFORMANCE.md).

A unit is one payline-tree node or one cell evaluated: a screen costs its
paylines' first two reels' prefixes plus its cells (:func:`screen_unit`).
"""

PAID_FACTOR = 3.0
"""A screen of a start that pays, against a screen's evaluation alone (load, refill, marks)."""

SCREEN_FREE_CYCLE = 2_000_000
"""Stop combinations below which a screen game is enumerated without measuring its work."""

SAMPLE_STARTS = 4096
"""Starts played (fixed seed) to measure the screens a start shows."""

MAX_SCREEN_CYCLE = 1 << 62
"""No count of combinations caps the enumeration (kept for callers; see :func:`screen_work`)."""

_PROBED: dict[tuple, tuple[Machine, ScreenCycle]] = {}
"""The cascade check's cycles kept for the exact run (:func:`longest_cascade`), by
:func:`_probe_key`: those of the last :data:`PROBED_MACHINES` machines checked."""

PROBED_MACHINES = 8
"""Machines whose checked cycles are kept (a game's free-spin options are checked one
after the other, then computed one after the other)."""


@dataclass(frozen=True)
class ScreenCycle:
    """The full cycle of one phase of a screen game.

    Attributes
    ----------
    buckets : _Buckets
        As :func:`certify.exact.cycle.enumerate_cycle` returns them (awards
        per line award key).
    scatter_sum : int or float
        Weighted scatter credits over the cycle (screen multipliers included;
        a random-refill chain's are expected credits, its total weight 1).
    cluster_awards : ndarray
        Weighted paid groups per ``cluster_pays`` entry.
    longest : int
        The longest sequence of the cycle, in screens.

    """

    buckets: _Buckets
    scatter_sum: int | float
    cluster_awards: np.ndarray
    longest: int


@dataclass(frozen=True)
class ScreenWork:
    """The measured work of a screen game's exact enumeration (:func:`screen_work`).

    Attributes
    ----------
    combinations : int
        Stop combinations of one run of each phase (base game, free spins).
    runs : int
        Enumerations of a phase's cycle: per bet level (twice with a win cap),
        the free spins' once per level, and the cascade check's probe per phase
        unless it is the first level's uncapped run (a strip cascade's:
        :func:`longest_cascade` keeps it for :func:`screen_cycle`).
    per_start : float
        Work units of one start, averaged over the reel sets by their sizes.
    screens : float
        Screens a start shows, on average over the sample.
    total : float
        Per phase, combinations x runs x units a start, summed, in work units
        (:data:`SCREEN_RATE`).

    """

    combinations: int
    runs: int
    per_start: float
    screens: float
    total: float

    def describe(self) -> str:
        """One phrase for a refusal: the figures the work was judged on."""
        return (
            f"{self.runs} run(s), {self.screens:.2f} screens a start, "
            f"{self.per_start:,.0f} work units a start measured on {SAMPLE_STARTS:,} starts"
        )


def screen_unit(tables: GameTables) -> float:
    """Work units of one screen: what its evaluation walks (paylines' tree, cells, groups)."""
    m = tables.machine
    cells = m.rows * m.reels
    if m.evaluation == "cluster":
        return 4.0 * cells
    if tables.is_ways:
        return float(cells + tables.ways_match.shape[0] * m.reels)
    scr = screen_inputs(tables, 0)
    near = int(np.count_nonzero((scr.trie_depth >= 1) & (scr.trie_depth <= 2)))
    return float(cells + near)


def prefix_shared(tables: GameTables) -> bool:
    """Whether the cycle is enumerated by :func:`certify.exact._screens.enumerate_line_screens`.

    Line games, and games that pay only counts anywhere (no line or ways pays,
    not clusters: CT Sugar Town), whose first screen pays by its counted
    symbols alone: the ways automaton's one dead state settles no line, so
    the prefixes carry only the counts. Not where the free-spin trigger
    vanishes (``cascade.trigger_vanishes``: a first screen may go on without a pay).
    """
    m = tables.machine
    if m.cascade is not None and m.cascade.trigger_vanishes:
        return False
    return m.evaluation != "cluster" and (not tables.is_ways or not m.pays)


def screen_work(tables: GameTables, measure: bool = False) -> ScreenWork:
    """The work of the exact enumeration, measured on a fixed sample of starts.

    Every reel set's starts are sampled uniformly (the enumeration visits
    each stop combination once, whatever its weight; seed 0, so the verdict
    is the same on every run): the screens each shows are played
    (:func:`certify.engine.screens.play_sequences`). A start costs its
    screens x :func:`screen_unit`; on a line game a start whose first screen
    pays nothing costs only its last reel's step (the first screen is shared
    by prefixes: one unit per row). Games of up to
    :data:`SCREEN_FREE_CYCLE` combinations are not sampled (their work is
    below any budget: one unit per combination is reported) unless
    ``measure``.
    """
    sets = reel_sets(tables)
    phases = [0, 1] if tables.fs_counted >= 0 else [0]
    levels = max(len(tables.levels), 1)
    capped = bool(tables.levels) and spin_score(tables, tables.levels[0], 0).cap > 0
    # runs per phase: each bet level (twice under a win cap), plus the cascade check's
    # probe where it is not the first level's uncapped run (a strip cascade's is:
    # :func:`longest_cascade` keeps it for :func:`screen_cycle`)
    probe = 0 if cascade_probe(tables.machine) is not None else 1
    runs = {0: levels * (2 if capped else 1) + probe, 1: levels + probe}
    sizes = {p: _set_size(sets[0 if p == 0 else len(sets) - 1]) for p in phases}
    combinations = sum(sizes.values())
    n_runs = sum(runs[p] for p in phases)
    if (combinations <= SCREEN_FREE_CYCLE and not measure) or not tables.levels:
        total = float(sum(sizes[p] * runs[p] for p in phases))
        return ScreenWork(combinations, n_runs, 1.0, 1.0, total)
    unit = screen_unit(tables)
    rng = np.random.default_rng(0)
    total = per_start = screens = 0.0
    for p in phases:
        reels = sets[0 if p == 0 else len(sets) - 1]
        stops = np.stack(
            [rng.integers(0, int(n), SAMPLE_STARTS) for n in reels.length], axis=1
        ).astype(np.int64)
        played = play_sequences(tables, 0, stops, phase=p)
        n = played[:, 4].astype(np.float64)
        if prefix_shared(tables):
            pays = (played[:, 0] > 0) | (played[:, 4] > 1)
            cost = float(np.mean(np.where(pays, PAID_FACTOR * n * unit, tables.machine.rows)))
        else:
            cost = float(np.mean(n * unit))
        total += sizes[p] * runs[p] * cost
        per_start += cost * sizes[p] / combinations
        screens += float(np.mean(n)) * sizes[p] / combinations
    return ScreenWork(combinations, n_runs, per_start, screens, total)


def _set_size(reels: Any) -> int:
    return int(np.prod([int(n) for n in reels.length], dtype=object))


def column_counts(tables: GameTables, scatter_pay: np.ndarray) -> np.ndarray:
    """(sets, reels, stops, counted): each counted symbol in each column of the first screen."""
    window = reel_inputs(tables).window.astype(np.int64)  # (sets, reels, stops, rows)
    count_by = screen_inputs(tables, 0).count_by  # (reels, symbols, counted)
    n_counted = scatter_pay.shape[0]
    reel = np.arange(window.shape[1])[None, :, None, None]
    return count_by[reel, window][..., :n_counted].sum(axis=3)


def screen_cycle_size(tables: GameTables) -> int:
    """Distinct stop combinations of the cycle (base, plus the free spins' own reel set)."""
    return sum(int(np.prod([int(n) for n in s.length], dtype=object)) for s in reel_sets(tables))


def screen_infeasible_reason(
    tables: GameTables, max_cycle: int = MAX_SCREEN_CYCLE, budget_s: float | None = None
) -> str | None:
    """Why a screen game has no exact figures (None: it has).

    ``max_cycle`` caps the stop combinations as well (an explicit limit of
    the caller); the default leaves the decision to the work
    (:func:`screen_work`).
    """
    m = tables.machine
    problems = screen_problems(m)
    if problems:
        return str(problems[0])
    seconds = SCREEN_BUDGET_S if budget_s is None else budget_s
    if random_refill(m):  # a chain over the refill draws, not a cycle of stops
        reason = chain_refusal(tables, seconds)
        return reason if reason is not None else exact_infeasible(tables, max_cycle)
    size = screen_cycle_size(tables)
    if size > max_cycle:
        return (
            f"a screen game's full cycle of {size:,} stop combinations is above {max_cycle:,} "
            "(every screen of every combination is played)"
        )
    if any(s.cycle >= 1 << 62 for s in reel_sets(tables)):
        return "the weighted cycle does not fit 62-bit integers"
    work = screen_work(tables)
    if work.total > SCREEN_RATE * seconds:
        return (
            f"a screen game's full cycle of {size:,} stop combinations would take about "
            f"{work.total / SCREEN_RATE:,.0f} s ({work.describe()}; "
            f"at most {seconds:,.0f} s of work at the measured rate: "
            "`exact --budget SECONDS` or `certify --exact-budget SECONDS` allows more)"
        )
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
    A cycle the cascade check has just played (:func:`longest_cascade`: the
    same machine, level and phase, uncapped, no sequence cut short) is that
    run's, not played again: the same sums to the bit.
    """
    if random_refill(tables.machine):
        chain = refill_chain(tables, lt, phase, capped)
        return ScreenCycle(chain.buckets, chain.scatter_sum, chain.cluster_awards, chain.longest)
    score = spin_score(tables, lt, phase)
    if max_screens is None and not (capped and score.cap > 0):
        kept = _PROBED.get(_probe_key(tables, lt, phase))
        if kept is not None and kept[0] is tables.machine:
            return kept[1]
    sets = reel_sets(tables)
    ps = 0 if phase == 0 else len(sets) - 1
    scr = screen_inputs(tables, lt.level_index)
    if max_screens is not None:
        scr = scr._replace(max_screens=max_screens)
    rows = int(sets[ps].length[0])
    w, wb, wb2, hit, _ = _outputs(tables, lt, rows)
    n_aw = lt.n_keys + len(cluster_pays_of(tables.machine)) + 1
    aw = np.zeros((rows, n_aw), dtype=np.int64)
    sc = np.zeros(rows, dtype=np.int64)
    longest = np.zeros(rows, dtype=np.int64)
    outputs = (w, wb, wb2, hit, aw, sc, longest)
    cap = score.cap if capped else 0
    ri, li, gi = reel_inputs(tables), level_inputs(lt, tables), game_inputs(tables)
    play, sums = ScreenPhase(ps, phase, score.scatter_pay, score.excl), CycleSums(*outputs)
    if prefix_shared(tables) and scr.sticky_sym < 0:
        counts = column_counts(tables, score.scatter_pay)
        k.enumerate_line_screens(play, ri, li, gi, scr, counts, cap, sums)
    else:
        k.enumerate_screen_cycle(play, ri, li, gi, scr, cap, sums)
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


def longest_cascade(machine: Machine | GameTables, budget_s: float | None = None) -> int | None:
    """The longest sequence of a strip cascade's full cycle, in screens (None: not known).

    None when the machine has no cascade, refills at random or has a cycle
    whose work is above the exact calculator's budget (:func:`screen_work`),
    or when the check's work is beyond its bound
    (:func:`certify.engine.limits.cascade_probe`). The probe stops a sequence at
    up to ``10 x max_screens + 100`` screens (an endless cascade reports that).
    """
    m = machine.machine if isinstance(machine, GameTables) else machine
    probe = cascade_probe(m)  # None: no strip cascade, or too much work to check (limits)
    if probe is None or screen_problems(m):
        return None
    tables = machine if isinstance(machine, GameTables) else compile_machine(machine)
    seconds = SCREEN_BUDGET_S if budget_s is None else budget_s
    if screen_cycle_size(tables) > SCREEN_FREE_CYCLE:
        if screen_work(tables).total > SCREEN_RATE * seconds:
            return None
    lt = tables.levels[0]
    phases = (0, 1) if tables.fs_counted >= 0 else (0,)
    cycles = {p: screen_cycle(tables, lt, p, False, probe) for p in phases}
    longest = max(c.longest for c in cycles.values())
    _keep_probed(tables, lt, cycles, longest)
    return longest


def _keep_probed(
    tables: GameTables, lt: LevelTables, cycles: dict[int, ScreenCycle], longest: int
) -> None:
    """Keep the check's cycles for the exact run where they are its own.

    They are when no sequence was cut short: every sequence ended below the
    probe and within ``max_screens``, so the run at ``max_screens`` plays the
    same screens and adds the same terms (the check is uncapped: the run
    takes them where it is uncapped too, :func:`screen_cycle`).
    """
    machine = tables.machine
    for key in [key for key, (held, _) in _PROBED.items() if held is machine]:
        del _PROBED[key]
    cascade = machine.cascade
    if cascade is None or longest > cascade.max_screens:
        return
    held = list(dict.fromkeys(id(h) for h, _ in _PROBED.values()))
    for gone in held[: max(len(held) - PROBED_MACHINES + 1, 0)]:  # the oldest machines
        for key in [key for key in _PROBED if key[0] == gone]:
            del _PROBED[key]
    for p, c in cycles.items():
        _PROBED[_probe_key(tables, lt, p)] = (machine, c)


def _probe_key(tables: GameTables, lt: LevelTables, phase: int) -> tuple:
    """What a screen cycle depends on beyond the machine: the phase and the level's tables."""
    arrays = [lt.credits, lt.credits_fs, lt.scatter_pay, lt.scatter_pay_fs, lt.trans]
    arrays += [lt.live, lt.state_entry, lt.award_keys, np.asarray(lt.start)]
    return (
        id(tables.machine),
        phase,
        lt.level_index,
        lt.level,
        lt.total_bet,
        tuple((a.shape, a.tobytes()) for a in arrays),
    )


def compute_screen_exact(
    machine: Machine | GameTables, max_cycle: int = MAX_SCREEN_CYCLE, budget_s: float | None = None
) -> ExactResult | None:
    """Exact figures of every level of a screen game, or None (:func:`screen_infeasible_reason`)."""
    tables = machine if isinstance(machine, GameTables) else compile_machine(machine)
    if screen_infeasible_reason(tables, max_cycle, budget_s) is not None:
        return None
    levels = [_level_exact(tables, lt) for lt in tables.levels]
    method = "random-refill chain" if random_refill(tables.machine) else "full-cycle screens"
    return ExactResult(tables.machine.id, screen_cycle_size(tables), method, levels)


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
    if m.bonus_combo:
        out.append(AwardExact("bonus", m.bonus_combo, 0, bonus_p))
    return out


def check_cascade_cycle(machine: Any, budget_s: float | None = None) -> int | None:
    """The longest sequence (in screens) of the full cycle of a ``refill = "strip"`` cascade.

    Parameters
    ----------
    machine : Machine or GameTables
        A machine with a cascade (its ``cascade`` attribute).
    budget_s : float, optional
        Seconds of work (at the measured rate) the check may take; by default
        :data:`SCREEN_BUDGET_S`, the exact calculator's.

    Returns
    -------
    int or None
        The longest sequence over every stop combination of the base strips
        and of the free spins' (the first screen included; a probe stops at
        :func:`certify.engine.limits.cascade_probe` screens, so an endless cascade reports
        that many), or None when there is no strip cascade, the game is not
        played by the screen kernels, or the cycle's work is above the exact
        calculator's budget (:func:`certify.exact.screens.screen_work`).

    """
    return longest_cascade(machine, budget_s)


def cascade_cycle_problem(
    machine: Any, file: str, where: str = "cascade", budget_s: float | None = None
) -> Problem | None:
    """The located error of a strip cascade whose cycle can exceed ``max_screens``, or None.

    The message reads ``cascade.max_screens: a cycle of 60 screens exceeds 50``.
    """
    cascade = getattr(machine, "cascade", None)
    if cascade is None:
        return None
    longest = check_cascade_cycle(machine, budget_s)
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
