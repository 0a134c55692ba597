"""Exact figures of a machine by full-cycle enumeration plus exact feature moments."""

from __future__ import annotations

import dataclasses
import itertools
from dataclasses import dataclass, field

import numpy as np

from certify.engine.kernel_inputs import (
    SpinScore,
    game_inputs,
    level_inputs,
    phase_sets,
    prefix_inputs,
    prefix_tables,
    reel_sets,
)
from certify.engine.limits import machine_limits
from certify.engine.prefix import combo_classes, count_width
from certify.engine.tables import (
    GameTables,
    LevelTables,
    ReelSet,
    compile_machine,
    line_bonus_variant,
    pool_ids,
    scatter_bonus_marks,
    ways_sums,
)
from certify.exact import _kernels as k
from certify.exact import factors, statedp
from certify.exact.decompose import (
    phase_count_distribution,
    phase_count_vectors,
    scatter_mean_tilted,
    scatter_pays_of,
)
from certify.exact.features import bonus_moments, feature_moments, law_moments, spin_classes
from certify.exact.fullwindow import (
    MAX_FULL_WINDOWS,
    full_window_count_bound,
    pool_buckets,
    with_full_windows,
)
from certify.exact.hold import hold_exact_by_start
from certify.exact.kernel_records import (
    BucketRule,
    BucketSums,
    ComboWalk,
    LineReels,
    TailClasses,
    WaysReels,
)
from certify.model.schema import Machine

MAX_CYCLE = 2_000_000_000  # distinct stop combinations we enumerate by default (SPEC 3.1c)


@dataclass(frozen=True)
class AwardExact:
    """One award with its exact frequency (expected occurrences per spin)."""

    kind: str  # line | ways | scatter | free_spins | bonus
    combo: tuple[str, ...]
    pays: int  # credits at the level (x total bet for scatter)
    probability: float

    @property
    def one_in(self) -> float:
        """Spins per occurrence ("1 in N"); inf when impossible."""
        return 1.0 / self.probability if self.probability > 0 else float("inf")


@dataclass(frozen=True)
class LevelExact:
    """Exact figures of one bet level, per unit wagered (base game, no jackpots)."""

    level_index: int
    level: int
    total_bet: int
    rtp: float
    line_rtp: float
    scatter_rtp: float
    free_spins_rtp: float
    bonus_rtp: float
    hit_frequency: float
    variance: float
    fs_probability: float
    bonus_probability: float
    awards: list[AwardExact] = field(default_factory=list)
    win_cap_rtp: float = 0.0  # what the win cap takes off the return (<= 0), SPEC 3.1a
    pool_hits: dict[str, float] = field(default_factory=dict)  # hold and spin: pool -> hits/spin

    @property
    def sigma(self) -> float:
        """Standard deviation of the win per spin, per unit wagered."""
        return float(np.sqrt(self.variance))

    def volatility_index(self, confidence: float) -> float:
        """Volatility index z x sigma at a two-sided confidence level."""
        from certify.stats import z_value

        return z_value(confidence) * self.sigma


@dataclass(frozen=True)
class ExactResult:
    """Exact figures of every bet level of a machine."""

    machine_id: str
    cycle: int
    method: str
    levels: list[LevelExact]


@dataclass(frozen=True)
class _Buckets:
    """Cycle sums per (trigger count, bonus flag) bucket."""

    w: np.ndarray
    wb: list[int]
    wb2: np.ndarray
    hit: np.ndarray
    awards: np.ndarray
    total: int


def tail_classes(reels: ReelSet) -> TailClasses:
    """Count classes of the reels after each depth: what a settled prefix still needs.

    For each depth ``k`` (reels ``k..R-1`` still to come): the distinct vectors
    of counted symbols those reels can show, with their total weight. Returns
    (weights (R+1, M), counts (R+1, M, C), classes per depth (R+1,), total
    weight per depth (R+1,)).
    """
    n_reels, n_counted = reels.length.shape[0], reels.counted.shape[0]
    classes: list[dict[tuple, int]] = [dict() for _ in range(n_reels + 1)]
    classes[n_reels] = {(0,) * n_counted: 1}
    for r in range(n_reels - 1, -1, -1):
        per_stop: dict[tuple, int] = {}
        for stop in range(int(reels.length[r])):
            key = tuple(int(x) for x in reels.counted[:, r, stop])
            per_stop[key] = per_stop.get(key, 0) + int(reels.weight[r, stop])
        for key, w in per_stop.items():
            for rest, w2 in classes[r + 1].items():
                merged = tuple(a + b for a, b in zip(key, rest))
                classes[r][merged] = classes[r].get(merged, 0) + w * w2
    width = max(len(c) for c in classes)
    tail_w = np.zeros((n_reels + 1, width), dtype=np.int64)
    tail_cnt = np.zeros((n_reels + 1, width, n_counted), dtype=np.int64)
    tail_n = np.array([len(c) for c in classes], dtype=np.int64)
    for depth, table in enumerate(classes):
        for m, (key, w) in enumerate(sorted(table.items())):
            tail_w[depth, m] = w
            tail_cnt[depth, m] = key
    total = np.array([sum(c.values()) for c in classes], dtype=np.int64)
    return TailClasses(tail_w, tail_cnt, tail_n, total)


def cycle_size(tables: GameTables) -> int:
    """Weighted stop combinations of the full cycle (base plus feature strips): reported only.

    The cycle a PAR sheet quotes; it says nothing about the work (see
    :func:`enumerated_size`), and is a Python integer (never wraps).
    """
    size = tables.base.cycle
    if tables.free is not tables.base:
        size += tables.free.cycle
    return size


def enumerated_size(tables: GameTables) -> int:
    """Distinct stop combinations the calculator enumerates: product of strip lengths, per set."""
    return sum(int(np.prod([int(n) for n in s.length], dtype=object)) for s in reel_sets(tables))


def exact_infeasible(tables: GameTables, max_cycle: int = MAX_CYCLE) -> str | None:
    """Why the exact calculator refuses ``tables`` (None: it does not).

    Feasibility is the work done (SPEC 3.1c): the distinct stop combinations
    enumerated, never their weights; then the bounds of
    :func:`certify.engine.limits.machine_limits` (64-bit weight x win sums,
    the capped free-spin recursion), each with its location.
    """
    size = enumerated_size(tables)
    if size > max_cycle:
        reason = _beyond_cycle(tables, max_cycle)
        if reason is not None:
            return reason
    windows = full_window_count_bound(tables)
    if windows > MAX_FULL_WINDOWS:
        return (
            f"full_window_pays: up to {windows:,} full windows to enumerate"
            f" (at most {MAX_FULL_WINDOWS:,})"
        )
    limits = machine_limits(tables.machine)
    if limits.exact:
        return "; ".join(str(p) for p in limits.exact)
    return factors.overflow(tables, limits.screen_max)


def _beyond_cycle(tables: GameTables, max_cycle: int) -> str | None:
    """Why a game of more than ``max_cycle`` stop combinations is refused (None: it is not).

    The reel sets walked by the full cycle count their stop combinations; the
    ones merged by :mod:`certify.exact.statedp` count the transitions of the
    run itself (run here at the first bet level, within ``max_cycle``, and
    kept for :func:`compute_exact`).
    """
    walked = statedp.walked_size(tables)
    if walked > max_cycle:
        return f"{walked:,} stop combinations to enumerate (at most {max_cycle:,})"
    refused_below = tables.machine.rules.win_cap is not None and _has_features(tables)
    if not tables.levels or refused_below or machine_limits(tables.machine).exact:
        return None  # refused below for its own reason (no run that could overflow)
    lt = tables.levels[0]
    for phase, ps in statedp.merged_sets(tables):
        try:
            state_buckets(tables, lt, phase, spin_score(tables, lt, phase), max_cycle, ps)
        except statedp.TooLarge as exc:
            return f"{enumerated_size(tables):,} stop combinations; {exc.args[0]}"
    return None


def _has_features(tables: GameTables) -> bool:
    return tables.fs_counted >= 0 or tables.bonus_counted >= 0


def exact_method(tables: GameTables) -> str:
    """The method of :func:`compute_exact`: ``full-cycle``, ``state-merging`` or both."""
    sets = range(len(reel_sets(tables)))
    merged = [statedp.uses_states(tables, ps) for ps in sets]
    if all(merged):
        return statedp.method(tables)
    return "full-cycle" if not any(merged) else f"{statedp.method(tables)} + full-cycle"


def compute_exact(machine: Machine | GameTables, max_cycle: int = MAX_CYCLE) -> ExactResult | None:
    """Exact figures of every bet level, or None when the exact calculator refuses the game.

    :func:`exact_infeasible` says why.
    """
    tables = machine if isinstance(machine, GameTables) else compile_machine(machine)
    if exact_infeasible(tables, max_cycle) is not None:
        return None
    size = cycle_size(tables)
    done: dict[tuple, LevelExact] = {}
    levels = []
    for lt in tables.levels:
        if lt.signature in done:
            levels.append(_rescale(done[lt.signature], lt))
            continue
        try:
            result = _level_exact(tables, lt)
        except statedp.TooLarge:
            return None  # a later bet level's states outgrew the bound of the first's
        done[lt.signature] = result
        levels.append(result)
    return ExactResult(tables.machine.id, size, exact_method(tables), levels)


def _rescale(base: LevelExact, lt: LevelTables) -> LevelExact:
    """The same figures for a level whose pays are proportional to its bet."""
    ratio = lt.total_bet / base.total_bet
    awards = [
        AwardExact(a.kind, a.combo, int(round(a.pays * ratio)), a.probability) for a in base.awards
    ]
    return LevelExact(
        **{
            **base.__dict__,
            "level_index": lt.level_index,
            "level": lt.level,
            "total_bet": lt.total_bet,
            "awards": awards,
        }
    )


def enumerate_cycle(
    tables: GameTables, lt: LevelTables, phase: int, capped: bool = True
) -> _Buckets:
    """Run the enumeration kernel on the reel set of ``phase`` (0 base game, 1 free spins).

    Large reel sets are summed by state merging (:func:`state_buckets`);
    lines games whose prefix table stops two reels before the end go through
    its combos (:func:`enumerate_by_combos`); the others walk the cycle.
    Full windows are then re-scored (:mod:`certify.exact.fullwindow`).
    Awards are counted per award key (see :attr:`LevelTables.award_keys`).
    """
    if tables.factor_on:  # what the reels show multiplies the spin: tilted cycles
        plain = _enumerate(factors.untilted(tables), lt, phase, capped)
        t1, *g1 = factors.tilted(tables, 1)
        t2, *g2 = factors.tilted(tables, 2)
        once, twice = _enumerate(t1, lt, phase, capped), _enumerate(t2, lt, phase, capped)
        k1, k2 = g1[min(phase, 1)], g2[min(phase, 1)]
        wb = [int(x) * k1 for x in once.wb]
        return dataclasses.replace(plain, wb=wb, wb2=np.asarray(twice.wb2) * float(k2))
    return _enumerate(tables, lt, phase, capped)


def _enumerate(tables: GameTables, lt: LevelTables, phase: int, capped: bool) -> _Buckets:
    score = spin_score(tables, lt, phase)
    if not capped:
        score = score._replace(cap=0)
    sets = reel_sets(tables)
    played = phase_sets(tables, phase)
    parts = [_cycle_buckets(tables, sets[ps], lt, phase, ps, score) for ps in played]
    return with_full_windows(tables, sets[played[0]], lt, phase, score, summed(parts))


def summed(parts: list[_Buckets]) -> _Buckets:
    """The buckets of reel sets whose cycles add up to one phase's (``paints``: its parts)."""
    if len(parts) == 1:
        return parts[0]
    return _Buckets(
        np.sum([p.w for p in parts], axis=0),
        [sum(x) for x in zip(*(p.wb for p in parts), strict=True)],
        np.sum([p.wb2 for p in parts], axis=0),
        np.sum([p.hit for p in parts], axis=0),
        np.sum([p.awards for p in parts], axis=0),
        sum(p.total for p in parts),
    )


def _cycle_buckets(
    tables: GameTables, reels: ReelSet, lt: LevelTables, phase: int, ps: int, score: SpinScore
) -> _Buckets:
    """The cycle's sums of reel set ``ps`` by the cheapest method (full windows not multiplied)."""
    if statedp.uses_states(tables, ps):
        try:
            return state_buckets(tables, lt, phase, score, ps=ps)
        except statedp.TooLarge:  # its states outgrew memory: walk the cycle if it is small
            if statedp.set_size(reels) > MAX_CYCLE:
                raise
    if not tables.is_ways:
        px = prefix_tables(tables, lt.level_index)
        if px.finishes_by_tail(reels.length.shape[0])[ps]:
            return enumerate_by_combos(tables, reels, lt, ps, score)
    return walk_cycle(tables, reels, lt, phase, score)


def state_buckets(
    tables: GameTables,
    lt: LevelTables,
    phase: int,
    score: SpinScore,
    max_work: int = 1 << 62,
    ps: int | None = None,
) -> _Buckets:
    """The buckets of reel set ``ps`` (default: the phase's first) by state merging.

    Kept per level (:mod:`certify.exact.statedp`). Raises
    :class:`certify.exact.statedp.TooLarge` beyond ``max_work`` transitions.
    """
    first = phase_sets(tables, phase)[0]
    ps = first if ps is None else ps
    # a phase's first set keeps the key it always had; a painted game's other parts add theirs
    key = ("statedp", lt.level_index, phase, score.cap) + (() if ps == first else (ps,))
    if key not in tables.prefix_cache:
        reels = reel_sets(tables)[ps]
        *out, run = statedp.state_cycle(tables, reels, lt, phase, score, max_work, ps)
        tables.prefix_cache[key] = (_buckets(tables, *out), run)
    return tables.prefix_cache[key][0]


def spin_score(tables: GameTables, lt: LevelTables, phase: int) -> SpinScore:
    """Scatter pays of a phase and the win cap (base game of a game without features only)."""
    features = tables.fs_counted >= 0 or tables.bonus_counted >= 0
    return SpinScore(
        lt.scatter_pay if phase == 0 else lt.scatter_pay_fs,
        tables.scatter_excl,
        lt.cap if phase == 0 and not features else 0,
        tables.bonus_jmax,
        count_width(len(tables.counted_names)),
    )


def _buckets(
    tables: GameTables,
    w: np.ndarray,
    wb: np.ndarray,
    wb2: np.ndarray,
    hit: np.ndarray,
    aw: np.ndarray,
) -> _Buckets:
    """Sum the kernel's per-row outputs (credit sums exactly, as Python integers)."""
    if int(np.abs(wb).max(initial=0)) < (1 << 62) // max(wb.shape[0], 1):
        wb_exact = [int(x) for x in wb.sum(axis=0)]  # no int64 overflow possible
    else:
        wb_exact = [sum(int(x) for x in wb[:, b]) for b in range(wb.shape[1])]
    return _Buckets(
        w.sum(axis=0), wb_exact, wb2.sum(axis=0), hit.sum(axis=0), aw.sum(axis=0), int(w.sum())
    )


def _outputs(tables: GameTables, lt: LevelTables, rows: int) -> BucketSums:
    n_buckets = (tables.bonus_jmax + 1) * (tables.machine.max_count + 1)
    return BucketSums(
        np.zeros((rows, n_buckets), dtype=np.int64),
        np.zeros((rows, n_buckets), dtype=np.int64),
        np.zeros((rows, n_buckets), dtype=np.float64),
        np.zeros((rows, n_buckets), dtype=np.int64),
        np.zeros((rows, max(lt.n_keys, 1)), dtype=np.int64),
    )


def walk_cycle(
    tables: GameTables, reels: ReelSet, lt: LevelTables, phase: int, score: SpinScore
) -> _Buckets:
    """The cycle walked stop by stop (depth first under each stop of reel 1)."""
    out = _outputs(tables, lt, int(reels.length[0]))
    if tables.is_ways:
        k.enumerate_ways(
            WaysReels(
                ways_sums(reels.window, tables.ways_match),
                reels.weight,
                reels.length,
                reels.counted,
            ),
            level_inputs(lt, tables),
            game_inputs(tables),
            phase,
            score,
            out,
        )
    else:
        k.enumerate_lines(
            LineReels(reels.window, reels.weight, reels.length, reels.counted),
            level_inputs(lt, tables),
            game_inputs(tables),
            tail_classes(reels),
            int(lt.start[phase]),
            score,
            out,
        )
    return _buckets(tables, *out)


def enumerate_by_combos(
    tables: GameTables, reels: ReelSet, lt: LevelTables, ps: int, score: SpinScore
) -> _Buckets:
    """The cycle of reel set ``ps`` summed over its prefix combos and last-two-reel pairs."""
    px = prefix_tables(tables, lt.level_index)
    depth, n_reels = int(px.depth[ps]), reels.length.shape[0]
    rows = int(np.prod(reels.length[:depth]))
    row_w = np.ones(1, dtype=np.int64)
    for r in range(depth):
        row_w = np.outer(row_w, reels.weight[r, : reels.length[r]]).ravel()
    combo_w = np.zeros(px.combos.shape[0], dtype=np.int64)
    np.add.at(
        combo_w, px.head[px.head_first[ps] : px.head_first[ps] + rows].astype(np.int64), row_w
    )
    a, b = n_reels - 2, n_reels - 1
    tail_w = np.zeros(px.tail_counts.shape[1], dtype=np.int64)
    pairs = np.outer(reels.weight[a, : reels.length[a]], reels.weight[b, : reels.length[b]]).ravel()
    tail_w[: pairs.shape[0]] = pairs
    active = np.nonzero(combo_w)[0]
    w, wb, wb2, hit, _ = _outputs(tables, lt, active.shape[0])
    awards = np.zeros((active.shape[0], lt.n_keys + 1), dtype=np.int64)
    k.enumerate_combos(
        ComboWalk(ps, active, combo_w, tail_w),
        prefix_inputs(px),
        lt.finishing,
        score,
        BucketRule(tables.fs_counted, tables.bonus_counted, tables.bonus_min),
        BucketSums(w, wb, wb2, hit, awards),
    )
    result = _buckets(tables, w, wb, wb2, hit, awards[:, 1:])  # column 0: no entry
    # entries the prefixes settled: per class, its weight x every tail
    class_w = np.zeros(px.n_classes, dtype=np.int64)
    np.add.at(class_w, combo_classes(px.combos), combo_w)
    settled = (class_w @ px.class_entries) * int(pairs.sum())
    return _Buckets(
        result.w, result.wb, result.wb2, result.hit, result.awards + settled, result.total
    )


def _level_exact(tables: GameTables, lt: LevelTables) -> LevelExact:
    base = enumerate_cycle(tables, lt, 0)
    bonus = bonus_by_bucket(tables, lt)
    fs_moments, free = _free_spin_moments(tables, lt, bonus)
    nb = tables.bonus_jmax + 1
    total = base.total
    mean = var_sum = 0.0
    fs_mean = bonus_mean = 0.0
    hit = 0.0
    fs_p = bonus_p = 0.0
    m1, m2 = tables.base_mult_moments  # a drawn multiplier of the paid spin's own win
    line_sum = sum(base.wb)
    lines = line_bonus_sums(tables, lt, base)
    for b in range(base.w.shape[0]):
        wgt = float(base.w[b])
        if wgt == 0:
            continue
        count, j = divmod(b, nb)
        ef, ef2 = fs_moments.get(count, (0.0, 0.0))
        eb, eb2 = bonus.get(j, (0.0, 0.0))
        extra = ef + eb
        spin = m1 * base.wb[b] + lines.mean[b]  # the lines' wins and the bonus games they play
        mean += spin + wgt * extra
        var_sum += m2 * base.wb2[b] + lines.square[b] + 2 * spin * extra
        var_sum += wgt * (ef2 + (eb2 + 2 * ef * eb))
        triggered = count in fs_moments or j > 0
        hit += wgt if triggered else float(lines.hit[b])
        fs_mean += wgt * ef
        bonus_mean += wgt * eb + lines.mean[b]
        fs_p += wgt if count in fs_moments else 0.0
        bonus_p += wgt if j > 0 else float(lines.played[b])
    tb = lt.total_bet
    ew = mean / total
    scatter = m1 * scatter_mean_tilted(tables, lt)
    cap_sum = 0.0  # what the win cap takes off (games without features only)
    if spin_score(tables, lt, 0).cap > 0:
        cap_sum = float(line_sum - sum(enumerate_cycle(tables, lt, 0, capped=False).wb))
    return LevelExact(
        level_index=lt.level_index,
        level=lt.level,
        total_bet=tb,
        rtp=ew / tb,
        line_rtp=_line_rtp(tables, m1 * (line_sum / total) - scatter - cap_sum / total) / tb,
        win_cap_rtp=cap_sum / total / tb,
        scatter_rtp=scatter / tb,
        free_spins_rtp=fs_mean / total / tb,
        bonus_rtp=bonus_mean / total / tb,
        hit_frequency=hit / total,
        variance=(var_sum / total - ew * ew) / tb**2,
        fs_probability=fs_p / total,
        bonus_probability=bonus_p / total,
        awards=_awards(tables, lt, base, fs_p / total, bonus_p / total),
        pool_hits=_added(
            hold_pool_hits(tables, base, free), full_pool_hits(tables, lt, base, free)
        ),
    )


def _line_rtp(tables: GameTables, credits: float) -> float:
    """The lines' (or ways') credits per spin: 0 for a game that pays scatters only.

    The lines' part is the cycle's sum less the scatters' mean, found another
    way; where no entry pays, that difference is rounding, never a return.
    """
    return credits if tables.machine.pays else 0.0


@dataclass(frozen=True)
class LineBonusSums:
    """What the bonus games that lines play add to a phase's buckets.

    Per bucket: ``mean`` = sum of w E[S] and ``square`` = sum of w E[S^2 + 2 F S]
    (``F`` the spin's other wins, ``S`` the prizes of its ``n`` bonus lines),
    ``hit`` the weight of spins that pay or play a bonus, ``played`` of those
    with ``n >= 1``.
    """

    mean: np.ndarray
    square: np.ndarray
    hit: np.ndarray
    played: np.ndarray
    cross: np.ndarray  # sum of w E[2 F S]: a free spin's multiplier scales it
    own: np.ndarray  # sum of w E[S^2]


def line_bonus_sums(
    tables: GameTables, lt: LevelTables, base: _Buckets, phase: int = 0
) -> LineBonusSums:
    """A phase's sums of the bonus games its pays play, from more walks of its cycle.

    Given a spin's ``n_k`` plays of game ``k`` (independent draws of mean
    ``mu_k`` and second moment ``m2_k``), its prizes ``S`` have
    ``E[S | n] = sum_k n_k mu_k`` and ``E[S^2 | n] = sum_k n_k (m2_k - mu_k^2)
    + (sum_k n_k mu_k)^2``. A walk with only game ``k``'s plays paying, 1 credit
    each, sums ``n_k`` and ``n_k^2``; one with games ``j`` and ``k`` sums
    ``(n_j + n_k)^2`` (their cross term); one with the game's credits plus 1 per
    play of ``k`` sums ``(F + n_k)^2``, so ``sum F n_k = (sum (F + n_k)^2 - sum F^2
    - sum n_k^2) / 2``. One game: the two walks of old. Zeros without bonus plays.
    ``phase`` 1: the free spins' cycle (``base`` its buckets; ``F`` their credits
    before the feature's multiplier, which scales ``cross`` and not the prizes).
    """
    if not tables.machine.pays_play_bonus:
        zero = np.zeros(base.w.shape[0])
        return LineBonusSums(zero, zero, base.hit.astype(np.float64), zero, zero, zero)
    moments = law_moments(tables.law_cum, tables.law_off, lt.law_pay)
    games = len(moments)
    unit = [tuple(int(j == k) for j in range(games)) for k in range(games)]

    walks: dict[tuple[str, tuple[int, ...]], _Buckets] = {}

    def walk(mode: str, coeffs: tuple[int, ...]) -> _Buckets:
        if (mode, coeffs) not in walks:
            variant = line_bonus_variant(tables, mode, coeffs)
            walks[mode, coeffs] = enumerate_cycle(variant, variant.levels[lt.level_index], phase)
        return walks[mode, coeffs]

    n1 = [np.array([float(x) for x in walk("plain", u).wb]) for u in unit]
    sq = [walk("plain", u).wb2.astype(np.float64) for u in unit]
    parts = [m2 * n + mu * mu * (s - n) for (mu, m2), n, s in zip(moments, n1, sq, strict=True)]
    for g, h in itertools.combinations(range(games), 2):  # the cross terms of (sum n_k mu_k)^2
        pair = walk("plain", tuple(x + y for x, y in zip(unit[g], unit[h], strict=True)))
        parts.append(moments[g][0] * moments[h][0] * (pair.wb2 - sq[g] - sq[h]))
    cross = sum(
        2.0 * mu * ((walk("plus", u).wb2 - base.wb2 - s) / 2.0)
        for (mu, _), u, s in zip(moments, unit, sq, strict=True)
    )
    ones = (1,) * games
    return LineBonusSums(
        mean=sum(mu * n for (mu, _), n in zip(moments, n1, strict=True)),
        square=sum(parts, start=cross),
        hit=walk("plus", ones).hit.astype(np.float64),
        played=walk("plain", ones).hit.astype(np.float64),
        cross=cross,
        own=sum(parts[1:], start=parts[0]),
    )


def _added(a: dict[str, float], b: dict[str, float]) -> dict[str, float]:
    return {name: a.get(name, 0.0) + b.get(name, 0.0) for name in sorted(a.keys() | b.keys())}


def full_pool_hits(
    tables: GameTables, lt: LevelTables, base: _Buckets, free: _Buckets | None
) -> dict[str, float]:
    """Expected hits per paid spin of each pool a ``[[full_window_pays]]`` entry awards.

    The base game's full windows that win the pool, plus the free spins':
    the free-spin recursion run on the free cycle's buckets with each win
    replaced by the pool's hits (1 per window that wins it) and no
    multiplier, so retriggers weigh them exactly.
    """
    if not any(fw.jackpot for fw in tables.machine.full_window_pays):
        return {}
    nb = len(base.wb)
    hits0 = pool_buckets(tables, 0, spin_score(tables, lt, 0), nb)
    hits1 = pool_buckets(tables, 1, spin_score(tables, lt, 1), len(free.wb)) if free else {}
    unit = dataclasses.replace(tables, fs_mult=1, fs_each_mult=np.ones(1, dtype=np.int64))
    n_bonus = tables.bonus_jmax + 1
    out = {}
    for name in sorted(hits0.keys() | hits1.keys()):
        total = float(hits0[name].sum()) if name in hits0 else 0.0
        if free is not None and name in hits1:
            h = hits1[name]
            counted = dataclasses.replace(free, wb=[int(x) for x in h], wb2=h.astype(np.float64))
            feature = _feature_by_count(unit, counted, {})
            for b in range(base.w.shape[0]):
                total += float(base.w[b]) * feature.get(b // n_bonus, (0.0,))[0]
        out[name] = total / base.total
    return out


def hold_pool_hits(tables: GameTables, base: _Buckets, free: _Buckets | None) -> dict[str, float]:
    """Expected hits per paid spin of each progressive pool hold and spin awards.

    The hits of one feature by its start (the exact chain's
    ``progressive_hits``), weighted by the base game's buckets, plus the
    features the free spins trigger: the free-spin recursion run on the free
    cycle's buckets with every win set to 0 and the hits as the "bonus".
    """
    hs = tables.machine.hold_and_spin
    if hs is None:
        return {}
    cells = tables.machine.rows * tables.machine.reels
    by_start = hold_exact_by_start(hs, cells, pool_ids(tables.machine))
    names = sorted({name for h in by_start.values() for name, _ in h.progressive_hits})
    nb = tables.bonus_jmax + 1
    out = {}
    for name in names:
        hits = {
            start: (float(dict(h.progressive_hits).get(name, 0)), 0.0)
            for start, h in by_start.items()
        }
        feature: dict[int, tuple[float, float]] = {}
        if free is not None:
            silent = dataclasses.replace(free, wb=[0] * len(free.wb), wb2=np.zeros_like(free.wb2))
            feature = _feature_by_count(tables, silent, hits)
        total = 0.0
        for b in range(base.w.shape[0]):
            count, j = divmod(b, nb)
            total += float(base.w[b]) * (hits.get(j, (0.0, 0.0))[0] + feature.get(count, (0.0,))[0])
        out[name] = total / base.total
    return out


def bonus_by_bucket(tables: GameTables, lt: LevelTables) -> dict[int, tuple[float, float]]:
    """E[B], E[B^2] (credits) of the bonus by the bonus part of a bucket.

    A pick bonus: part 1 (triggered). Hold and spin: part = the coins the
    triggering screen shows, each start solved as its own absorbing chain
    (progressive pools pay apart, see :func:`hold_pool_hits`).
    """
    if tables.bonus_counted < 0:
        return {}
    if tables.hold_on:
        hs, tb = tables.machine.hold_and_spin, lt.total_bet
        assert hs is not None  # hold_on: the machine has the feature
        cells = tables.machine.rows * tables.machine.reels
        return {
            start: (float(h.mean * tb), float(h.second_moment * tb * tb))
            for start, h in hold_exact_by_start(hs, cells, pool_ids(tables.machine)).items()
        }
    weights = np.diff(np.concatenate([[0], tables.bonus_weight_cum])).astype(float)
    return {1: bonus_moments(lt.bonus_pay, weights)}


def _free_spin_moments(
    tables: GameTables, lt: LevelTables, bonus: dict[int, tuple[float, float]]
) -> tuple[dict[int, tuple[float, float]], _Buckets | None]:
    """E[F], E[F^2] of the feature by base-game trigger count, and a free cycle's buckets.

    The buckets' weights (trigger counts, bonus parts) are those of every
    free cycle, whatever the drawn symbol (see :func:`hold_pool_hits`).

    Book of Ra: per drawn symbol, the feature's moments from its own cycle
    (the symbol's reels-shown count scored like a scatter), mixed by the
    draw weights (the symbol stays for the whole feature, retriggers included).
    """
    if tables.fs_counted < 0:
        return {}, None
    if not tables.expand_symbols:
        free = enumerate_cycle(tables, lt, 1)
        lines = line_bonus_sums(tables, lt, free, 1)  # bonus lines in the free spins
        return _feature_by_count(tables, free, bonus, lines), free
    weights = tables.expand_weights / tables.expand_weights.sum()
    out: dict[int, tuple[float, float]] = {}
    for d, p in enumerate(weights):
        free = _expanded_free_cycle(tables, lt, d)
        part = _feature_by_count(tables, free, bonus)
        for count, (ef, ef2) in part.items():
            old = out.get(count, (0.0, 0.0))
            out[count] = (old[0] + p * ef, old[1] + p * ef2)
    return out, free


def _expanded_free_cycle(tables: GameTables, lt: LevelTables, d: int) -> _Buckets:
    """The free-spin cycle with drawn symbol ``d``: its reels-shown count an extra counted row."""
    reels = reel_sets(tables)[-1]
    present = tables.expand_present[:, :, d][None, :, : reels.counted.shape[2]]
    aug = dataclasses.replace(reels, counted=np.concatenate([reels.counted, present]))
    score = spin_score(tables, lt, 1)
    row = np.zeros((1, score.scatter_pay.shape[1]), dtype=np.int64)
    row[0, : lt.expand_pay.shape[1]] = lt.expand_pay[d]
    score = score._replace(
        scatter_pay=np.concatenate([score.scatter_pay, row]),
        excl=np.concatenate([score.excl, [0]]).astype(np.int64),
    )
    return with_full_windows(tables, aug, lt, 1, score, walk_cycle(tables, aug, lt, 1, score))


def _feature_by_count(
    tables: GameTables,
    fsb: _Buckets,
    bonus: dict[int, tuple[float, float]],
    lines: LineBonusSums | None = None,
) -> dict[int, tuple[float, float]]:
    """E[F], E[F^2] by trigger count from the free-spin cycle's buckets.

    A free spin's win is its cycle win times the multiplier M, independent of
    it (fixed, drawn for the spin, or the trigger count's: ``multiplier_by_count``,
    one set of spin classes per value): E[M] and E[M^2] scale its moments.
    """
    by_value: dict[int, dict] = {}
    out = {}
    for count in range(tables.fs_min, tables.fs_spins.shape[0]):
        value = int(tables.fs_count_mult[count]) if tables.fs_count_mult.shape[0] > 1 else 0
        if value not in by_value:
            moments = (float(value), float(value) ** 2) if value else tables.fs_mult_moments
            by_value[value] = _free_spin_classes(tables, fsb, bonus, lines, moments)
        ef, ef2, _ = feature_moments(
            by_value[value], int(tables.fs_spins[count]), tables.fs_max, tables.fs_retrigger_once
        )
        out[count] = (ef, ef2)
    return out


def _free_spin_classes(
    tables: GameTables,
    fsb: _Buckets,
    bonus: dict[int, tuple[float, float]],
    lines: LineBonusSums | None,
    moments: tuple[float, float],
) -> dict:
    """The free spins' classes (spins added, chance, E[X], E[X^2]) at multiplier moments.

    ``lines``: the prizes S of the bonus games the free spins' lines play
    (:func:`line_bonus_sums` of phase 1), paid unmultiplied: E[(M F + S)^2]
    takes E[M] E[2 F S] and E[S^2].
    """
    mult, mult2 = moments
    nb = tables.bonus_jmax + 1
    added, q, s1, s2 = [], [], [], []
    for b in range(fsb.w.shape[0]):
        if fsb.w[b] == 0:
            continue
        count, j = divmod(b, nb)
        eb, eb2 = bonus.get(j, (0.0, 0.0))
        wgt = float(fsb.w[b])
        mb, mb2 = fsb.wb[b] / fsb.total, fsb.wb2[b] / fsb.total
        qq = wgt / fsb.total
        added.append(tables.fs_respins[count])
        q.append(qq)
        x1 = mult * mb + qq * eb
        x2 = mult2 * mb2 + (2 * mult * mb * eb + qq * eb2)
        if lines is not None and lines.mean[b]:  # the lines' bonus prizes (and B with them)
            lm = lines.mean[b] / fsb.total
            x1 += lm
            x2 += mult * lines.cross[b] / fsb.total + lines.own[b] / fsb.total + 2 * lm * eb
        s1.append(x1)
        s2.append(x2)
    return spin_classes(np.array(added), np.array(q), np.array(s1), np.array(s2))


def _awards(
    tables: GameTables, lt: LevelTables, base: _Buckets, fs_p: float, bonus_p: float
) -> list[AwardExact]:
    m = tables.machine
    kind = "ways" if tables.is_ways else "line"
    # award keys (pairs of both-ways lines) -> entries; a game may pay scatters only
    per_entry = base.awards @ lt.award_keys if m.pays else np.zeros(0)
    out = [
        AwardExact(kind, e.combo, int(lt.credits[e.index]), float(per_entry[e.index]) / base.total)
        for e in m.pays
    ]
    for sp in m.scatter_pays:
        c = tables.counted_names.index(sp.symbol)
        higher = [s.count for s in m.scatter_pays if s.symbol == sp.symbol and s.count > sp.count]
        out.append(
            AwardExact(
                "scatter",
                (sp.symbol,) * sp.count,
                sp.credits(m.scatter_bet(lt.level)),
                _scatter_probability(tables, lt, c, sp.count, min(higher, default=None)),
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
    if m.hold_and_spin is not None:
        trigger = m.hold_and_spin.trigger
        out.append(AwardExact("hold_and_spin", (trigger.symbol,) * trigger.count, 0, bonus_p))
    return out


def _scatter_probability(
    tables: GameTables, lt: LevelTables, c: int, count: int, upto: int | None
) -> float:
    """P(counted symbol ``c`` pays its ``count`` entry): count in [count, upto), and paid.

    Of exclusive scatters the first that pays credits or plays a bonus game is
    taken (the kernels' rule: a play marks the entry's credits).
    """
    if not tables.scatter_excl[c]:
        dist = phase_count_distribution(tables, 0, c)
        return float(dist[count : upto or dist.shape[0]].sum())
    shape = lt.scatter_pay.shape
    taken = lt.scatter_pay + scatter_bonus_marks(tables.machine, tables.counted_names, shape)
    return sum(  # an exclusive scatter pays only if no earlier one does
        p
        for key, p in phase_count_vectors(tables, 0).items()
        if count <= key[c] < (upto or key[c] + 1)
        and scatter_pays_of(key, taken, tables.scatter_excl)[c] > 0
    )
