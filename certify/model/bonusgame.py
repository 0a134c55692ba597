"""Bonus games declared by their rules: read the stages, compile their exact prize law.

A ``[bonus]`` gives its prize either as a weighted ``awards`` table or as the
bonus game's ``stages``, played in order:

* ``pick``: hidden prizes (and stops) revealed one by one without replacement;
* ``wheel``: a weighted wheel spun ``spins`` times, some segments spinning again;
* ``ladder``: rungs of rising prizes, each step climbing, collecting or losing;
* ``multiplier``: a multiplier drawn by weight for the whole bonus prize.

The prize is the sum of the pick, wheel and ladder stages' prizes times the product of
the multiplier stages' draws. The stages are independent, so the law of the
prize is exact: each stage's law by a forward pass over its states (counts of
the prizes left, picks made; spins left and made), in fractions, then their
sum and product. The loader turns the law into ``awards`` with integer weights
(a common denominator), which every engine plays as it plays a written table.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Iterable
from fractions import Fraction
from typing import Any

from certify.codes import Code
from certify.model.reader import Reader, join
from certify.model.schema import (
    BonusAward,
    BonusStage,
    LadderStage,
    Machine,
    MultiplierStage,
    PickStage,
    WheelSegment,
    WheelStage,
)

STOP = "stop"
MAX_OUTCOMES = 10_000  # distinct prizes one bonus may award (the kernel scans them)
MAX_WORK = 5_000_000  # transitions a stage's forward pass may make (a few seconds)
MAX_WEIGHT = 2**62  # the awards' weight total (the kernels draw below 2^63)
MAX_SPINS = 1_000  # a wheel's spins, and a pick game's hidden items

Law = dict[int, Fraction]


def read_stages(rd: Reader, raw: Any, where: str) -> tuple[BonusStage, ...]:
    """Read ``[[bonus.stages]]``: a non-empty array of pick, wheel and multiplier tables."""
    if not isinstance(raw, list) or not raw:
        rd.error(where, "must be a non-empty array of tables", Code.TYPE)
        return ()
    stages: list[BonusStage] = []
    readers: dict[str, Callable[[Reader, dict[str, Any], str], BonusStage]] = {
        "pick": _pick,
        "wheel": _wheel,
        "ladder": _ladder,
        "multiplier": _multiplier,
    }
    for i, spec in enumerate(raw):
        at = join(where, i)
        if not isinstance(spec, dict):
            rd.error(at, "must be a table", Code.TYPE)
            continue
        if "kind" not in spec:
            rd.error(join(at, "kind"), "is required", Code.MISSING_KEY)
            continue
        kind = rd.string(spec, "kind", at, tuple(readers))
        if kind is not None:
            before = len(rd.errors)
            stage = readers[kind](rd, spec, at)
            if len(rd.errors) == before:
                stages.append(stage)
    if stages and all(isinstance(s, MultiplierStage) for s in stages):
        rd.error(where, "needs a stage that pays (a multiplier alone pays nothing)", Code.TYPE)
    return tuple(stages)


def _pick(rd: Reader, t: dict[str, Any], at: str) -> PickStage:
    rd.table(t, at, ("kind", "prizes"), ("picks", "safe", "match_multiplier"))
    prizes: list[int | None] = []
    for j, v in enumerate(rd.array(t, "prizes", at) or []):
        if v == STOP and isinstance(v, str):
            prizes.append(None)
        elif (p := rd.check_int(v, join(join(at, "prizes"), j), 0)) is not None:
            prizes.append(p)
    picks = rd.integer(t, "picks", at, 1, None)
    safe = rd.integer(t, "safe", at, 0, 0) or 0
    match = rd.integer(t, "match_multiplier", at, 1, 1) or 1
    items, stops = len(prizes), prizes.count(None)
    if items > MAX_SPINS:
        rd.error(join(at, "prizes"), f"at most {MAX_SPINS} hidden items, got {items}", Code.RANGE)
    if picks is not None and picks > items:
        rd.error(join(at, "picks"), f"{picks} picks of {items} hidden items", Code.RANGE)
    if picks is None and stops == 0:
        rd.error(
            at,
            'without `picks` the game runs until a stop: put a "stop" in `prizes`',
            Code.MISSING_KEY,
        )
    if safe > items - stops or (picks is not None and safe > picks):
        rd.error(
            join(at, "safe"), f"{safe} safe picks, more than the prizes or the picks", Code.RANGE
        )
    return PickStage(tuple(prizes), picks, safe, match)


def _wheel(rd: Reader, t: dict[str, Any], at: str) -> WheelStage:
    rd.table(t, at, ("kind", "segments"), ("spins", "max_spins"))
    segments = []
    for j, spec in enumerate(rd.array(t, "segments", at) or []):
        seg_at = join(join(at, "segments"), j)
        s = rd.table(spec, seg_at, ("weight",), ("pays", "again"))
        pays = rd.integer(s, "pays", seg_at, 0, 0)
        again = rd.integer(s, "again", seg_at, 0, 0)
        weight = rd.integer(s, "weight", seg_at, 1)
        if pays is not None and again is not None and weight is not None:
            segments.append(WheelSegment(pays, again, weight))
    spins = rd.integer(t, "spins", at, 1, 1) or 1
    cap = rd.integer(t, "max_spins", at, 1, None)
    if cap is None and any(s.again for s in segments):
        rd.error(
            join(at, "max_spins"), "is required where a segment spins `again`", Code.MISSING_KEY
        )
    if cap is not None and cap < spins:
        rd.error(
            join(at, "max_spins"), f"below the {spins} spins the wheel starts with", Code.RANGE
        )
    if max(spins, cap or 0) > MAX_SPINS:
        rd.error(at, f"at most {MAX_SPINS} spins", Code.RANGE)
    return WheelStage(tuple(segments), spins, cap)


def _ladder(rd: Reader, t: dict[str, Any], at: str) -> LadderStage:
    rd.table(t, at, ("kind", "rungs", "climb", "collect"), ("lose",))
    rungs = [
        r
        for j, v in enumerate(rd.array(t, "rungs", at) or [])
        if (r := rd.check_int(v, join(join(at, "rungs"), j), 0)) is not None
    ]
    climb = rd.integer(t, "climb", at, 0) or 0
    collect = rd.integer(t, "collect", at, 0) or 0
    lose = rd.integer(t, "lose", at, 0, 0) or 0
    if len(rungs) > MAX_SPINS:
        rd.error(join(at, "rungs"), f"at most {MAX_SPINS} rungs, got {len(rungs)}", Code.RANGE)
    if len(rungs) > 1 and collect + lose == 0:
        rd.error(
            at, "`collect` or `lose` must have a weight (else every game ends on top)", Code.RANGE
        )
    if len(rungs) > 1 and climb == 0:
        rd.error(join(at, "climb"), "must be at least 1 where there is a rung to climb", Code.RANGE)
    return LadderStage(tuple(rungs), climb, collect, lose)


def _multiplier(rd: Reader, t: dict[str, Any], at: str) -> MultiplierStage:
    rd.table(t, at, ("kind", "values"))
    values = []
    for j, spec in enumerate(rd.array(t, "values", at) or []):
        v_at = join(join(at, "values"), j)
        v = rd.table(spec, v_at, ("multiplier", "weight"))
        m = rd.integer(v, "multiplier", v_at, 1)
        w = rd.integer(v, "weight", v_at, 1)
        if m is not None and w is not None:
            values.append((m, w))
    return MultiplierStage(tuple(values))


def check_line_bonus(rd: Reader, m: Machine) -> None:
    """``[[pays]] bonus = true``: a line of bonus symbols that plays the bonus game.

    Lines games only, its tokens bonus symbols (no wild stands for them, so
    no wild multiplier), not with rules or features that would multiply or
    cap it (located errors); a ``[bonus]`` without a ``trigger`` needs one.
    """
    entries = m.line_bonus_entries
    played = {e.bonus_game for e in m.pays if e.bonus}
    played |= {s.bonus_game for s in m.scatter_pays if s.bonus}
    if m.bonus is not None and m.bonus.trigger is None and "" not in played:
        rd.error(
            "bonus.trigger",
            "is required unless a [[pays]] or [[scatter_pays]] entry has `bonus = true`",
            Code.MISSING_KEY,
        )
    for name, _ in m.bonus_games:
        if name not in played:
            rd.error(
                join("bonus_games", name),
                "no [[pays]] or [[scatter_pays]] entry plays this game (a misspelt name?)",
                Code.RULE_NOT_APPLICABLE,
            )
    kinds = {s.name: s.kind for s in m.symbols}
    for i in entries:
        at = join(join("pays", i), "bonus")
        e = m.pays[i]
        _check_game_named(rd, m, e.bonus_game, at, "line")
        if m.evaluation != "lines" or e.anywhere:
            rd.error(
                at,
                "a line bonus is a run of bonus symbols on a payline from reel 1",
                Code.RULE_NOT_APPLICABLE,
            )
        odd = [t for t in e.combo if kinds.get(t) != "bonus"]
        if odd:
            rd.error(at, f"its combo must be symbols of kind bonus, not {odd[0]!r}", Code.BAD_KIND)
        for reason in _line_bonus_conflicts(m, e.combo):
            rd.error(at, f"a line bonus is not played {reason}", Code.UNSUPPORTED)


def check_scatter_bonus(rd: Reader, m: Machine) -> None:
    """``[[scatter_pays]] bonus = true``: a scatter pay that also plays the bonus game.

    Playtech Golden Tour: 3 or more of any one of three golfers start the golf
    bonus, the first of them that pays (``exclusive_scatters``). Not with rules
    or features that would multiply or cap the prize (located errors), nor in
    an exclusive group where some entry pays credits (the exclusion is then
    decided by the plays alone, which every walk of the cycle sees).
    """
    excl = set(m.rules.exclusive_scatters)
    for i in m.scatter_bonus_entries:
        at = join(join("scatter_pays", i), "bonus")
        sp = m.scatter_pays[i]
        _check_game_named(rd, m, sp.bonus_game, at, "scatter")
        # a scatter's play is apart from the lines: read both ways or not
        reasons = [r for r in _line_bonus_conflicts(m, ()) if "direction" not in r]
        if sp.symbol in excl and any(
            s.symbol in excl and (s.pays or s.free_pays) for s in m.scatter_pays
        ):
            reasons.append("in exclusive_scatters where an entry pays credits")
        if sp.symbol in excl and any(
            s.symbol in excl and s.bonus and s.bonus_game != sp.bonus_game for s in m.scatter_pays
        ):  # the exact walks take one game at a time: the group's choice must not depend on it
            reasons.append("in exclusive_scatters with entries playing different bonus games")
        for reason in reasons:
            rd.error(at, f"a scatter bonus is not played {reason}", Code.UNSUPPORTED)


def _check_game_named(rd: Reader, m: Machine, name: str, at: str, what: str) -> None:
    """The game a pay entry plays exists: ``[bonus]``, or the ``[bonus_games]`` entry named."""
    if not name and m.bonus is None:
        rd.error(at, f"the game has no [bonus] for the {what} to play", Code.MISSING_KEY)
    elif name and name not in dict(m.bonus_games):
        known = ", ".join(n for n, _ in m.bonus_games) or "none"
        rd.error(
            at, f"names no [bonus_games] entry {name!r} (the file has: {known})", Code.MISSING_KEY
        )


def _line_bonus_conflicts(m: Machine, combo: tuple[str, ...]) -> list[str]:
    out = []
    if m.rules.direction == "both":
        out.append('with [rules] direction = "both"')
    if m.rules.win_cap is not None:
        out.append("with [rules] win_cap")
    if m.full_window_pays:
        out.append("with [[full_window_pays]]")
    if m.hold_and_spin is not None:  # its coins are the bonus symbols, its draws the bonus path
        out.append("with [hold_and_spin]")
    if m.cascade is not None or m.evaluation == "cluster" or any(s.sticky for s in m.symbols):
        out.append("in a screen game (cascade, cluster pays, sticky wilds)")
    if any(j.trigger_combo == combo for j in m.jackpots):
        out.append("on a jackpot's combo")
    fs = m.free_spins
    if fs is not None and fs.expanding_symbol and m.free_spins_show(combo):  # own exact path
        out.append("in free spins with free_spins.expanding_symbol (their reels show it)")
    return out


def compile_awards(
    rd: Reader, stages: tuple[BonusStage, ...], where: str
) -> tuple[BonusAward, ...]:
    """The stages' exact prize law as awards with integer weights (located errors if too large)."""
    try:
        law = prize_law(stages)
    except _TooLarge as err:
        rd.error(where, str(err), Code.RANGE)
        return ()
    if len(law) > MAX_OUTCOMES:
        rd.error(
            where,
            f"the bonus game has {len(law)} distinct prizes, above {MAX_OUTCOMES}",
            Code.RANGE,
        )
        return ()
    scale = math.lcm(*(p.denominator for p in law.values()))
    if scale > MAX_WEIGHT:
        rd.error(
            where,
            f"the bonus game's prize law needs a weight total of {scale}, above 2^62",
            Code.RANGE,
        )
        return ()
    return tuple(BonusAward(prize, int(p * scale)) for prize, p in sorted(law.items()))


def prize_law(stages: Iterable[BonusStage]) -> Law:
    """The exact law of the bonus prize: {prize: probability}, as fractions."""
    total: Law = {0: Fraction(1)}
    factor: Law = {1: Fraction(1)}
    for stage in stages:
        if isinstance(stage, MultiplierStage):
            whole = sum(w for _, w in stage.values)
            factor = _combine(factor, {m: Fraction(w, whole) for m, w in stage.values}, int.__mul__)
        else:
            total = _combine(total, stage_law(stage), int.__add__)
    return _combine(total, factor, int.__mul__)


def stage_law(stage: PickStage | WheelStage | LadderStage) -> Law:
    """The exact law of one paying stage's prize."""
    if isinstance(stage, PickStage):
        return pick_law(stage)
    if isinstance(stage, WheelStage):
        return wheel_law(stage)
    return ladder_law(stage)


def _combine(a: Law, b: Law, op: Any) -> Law:
    out: dict[int, Fraction] = defaultdict(Fraction)
    for x, p in a.items():
        for y, q in b.items():
            out[op(x, y)] += p * q
    if len(out) > MAX_OUTCOMES:
        raise _TooLarge(f"the bonus game has more than {MAX_OUTCOMES} distinct prizes")
    return dict(out)


def pick_law(stage: PickStage) -> Law:
    """Law of a pick stage's prize by a forward pass over (prizes left, sum, match).

    Every path of ``k`` picks has drawn from pools of the same sizes (the items
    left, or the prizes left while the picks are safe), so the pass counts paths
    in integers over a common denominator per step.
    """
    values = sorted({p for p in stage.prizes if p is not None})
    counts = tuple(stage.prizes.count(v) for v in values)
    stops = stage.prizes.count(None)
    # state: (counts left, sum, the one prize every pick showed: -2 none yet, -1 mixed)
    frontier: dict[tuple[tuple[int, ...], int, int], int] = {(counts, 0, -2): 1}
    out: dict[int, Fraction] = defaultdict(Fraction)
    denominator, made, work = 1, 0, 0
    while frontier:
        prizes_left = sum(counts) - made
        safe_now = made < stage.safe
        pool = prizes_left + (0 if safe_now else stops)
        if (stage.picks is not None and made == stage.picks) or pool == 0:
            for (_, prize, same), n in frontier.items():
                out[_pick_end(stage, made, prize, same)] += Fraction(n, denominator)
            break
        step: dict[tuple[tuple[int, ...], int, int], int] = defaultdict(int)
        for (left, prize, same), n in frontier.items():
            if not safe_now and stops:
                out[_pick_end(stage, made, prize, same)] += Fraction(n * stops, denominator * pool)
            for i, c in enumerate(left):
                if c:
                    v = values[i]
                    match = v if same in (-2, v) else -1
                    step[(left[:i] + (c - 1,) + left[i + 1 :], prize + v, match)] += n * c
            work += len(left)
            if work > MAX_WORK:
                raise _TooLarge(f"the pick game needs more than {MAX_WORK} steps to enumerate")
        frontier, denominator, made = step, denominator * pool, made + 1
    return dict(out)


def _pick_end(stage: PickStage, made: int, prize: int, same: int) -> int:
    matched = made >= 2 and same >= 0
    return prize * stage.match_multiplier if matched else prize


def wheel_law(stage: WheelStage) -> Law:
    """Law of a wheel stage's prize by a forward pass over (spins left, sum).

    After ``k`` spins every path's probability has the denominator ``W^k``
    (``W`` the segments' total weight): the pass counts in integers.
    """
    whole = sum(s.weight for s in stage.segments)
    cap = stage.max_spins if stage.max_spins is not None else stage.spins
    frontier: dict[tuple[int, int], int] = {(stage.spins, 0): 1}
    out: dict[int, Fraction] = defaultdict(Fraction)
    denominator, made, work = 1, 0, 0
    while frontier:
        step: dict[tuple[int, int], int] = defaultdict(int)
        for (left, prize), n in frontier.items():
            if left == 0:
                out[prize] += Fraction(n, denominator)
                continue
            for s in stage.segments:
                step[(min(left - 1 + s.again, cap - made - 1), prize + s.pays)] += n * s.weight
            work += len(stage.segments)
            if work > MAX_WORK:
                raise _TooLarge(f"the wheel needs more than {MAX_WORK} steps to enumerate")
        frontier, denominator, made = step, denominator * whole, made + 1
    return dict(out)


def ladder_law(stage: LadderStage) -> Law:
    """Law of a ladder's prize.

    The game reaches rung ``k`` (1-based) with probability ``c^(k-1)`` and ends
    there by collecting (``k`` below the top) or on top; every lose ends with 0
    (``c``: the climb's share of the weights).
    """
    whole = stage.climb + stage.collect + stage.lose
    out: dict[int, Fraction] = defaultdict(Fraction)
    reach = Fraction(1)
    for k, prize in enumerate(stage.rungs):
        if k == len(stage.rungs) - 1:
            out[prize] += reach
            break
        out[prize] += reach * Fraction(stage.collect, whole)
        out[0] += reach * Fraction(stage.lose, whole)
        reach *= Fraction(stage.climb, whole)
    return {k: p for k, p in out.items() if p}


class _TooLarge(ValueError):
    """A bonus game whose exact law is beyond the bounds above."""
