"""A slow, obviously-correct pure-Python twin of the engine: the test oracle.

It reads the rules of SPEC section 3.1 straight off the ``Machine`` object,
with no tables, automata or kernels: for each payline, every pay entry is
tried token by token and the highest win is kept. Full-cycle figures come
from brute force over every stop combination, and free-spin moments from a
memoised forward recursion over (spins left, spins awarded) — a different
formulation from the exact calculator's backward recursion.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from functools import cache

from certify.model.schema import ANY, Machine


def window(strips, stops, rows):
    """Symbols seen: window[reel][row]."""
    return [
        [strip[(stop + row) % len(strip)] for row in range(rows)]
        for strip, stop in zip(strips, stops)
    ]


def matches(m: Machine, token: str, symbol: str) -> tuple[bool, int]:
    if token == ANY:
        return True, 1
    members = m.group(token) or (token,)
    if symbol in members:
        return True, 1
    sym = m.symbol(symbol)
    if sym.kind == "wild" and any(x in sym.substitutes for x in members):
        return True, sym.multiplier
    return False, 1


def is_jackpot(m: Machine, entry, li: int) -> bool:
    """Whether a jackpot replaces this entry's line pay at the level."""
    level = m.bet_levels[li]
    return any(
        jp.trigger_combo == entry.combo and (jp.min_bet_level is None or level >= jp.min_bet_level)
        for jp in m.jackpots
    )


def credits(m: Machine, entry, li: int) -> int:
    return 0 if is_jackpot(m, entry, li) else entry.credits(li, m.bet_levels[li])


def line_wins(m: Machine, win, li: int) -> tuple[int, list[int]]:
    """Total line credits and the paying entry of each line (-1 none)."""
    total, paid = 0, []
    for line in m.paylines:
        symbols = [win[r][row] for r, row in enumerate(line)]
        best, best_rank, best_entry = 0, -1, -1
        for entry in m.pays:
            mult, ok = 1, True
            for pos, token in enumerate(entry.combo):
                hit, x = matches(m, token, symbols[pos])
                if not hit:
                    ok = False
                    break
                mult *= x
            if not ok:
                continue
            pay = credits(m, entry, li) * mult
            rank = 10**15 if is_jackpot(m, entry, li) else pay
            if rank > best_rank:
                best, best_rank, best_entry = pay, rank, entry.index
        total += best
        paid.append(best_entry)
    return total, paid


def ways_wins(m: Machine, win, li: int) -> tuple[int, list[int]]:
    """Total ways credits and the paying entries."""
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
    return sum(v[1] for v in families.values()), [v[2] for v in families.values()]


def count(win, symbol: str) -> int:
    return sum(row.count(symbol) for row in win)


def spin_value(m: Machine, win, li: int) -> tuple[int, list[int]]:
    """Line/ways + scatter credits of one window."""
    total, paid = (ways_wins if m.evaluation == "ways" else line_wins)(m, win, li)
    tb = m.total_bet(m.bet_levels[li])
    for symbol in {s.symbol for s in m.scatter_pays}:
        n = count(win, symbol)
        best = [s for s in m.scatter_pays if s.symbol == symbol and s.count <= n]
        if best:
            total += max(best, key=lambda s: s.count).pays * tb
    return total, paid


def cycle(m: Machine, strips, weights):
    """Every stop combination with its weight."""
    ranges = [range(len(s)) for s in strips]
    for stops in itertools.product(*ranges):
        w = 1
        for r, stop in enumerate(stops):
            w *= weights[r][stop] if weights else 1
        yield stops, w


def bonus_moments(m: Machine, li: int) -> tuple[Fraction, Fraction]:
    if m.bonus is None:
        return Fraction(0), Fraction(0)
    tb = m.total_bet(m.bet_levels[li])
    total = sum(a.weight for a in m.bonus.awards)
    e1 = sum(Fraction(a.weight, total) * a.pays * tb for a in m.bonus.awards)
    e2 = sum(Fraction(a.weight, total) * (a.pays * tb) ** 2 for a in m.bonus.awards)
    return e1, e2


def brute_force(m: Machine, li: int) -> dict:
    """Exact rtp, hit frequency, variance and award probabilities by brute force."""
    tb = m.total_bet(m.bet_levels[li])
    eb, eb2 = bonus_moments(m, li)
    fs = m.free_spins
    feature = _feature_moments(m, li, eb, eb2) if fs else None
    total_w = 0
    s1 = s2 = hit = Fraction(0)
    awards = [0] * len(m.pays)
    for stops, w in cycle(m, m.strips, m.weights):
        win = window(m.strips, stops, m.rows)
        b, paid = spin_value(m, win, li)
        for e in paid:
            if e >= 0:
                awards[e] += w
        e1, e2 = Fraction(b), Fraction(b * b)
        triggered = False
        if m.bonus and count(win, m.bonus.trigger.symbol) >= m.bonus.trigger.count:
            e2 += 2 * e1 * eb + eb2
            e1 += eb
            triggered = True
        if fs and count(win, fs.trigger.symbol) >= fs.trigger.count:
            f1, f2 = feature(fs.spins_for(count(win, fs.trigger.symbol)))
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


def _feature_moments(m: Machine, li: int, eb, eb2):
    """A function n -> (E[F], E[F^2]) for a feature starting with n spins."""
    fs = m.free_spins
    strips = fs.strips or m.strips
    weights = fs.weights if fs.strips else m.weights
    outcomes: dict[int, list] = {}  # spins added -> [P, E[X;a], E[X^2;a]]
    total_w = sum(w for _, w in cycle(m, strips, weights))
    for stops, w in cycle(m, strips, weights):
        win = window(strips, stops, m.rows)
        x = Fraction(fs.multiplier * spin_value(m, win, li)[0])
        x2 = x * x
        if m.bonus and count(win, m.bonus.trigger.symbol) >= m.bonus.trigger.count:
            x2 += 2 * x * eb + eb2
            x += eb
        n = count(win, fs.trigger.symbol)
        added = fs.spins_for(n) if fs.retrigger and n >= fs.trigger.count else 0
        acc = outcomes.setdefault(added, [Fraction(0)] * 3)
        p = Fraction(w, total_w)
        acc[0] += p
        acc[1] += p * x
        acc[2] += p * x2
    cap = fs.max_spins

    @cache
    def moments(left: int, awarded: int) -> tuple:
        if left == 0:
            return Fraction(0), Fraction(0)
        r1 = r2 = Fraction(0)
        for added, (p, x1, x2) in outcomes.items():
            extra = added if cap is None else min(added, cap - awarded)
            n1, n2 = moments(left - 1 + extra, awarded + extra)
            r1 += x1 + p * n1
            r2 += x2 + 2 * x1 * n1 + p * n2
        return r1, r2

    def start(n: int):
        n = n if cap is None else min(n, cap)
        return moments(n, n)

    return start
