"""A slow, obviously-correct pure-Python twin of screen games: the test oracle.

It plays SPEC 3.1b straight off the ``Machine`` object, screen by screen,
with lists of symbols and no tables, automata or kernels:

* lines: each payline is read from reel 1; every pay entry is tried token by
  token; a line pays its highest entry (ties: the first entry), x the product
  of the multipliers of the wilds that stood in for another symbol; the
  cells that vanish are the first ``len(combo)`` cells of the line;
* clusters: for each symbol with cluster pays, the groups are the connected
  components (by edges) of the cells showing it or a wild that substitutes
  for it, grown from a cell showing the symbol itself; the largest met entry
  pays, x total bet; the whole group vanishes;
* full windows (``[[full_window_pays]]``, a cascade): when every cell of an
  entry's reels shows its symbol (a member of its group), a wild that substitutes
  for it standing for it (with ``ANY``: one symbol, or only wilds, every wild
  standing for any symbol) unless ``wilds_count = false``,
  the screen's line or ways credits are x the largest such entry's multiplier;
* scatters: the highest count met pays, x total bet (or x the line bet under
  ``scatter_unit``), in free spins its ``free_spins_pays`` where it has one; every
  cell counting for a count that pays vanishes (its wilds where it counts them);
* a screen that pays nothing (or the ``max_screens``-th) ends the sequence,
  whose length pays ``cascade.chain_pays`` x total bet (times the free-spin multiplier);
  the cells left fall; ``refill = "strip"``: the new cells of a reel are its
  strip's stops above the window, the stop directly above the old top cell
  lowest; ``"random"``: each new cell is the symbol at a stop drawn by weight;
* screen k (0-based) pays x ``multipliers[min(k, len - 1)]``; features start
  once, after the sequence, by its largest trigger counts.

Exact figures come from brute force over every stop combination in exact
rational arithmetic (free spins without retrigger: n independent spins); a
``"random"`` refill multiplies each combination by every sequence of refill
draws (:func:`refills`: a tree walked depth first, each leaf a whole sequence
with the product of its draws' probabilities, nothing merged).
"""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

from certify.model.schema import ANY, Machine
from twins.bonusgame import bonus_prize_moments


def matches(m: Machine, token: str, symbol: str) -> tuple[bool, int]:
    """Whether ``symbol`` matches ``token`` and the multiplier it brings (1 unless a wild)."""
    if token == ANY:
        return True, 1
    members = m.group(token) or (token,)
    if symbol in members:
        return True, 1
    sym = m.symbol(symbol)
    if sym.kind == "wild" and any(x in sym.substitutes for x in members):
        return True, sym.multiplier
    return False, 1


def line_screen(m: Machine, grid, li: int, fsm: int = 1):
    """(credits, cells to remove, paid entries) of the lines of one screen."""
    level = m.bet_levels[li]
    total, cells, paid = 0, set(), []
    for line in m.paylines:
        symbols = [grid[r][row] for r, row in enumerate(line)]
        best, best_entry = 0, None
        for entry in m.pays:
            mult = 1
            for pos, token in enumerate(entry.combo):
                ok, x = matches(m, token, symbols[pos])
                if not ok:
                    break
                mult *= x
            else:
                pay = entry.credits(li, level) * mult
                if best_entry is None or pay > best:
                    best, best_entry = pay, entry
        if best_entry is not None:
            total += best * (fsm if best_entry.free_spins_multiplier else 1)
            paid.append(best_entry.index)
            cells |= {(r, line[r]) for r in range(len(best_entry.combo))}
    return total, cells, paid


def _fills(m: Machine, entry, cells: list[str]) -> bool:
    """Whether ``cells`` (every cell of the entry's reels) are full of its symbol."""

    def stands(cell: str, names: tuple[str, ...]) -> bool:
        sym = m.symbol(cell)
        if cell in names:
            return True
        return entry.wilds_count and sym.kind == "wild" and any(x in sym.substitutes for x in names)

    if entry.symbol != ANY:
        names = m.group(entry.symbol) or (entry.symbol,)
        return all(stands(c, names) for c in cells)
    if all(m.symbol(c).kind == "wild" for c in cells) and (
        entry.wilds_count or len(set(cells)) == 1
    ):
        return True
    return any(  # ANY: one symbol, every wild counting as it (as on the pay glass)
        all(c == s.name or (entry.wilds_count and m.symbol(c).kind == "wild") for c in cells)
        for s in m.symbols
        if s.kind != "wild"
    )


def window_multiplier(m: Machine, grid) -> int:
    """The largest multiplier of the ``[[full_window_pays]]`` entries the screen fills, else 1."""
    best = None
    for entry in m.full_window_pays:
        reels = entry.reels or tuple(range(1, m.reels + 1))
        if _fills(m, entry, [x for r in reels for x in grid[r - 1]]):
            best = entry.multiplier if best is None else max(best, entry.multiplier)
    return 1 if best is None else best


def ways_screen(m: Machine, grid, li: int, fsm: int = 1):
    """(credits, cells to remove, paid entries) of a ways screen.

    An entry of length k pays its credits x the product over reels 1..k of
    its matching cells (a wild counting its multiplier); each symbol (first
    token) pays only its longest combination, of those the highest; the
    matching cells of the paid entry's reels vanish.
    """
    level = m.bet_levels[li]
    best: dict[str, tuple[int, int, object]] = {}
    for entry in m.pays:
        ways = 1
        for pos, token in enumerate(entry.combo):
            ways *= sum(x for ok, x in (matches(m, token, y) for y in grid[pos]) if ok)
        if ways == 0:
            continue
        pay = entry.credits(li, level) * ways
        old = best.get(entry.combo[0])
        if old is None or (len(entry.combo), pay) > (old[0], old[1]):
            best[entry.combo[0]] = (len(entry.combo), pay, entry)
    total, cells, paid = 0, set(), []
    for _, pay, entry in best.values():
        total += pay * (fsm if entry.free_spins_multiplier else 1)
        paid.append(entry.index)
        for pos, token in enumerate(entry.combo):
            cells |= {(pos, w) for w, y in enumerate(grid[pos]) if matches(m, token, y)[0]}
    return total, cells, paid


def cluster_screen(m: Machine, grid, li: int, fsm: int = 1):
    """(credits, cells to remove, paid cluster entries) of the clusters of one screen."""
    tb = m.total_bet(m.bet_levels[li])
    reels, rows = len(grid), len(grid[0])
    total, cells, paid = 0, set(), []
    for s in dict.fromkeys(cp.symbol for cp in m.cluster_pays):

        def joins(name: str, s: str = s) -> bool:
            sym = m.symbol(name)
            return name == s or (sym.kind == "wild" and s in sym.substitutes)

        seen: set[tuple[int, int]] = set()
        for r0 in range(reels):
            for w0 in range(rows):
                if grid[r0][w0] != s or (r0, w0) in seen:
                    continue
                group, todo = {(r0, w0)}, [(r0, w0)]
                while todo:
                    r, w = todo.pop()
                    for rr, ww in ((r - 1, w), (r + 1, w), (r, w - 1), (r, w + 1)):
                        if 0 <= rr < reels and 0 <= ww < rows and (rr, ww) not in group:
                            if joins(grid[rr][ww]):
                                group.add((rr, ww))
                                todo.append((rr, ww))
                seen |= group
                met = [
                    (cp.size, i, cp)
                    for i, cp in enumerate(m.cluster_pays)
                    if cp.symbol == s and cp.size <= len(group)
                ]
                if met:
                    _, i, cp = max(met, key=lambda x: x[0])
                    total += cp.pays * tb * fsm
                    paid.append(i)
                    cells |= group
    return total, cells, paid


def scatter_screen(m: Machine, grid, li: int, fsm: int = 1, free: bool = False):
    """(credits, cells to remove, counts by symbol) of the scatters of one screen.

    A symbol's count is :meth:`Machine.counts_on` summed over the reels (its
    ``reels``, wilds where it has ``wilds_count``, doubles by ``counts_as``);
    every cell that counts for a paying scatter vanishes, a wild included,
    and with ``cascade.trigger_vanishes`` those of the free-spin trigger.
    """
    bet = m.scatter_bet(m.bet_levels[li])
    counts = {
        s.name: sum(m.counts_on(s.name, r, tuple(col)) for r, col in enumerate(grid))
        for s in m.symbols
    }
    total, cells = 0, set()
    for s in dict.fromkeys(sp.symbol for sp in m.scatter_pays):
        met = [sp for sp in m.scatter_pays if sp.symbol == s and sp.count <= counts.get(s, 0)]
        pay = max(met, key=lambda sp: sp.count).credits(bet, free) if met else 0
        if pay > 0:
            total += pay * fsm
            cells |= {
                (r, w)
                for r, col in enumerate(grid)
                for w, x in enumerate(col)
                if m.counts_on(s, r, (x,))
            }
    fs = m.free_spins
    if m.cascade is not None and m.cascade.trigger_vanishes and fs is not None:
        t = fs.trigger  # its cells vanish as a win's do, wherever the screen shows the count
        if counts.get(t.symbol, 0) >= t.count:
            cells |= {
                (r, w)
                for r, col in enumerate(grid)
                for w, x in enumerate(col)
                if m.counts_on(t.symbol, r, (x,))
            }
    return total, cells, counts


def play(
    m: Machine,
    strips,
    weights,
    stops,
    li: int,
    rng: random.Random | None = None,
    fsm: int = 1,
    free: bool = False,
):
    """One spin's sequence: (credits, largest counts by symbol, screens, paid entries).

    ``fsm``: the free-spin multiplier (1 in the base game); an entry with
    ``free_spins_multiplier = false`` is paid without it. ``free``: a free spin
    (scatter entries pay their ``free_spins_pays``).
    """
    rows = m.rows
    cascade = m.cascade
    mults = cascade.multipliers if cascade else (1,)
    max_screens = cascade.max_screens if cascade else 1
    grid = [[s[(stop + w) % len(s)] for w in range(rows)] for s, stop in zip(strips, stops)]
    above = [(stop - 1) % len(s) for s, stop in zip(strips, stops)]
    total, screens, paid, top = 0, 0, [], {}
    while True:
        if m.evaluation == "cluster":
            win, cells, entries = cluster_screen(m, grid, li, fsm)
        elif m.evaluation == "ways":
            win, cells, entries = ways_screen(m, grid, li, fsm)
        else:
            win, cells, entries = line_screen(m, grid, li, fsm)
        if win:
            win *= window_multiplier(m, grid)
        sc, sc_cells, counts = scatter_screen(m, grid, li, fsm, free)
        for name, n in counts.items():
            top[name] = max(top.get(name, 0), n)
        total += (win + sc) * mults[min(screens, len(mults) - 1)]
        paid += entries
        screens += 1
        gone = cells | sc_cells
        if not (entries or sc_cells) or screens >= max_screens:
            break
        for r, strip in enumerate(strips):
            kept = [x for w, x in enumerate(grid[r]) if (r, w) not in gone]
            new: list[str] = []
            for _ in range(rows - len(kept)):  # the lowest new cell first
                if cascade.refill == "strip":
                    new.insert(0, strip[above[r]])
                    above[r] = (above[r] - 1) % len(strip)
                else:
                    assert rng is not None
                    wts = weights[r] if weights else [1] * len(strip)
                    new.insert(0, rng.choices(strip, wts)[0])
            grid[r] = new + kept
    if cascade is not None:  # the sequence's length pays (its last screen counted)
        total += cascade.chain_pay(screens) * m.total_bet(m.bet_levels[li]) * fsm
    return total, top, screens, paid


class Scripted:
    """An ``rng`` for :func:`play` drawing the stops it is told, then stop 0, noting each draw.

    ``choices(strip, weights)`` returns ``[strip[i]]`` for the next scripted
    ``i`` (0 past the script) and records (i, stops, probability of i).
    """

    def __init__(self, script: list[int]) -> None:
        self.script = script
        self.drawn: list[tuple[int, int, Fraction]] = []

    def choices(self, strip, weights):
        i = self.script[len(self.drawn)] if len(self.drawn) < len(self.script) else 0
        self.drawn.append((i, len(strip), Fraction(weights[i], sum(weights))))
        return [strip[i]]


def refills(run):
    """Every sequence of refill draws of ``run(rng)``: (probability, its result) per leaf.

    Depth first: a run past its script draws stop 0 at each new draw, and
    every other stop of each such draw is a script of its own still to run.
    """
    todo: list[list[int]] = [[]]
    while todo:
        script = todo.pop()
        rng = Scripted(script)
        result = run(rng)
        prob = Fraction(1)
        for _, _, q in rng.drawn:
            prob *= q
        yield prob, result
        chosen = [i for i, _, _ in rng.drawn]
        for at in range(len(script), len(rng.drawn)):
            todo += [chosen[:at] + [i] for i in range(1, rng.drawn[at][1])]


def outcomes(m: Machine, strips, weights, stops, li: int, fsm: int = 1, free: bool = False):
    """(probability, :func:`play`'s result) of each way the sequence at ``stops`` plays."""
    if m.cascade is None or m.cascade.refill == "strip":
        yield Fraction(1), play(m, strips, weights, stops, li, None, fsm, free)
        return
    yield from refills(lambda rng: play(m, strips, weights, stops, li, rng, fsm, free))


def cycle(strips, weights):
    """Every stop combination with its weight."""
    for stops in itertools.product(*(range(len(s)) for s in strips)):
        w = 1
        for r, stop in enumerate(stops):
            w *= weights[r][stop] if weights else 1
        yield stops, w


def _bonus(m: Machine, li: int) -> tuple[Fraction, Fraction]:
    if m.bonus is None:
        return Fraction(0), Fraction(0)
    bet = m.bonus_bet(m.bet_levels[li])
    e1, e2 = bonus_prize_moments(m.bonus)
    return e1 * bet, e2 * bet * bet


def _bonus_hit(m: Machine, top) -> bool:
    t = m.bonus.trigger if m.bonus is not None else None
    return t is not None and top.get(t.symbol, 0) >= t.count


def _free_spin(m: Machine, li: int, eb, eb2):
    """(E[X], E[X^2]) of one free spin (its sequence x the multiplier, plus its bonus)."""
    fs = m.free_spins
    strips = fs.strips or m.strips
    weights = fs.weights if fs.strips else m.weights
    s1 = s2 = Fraction(0)
    total = 0
    for stops, w0 in cycle(strips, weights):
        for q, (win, top, _, _) in outcomes(m, strips, weights, stops, li, fs.multiplier, True):
            w = w0 * q
            x = Fraction(win)
            x2 = x * x
            if _bonus_hit(m, top):
                x2 += 2 * x * eb + eb2
                x += eb
            s1 += w * x
            s2 += w * x2
        total += w0
    return s1 / total, s2 / total


def brute_force(m: Machine, li: int) -> dict:
    """Exact rtp, hit frequency, variance, award frequencies and longest sequence."""
    assert m.free_spins is None or not m.free_spins.retrigger
    tb = m.total_bet(m.bet_levels[li])
    eb, eb2 = _bonus(m, li)
    fs = m.free_spins
    x1, x2 = _free_spin(m, li, eb, eb2) if fs else (Fraction(0), Fraction(0))
    n_aw = len(m.cluster_pays) if m.evaluation == "cluster" else len(m.pays)
    awards = [0] * n_aw
    s1 = s2 = hit = Fraction(0)
    total_w = longest = 0
    for stops, w0 in cycle(m.strips, m.weights):
        total_w += w0
        for q, (win, top, screens, paid) in outcomes(m, m.strips, m.weights, stops, li):
            w = w0 * q
            if m.rules.win_cap is not None:  # games without features: the sequence's total
                win = min(win, m.rules.win_cap * tb)
            longest = max(longest, screens)
            for e in paid:
                awards[e] += w
            e1, e2 = Fraction(win), Fraction(win * win)
            triggered = False
            if _bonus_hit(m, top):
                e2 += 2 * e1 * eb + eb2
                e1 += eb
                triggered = True
            if fs and top.get(fs.trigger.symbol, 0) >= fs.trigger.count:
                n = fs.spins_for(top[fs.trigger.symbol])
                f1, f2 = n * x1, n * (x2 - x1 * x1) + (n * x1) ** 2
                e2 += 2 * e1 * f1 + f2
                e1 += f1
                triggered = True
            s1 += w * e1
            s2 += w * e2
            hit += w if (win > 0 or triggered) else 0
    mean = s1 / total_w
    return {
        "rtp": mean / tb,
        "hit_frequency": hit / total_w,
        "variance": (s2 / total_w - mean * mean) / tb**2,
        "awards": [Fraction(a, total_w) for a in awards],
        "longest": longest,
    }


def monte_carlo(m: Machine, li: int, spins: int, seed: int) -> tuple[float, float]:
    """(mean return, standard error) of base-game sequences drawn with Python's RNG."""
    rng = random.Random(seed)
    tb = m.total_bet(m.bet_levels[li])
    s1 = s2 = 0.0
    for _ in range(spins):
        stops = [
            rng.choices(range(len(s)), m.weights[r] if m.weights else None)[0]
            for r, s in enumerate(m.strips)
        ]
        win = play(m, m.strips, m.weights, stops, li, rng)[0] / tb
        s1 += win
        s2 += win * win
    mean = s1 / spins
    var = (s2 - spins * mean * mean) / (spins - 1)
    return mean, (var / spins) ** 0.5
