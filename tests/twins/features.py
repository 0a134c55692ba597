"""The window features of SPEC 3.1a/3.1b, played by the pure-Python twin: the test oracle.

Written from the SPEC text alone (never from ``certify.engine`` or
``certify.exact``); the line, ways and scatter evaluation of one window is
:mod:`twins.lines` (every pay entry tried token by token). What this module
adds is what happens to the window before and around that evaluation, read
from the SPEC as follows:

* ``[reels] heights``: each reel draws its number of rows by weight, then its
  stop; it shows ``strip[stop .. stop + rows - 1]`` and nothing else (a column
  of that length, so a shorter reel has fewer ways and fewer scatter cells).
  The full cycle is every (height, stop) of every reel, weight = height
  weight x stop weight.
* Scatters, scatter pays and feature triggers are counted on the window as it
  landed (a wild with ``scatter = true`` counts by its own name there, and
  substitutes on the lines like any wild).
* ``expands = true`` (``"free_spins"``: in free spins only): a reel showing
  such a wild anywhere shows it on every cell before the lines or ways are
  evaluated.
* ``expands = {chance = [k, n]}``: each spin (paid or free) draws whether it is
  played in the wilds' expanding mode, with chance k/n (one draw for the spin); in
  that mode such a wild fills its reel as above, otherwise it stays where it landed.
* ``wild_in_free_spins``: in free spins the symbol is a wild (multiplier 1,
  substituting for every regular symbol) that still matches its own token.
* ``[[full_window_pays]]``: on the window as evaluated (after the expansion),
  an entry applies when one symbol fills it, wilds counting as it: for a
  symbol, every cell is it or a wild that substitutes for it; for a group,
  every cell is a member or a wild that substitutes for a member; for
  ``ANY`` (the SPEC's words: "every cell shows the same symbol or a wild"),
  the cells that are not wilds all show one symbol, any wild counting. The largest
  applying multiplier multiplies the spin's line or ways wins (after the wild
  multipliers; scatter pays are not multiplied); in free spins the free-spin
  multiplier applies as well. With ``reels = k`` only the cells of reels 1 to k
  are judged (the same tests on that part of the window).
* ``[free_spins] expanding_symbol`` (Book of Ra): one symbol E is drawn by
  weight when the feature starts and kept for all its spins (retriggers
  included). In each free spin, after the normal wins, E showing (itself, not
  a wild) on n reels of the landed window, anywhere, with n at least the
  length of E's shortest pay, pays on every payline E's longest pay of length
  <= n (x level, x the free-spin multiplier), in addition. The feature's
  moments are those of each E mixed by the draw weights.
* ``sticky`` wilds: a sticky wild that lands in a free spin stays on its cell
  for the remaining free spins of the feature (the cell shows it whatever the
  reel lands; it is counted there too). Sticky wilds that land on the base
  spin that triggers the feature do not stay. The free-spin sequence is
  enumerated exactly over (spins left, sticky cells); no retrigger, no heights.

Exact rtp, hit frequency (a base spin that pays or triggers) and variance per
spin by brute force in Fractions; free spins by the forward recursion of
:mod:`twins.lines` over (spins left, spins awarded, retrigger used).
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Iterator
from fractions import Fraction
from functools import cache

from certify.model.schema import ANY, FullWindowPay, Machine
from twins import lines as base

Window = list[list[str]]


def free_view(m: Machine) -> Machine:
    """The machine as a free spin plays it: ``wild_in_free_spins`` symbols are wilds, the
    entries pay their ``free_spins_pays`` (:func:`twins.lines.free_pays_view`)."""
    m = base.free_pays_view(m)
    if not any(s.wild_in_free_spins for s in m.symbols):
        return m
    regular = tuple(s.name for s in m.symbols if s.kind == "regular")
    symbols = tuple(
        dataclasses.replace(s, kind="wild", multiplier=1, substitutes=regular)
        if s.wild_in_free_spins
        else s
        for s in m.symbols
    )
    return dataclasses.replace(m, symbols=symbols)


def reel_outcomes(m: Machine, strips, weights) -> list[list[tuple[tuple[str, ...], int]]]:
    """Per reel, every column it can show (heights x stops) with its weight."""
    out = []
    for r, strip in enumerate(strips):
        table = m.heights[r] if m.heights else ((m.rows, 1),)
        column = []
        for rows, height_weight in table:
            for stop in range(len(strip)):
                w = (weights[r][stop] if weights else 1) * height_weight
                column.append((tuple(strip[(stop + i) % len(strip)] for i in range(rows)), w))
        out.append(column)
    return out


def windows(m: Machine, strips, weights) -> Iterator[tuple[Window, int]]:
    """Every window of the full cycle (columns, top first) with its weight."""
    for combo in itertools.product(*reel_outcomes(m, strips, weights)):
        w = 1
        for _, x in combo:
            w *= x
        yield [list(col) for col, _ in combo], w


def expands(m: Machine, name: str, in_free: bool, mode: bool = False) -> bool:
    """Whether ``name`` is a wild that fills its reel in this kind of spin (``mode``: a
    spin drawn in the expanding mode of ``expands = {chance}``)."""
    sym = m.symbol(name)
    return sym.kind == "wild" and (
        sym.expands == "always"
        or (sym.expands == "free_spins" and in_free)
        or (mode and sym.expands_chance is not None)
    )


def modes(m: Machine) -> list[tuple[bool, Fraction]]:
    """(expanding mode, chance) of a spin: one plain mode, or the drawn one too."""
    chance = next((s.expands_chance for s in m.symbols if s.expands_chance), None)
    if chance is None:
        return [(False, Fraction(1))]
    k, n = chance
    return [(False, Fraction(n - k, n)), (True, Fraction(k, n))]


def expand(m: Machine, win: Window, in_free: bool, mode: bool = False) -> Window:
    """The window after the expanding wilds fill their reels."""
    out = []
    for col in win:
        grow = next((s for s in col if expands(m, s, in_free, mode)), None)
        out.append([grow] * len(col) if grow is not None else list(col))
    return out


def full_window_multiplier(m: Machine, win: Window) -> int:
    """The largest ``[[full_window_pays]]`` multiplier that applies to ``win`` (1 if none).

    A multiplier may be 0 (a window that pays its pool instead of its lines).
    """
    applying = [fw.multiplier for fw in m.full_window_pays if window_fills(m, fw, win)]
    return max(applying, default=1)


def window_fills(m: Machine, fw: FullWindowPay, win: Window) -> bool:
    """Whether ``win`` is full of the entry's symbol, group or ANY (wilds counting, unless
    ``wilds_count = false``: then every cell shows the symbol itself, or a group member)."""
    reels = fw.reels or range(1, len(win) + 1)
    cells = [s for r in reels for s in win[r - 1]]
    if not fw.wilds_count:
        if fw.symbol == ANY:
            return len(set(cells)) == 1
        return all(c in dict(m.groups).get(fw.symbol, (fw.symbol,)) for c in cells)
    if fw.symbol == ANY:  # "every cell shows the same symbol or a wild"
        return len({c for c in cells if not base.is_wild(m, c)}) <= 1
    return all(base.match(m, fw.symbol, c) is not None for c in cells)


def full_window_pool(m: Machine, win: Window) -> str | None:
    """The pool a window wins: the first listed entry with a ``jackpot`` that it fills."""
    named = [fw for fw in m.full_window_pays if fw.jackpot]
    return next((fw.jackpot for fw in named if window_fills(m, fw, win)), None)


def book_extra(m: Machine, landed: Window, li: int, drawn: str) -> int:
    """Credits the drawn Book-of-Ra symbol adds on one free spin (before the multiplier)."""
    shown = sum(1 for col in landed if drawn in col)
    entries = [p for p in m.pays if set(p.combo) == {drawn} and not p.anywhere]
    fit = [p for p in entries if len(p.combo) <= shown]
    if not fit or shown < min(len(p.combo) for p in entries):
        return 0
    longest = max(len(p.combo) for p in fit)
    pay = max(base.credits(m, p, li) for p in fit if len(p.combo) == longest)
    return len(m.paylines) * pay


def spin(
    m: Machine,
    landed: Window,
    li: int,
    in_free: bool,
    drawn: str | None = None,
    mode: bool = False,
) -> tuple[int, int]:
    """(credits, the part of them not multiplied in free spins) of one landed window."""
    view = free_view(m) if in_free else m
    played = expand(view, landed, in_free, mode)
    parts = base.ways_parts if m.evaluation == "ways" else base.line_parts
    total, fixed, _ = parts(view, played, li)
    multiplier = full_window_multiplier(view, played)
    total, fixed = total * multiplier, fixed * multiplier
    total += base.scatter_credits(view, landed, li)
    if drawn is not None:
        total += book_extra(m, landed, li, drawn)
    return total, fixed


def _check(m: Machine) -> None:
    if m.hold_and_spin is not None or m.cascade is not None or m.evaluation == "cluster":
        raise NotImplementedError("screen games: see twins.hold and twins.screens")
    if any(s.multipliers for s in m.symbols):
        raise NotImplementedError("drawn wild multipliers: twins.lines.brute_force")
    if m.pays_play_bonus:
        raise NotImplementedError("pays that play the bonus: twins.lines.brute_force")
    if m.free_spins is not None and m.free_spins.options:
        if not all(o.weight for o in m.free_spins.options):
            raise ValueError("a game with free-spin options: play each option alone")
    if m.rules.win_cap is not None and (m.free_spins is not None or m.bonus is not None):
        raise NotImplementedError("win_cap with features")


def _sticky(m: Machine) -> bool:
    return any(s.sticky for s in m.symbols)


def _free_reels(m: Machine):
    fs = m.free_spins
    return (fs.strips, fs.weights) if fs.strips else (m.strips, m.weights)


def _outcomes(m: Machine, li: int, drawn: str | None, eb, eb2) -> dict[int, list[Fraction]]:
    """One free spin: spins it adds -> [P, E[X; added], E[X^2; added]]."""
    fs = m.free_spins
    strips, weights = _free_reels(m)
    cycle = list(windows(m, strips, weights))
    total_w = sum(w for _, w in cycle)
    out: dict[int, list[Fraction]] = {}
    for (landed, w), (mode, in_mode) in itertools.product(cycle, modes(m)):
        n = base.counted(m, landed, fs.retrigger_symbol or fs.trigger.symbol)
        added = base.retrigger_award(fs, n)
        acc = out.setdefault(added, [Fraction(0)] * 3)
        for mult, chance in base.spin_multipliers(fs):  # fixed, or drawn for the spin
            x, x2 = _free_value(m, landed, li, drawn, eb, eb2, mult, mode)
            p = Fraction(w, total_w) * chance * in_mode
            acc[0] += p
            acc[1] += p * x
            acc[2] += p * x2
    return out


def _free_value(
    m: Machine, landed: Window, li: int, drawn, eb, eb2, mult: int | None = None, mode=False
) -> tuple[Fraction, Fraction]:
    """(X, X^2) of one free spin: its wins x the multiplier, plus its bonus."""
    fs = m.free_spins
    value, fixed = spin(m, landed, li, True, drawn, mode)
    mult = fs.multiplier if mult is None else mult
    x = Fraction(mult * (value - fixed) + fixed)
    x2 = x * x
    if (
        m.bonus
        and m.bonus.trigger
        and base.counted(m, landed, m.bonus.trigger.symbol) >= m.bonus.trigger.count
    ):
        x2 += 2 * x * eb + eb2
        x += eb
    return x, x2


def _sequence(m: Machine, outcomes: dict[int, list[Fraction]]):
    """n -> (E[F], E[F^2]) of a feature of n spins whose spins follow ``outcomes``."""
    fs = m.free_spins
    cap, once = fs.max_spins, fs.retrigger_once

    @cache
    def moments(left: int, awarded: int, used: bool) -> tuple[Fraction, Fraction]:
        if left == 0:
            return Fraction(0), Fraction(0)
        r1 = r2 = Fraction(0)
        for added, (p, x1, x2) in outcomes.items():
            added = 0 if (once and used) else added
            extra = added if cap is None else min(added, cap - awarded)
            n1, n2 = moments(left - 1 + extra, awarded + extra, used or added > 0)
            r1 += x1 + p * n1
            r2 += x2 + 2 * x1 * n1 + p * n2
        return r1, r2

    def start(n: int) -> tuple[Fraction, Fraction]:
        n = n if cap is None else min(n, cap)
        return moments(n, n, False)

    return start


def _sticky_sequence(m: Machine, li: int, eb, eb2):
    """n -> (E[F], E[F^2]) of a feature with sticky wilds, enumerated exactly.

    The state is (spins left, sticky cells); a spin's landed window shows the
    sticky wilds on their cells, and the sticky wilds that land on the other
    cells join them for the spins that follow.
    """
    fs = m.free_spins
    if fs.retrigger or m.heights or fs.expanding_symbol:
        raise NotImplementedError("sticky wilds with retrigger, heights or expanding_symbol")
    strips, weights = _free_reels(m)
    cycle = list(windows(m, strips, weights))
    total_w = sum(w for _, w in cycle)
    sticky = {s.name for s in m.symbols if s.sticky}

    @cache
    def moments(left: int, held: frozenset) -> tuple[Fraction, Fraction]:
        if left == 0:
            return Fraction(0), Fraction(0)
        r1 = r2 = Fraction(0)
        for landed, w in cycle:
            shown = [list(col) for col in landed]
            for r, i, name in held:
                shown[r][i] = name
            new = frozenset(
                (r, i, name)
                for r, col in enumerate(shown)
                for i, name in enumerate(col)
                if name in sticky
            )
            x1, x2 = _free_value(m, shown, li, None, eb, eb2)
            n1, n2 = moments(left - 1, new)
            p = Fraction(w, total_w)
            r1 += p * (x1 + n1)
            r2 += p * (x2 + 2 * x1 * n1 + n2)
        return r1, r2

    def start(n: int) -> tuple[Fraction, Fraction]:
        n = n if fs.max_spins is None else min(n, fs.max_spins)
        return moments(n, frozenset())

    return start


def feature_moments(m: Machine, li: int):
    """n -> (E[F], E[F^2]) of the free-spin feature started with n spins."""
    eb, eb2 = base.bonus_moments(m, li)
    fs = m.free_spins
    if _sticky(m):
        return _sticky_sequence(m, li, eb, eb2)
    if not fs.expanding_symbol:
        return _sequence(m, _outcomes(m, li, None, eb, eb2))
    total = sum(w for _, w in fs.expanding_symbol)
    parts = [
        (Fraction(w, total), _sequence(m, _outcomes(m, li, e, eb, eb2)))
        for e, w in fs.expanding_symbol
    ]

    def start(n: int) -> tuple[Fraction, Fraction]:
        f1 = f2 = Fraction(0)
        for p, seq in parts:
            s1, s2 = seq(n)
            f1 += p * s1
            f2 += p * s2
        return f1, f2

    return start


def _by_count(m: Machine, li: int):
    """count -> (E[F], E[F^2]) of the feature ``count`` trigger symbols start.

    ``multiplier_by_count``: the feature of ``count`` is played at its count's
    multiplier (a retrigger is refused with it, so none changes it).

    Drawn free-spin options (each with a ``weight``): the option is drawn at the
    start and kept, so the moments are the weighted mean of each option's.
    """
    fs = m.free_spins
    if fs.multiplier_by_count:  # the feature of n triggers is the game at its multiplier
        by_value = {
            v: feature_moments(
                dataclasses.replace(
                    m, free_spins=dataclasses.replace(fs, multiplier=v, multiplier_by_count=())
                ),
                li,
            )
            for v in {fs.multiplier_at(c) for c, _ in fs.multiplier_by_count}
        }
        return lambda n: by_value[fs.multiplier_at(n)](fs.spins_for(n))
    if not fs.options:
        plain = feature_moments(m, li)
        return lambda n: plain(fs.spins_for(n))
    total = sum(o.weight for o in fs.options)
    parts = [
        (Fraction(o.weight, total), v.free_spins, feature_moments(v, li))
        for o, v in zip(fs.options, base.option_machines(m), strict=True)
    ]

    def start(n: int) -> tuple[Fraction, Fraction]:
        f1 = f2 = Fraction(0)
        for p, free, moments in parts:
            g1, g2 = moments(free.spins_for(n))
            f1 += p * g1
            f2 += p * g2
        return f1, f2

    return start


def brute_force(m: Machine, li: int) -> dict:
    """Exact rtp, hit frequency, variance and free-spin return of a window-feature game.

    Returns Fractions, per unit of total bet: ``rtp``, ``hit_frequency``,
    ``variance``, ``free_spins_rtp`` (the features' part of the return) and
    ``fs_probability`` (a base spin starts the feature).
    """
    _check(m)
    tb = m.total_bet(m.bet_levels[li])
    fs = m.free_spins
    eb, eb2 = base.bonus_moments(m, li)
    feature = _by_count(m, li) if fs else None
    cap = m.rules.win_cap
    total_w = 0
    s1 = s2 = hit = fs_mean = fs_p = Fraction(0)
    for (landed, w0), (mode, in_mode) in itertools.product(
        windows(m, m.strips, m.weights), modes(m)
    ):
        w = w0 * in_mode
        b, _ = spin(m, landed, li, False, mode=mode)
        if cap is not None:
            b = min(b, cap * tb)
        e1, e2 = Fraction(b), Fraction(b * b)
        triggered = False
        if (
            m.bonus
            and m.bonus.trigger
            and base.counted(m, landed, m.bonus.trigger.symbol) >= m.bonus.trigger.count
        ):
            e2 += 2 * e1 * eb + eb2
            e1 += eb
            triggered = True
        n = base.counted(m, landed, fs.trigger.symbol) if fs else 0
        if fs and n >= fs.trigger.count:
            f1, f2 = feature(n)
            e2 += 2 * e1 * f1 + f2
            e1 += f1
            fs_mean += w * f1
            fs_p += w
            triggered = True
        total_w += w
        s1 += w * e1
        s2 += w * e2
        hit += w if (b > 0 or triggered) else 0
    mean = s1 / total_w
    return {
        "rtp": mean / tb,
        "hit_frequency": hit / total_w,
        "variance": (s2 / total_w - mean * mean) / tb**2,
        "free_spins_rtp": fs_mean / total_w / tb,
        "fs_probability": fs_p / total_w,
    }


def pool_hits(m: Machine) -> dict[str, Fraction]:
    """Expected hits per paid spin of each pool ``[[full_window_pays]]`` awards.

    Every base window that wins the pool (:func:`full_window_pool`), plus each
    feature it starts: the free-spin sequence of :func:`_sequence` with a spin's
    "win" set to 1 when its window wins the pool (no multiplier).
    """
    _check(m)
    fs = m.free_spins
    if fs is not None and (_sticky(m) or fs.expanding_symbol):
        raise NotImplementedError("pools with sticky wilds or the expanding symbol")
    out = {}
    for name in sorted({fw.jackpot for fw in m.full_window_pays if fw.jackpot}):
        feature = _pool_feature(m, name) if fs else None
        s = Fraction(0)
        total_w = 0
        for landed, w in windows(m, m.strips, m.weights):
            e = Fraction(int(full_window_pool(m, expand(m, landed, False)) == name))
            n = base.counted(m, landed, fs.trigger.symbol) if fs else 0
            if feature is not None and n >= fs.trigger.count:
                e += feature(fs.spins_for(n))[0]
            s += w * e
            total_w += w
        out[name] = s / total_w
    return out


def _pool_feature(m: Machine, name: str):
    """n -> (E[hits], E[hits^2]) of a feature of n spins: its windows that win ``name``."""
    fs = m.free_spins
    view = free_view(m)
    strips, weights = _free_reels(m)
    cycle = list(windows(m, strips, weights))
    total_w = sum(w for _, w in cycle)
    outcomes: dict[int, list[Fraction]] = {}
    for landed, w in cycle:
        x = Fraction(int(full_window_pool(view, expand(view, landed, True)) == name))
        added = base.retrigger_award(fs, base.counted(m, landed, fs.trigger.symbol))
        acc = outcomes.setdefault(added, [Fraction(0)] * 3)
        p = Fraction(w, total_w)
        acc[0] += p
        acc[1] += p * x
        acc[2] += p * x * x
    return _sequence(m, outcomes)
