"""Every bound the kernels rely on, computed once from a parsed machine: nothing wraps.

The numba kernels add, multiply and index with fixed-width integers and never
check them per spin. :func:`machine_limits` derives, from the
:class:`~certify.model.schema.Machine` alone (before any array is built),
whether each of those fixed-width quantities stays in range:

* every integer of the model fits an int64;
* the total weight of each reel (base and feature strips) and of the bonus
  table fits the int64 cumulative weights (the draw itself takes any such
  total: 32-bit Lemire below 2^32, a 64-bit draw above, :mod:`._rng`);
* the largest possible win of one spin (lines x largest pay x level x wild
  multipliers, scatters, bonus, then the free spins: spins x multiplier x the
  cap, or x the award without retrigger, or x a margin over the expected
  length when uncapped) times the spins of a chunk (2^20, the per-chunk int64
  sums) fits an int64; so does the histogram's top edge (total bet x 2^20);
* one feature lasts at most 2^32 spins (:data:`MAX_FEATURE_SPINS`);
* the window's cells and the counted symbols fit the packed counts (8 bits each, narrower
  fields where the game counts more than 8 symbols, :func:`~certify.engine.prefix.count_width`);
* uncapped retriggers end: the expected spins a free spin adds, from the exact
  distribution of the trigger symbol's count on the feature strips (the
  convolution of the per-reel count distributions, in integers), is below 1.

Those are :attr:`Limits.problems`: the engine cannot run the model, and
:func:`check_machine` raises them as a :class:`~certify.errors.ModelError`
(exit 2) from ``compile_machine`` and from ``slotcert validate``.

The exact calculator has bounds of its own, :attr:`Limits.exact`: the total
weight of a reel set times the largest win of one screen must fit its int64
accumulators, and the capped free-spin recursion must stay within
:data:`CAPPED_WORK_MAX` steps. A model that passes the engine's bounds but not
these is refused by the exact calculator only (``compute_exact`` returns None
with the located reason) and certified by simulation.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from math import ceil, prod
from typing import Any

from certify.bounds import LINE_BONUS_TAG, MAX_RESPINS, MAX_SCREENS, law_field
from certify.codes import Code
from certify.engine.prefix import count_width
from certify.engine.rng import CHUNK_SPINS
from certify.errors import ModelError, Problem
from certify.model.schema import Machine, PayEntry, ScatterPay, Symbol
from certify.model.screens import is_screen_game

INT64_MAX = (1 << 63) - 1
MAX_WINDOW = 127  # cells of the window: a count must stay below 128 (SWAR alarm)
HIST_SHIFT = 20  # the histogram's top edge is total bet x 2^20 (simulate.hist_edges)
UNCAPPED_MARGIN = 64  # an uncapped feature's length bound: 64 x its expected length
MAX_FEATURE_SPINS = 1 << 32  # spins of one feature (cap, award, or the uncapped margin)
CAPPED_WORK_MAX = 2_000_000_000  # steps of the capped free-spin recursion (a few seconds)
CASCADE_PROBE_MAX = 200_000_000  # screens the check plays per cycle beyond max_screens + 1 each
HOLD_WORK_MAX = 5 * 10**8  # bit operations of the exact hold-and-spin chain (about a second)


@dataclass(frozen=True)
class Limits:
    """What :func:`machine_limits` found.

    Attributes
    ----------
    problems : located errors: the engine cannot run the model
    exact : located reasons the exact calculator cannot (simulation can)
    max_spin_win : per bet level, the bound on one spin's credits (features included)
    retrigger_ratio : expected spins one free spin adds (None without retrigger)
    capped_work : steps of the capped recursion per feature start (0 when not capped)
    screen_max : the largest win of one screen the exact kernels sum (before the
        reels' factors multiply it)

    """

    problems: tuple[Problem, ...]
    exact: tuple[Problem, ...]
    max_spin_win: tuple[int, ...]
    retrigger_ratio: Fraction | None
    capped_work: int
    screen_max: int = 1


def check_machine(
    machine: Machine, warnings: list[Problem] | None = None, chunk_spins: int = CHUNK_SPINS
) -> Limits:
    """:func:`machine_limits`, raising its problems (with ``warnings``) as a ModelError."""
    limits = machine_limits(machine, chunk_spins)
    problems = list(limits.problems)
    fs = machine.free_spins
    if fs is not None and fs.options_drawn:  # the kernels play each option's spins and multiplier
        for variant in machine.option_machines():
            problems += [
                p for p in machine_limits(variant, chunk_spins).problems if p not in problems
            ]
    if problems:
        raise ModelError(list(warnings or []) + problems)
    return limits


def machine_limits(machine: Machine, chunk_spins: int = CHUNK_SPINS) -> Limits:
    """Every bound the engine and the exact calculator rely on, for ``machine``."""
    b = _Bounds(machine, chunk_spins)
    b.integers()
    b.shapes()
    if not b.problems:  # the derived bounds assume sane integers and shapes
        b.weights()
        b.features()
        b.feature_length()
        b.wins()
        b.line_bonus()
        b.recursion()
        b.hold_work()
        b.capped_features()
    return Limits(
        tuple(b.problems), tuple(b.exact), tuple(b.spin_wins), b.rho, b.capped_work, b.screen_max
    )


def _fmt(n: int | Fraction | float) -> str:
    """A large number as digits with separators, or in powers of two beyond 1e15."""
    if isinstance(n, int) and abs(n) >= 10**15:
        return f"{n:.3e} (2^{n.bit_length() - 1}..2^{n.bit_length()})"
    if isinstance(n, int):
        return f"{n:,}"
    return f"{float(n):.6g}"


class _Bounds:
    """The checks of :func:`machine_limits`, collecting located problems."""

    def __init__(self, machine: Machine, chunk_spins: int):
        self.m = machine
        self.where = machine.source or machine.id
        self.chunk = chunk_spins
        self.problems: list[Problem] = []
        self.exact: list[Problem] = []
        self.spin_wins: list[int] = []
        self.screen_max = 1  # the largest win of one screen the exact kernels sum
        self.factor_bound = window_factor_bound(machine)  # what the reels can multiply by
        self.rho: Fraction | None = None
        self.capped_work = 0
        self.feature_len = 0  # longest feature in spins (bound), 0 without free spins

    def error(self, path: str, message: str, code: Code = Code.ENGINE_LIMIT) -> None:
        self.problems.append(Problem(self.where, path, message, code))

    def refuse_exact(self, path: str, message: str) -> None:
        self.exact.append(Problem(self.where, path, message, Code.EXACT_INFEASIBLE, "warning"))

    # -- every integer of the model fits an int64 -------------------------------------------

    def _int(self, value: int, path: str) -> None:
        if not -INT64_MAX - 1 <= value <= INT64_MAX:
            self.error(
                path, f"{_fmt(value)} does not fit a 64-bit integer (at most 2^63 - 1)", Code.INT64
            )

    def integers(self) -> None:
        for value, path in _model_integers(self.m):
            self._int(value, path)
        for value, path, most, why in _bounded_counts(self.m):
            if value > most:
                self.error(path, f"{_fmt(value)} is above {_fmt(most)}: {why}; lower {path}")

    # -- the packed counts: window cells and counted symbols --------------------------------

    def counted(self) -> list[str]:
        m = self.m
        names = list(m.rules.exclusive_scatters)
        if m.hold_and_spin is not None:
            names.append(m.hold_and_spin.trigger.symbol)
        names += [sp.symbol for sp in m.scatter_pays]
        if m.free_spins is not None:
            names.append(m.free_spins.trigger.symbol)
        if m.bonus is not None and m.bonus.trigger is not None:
            names.append(m.bonus.trigger.symbol)
        return list(dict.fromkeys(names))

    def shapes(self) -> None:
        m = self.m
        counted = self.counted()
        # the screen kernels count into arrays; the cycle path packs the counts in one word
        width = count_width(len(counted))
        if width < 8 and not is_screen_game(m) and m.max_count >= 1 << width:
            self.error(
                "scatter_pays",
                f"{len(counted)} counted symbols (scatters, count pays, feature triggers) "
                f"{counted}: the engine packs each count in {width} bits of one 64-bit word, "
                f"counts up to {(1 << width) - 1}, but the window counts up to {m.max_count}",
            )
        if m.rows * m.reels > MAX_WINDOW:
            self.error(
                "reels.rows",
                f"a window of {m.rows} x {m.reels} cells: the engine counts at most {MAX_WINDOW}",
            )
        elif m.max_count > MAX_WINDOW:
            double = next(s for s in m.symbols if s.counts_as and s.counts_as[1] > 1)
            self.error(
                f"symbols.{double.name}.counts_as.times",
                f"{m.rows * m.reels} cells counting up to {m.max_count}: the engine counts at"
                f" most {MAX_WINDOW}",
            )

    # -- weights: the draw's range, the exact accumulators ----------------------------------

    def reel_sets(self) -> list[tuple[str, tuple, tuple | None]]:
        """(key path, strips, weights) of the base strips and the feature's own strips."""
        sets = [("reels", self.m.strips, self.m.weights)]
        fs = self.m.free_spins
        if fs is not None and fs.own_reels:
            sets.append(("free_spins", *fs.played_strips(self.m.strips, self.m.weights)))
        return sets

    def weights(self) -> None:
        for key, strips, weights in self.reel_sets():
            for r in range(len(strips)):
                total = self.reel_total(strips, weights, r)
                if total > INT64_MAX:
                    where, how = self.weight_source(key, weights, strips[r], r)
                    self.error(
                        where,
                        f"the weights of reel {r + 1} total {_fmt(total)}{how}: "
                        "the engine's cumulative weights hold at most 2^63 - 1",
                    )
        tables: list[tuple[str, str, list[int]]] = []
        for name, game in self.m.bonus_laws:
            at = f"bonus_games.{name}" if name else "bonus"
            where = f"{at}.stages" if game.stages else f"{at}.awards"
            tables.append((where, "award", [a.weight for a in game.awards]))
        fs = self.m.free_spins
        if fs is not None and fs.expanding_symbol:
            draws = [w for _, w in fs.expanding_symbol]
            tables.append(("free_spins.expanding_symbol", "draw", draws))
        if fs is not None and fs.options_drawn:
            tables.append(("free_spins.options", "option", [o.weight or 0 for o in fs.options]))
        if fs is not None and fs.multipliers:
            draw = [w for _, w in fs.multipliers]
            tables.append(("free_spins.multiplier", "multiplier", draw))
        if self.m.rules.spin_multipliers:
            draw = [w for _, w in self.m.rules.spin_multipliers]
            tables.append(("rules.spin_multiplier", "multiplier", draw))
        for s in self.m.symbols:
            if s.multipliers:
                draw = [w for _, w in s.multipliers]
                tables.append((f"symbols.{s.name}.multiplier", "multiplier", draw))
        for key, what, table in tables:
            total = sum(table)
            if total > INT64_MAX:
                self.error(
                    key,
                    f"the {what} weights total {_fmt(total)}: the engine's cumulative "
                    "weights hold at most 2^63 - 1",
                )

    def reel_total(self, strips: tuple, weights: tuple | None, r: int) -> int:
        """Total weight of reel ``r``'s stops: (height, stop) pairs with variable heights."""
        total = sum(weights[r]) if weights else len(strips[r])
        if self.m.heights:
            total *= sum(w for _, w in self.m.heights[r])
        for wild in self.drawn_on(strips[r]):  # its stops split by the wild's draw
            total *= sum(w for _, w in wild.multipliers)
        chance = next((s.expands_chance for s in self.m.symbols if s.expands_chance), None)
        if chance is not None and r == 0:  # a drawn mode's parts scale reel 1 by up to n
            total *= chance[1]
        return total

    def weight_source(self, key: str, weights: Any, strip: tuple, r: int) -> tuple[str, str]:
        """(key path, what multiplies) of a reel whose weights total too much."""
        drawn = [s.name for s in self.drawn_on(strip)]
        how = " (height weights x stop weights)" if self.m.heights else ""
        how += " (x the drawn multipliers' weights)" if drawn else ""
        if weights:
            return f"{key}.weights[{r}]", how
        if self.m.heights:
            return f"reels.heights[{r}]", how
        return f"symbols.{drawn[0]}.multiplier", how

    def drawn_on(self, strip: tuple) -> list[Symbol]:
        """The drawn-multiplier wilds that ``strip`` shows."""
        return [s for s in self.m.symbols if s.multipliers and s.name in strip]

    # -- free spins: retrigger ratio and the longest feature --------------------------------

    def count_weights(self, strips: tuple, weights: tuple | None, symbol: str) -> dict[int, int]:
        """Weight of each count of ``symbol`` in the window: per-reel counts convolved."""
        rows = self.m.rows
        dist = {0: 1}
        for r, strip in enumerate(strips):
            n = len(strip)
            per: dict[int, int] = {}
            for stop in range(n):
                column = tuple(strip[(stop + row) % n] for row in range(rows))
                c = self.m.counts_on(symbol, r, column)
                per[c] = per.get(c, 0) + (weights[r][stop] if weights else 1)
            nxt: dict[int, int] = {}
            for a, wa in dist.items():
                for c, wc in per.items():
                    nxt[a + c] = nxt.get(a + c, 0) + wa * wc
            dist = nxt
        return dist

    def features(self) -> None:
        fs = self.m.free_spins
        if fs is None:
            return
        largest = max((s for _, s in fs.spins), default=0)
        if not fs.retrigger:
            self.feature_len = min(largest, fs.max_spins or largest)
            return
        if fs.retrigger_once and fs.max_spins is None:  # at most two awards: it always ends
            self.feature_len = largest + max(s for _, s in fs.retrigger_spins or fs.spins)
            return
        _, strips, weights = self.reel_sets()[-1]
        dist = self.count_weights(strips, weights, fs.trigger.symbol)
        total = sum(dist.values())
        added = sum(w * fs.retrigger_for(c) for c, w in dist.items())
        self.rho = Fraction(added, total)
        if fs.max_spins is not None:
            self.feature_len = fs.max_spins
            return
        if self.rho >= 1:
            self.error(
                "free_spins.retrigger",
                f"a free spin retriggers on average {float(self.rho):.6g} new spins (>= 1): "
                "the feature never ends on average; set free_spins.max_spins",
                Code.ENDLESS_FEATURE,
            )
            return
        self.feature_len = ceil(largest * UNCAPPED_MARGIN / (1 - self.rho))

    def feature_length(self) -> None:
        """One feature plays at most :data:`MAX_FEATURE_SPINS` spins (else: a practical hang)."""
        fs = self.m.free_spins
        if fs is None or self.feature_len <= MAX_FEATURE_SPINS:
            return
        self.error(
            "free_spins.max_spins" if fs.max_spins else "free_spins.spins",
            f"one feature may last {_fmt(self.feature_len)} spins ({self.feature_how()}): "
            f"the engine plays at most {_fmt(MAX_FEATURE_SPINS)} per feature; "
            "set (or lower) free_spins.max_spins",
            Code.FEATURE_TOO_LONG,
        )

    # -- the largest win of one spin --------------------------------------------------------

    def line_bound(self, li: int, level: int) -> tuple[int, str]:
        """Largest line (or ways) credits of one screen, and the key that sets it."""
        m = self.m
        mult = max((s.multiplier for s in m.symbols if s.kind == "wild"), default=1)
        jackpots = jackpot_entries(self.m, level, kept=False)  # a kept pay bounds the win too
        best, key = 0, "pays"
        if m.evaluation == "ways":
            families: dict[str, int] = {}
            for e in m.pays:
                if e.index in jackpots:
                    continue
                win = _most_credits(e, li, level) * (m.rows * mult) ** len(e.combo)
                families[e.combo[0]] = max(families.get(e.combo[0], 0), win)
                if win > best:
                    best, key = win, f"pays[{e.index}]"
            return sum(families.values()), key
        for e in m.pays:
            if e.index in jackpots:
                continue
            win = _most_credits(e, li, level) * mult ** len(e.combo)
            if win > best:
                best, key = win, f"pays[{e.index}]"
        both = 2 if m.rules.direction == "both" else 1  # a left and a right run per line
        return both * (m.lines or 1) * best, key

    def feature_how(self) -> str:
        fs = self.m.free_spins
        assert fs is not None
        if not fs.retrigger:
            return "the award"
        if fs.retrigger_once and not fs.max_spins:
            return "two awards: one retrigger"
        return "the cap" if fs.max_spins else f"{UNCAPPED_MARGIN} x the expected length"

    def spin_terms(self, li: int, level: int) -> list[tuple[int, str, str]]:
        """The parts of one spin's largest win at a level: (credits, key path, label)."""
        m = self.m
        total_bet = m.total_bet(level)
        lines, key = self.line_bound(li, level)
        drawn = max((v for v, _ in m.rules.spin_multipliers), default=1)  # the paid spin's
        drawn *= self.factor_bound  # and what the reels show
        terms = [(lines * drawn, key, "lines")]
        for name in dict.fromkeys(sp.symbol for sp in m.scatter_pays):
            i, sp = max(
                ((i, sp) for i, sp in enumerate(m.scatter_pays) if sp.symbol == name),
                key=lambda t: max(t[1].pays, t[1].free_pays),
            )
            most = max(sp.pays * drawn, sp.free_pays)
            credits = ceil(most * total_bet)  # whole credits (the reader checks it)
            terms.append((credits, f"scatter_pays[{i}].pays", f"scatter {name}"))
        if m.bonus is not None:
            i, a = max(enumerate(m.bonus.awards), key=lambda t: t[1].pays)
            key = "bonus.stages" if m.bonus.stages else f"bonus.awards[{i}].pays"
            terms.append((a.pays * m.bonus_bet(level), key, "bonus"))
        if m.line_bonus_entries:  # every line may play the entry whose plays pay most
            most = max(self.bonus_top(m.pays[i], level) for i in m.line_bonus_entries)
            at = f"pays[{m.line_bonus_entries[0]}].bonus"
            terms.append(((m.lines or 1) * most, at, "line bonus"))
        if m.scatter_bonus_entries:  # every scatter entry that plays one, at once
            at = f"scatter_pays[{m.scatter_bonus_entries[0]}].bonus"
            most = sum(self.bonus_top(m.scatter_pays[i], level) for i in m.scatter_bonus_entries)
            terms.append((most, at, "scatter bonus"))
        terms += self.screen_feature_terms(li, level, terms)
        fs = m.free_spins
        if fs is not None and self.feature_len:
            screen = sum(t[0] for t in terms if t[2] != "bonus")
            bonus = sum(t[0] for t in terms if t[2] == "bonus")
            feature = self.feature_len * (screen * fs.largest_multiplier + bonus)
            where = "free_spins.max_spins" if fs.max_spins else "free_spins.spins"
            label = f"free spins ({_fmt(self.feature_len)} spins: {self.feature_how()})"
            terms.append((feature, where, label))
        return terms

    def bonus_top(self, entry: PayEntry | ScatterPay, level: int) -> int:
        """The most credits one pay entry's bonus plays win at a bet level."""
        law = self.m.bonus_law(entry.bonus_game)
        game = self.m.bonus_laws[law][1]
        top = max((a.pays for a in game.awards), default=0)
        return entry.bonus_plays * top * self.m.law_bet(law, level)

    def line_bonus(self) -> None:
        """Bounds of the bonus plays' marks in the kernels' line wins.

        The kernels add LINE_BONUS_TAG credits, shifted to the game's field, per
        play of a bonus game by a pay: the other wins of a spin stay below 2^40,
        and the most plays of each game in one spin fit its field.
        """
        m = self.m
        if not m.pays_play_bonus:
            return
        at = (
            f"pays[{m.line_bonus_entries[0]}].bonus"
            if m.line_bonus_entries
            else f"scatter_pays[{m.scatter_bonus_entries[0]}].bonus"
        )
        field = law_field(len(m.bonus_laws))
        for name, _ in m.bonus_laws:
            by_line = [e.bonus_plays for e in m.pays if e.bonus and e.bonus_game == name]
            by_scatter = [s.bonus_plays for s in m.scatter_pays if s.bonus and s.bonus_game == name]
            plays = (m.lines or 1) * max(by_line, default=0) + sum(by_scatter)
            if plays >= 1 << field:
                game = f"[bonus_games.{name}]" if name else "[bonus]"
                first = [f"pays[{e.index}]" for e in m.pays if e.bonus and e.bonus_game == name]
                first += [
                    f"scatter_pays[{i}]"
                    for i, s in enumerate(m.scatter_pays)
                    if s.bonus and s.bonus_game == name
                ]
                self.error(
                    f"{first[0]}.bonus",
                    f"a spin may play {game} {_fmt(plays)} times, above the "
                    f"{_fmt((1 << field) - 1)} the kernels count with "
                    f"{len(m.bonus_laws)} bonus games",
                )
                return
        for li, level in enumerate(m.bet_levels):
            lines, _ = self.line_bound(li, level)
            scatter = sum(
                ceil(max(sp.pays, sp.free_pays) * m.scatter_bet(level)) for sp in m.scatter_pays
            )
            other = lines + scatter
            if other >= LINE_BONUS_TAG:
                self.error(
                    at,
                    f"a bonus played by a pay needs the line and scatter wins of a spin below "
                    f"2^40 credits (up to {_fmt(other)} at bet level {level})",
                )
                return

    def screen_feature_terms(
        self, li: int, level: int, terms: list[tuple[int, str, str]]
    ) -> list[tuple[int, str, str]]:
        """Bounds of the SPEC 3.1a/3.1b features: clusters, cascades, hold and spin, Book of Ra."""
        m = self.m
        total_bet, cells = m.total_bet(level), m.rows * m.reels
        wild = max((s.multiplier for s in m.symbols if s.kind == "wild"), default=1)
        full = max((f.multiplier for f in m.full_window_pays), default=1)
        out: list[tuple[int, str, str]] = []
        if full > 1:
            out.append((terms[0][0] * (full - 1), "full_window_pays", "full window"))
        if m.cluster_pays:  # at most cells / size groups, each paying its largest entry
            most = max(c.pays * (cells // c.size) for c in m.cluster_pays)
            out.append((most * total_bet * len(m.cluster_pays), "cluster_pays", "clusters"))
        if m.cascade is not None:  # every screen at most the first's bound x its multiplier
            screen = sum(t[0] for t in terms + out if t[2] != "bonus")
            top = max(m.cascade.multipliers)
            key = "cascade.multipliers" if top >= m.cascade.max_screens else "cascade.max_screens"
            out.append((screen * top * m.cascade.max_screens, key, "cascade"))
            chain = max((pays for _, pays in m.cascade.chain_pays), default=0)
            if chain:  # one prize per sequence, by its length
                out.append((chain * total_bet, "cascade.chain_pays", "cascade length prize"))
        hs = m.hold_and_spin
        if hs is not None:
            prizes = dict(hs.jackpots)
            value = max(v.pays or prizes.get(v.jackpot or "", 0) for v in hs.values)
            bonus = cells * value + prizes.get(hs.full_window or "", 0)
            out.append((bonus * total_bet, "hold_and_spin.values", "bonus (hold and spin)"))
        fs = m.free_spins
        if fs is not None and fs.expanding_symbol:
            pays = max((e.credits(li, level) for e in m.pays), default=0)
            out.append(((m.lines or 1) * pays * wild, "free_spins.expanding_symbol", "expansion"))
        return out

    def wins(self) -> None:
        m = self.m
        per_chunk = INT64_MAX // max(self.chunk, 1)
        screen_max = 0
        for li, level in enumerate(m.bet_levels):
            total_bet = m.total_bet(level)
            if total_bet << HIST_SHIFT > INT64_MAX:
                self.error(
                    f"bet.bet_levels[{li}]",
                    f"a total bet of {_fmt(total_bet)} credits: the win histogram's edges "
                    f"(total bet x 2^{HIST_SHIFT}) need it below 2^{63 - HIST_SHIFT}",
                )
                self.spin_wins.append(0)
                continue
            cap = m.rules.win_cap
            if cap is not None and cap * total_bet > INT64_MAX:
                self.error(
                    "rules.win_cap",
                    f"a cap of {_fmt(cap)} x the total bet {_fmt(total_bet)} at bet level "
                    f"{_fmt(level)} is {_fmt(cap * total_bet)} credits: the engine holds it "
                    "in 64 bits (at most 2^63 - 1); lower rules.win_cap",
                    Code.WIN_OVERFLOW,
                )
            terms = self.spin_terms(li, level)
            screen = sum(t[0] for t in terms if not t[2].startswith(("bonus", "free")))
            # the exact kernels sum a screen's wins before the reels' factors multiply them
            screen_max = max(screen_max, screen // self.factor_bound)
            spin = sum(t[0] for t in terms)
            self.spin_wins.append(spin)
            if spin > per_chunk:
                parts = ", ".join(f"{label} {_fmt(v)}" for v, _, label in terms if v)
                parts += self.multiplied_by()
                self.error(
                    max(terms)[1],
                    f"at bet level {_fmt(level)} one spin can win {_fmt(spin)} credits "
                    f"({parts}): the engine sums a chunk of {_fmt(self.chunk)} spins "
                    f"in 64 bits, so one spin may win at most {_fmt(per_chunk)} credits",
                    Code.WIN_OVERFLOW,
                )
        if not self.problems:
            self.exact_weights(screen_max)

    def multiplied_by(self) -> str:
        """What multiplies the lines and scatters of those terms, where something does."""
        m = self.m
        said = []
        factor = self.factor_bound
        if factor > 1:
            said.append(
                f"x{_fmt(factor)} from what the reels show (symbols' window_multiplier"
                " or full_reel_multiplier)"
            )
        drawn = max((v for v, _ in m.rules.spin_multipliers), default=1)
        if drawn > 1:
            said.append(f"x{_fmt(drawn)} from rules.spin_multiplier")
        return "; the lines and scatters include " + " and ".join(said) if said else ""

    def exact_weights(self, screen_max: int) -> None:
        """The exact kernels sum weight x win of one screen per reel set in int64."""
        m = self.m
        factor = max(screen_max, m.lines or 1, len(m.pays), 1)
        self.screen_max = factor
        for key, strips, weights in self.reel_sets():
            cycle = prod(self.reel_total(strips, weights, r) for r in range(len(strips)))
            if cycle * factor > INT64_MAX:
                where = f"{key}.weights" if weights else f"{key}.strips"
                self.refuse_exact(
                    "reels.heights" if self.m.heights else where,
                    f"the weighted cycle ({_fmt(cycle)}) times the largest win of one screen "
                    f"({_fmt(factor)} credits) exceeds the exact calculator's 64-bit sums",
                )

    # -- hold and spin: the exact chain's work ----------------------------------------------

    def hold_work(self) -> None:
        hs, cells = self.m.hold_and_spin, self.m.rows * self.m.reels
        if hs is None or hold_feasible(hs, cells):
            return
        work = hold_work(cells, hs.trigger.count, hs.respins, hs.cell_probability.denominator)
        self.refuse_exact(
            "hold_and_spin.respins",
            f"{hs.respins} respins over {cells} cells with a cell probability of denominator "
            f"{_fmt(hs.cell_probability.denominator)}: the exact chain would take about "
            f"{_fmt(work)} bit operations (at most {_fmt(HOLD_WORK_MAX)})",
        )

    # -- the capped free-spin recursion -----------------------------------------------------

    def capped_features(self) -> None:
        """A win cap over a spin with its features: the exact calculator does not cap those."""
        m = self.m
        features = [
            key for key in ("free_spins", "bonus", "hold_and_spin") if getattr(m, key) is not None
        ]
        if m.rules.win_cap is None or not features:
            return
        self.refuse_exact(
            "rules.win_cap",
            f"rules.win_cap = {m.rules.win_cap} caps a spin's whole win with its "
            f"{' and '.join(f'[{key}]' for key in features)}, whose total distribution "
            "the exact calculator does not build",
        )

    def recursion(self) -> None:
        fs = self.m.free_spins
        if fs is None or fs.max_spins is None:
            return
        cap = fs.max_spins
        classes = len({fs.retrigger_for(c) for c in range(self.m.max_count + 1)})
        classes = classes + 1 if fs.retrigger else 1
        self.capped_work = cap * (cap + 1) // 2 * classes
        starts = len({min(s, cap) for _, s in fs.spins})
        if self.capped_work * starts > CAPPED_WORK_MAX:
            self.refuse_exact(
                "free_spins.max_spins",
                f"a cap of {_fmt(cap)} spins: the exact free-spin recursion would take "
                f"{_fmt(self.capped_work * starts)} steps (at most {_fmt(CAPPED_WORK_MAX)})",
            )


def window_factor_bound(m: Machine) -> int:
    """The most what the reels show can multiply a spin by (1 where nothing does).

    Per reel, the largest product over a window of its cells' ``window_multiplier``
    (times the largest ``full_reel_multiplier`` where the window is full of the
    symbol), multiplied over the reels; the larger of the base and free strips.
    """
    cell = {s.name: s.window_multiplier for s in m.symbols if s.window_multiplier != 1}
    full = {
        s.name: max(v for v, _ in s.full_reel_multipliers)
        for s in m.symbols
        if s.full_reel_multipliers
    }
    if not cell and not full:
        return 1
    sets = [m.strips] + ([m.free_spins.strips] if m.free_spins and m.free_spins.strips else [])
    best = 1
    for strips in sets:
        product = 1
        for strip in strips:
            n = len(strip)
            most = 1
            for stop in range(n):
                landed = [strip[(stop + i) % n] for i in range(m.rows)]
                f = prod(cell.get(c, 1) for c in landed)
                if len(set(landed)) == 1 and landed[0] in full:
                    f *= full[landed[0]]
                most = max(most, f)
            product *= most
        best = max(best, product)
    return best


def cascade_probe(m: Machine) -> int | None:
    """Screens the strip-cascade check plays per stop combination (None: not checked).

    The check (:func:`certify.exact.screens.longest_cascade`) plays every stop
    combination of the base and free strips until its sequence ends or reaches
    the probe: ``10 x max_screens + 100`` screens where the worst case stays
    within :data:`CASCADE_PROBE_MAX` screens (to say how long a sequence is),
    never below ``max_screens + 1`` (enough to say it is too long). Whether
    the check is made at all is judged on its measured work, like the exact
    enumeration it is part of (:func:`certify.exact.screens.screen_work`): a
    real cascade ends after a screen or two on most starts, so the worst case
    (every start playing the probe) would refuse games a brute force settles
    in seconds (CT Win Storm: 72,665,775 starts, 8 screens at the longest).
    """
    if m.cascade is None or m.cascade.refill != "strip":
        return None
    longest = m.cascade.max_screens
    combinations = max(cascade_combinations(m), 1)
    return min(10 * longest + 100, max(longest + 1, CASCADE_PROBE_MAX // combinations))


def cascade_combinations(m: Machine) -> int:
    """Stop combinations of a screen game's base strips plus its free strips (weights aside)."""
    sets = [m.strips]
    if m.free_spins is not None and m.free_spins.strips is not None:
        sets.append(m.free_spins.strips)
    return sum(prod(len(s) for s in strips) for strips in sets)


def hold_work(cells: int, trigger: int, respins: int, denominator: int) -> int:
    """Bit operations of the exact hold-and-spin chain over every start (an estimate).

    From each start ``s`` (``trigger .. cells``) the chain has ``(cells - s) x respins``
    states with ``cells - s`` moves each, and its integers grow to about
    ``respins x (cells - s)^2 / 2`` powers of the cell probability's
    denominator (:mod:`certify.exact.hold`). Measured: 2 to 8 x 10^8 a second.
    """
    bits = max(denominator.bit_length(), 1)
    return sum(respins * respins * (cells - s) ** 4 * bits // 2 for s in range(trigger, cells + 1))


def hold_feasible(hs: Any, cells: int) -> bool:
    """Whether the exact chain of the hold-and-spin ``hs`` is within :data:`HOLD_WORK_MAX`."""
    p = hs.cell_probability.denominator
    return hold_work(cells, hs.trigger.count, hs.respins, p) <= HOLD_WORK_MAX


def capped_feasible(cap: int, classes: int) -> bool:
    """Whether one capped recursion over ``cap`` spins and ``classes`` classes is affordable."""
    return cap * (cap + 1) // 2 * max(classes, 1) <= CAPPED_WORK_MAX


def _most_credits(entry: PayEntry, li: int, level: int) -> int:
    """An entry's larger pay of the base game's and the free spins'."""
    return max(entry.credits(li, level), entry.free_credits(li, level))


def _pay_integers(m: Machine) -> Iterator[tuple[int, str]]:
    """The pay tables' integers (line, ways and scatter, free-spin values included)."""
    for e in m.pays:
        if e.pays is not None:
            yield e.pays, f"pays[{e.index}].pays"
        for j, v in enumerate(e.pays_by_level or ()):
            yield v, f"pays[{e.index}].pays_by_level[{j}]"
        if e.free_spins_pays is not None:
            yield e.free_spins_pays, f"pays[{e.index}].free_spins_pays"
    for i, sp in enumerate(m.scatter_pays):
        yield ceil(sp.pays), f"scatter_pays[{i}].pays"
        yield sp.count, f"scatter_pays[{i}].count"
        if sp.free_spins_pays is not None:
            yield ceil(sp.free_spins_pays), f"scatter_pays[{i}].free_spins_pays"


def _model_integers(m: Machine) -> Iterator[tuple[int, str]]:
    """Every integer of the model that becomes a kernel integer, with its key path."""
    for i, level in enumerate(m.bet_levels):
        yield level, f"bet.bet_levels[{i}]"
    for key in ("lines", "ways", "cost"):
        if getattr(m, key) is not None:
            yield getattr(m, key), f"bet.{key}"
    for sym in m.symbols:
        yield sym.multiplier, f"symbols.{sym.name}.multiplier"
    yield from _pay_integers(m)
    yield from _weights(m.weights, "reels.weights")
    for value, weight in m.rules.spin_multipliers:
        yield value, f"rules.spin_multiplier.{value}"
        yield weight, f"rules.spin_multiplier.{value}"
    fs = m.free_spins
    if fs is not None:
        yield fs.multiplier, "free_spins.multiplier"
        if fs.max_spins is not None:
            yield fs.max_spins, "free_spins.max_spins"
        for count, spins in fs.spins:
            yield spins, f"free_spins.spins.{count}"
        for i, option in enumerate(fs.options):
            yield option.weight or 1, f"free_spins.options[{i}].weight"
        for value, weight in fs.multipliers:
            yield value, f"free_spins.multiplier.{value}"
            yield weight, f"free_spins.multiplier.{value}"
        yield from _weights(fs.weights, "free_spins.weights")
        yield from _big_weights(fs)
        yield fs.trigger.count, "free_spins.trigger.count"
    if m.bonus is not None:
        if m.bonus.trigger is not None:
            yield m.bonus.trigger.count, "bonus.trigger.count"
    for name, game in m.bonus_laws:
        at = f"bonus_games.{name}" if name else "bonus"
        for i, a in enumerate(game.awards):
            yield a.pays, f"{at}.stages" if game.stages else f"{at}.awards[{i}].pays"
            yield a.weight, f"{at}.stages" if game.stages else f"{at}.awards[{i}].weight"
    yield from _feature_integers(m)


def _feature_integers(m: Machine) -> Iterator[tuple[int, str]]:
    """The integers of the SPEC 3.1a/3.1b features and rules, with their key paths."""
    if m.rules.win_cap is not None:
        yield m.rules.win_cap, "rules.win_cap"
    for r, table in enumerate(m.heights or ()):
        for i, (_, weight) in enumerate(table):
            yield weight, f"reels.heights[{r}][{i}].weight"
    fs = m.free_spins
    for name, weight in fs.expanding_symbol if fs is not None else ():
        yield weight, f"free_spins.expanding_symbol.{name}"
    for s in m.symbols:
        for value, weight in s.multipliers:
            yield value, f"symbols.{s.name}.multiplier.{value}"
            yield weight, f"symbols.{s.name}.multiplier.{value}"
    for i, fw in enumerate(m.full_window_pays):
        yield fw.multiplier, f"full_window_pays[{i}].multiplier"
    yield from _screen_integers(m)
    hs = m.hold_and_spin
    if hs is not None:
        yield hs.respins, "hold_and_spin.respins"
        for i, v in enumerate(hs.values):
            yield v.weight, f"hold_and_spin.values[{i}].weight"
            if v.pays is not None:
                yield v.pays, f"hold_and_spin.values[{i}].pays"
        for name, prize in hs.jackpots:
            yield prize, f"hold_and_spin.jackpots.{name}"


def _screen_integers(m: Machine) -> Iterator[tuple[int, str]]:
    """The integers of a cascade and of cluster pays, with their key paths."""
    if m.cascade is not None:
        for i, mult in enumerate(m.cascade.multipliers):
            yield mult, f"cascade.multipliers[{i}]"
        yield m.cascade.max_screens, "cascade.max_screens"
        for screens, pays in m.cascade.chain_pays:
            yield pays, f"cascade.chain_pays.{screens}"
    for i, cp in enumerate(m.cluster_pays):
        yield cp.size, f"cluster_pays[{i}].size"
        yield cp.pays, f"cluster_pays[{i}].pays"


def _bounded_counts(m: Machine) -> Iterator[tuple[int, str, int, str]]:
    """(value, key path, most, why) of every count the kernels bound by the work or a width."""
    window = f"a count in the window (the engine counts at most {MAX_WINDOW} cells)"
    for i, sp in enumerate(m.scatter_pays):
        yield sp.count, f"scatter_pays[{i}].count", MAX_WINDOW, window
    for key in ("free_spins", "bonus", "hold_and_spin"):
        feature = getattr(m, key)
        if feature is not None and feature.trigger is not None:
            yield feature.trigger.count, f"{key}.trigger.count", MAX_WINDOW, window
    if m.cascade is not None:
        why = "the screens one spin may play (each spin plays up to max_screens screens)"
        yield m.cascade.max_screens, "cascade.max_screens", MAX_SCREENS, why
    if m.hold_and_spin is not None:
        why = "the respins one feature may restart from (its work grows with them)"
        yield m.hold_and_spin.respins, "hold_and_spin.respins", MAX_RESPINS, why


def _big_weights(fs: Any) -> Iterator[tuple[int, str]]:
    big = fs.big_symbol.weights if fs.big_symbol is not None else None
    for s, w in enumerate(big or ()):
        yield w, f"free_spins.big_symbol.weights[{s}]"


def _weights(weights: tuple | None, path: str) -> Iterator[tuple[int, str]]:
    for r, row in enumerate(weights or ()):
        for s, w in enumerate(row):
            yield w, f"{path}[{r}][{s}]"


def jackpot_entries(machine: Machine, level: int, kept: bool = True) -> dict[int, str]:
    """Pay entries that win a jackpot at ``level``: entry index -> jackpot id.

    ``kept`` False: only the entries the jackpot replaces (not ``keep_pay``).
    """
    out = {}
    for jp in machine.jackpots:
        if jp.trigger_combo is None or (jp.keep_pay and not kept):
            continue
        if jp.min_bet_level is not None and level < jp.min_bet_level:
            continue
        for e in machine.pays:
            if e.combo == jp.trigger_combo:
                out[e.index] = jp.id
    return out
