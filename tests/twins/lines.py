"""A slow, obviously-correct pure-Python twin of the engine: the test oracle.

It reads the rules of SPEC sections 3.1 and 3.1a straight off the ``Machine``
object, with no tables, automata or kernels: for each payline, every pay entry
is tried token by token and the highest win is kept. Full-cycle figures come
from brute force over every stop combination, and free-spin moments from a
memoised forward recursion over (spins left, spins awarded, retrigger used) --
a different formulation from the exact calculator's backward recursion. For
cycles too large to walk (IGT Cleopatra: 33 million stop combinations x 20
lines), ``mean_by_decomposition`` gives the exact mean alone: per-line
decomposition, scatter counts convolved over the reels, free spins by Wald's
identity; it equals the brute force wherever both run. It is written from the
spec, never from ``certify.engine`` or ``certify.exact``.

Rules of real games (SPEC 3.1a, ``Machine.rules`` and the pay-entry flags), as
this twin reads them:

* ``wild_multiplier``: only wilds that *substitute* in the paying run bring a
  multiplier (a wild matching its own literal token, ``W`` in ``W W W``, brings
  none). "product": the product of their multipliers (x2, x2 -> x4); "max": the
  largest, once; "sum": the sum of their multipliers that are > 1 (x2, x3 ->
  x5; a plain x1 wild adds nothing), 1 when there are none.
* A line's paying entry is chosen by its base value, credits x wild multiplier;
  an entry a jackpot replaces ranks above every other (it pays 0 credits).
  Ties keep the first entry in pay-table order.
* ``pure_wild_line = "wild_award"``: an entry is not met when every cell of its
  run is a wild and at least one of them matched by substitution (not its own
  token); runs holding a non-wild symbol are unchanged, and wilds-only entries
  such as ``W W W`` still pay. An ``anywhere`` entry is not met when every cell
  it counts is a substituting wild.
* ``anywhere = true`` on ``combo = [S] * k``: met when at least k cells of the
  line (any reels) match S (S itself, a member if S is a group, or a wild that
  substitutes for it); its multiplier combines every matching cell of the line
  that is a substituting wild. It competes with the run entries by base value:
  the line pays only its highest met entry.
* ``direction = "both"``: each line is read from reel 1 rightwards and from the
  last reel leftwards (``combo[0]`` on the last reel, ``combo[1]`` on the one
  before, ...). The line pays its best left entry plus its best right entry,
  except that when both cover every reel it pays the larger once. A wild may
  take part in both. Award counts count each paid entry (both, or the one paid
  once). ``anywhere`` entries with ``direction = "both"`` are not modelled
  (NotImplementedError).
* ``scatter_unit = "line_bet"``: scatter pays x the bet level (credits per line,
  or per cost unit in ways games) instead of x the total bet.
* ``exclusive_scatters``: of those symbols, in the listed order, only the first
  whose count meets a scatter pay pays; the later ones in the list pay nothing
  on that spin; scatters not in the list are unaffected.
* ``free_spins_multiplier = false``: in free spins that entry's win is paid as
  is (not x the free-spin multiplier); scatter and other wins still are. The
  entry is still chosen by base value.
* ``retrigger = "once"``: in one feature only the first retrigger adds spins;
  every later trigger adds none. The first trigger uses the one retrigger even
  if ``max_spins`` (the cap on spins awarded in one feature) lets it add none.
* ``win_cap``: a spin's whole win is min(total, win_cap x total bet); brute
  force only for games without features (NotImplementedError otherwise).
* ``[[free_spins.options]]``: each option is its own game (``brute_force_options``);
  ``brute_force`` refuses a machine that still has options.

A game that uses none of these rules evaluates exactly as before.
"""

from __future__ import annotations

import dataclasses
import itertools
from fractions import Fraction
from functools import cache

from certify.model.schema import ANY, Machine
from twins.bonusgame import bonus_prize_moments


def free_pays_view(m: Machine) -> Machine:
    """The machine as it pays during free spins, where some entry has ``free_spins_pays``.

    Each line/ways entry pays its free-spin value premultiplied by the feature's
    multiplier (unless ``free_spins_multiplier = false``) and is then marked fixed,
    so a line pays the entry that pays most in the feature; each scatter entry
    pays its free-spin value (the spin's formula multiplies scatters). Without
    ``free_spins_pays`` anywhere the machine itself.
    """
    if not any(e.free_spins_pays is not None for e in m.pays) and not any(
        s.free_spins_pays is not None for s in m.scatter_pays
    ):
        return m
    mult = m.free_spins.multiplier

    def entry(e):
        k = mult if e.free_spins_multiplier else 1
        if e.free_spins_pays is not None:
            pays, by_level = e.free_spins_pays * k, None
        else:
            pays = None if e.pays is None else e.pays * k
            by_level = None if e.pays_by_level is None else tuple(v * k for v in e.pays_by_level)
        return dataclasses.replace(
            e, pays=pays, pays_by_level=by_level, free_spins_pays=None, free_spins_multiplier=False
        )

    return dataclasses.replace(
        m,
        pays=tuple(entry(e) for e in m.pays),
        scatter_pays=tuple(
            dataclasses.replace(s, pays=s.free_pays, free_spins_pays=None) for s in m.scatter_pays
        ),
    )


def retrigger_award(fs, n: int) -> int:
    """Spins a retrigger with ``n`` symbols adds: the largest key <= n of
    ``retrigger_spins`` (its keys may lie below the trigger's count), else of
    ``spins`` from the trigger's count on; 0 without retrigger."""
    if not fs.retrigger or (not fs.retrigger_spins and n < fs.trigger.count):
        return 0
    table = dict(fs.retrigger_spins or fs.spins)
    keys = [k for k in table if k <= n]
    return table[max(keys)] if keys else 0


def window(strips, stops, rows):
    """Symbols seen: window[reel][row]."""
    return [
        [strip[(stop + row) % len(strip)] for row in range(rows)]
        for strip, stop in zip(strips, stops)
    ]


def match(m: Machine, token: str, symbol: str):
    """None if ``symbol`` does not match ``token``; else (substituted, wild multiplier).

    ``substituted`` is True only for a wild standing in for another symbol; its
    multiplier then counts. A literal match (a wild on its own token included)
    and ``ANY`` bring multiplier 1.
    """
    if token == ANY:
        return False, 1
    members = m.group(token) or (token,)
    name, _, drawn = symbol.partition("@")  # "W@3": wild W showing its drawn multiplier 3
    if name in members:
        return False, 1
    sym = m.symbol(name)
    if sym.kind == "wild" and any(x in sym.substitutes for x in members):
        return True, int(drawn) if drawn else sym.multiplier
    return None


def matches(m: Machine, token: str, symbol: str) -> tuple[bool, int]:
    """(hit, multiplier) of one cell against one token (the SPEC 3.1 reading)."""
    hit = match(m, token, symbol)
    return (False, 1) if hit is None else (True, hit[1])


def combine(m: Machine, mults: list[int]) -> int:
    """The wild multiplier of a win from its substituting wilds' multipliers."""
    rule = m.rules.wild_multiplier
    if rule == "max":
        return max(mults, default=1)
    if rule == "sum":
        big = [x for x in mults if x > 1]
        return sum(big) if big else 1
    out = 1
    for x in mults:
        out *= x
    return out


def is_jackpot(m: Machine, entry, li: int) -> bool:
    """Whether a jackpot replaces this entry's line pay at the level."""
    level = m.bet_levels[li]
    return any(
        jp.trigger_combo == entry.combo and (jp.min_bet_level is None or level >= jp.min_bet_level)
        for jp in m.jackpots
    )


def credits(m: Machine, entry, li: int) -> int:
    """The entry's line pay at the level: 0 where a jackpot replaces it (not ``keep_pay``)."""
    kept = any(jp.keep_pay and jp.trigger_combo == entry.combo for jp in m.jackpots)
    return 0 if is_jackpot(m, entry, li) and not kept else entry.credits(li, m.bet_levels[li])


def is_wild(m: Machine, symbol: str) -> bool:
    return m.symbol(symbol.partition("@")[0]).kind == "wild"


def run_mult(m: Machine, entry, cells) -> int | None:
    """Wild multiplier of a run entry read on ``cells`` (reading order), None if not met."""
    if len(entry.combo) > len(cells):
        return None
    mults, substituted = [], False
    for token, symbol in zip(entry.combo, cells):
        hit = match(m, token, symbol)
        if hit is None:
            return None
        if hit[0]:
            substituted = True
            mults.append(hit[1])
    run = cells[: len(entry.combo)]
    if m.rules.pure_wild_line == "wild_award" and substituted and all(is_wild(m, s) for s in run):
        return None
    return combine(m, mults)


def anywhere_mult(m: Machine, entry, cells) -> int | None:
    """Wild multiplier of an ``anywhere`` entry on the line's cells, None if not met."""
    token = entry.combo[0]
    hits = [h for h in (match(m, token, s) for s in cells) if h is not None]
    if len(hits) < len(entry.combo):
        return None
    subs = [x for substituted, x in hits if substituted]
    if m.rules.pure_wild_line == "wild_award" and len(subs) == len(hits):
        return None
    return combine(m, subs)


def best_entry(m: Machine, cells, li: int, with_anywhere: bool):
    """(rank, pay, entry) of the highest entry met reading ``cells``; None if none."""
    best = None
    for entry in m.pays:
        if entry.anywhere:
            mult = anywhere_mult(m, entry, cells) if with_anywhere else None
        else:
            mult = run_mult(m, entry, cells)
        if mult is None:
            continue
        pay = credits(m, entry, li) * mult
        rank = 10**15 if is_jackpot(m, entry, li) else pay
        if m.rules.line_pays == "longest":  # the longest run met pays, worth breaking ties
            rank = len(entry.combo) * 10**16 + rank
        # equal worth: an entry playing a bonus game wins, the longer of two such
        rank = (rank, len(entry.combo) if entry.bonus else 0)
        if best is None or rank > best[0]:
            best = (rank, pay, entry)
    return best


def leading_cut(m: Machine, cells: list[str]) -> list[str]:
    """The cells a line is read on: under ``leading_wilds = "one_kind"`` it ends where
    its leading run of wilds meets a wild of another name (``W@3`` is ``W``)."""
    if m.rules.leading_wilds != "one_kind":
        return cells
    first = cells[0].partition("@")[0]
    for i, cell in enumerate(cells):
        if not is_wild(m, cell):
            break
        if cell.partition("@")[0] != first:
            return cells[:i]
    return cells


def line_parts(m: Machine, win, li: int) -> tuple[int, int, list[int]]:
    """Line credits, the part of them not multiplied in free spins, and the paying entries.

    The paying entries are one per line (-1 none) reading left; with
    ``direction = "both"`` each line adds its left then its right entry.
    """
    both = m.rules.direction == "both"
    if both and any(e.anywhere for e in m.pays):
        raise NotImplementedError("anywhere entries with direction = 'both'")
    total, fixed, paid = 0, 0, []
    for line in m.paylines:
        cells = leading_cut(m, [win[r][row] for r, row in enumerate(line)])
        found = [best_entry(m, cells, li, True)]
        if both:
            right = best_entry(m, cells[::-1], li, False)
            left = found[0]
            full = len(cells)
            better_only = m.rules.both_ways == "better"
            if (
                left is not None
                and right is not None
                and (better_only or (len(left[2].combo) == full and len(right[2].combo) == full))
            ):
                found = [left if left[0] >= right[0] else right]
            else:
                found = [left, right]
        for f in found:
            if f is None:
                if not both:
                    paid.append(-1)
                continue
            total += f[1]
            fixed += 0 if f[2].free_spins_multiplier else f[1]
            paid.append(f[2].index)
    return total, fixed, paid


def line_wins(m: Machine, win, li: int) -> tuple[int, list[int]]:
    """Total line credits and the paying entry of each line (-1 none)."""
    total, _, paid = line_parts(m, win, li)
    return total, paid


def ways_parts(m: Machine, win, li: int) -> tuple[int, int, list[int]]:
    """Ways credits, their part not multiplied in free spins, and the paying entries."""
    families: dict[str, tuple[int, int, int]] = {}
    for entry in m.pays:
        ways = 1
        for pos, token in enumerate(entry.combo):
            col = 0
            for symbol in win[pos]:
                hit, x = matches(m, token, symbol)
                col += x if hit else 0
            ways *= col
        if ways == 0:
            continue
        pay = credits(m, entry, li) * ways
        key = entry.combo[0]
        old = families.get(key)
        if (
            old is None
            or len(entry.combo) > old[0]
            or (len(entry.combo) == old[0] and pay > old[1])
        ):
            families[key] = (len(entry.combo), pay, entry.index)
    total = sum(v[1] for v in families.values())
    fixed = sum(v[1] for v in families.values() if not m.pays[v[2]].free_spins_multiplier)
    return total, fixed, [v[2] for v in families.values()]


def ways_wins(m: Machine, win, li: int) -> tuple[int, list[int]]:
    """Total ways credits and the paying entries."""
    total, _, paid = ways_parts(m, win, li)
    return total, paid


def count(win, symbol: str) -> int:
    return sum(row.count(symbol) for row in win)


def counted(m: Machine, win, symbol: str) -> int:
    """Cells of ``win`` (per reel, its cells) counting as a scatter or trigger symbol:
    on its ``reels`` only (1-based; every reel if none), wild cells too under
    ``wilds_count``, a symbol that ``counts_as`` it that many times. Under
    ``consecutive = n`` only its cells on the reels in a row from reel 1 that
    show it, and none where fewer than n reels in a row do."""
    sym = m.symbol(symbol)
    if sym.consecutive:
        run = []
        for cells in win:
            shown = sum(1 for cell in cells if cell.partition("@")[0] == symbol)
            if not shown:
                break
            run.append(shown)
        return sum(run) if len(run) >= sym.consecutive else 0
    wilds = {s.name for s in m.symbols if s.kind == "wild"} if sym.wilds_count else set()
    doubles = {
        s.name: s.counts_as[1] for s in m.symbols if s.counts_as and s.counts_as[0] == symbol
    }
    total = 0
    for r, cells in enumerate(win):
        if sym.reels and r + 1 not in sym.reels:
            continue
        for cell in cells:
            name = cell.partition("@")[0]
            total += 1 if name == symbol or name in wilds else doubles.get(name, 0)
    return total


def scatter_credits(m: Machine, win, li: int) -> int:
    """Scatter credits of one window (highest count per symbol, exclusive scatters)."""
    return scatter_parts(m, win, li)[0]


def scatter_parts(m: Machine, win, li: int) -> tuple[int, list]:
    """(scatter credits, the scatter entries that pay and play a bonus game) of one window.

    Each symbol pays its highest met entry; of the exclusive scatters only the
    first whose entry pays credits or plays the bonus (``bonus = true``) pays.
    """
    level = m.bet_levels[li]
    unit = level if m.rules.scatter_unit == "line_bet" else m.total_bet(level)
    exclusive = m.rules.exclusive_scatters
    exclusive_paid = False
    total, plays = 0, []
    symbols = list(exclusive) + sorted({s.symbol for s in m.scatter_pays} - set(exclusive))
    for symbol in symbols:
        n = counted(m, win, symbol)
        best = [s for s in m.scatter_pays if s.symbol == symbol and s.count <= n]
        if not best:
            continue
        top = max(best, key=lambda s: s.count)
        if symbol in exclusive:
            if exclusive_paid or not (top.pays > 0 or top.bonus):  # 0 credits: not taken
                continue
            exclusive_paid = True
        total += top.pays * unit
        plays += [top] if top.bonus else []
    return total, plays


def spin_parts(m: Machine, win, li: int) -> tuple[int, int, list[int]]:
    """Line/ways + scatter credits of one window, the part of them paid as is in
    free spins (entries with ``free_spins_multiplier = false``), and the paying entries."""
    total, fixed, paid = (ways_parts if m.evaluation == "ways" else line_parts)(m, win, li)
    return total + scatter_credits(m, win, li), fixed, paid


def spin_value(m: Machine, win, li: int) -> tuple[int, list[int]]:
    """Line/ways + scatter credits of one window."""
    total, _, paid = spin_parts(m, win, li)
    return total, paid


def windows(m: Machine, strips, weights):
    """Every window of the cycle with its weight. A wild with drawn multipliers
    (``multiplier = {v = weight}``) draws once per reel where it shows: its cells
    there read ``W@v``, the window's weight x P(v) (Fractions)."""
    for stops, w in cycle(m, strips, weights):
        per_reel = []
        for col in painted(m, window(strips, stops, m.rows)):
            options = [(col, Fraction(1))]
            for name in sorted({c for c in col if m.symbol(c).multipliers}):
                table = m.symbol(name).multipliers
                total = sum(x for _, x in table)
                options = [
                    ([f"{name}@{v}" if c == name else c for c in cells], p * Fraction(x, total))
                    for cells, p in options
                    for v, x in table
                ]
            per_reel.append(options)
        for combo in itertools.product(*per_reel):
            p = Fraction(1)
            for _, q in combo:
                p *= q
            yield [list(cells) for cells, _ in combo], w * p


def painted(m: Machine, win):
    """The window with every ``paints`` block turned into its wild: a symbol landed on
    one of its reels paints the cells ``left``/``right`` reels and ``up``/``down``
    rows around it (inside the window), all but scatter and bonus cells."""
    out = [list(col) for col in win]
    keep = {s.name for s in m.symbols if s.kind in ("scatter", "bonus")}
    for s in m.symbols:
        p = s.paints
        for reel in p.reels if p is not None else ():
            for row, name in enumerate(win[reel - 1]):
                if name != s.name:
                    continue
                for c, col in enumerate(win):
                    for z, cell in enumerate(col):
                        near = -p.left <= c - (reel - 1) <= p.right and -p.up <= z - row <= p.down
                        if near and cell not in keep:
                            out[c][z] = p.into
    return out


def cycle(m: Machine, strips, weights):
    """Every stop combination with its weight."""
    ranges = [range(len(s)) for s in strips]
    for stops in itertools.product(*ranges):
        w = 1
        for r, stop in enumerate(stops):
            w *= weights[r][stop] if weights else 1
        yield stops, w


def played_moments(m: Machine, li: int, entries: list) -> tuple[Fraction, Fraction]:
    """E[S], E[S^2] of the prizes of the bonus games ``entries`` (paid pay entries) play.

    Each entry plays its game (``bonus_game``: "" is ``[bonus]``) ``bonus_plays``
    times, every play an independent draw: E[S^2] = Var(S) + E[S]^2 with
    Var(S) = sum of each play's variance.
    """
    games = dict(m.bonus_laws)
    level = m.bet_levels[li]
    mean = var = Fraction(0)
    for e in entries:
        game = games[e.bonus_game]
        bet = level if game.unit == "line_bet" else m.total_bet(level)
        e1, e2 = bonus_prize_moments(game)
        mean += e.bonus_plays * e1 * bet
        var += e.bonus_plays * (e2 - e1 * e1) * bet * bet
    return mean, var + mean * mean


def bonus_moments(m: Machine, li: int) -> tuple[Fraction, Fraction]:
    if m.bonus is None:
        return Fraction(0), Fraction(0)
    bet = m.bonus_bet(m.bet_levels[li])
    e1, e2 = bonus_prize_moments(m.bonus)
    return e1 * bet, e2 * bet * bet


def option_machines(m: Machine) -> list[Machine]:
    """The machine once per free-spin option (its spins and multiplier), or itself."""
    fs = m.free_spins
    if fs is None or not fs.options:
        return [m]
    return [
        dataclasses.replace(
            m,
            free_spins=dataclasses.replace(fs, spins=o.spins, multiplier=o.multiplier, options=()),
        )
        for o in fs.options
    ]


def brute_force_options(m: Machine, li: int) -> list[dict]:
    """``brute_force`` of each free-spin option played alone (one figure if none)."""
    return [brute_force(v, li) for v in option_machines(m)]


def brute_force(m: Machine, li: int) -> dict:
    """Exact rtp, hit frequency, variance and award probabilities by brute force."""
    tb = m.total_bet(m.bet_levels[li])
    fs = m.free_spins
    if fs is not None and fs.options and not all(o.weight for o in fs.options):
        raise ValueError("a game with free-spin options: use brute_force_options")
    cap = m.rules.win_cap
    if cap is not None and (fs is not None or m.bonus is not None):
        raise NotImplementedError("win_cap with features")
    eb, eb2 = bonus_moments(m, li)
    feature = _drawn_feature(m, li, eb, eb2) if fs else None
    draws = paid_spin_multipliers(m)
    drawn1 = sum(p * v for v, p in draws)
    drawn2 = sum(p * v * v for v, p in draws)
    total_w = 0
    s1 = s2 = hit = Fraction(0)
    awards = [0] * len(m.pays)
    for win, w in windows(m, m.strips, m.weights):
        b, paid = spin_value(m, win, li)
        f1, f2 = window_factor_moments(m, win)  # what the reels show multiplies the spin by
        for e in paid:
            if e >= 0:
                awards[e] += w
        if cap is not None:
            b = min(b, cap * tb)
        e1 = Fraction(b) * drawn1 * f1  # x the spin's drawn multiplier and the reels' factor
        e2 = Fraction(b * b) * drawn2 * f2
        lines = [m.pays[e] for e in paid if e >= 0 and m.pays[e].bonus]  # each plays its game
        lines += scatter_parts(m, win, li)[1]  # so does each scatter entry with bonus
        if lines:  # independent prizes, unmultiplied
            p1, p2 = played_moments(m, li, lines)
            e1, e2 = e1 + p1, e2 + 2 * e1 * p1 + p2
        triggered = bool(lines)
        if (
            m.bonus
            and m.bonus.trigger
            and counted(m, win, m.bonus.trigger.symbol) >= m.bonus.trigger.count
        ):
            e2 += 2 * e1 * eb + eb2
            e1 += eb
            triggered = True
        if fs and counted(m, win, fs.trigger.symbol) >= fs.trigger.count:
            f1, f2 = feature(counted(m, win, fs.trigger.symbol))
            e2 += 2 * e1 * f1 + f2
            e1 += f1
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
        "awards": [Fraction(a, total_w) for a in awards],
    }


def _drawn_feature(m: Machine, li: int, eb, eb2):
    """A function count -> (E[F], E[F^2]) of the feature ``count`` trigger symbols start.

    Drawn options (every option has a ``weight``): the option is drawn at the
    start, so the feature's moments are the weighted mean of each option's.
    """
    fs = m.free_spins
    if not fs.options:
        plain = _feature_moments(m, li, eb, eb2)
        return lambda count: plain(fs.spins_for(count))
    total = sum(o.weight for o in fs.options)
    parts = [
        (Fraction(o.weight, total), v.free_spins, _feature_moments(v, li, eb, eb2))
        for o, v in zip(fs.options, option_machines(m), strict=True)
    ]

    def start(count: int):
        f1 = f2 = Fraction(0)
        for p, free, moments in parts:
            g1, g2 = moments(free.spins_for(count))
            f1 += p * g1
            f2 += p * g2
        return f1, f2

    return start


def window_factor_moments(m: Machine, win) -> tuple[Fraction, Fraction]:
    """(E[F], E[F^2]) of what a window multiplies its spin by: each cell's
    ``window_multiplier``, and per reel whose cells all show a symbol with a
    ``full_reel_multiplier`` a value drawn for that reel (independent reels)."""
    f1 = f2 = Fraction(1)
    for col in win:
        names = [c.split("@")[0] for c in col]
        for name in names:
            k = m.symbol(name).window_multiplier
            f1, f2 = f1 * k, f2 * k * k
        table = m.symbol(names[0]).full_reel_multipliers
        if table and len(set(names)) == 1:
            total = sum(w for _, w in table)
            f1 *= Fraction(sum(v * w for v, w in table), total)
            f2 *= Fraction(sum(v * v * w for v, w in table), total)
    return f1, f2


def paid_spin_multipliers(m: Machine) -> list[tuple[int, Fraction]]:
    """``[rules] spin_multiplier``: (value, probability) of the paid spin's own multiplier."""
    table = m.rules.spin_multipliers or ((1, 1),)
    total = sum(w for _, w in table)
    return [(v, Fraction(w, total)) for v, w in table]


def spin_multipliers(fs) -> list[tuple[int, Fraction]]:
    """(multiplier, chance) of one free spin: the fixed one, or each drawn value."""
    if not fs.multipliers:
        return [(fs.multiplier, Fraction(1))]
    total = sum(w for _, w in fs.multipliers)
    return [(v, Fraction(w, total)) for v, w in fs.multipliers]


def _feature_moments(m: Machine, li: int, eb, eb2):
    """A function n -> (E[F], E[F^2]) for a feature starting with n spins."""
    fs = m.free_spins
    outcomes: dict[int, list] = {}  # spins added -> [P, E[X;a], E[X^2;a]]
    total_w = sum(w for _, w in feature_windows(m))
    draws = spin_multipliers(fs)
    for win, w in feature_windows(m):
        value, fixed, paid = spin_parts(free_pays_view(m), win, li)
        lines = [m.pays[e] for e in paid if e >= 0 and m.pays[e].bonus]  # each plays its game
        lines += scatter_parts(free_pays_view(m), win, li)[1]  # and each such scatter entry
        n = counted(m, win, fs.retrigger_symbol or fs.trigger.symbol)
        added = retrigger_award(fs, n)
        acc = outcomes.setdefault(added, [Fraction(0)] * 3)
        f1, f2 = window_factor_moments(m, win)
        for mult, chance in draws:  # the spin's multiplier: fixed, or drawn for it
            x = Fraction(mult * (value - fixed) + fixed)
            x, x2 = x * f1, x * x * f2
            if lines:  # the bonus lines' prizes, unmultiplied, as in the base game
                p1, p2 = played_moments(m, li, lines)
                x, x2 = x + p1, x2 + 2 * x * p1 + p2
            if (
                m.bonus
                and m.bonus.trigger
                and counted(m, win, m.bonus.trigger.symbol) >= m.bonus.trigger.count
            ):
                x2 += 2 * x * eb + eb2
                x += eb
            p = Fraction(w, total_w) * chance
            acc[0] += p
            acc[1] += p * x
            acc[2] += p * x2
    cap = fs.max_spins
    once = fs.retrigger_once

    @cache
    def moments(left: int, awarded: int, used: bool) -> tuple:
        if left == 0:
            return Fraction(0), Fraction(0)
        r1 = r2 = Fraction(0)
        for added, (p, x1, x2) in outcomes.items():
            if once and used:
                added = 0
            extra = added if cap is None else min(added, cap - awarded)
            n1, n2 = moments(left - 1 + extra, awarded + extra, used or added > 0)
            r1 += x1 + p * n1
            r2 += x2 + 2 * x1 * n1 + p * n2
        return r1, r2

    def start(n: int):
        n = n if cap is None else min(n, cap)
        return moments(n, n, False)

    return start


def feature_windows(m: Machine):
    """Every window of the free spins' cycle with its weight. With a big symbol
    (``free_spins.big_symbol``) the uncovered reels stop as usual and one stop of the
    big strip, drawn by its weight, shows its symbol on every cell of the reels it
    covers (its ``covers`` first ones of ``reels``), or its ``columns`` cells there.
    A reel that only some symbols cover stops as usual under the others."""
    fs = m.free_spins
    strips = fs.strips or m.strips
    weights = fs.weights if fs.strips else m.weights
    big = fs.big_symbol
    if big is None:
        yield from windows(m, strips, weights)
        return
    always = min(dict(big.covers).get(s, len(big.reels)) for s in big.strip)
    spun = [r for r in range(len(strips)) if r + 1 not in big.reels[:always]]
    spun_weights = [weights[r] for r in spun] if weights else None
    for stops, w in cycle(m, [strips[r] for r in spun], spun_weights):
        for b, symbol in enumerate(big.strip):
            covered = big.reels[: dict(big.covers).get(symbol, len(big.reels))]
            column = list(dict(big.columns).get(symbol, [symbol] * m.rows))
            win = [list(column) for _ in strips]
            for r, stop in zip(spun, stops, strict=True):
                if r + 1 not in covered:
                    win[r] = [strips[r][(stop + y) % len(strips[r])] for y in range(m.rows)]
            yield win, w * (big.weights[b] if big.weights else 1)


def _cell_counts(strip, weights, row: int) -> tuple:
    """Each symbol shown at ``row`` of a reel with the total weight of the stops showing it."""
    out: dict[str, int] = {}
    for stop in range(len(strip)):
        symbol = strip[(stop + row) % len(strip)]
        out[symbol] = out.get(symbol, 0) + (weights[stop] if weights else 1)
    return tuple(sorted(out.items()))


def _scatter_counts(m: Machine, strips, weights) -> dict[tuple, int]:
    """Weight of every vector of window counts of the scatter and trigger symbols."""
    fs, bonus = m.free_spins, m.bonus
    names = sorted(
        {s.symbol for s in m.scatter_pays}
        | ({fs.trigger.symbol} if fs else set())
        | ({bonus.trigger.symbol} if bonus and bonus.trigger else set())
    )
    dist: dict[tuple, int] = {(0,) * len(names): 1}
    for r, strip in enumerate(strips):
        reel: dict[tuple, int] = {}
        for stop in range(len(strip)):
            cells = [strip[(stop + row) % len(strip)] for row in range(m.rows)]
            key = tuple(cells.count(n) for n in names)
            reel[key] = reel.get(key, 0) + (weights[r][stop] if weights else 1)
        dist = _convolve(dist, reel)
    return {tuple(zip(names, k)): w for k, w in dist.items()}


def _convolve(a: dict[tuple, int], b: dict[tuple, int]) -> dict[tuple, int]:
    out: dict[tuple, int] = {}
    for k1, w1 in a.items():
        for k2, w2 in b.items():
            k = tuple(x + y for x, y in zip(k1, k2))
            out[k] = out.get(k, 0) + w1 * w2
    return out


def _line_mean(m: Machine, li: int, reels: tuple) -> tuple[Fraction, Fraction]:
    """E[credits] of one line, and of its part paid as is, given each reel's cell law."""
    total = 1
    for reel in reels:
        total *= sum(w for _, w in reel)
    pay = fixed = 0
    for combo in itertools.product(*reels):
        w = 1
        for _, x in combo:
            w *= x
        best = best_entry(m, leading_cut(m, [s for s, _ in combo]), li, True)
        if best is not None:
            pay += w * best[1]
            fixed += w * (0 if best[2].free_spins_multiplier else best[1])
    return Fraction(pay, total), Fraction(fixed, total)


def _reel_set_means(m: Machine, li: int, strips, weights, retrigger: bool = False):
    """Per spin on one reel set: E[line credits], E[part paid as is], E[scatter credits],
    the probability of each number of free spins the spin awards, and P(bonus).
    ``retrigger``: the free spins' reel set (their pays, their retrigger awards).

    Lines by per-line decomposition: a payline shows one cell per reel, the
    reels stop independently, and the cell at row r of a reel shows
    strip[stop + r] with the weight of ``stop``; so a payline's symbols follow
    the product of its reels' row laws, and the line return is the sum over the
    lines of the mean of one line over those symbol tuples (evaluated by
    ``best_entry``; lines with the same laws, e.g. every line of an unweighted
    game, are evaluated once). Scatters and triggers depend on the window only
    through the counts per reel, convolved over the reels.
    """
    if retrigger:
        m = free_pays_view(m)
    per_line: dict[tuple, tuple[Fraction, Fraction]] = {}
    line = fixed = Fraction(0)
    for payline in m.paylines:
        key = tuple(
            _cell_counts(strip, weights[r] if weights else None, payline[r])
            for r, strip in enumerate(strips)
        )
        if key not in per_line:
            per_line[key] = _line_mean(m, li, key)
        line += per_line[key][0]
        fixed += per_line[key][1]
    total = 1
    for strip, w in zip(strips, weights or [None] * len(strips)):
        total *= sum(w) if w else len(strip)
    scatter = Fraction(0)
    awards: dict[int, Fraction] = {}
    bonus = Fraction(0)
    fs = m.free_spins
    for counts, w in _scatter_counts(m, strips, weights).items():
        fake = [[name] * n for name, n in counts]
        scatter += w * scatter_credits(m, fake, li)
        n = dict(counts).get(fs.trigger.symbol, 0) if fs else 0
        if retrigger:
            spins = retrigger_award(fs, n)
        else:
            spins = fs.spins_for(n) if fs and n >= fs.trigger.count else 0
        awards[spins] = awards.get(spins, Fraction(0)) + Fraction(w, total)
        if (
            m.bonus
            and m.bonus.trigger
            and dict(counts)[m.bonus.trigger.symbol] >= m.bonus.trigger.count
        ):
            bonus += Fraction(w, total)
    return (
        line,
        fixed,
        scatter / total,
        awards,
        bonus,
    )


def mean_by_decomposition(m: Machine, li: int) -> dict:
    """Exact mean return of a lines game without full-cycle enumeration.

    Line return by per-line decomposition, scatter return by convolving the
    reels' window counts, free spins by Wald's identity: E[feature] = E[spins
    played] x E[one free spin], with E[spins played] from a recursion over
    (spins left, spins awarded) under max_spins and retrigger (or once).
    Returns the rtp and its parts, each x total bet (Fractions); "bonus" is the
    base game's bonus return (free spins' bonuses are in "free_spins"). Lines games,
    left direction, no win_cap and no options only. A bonus adds its mean award
    (x total bet, not multiplied in free spins) on every spin that triggers it.
    """
    if m.evaluation != "lines" or m.rules.direction != "left":
        raise NotImplementedError("lines games read left only")
    if m.rules.win_cap is not None:
        raise NotImplementedError("win_cap")
    if any(s.reels or s.wilds_count or s.multipliers for s in m.symbols):
        raise NotImplementedError("scatters counted on some reels or with wilds: brute force")
    if any(s.window_multiplier != 1 or s.full_reel_multipliers for s in m.symbols):
        raise NotImplementedError("reels that multiply the spin: brute force")
    if m.free_spins is not None and m.free_spins.big_symbol is not None:
        raise NotImplementedError("linked reels of a big symbol: brute force")
    if any(s.paints for s in m.symbols):
        raise NotImplementedError("blocks painted across reels: brute force")
    fs = m.free_spins
    if fs is not None and fs.options:
        raise ValueError("a game with free-spin options: decompose each option")
    tb = m.total_bet(m.bet_levels[li])
    eb = bonus_moments(m, li)[0]
    line, base_fixed, scatter, starts, p_bonus = _reel_set_means(m, li, m.strips, m.weights)
    drawn = sum(p * v for v, p in paid_spin_multipliers(m))  # independent of the stops
    line, scatter = line * drawn, scatter * drawn
    feature = Fraction(0)
    if fs is not None:
        free_strips = (fs.strips, fs.weights) if fs.strips else (m.strips, m.weights)
        means = _reel_set_means(m, li, *free_strips, retrigger=True)
        f_line, f_fixed, f_scatter, added, f_bonus = means
        x = fs.multiplier * (f_line - f_fixed + f_scatter) + f_fixed + f_bonus * eb
        if not fs.retrigger:
            added = {0: Fraction(1)}
        cap = fs.max_spins

        @cache
        def played(left: int, awarded: int, used: bool) -> Fraction:
            if left == 0:
                return Fraction(0)
            out = Fraction(1)
            for a, p in added.items():
                a = 0 if (fs.retrigger_once and used) else a
                extra = a if cap is None else min(a, cap - awarded)
                out += p * played(left - 1 + extra, awarded + extra, used or a > 0)
            return out

        for n, p in starts.items():
            if n:
                n = n if cap is None else min(n, cap)
                feature += p * x * played(n, n, False)
    return {
        "rtp": (line + scatter + p_bonus * eb + feature) / tb,
        "line": line / tb,
        "scatter": scatter / tb,
        "bonus": p_bonus * eb / tb,
        "free_spins": feature / tb,
    }
