"""Exact contribution to return of every pay entry, scatter pay, feature and bonus award.

The full-cycle kernels (:mod:`certify.exact._kernels`) count how often each
pay entry pays, not the credits it pays, and a line's credits depend on the
wilds that took part (multipliers) and a ways win on the number of ways. The
credits each entry pays are summed here, exactly and independently of the
kernels, by the **per-reel decomposition** (the method of
:mod:`certify.exact.decompose`, with integer weights instead of
probabilities):

* **lines**: reels stop independently, so for each payline the weighted
  number of stop combinations that end in each state of the line automaton
  follows from pushing an integer weight vector over the automaton's states
  through one reel at a time. A settled state fixes the paying entry (chosen
  by the automaton's ranks: highest base value, jackpot combinations first)
  and its credits *with the wild multipliers*; summing ``weight x credits`` by
  entry gives each entry's credits over the whole cycle as an integer.
* **ways**: an entry's win is ``credits x`` the product over its reels of the
  ways (wild multipliers counted) it finds on each reel, and a family
  (entries with the same first token) pays only its longest matching entry
  (ties: the larger win, then the lower index, as the kernel chooses). The
  joint distribution of a family's per-entry products is pushed reel by reel
  (a dictionary from the tuple of products to its weight), which is exact.
* **scatter pays**: the count of each counted symbol is a convolution of
  per-reel count distributions; each scatter entry pays its credits at the
  level (so the scatter unit is whatever the level tables hold) on the counts
  from its own up to the next higher entry of the same symbol.
* **free spins**: by Wald's identity the feature's mean is ``E[N] x E[X]``,
  ``N`` the free spins played per paid spin (trigger count distribution and
  the exact retrigger/cap recursion of :mod:`certify.exact.features`) and
  ``E[X]`` one free spin's mean: the free-spin multiplier times the line, ways
  and scatter means on the feature's strips, plus the bonus mean (bonus
  awards are not multiplied). Each component's share is reported.
* **bonus awards**: trigger probability x the award's weight share x its pay.

Every line and ways row is split by the multiplier applied (the paying
state's credits over the entry's pays: the wild multipliers combined; for
ways the ways times the wild multipliers), so each row's contribution is
``pays x multiplier x probability / total bet``, checkable by hand.

The integer sums are exact; they become floats only when divided by the cycle
size and the total bet, so every figure here equals the full cycle's to
floating-point rounding (tests check the rows add up to the certified return
to 1e-12 on every shipped and test model).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

import numpy as np

from certify.engine.kernel_inputs import phase_sets, reel_sets
from certify.engine.tables import (
    GameTables,
    LevelTables,
    ReelSet,
    compile_machine,
    scatter_bonus_marks,
    ways_sums,
)
from certify.exact.decompose import counting_sets, phase_count_distribution
from certify.exact.features import feature_moments
from certify.exact.maxwin import MAX_WIN_COMBOS, MaxWin, max_win  # noqa: F401 (re-exported)
from certify.exact.parfeatures import (
    FeatureTable,
    cascade_sequences,
    cascade_steps,
    cascade_table,
    expanding_rows,
    expanding_table,
    full_window_table,
    hold_tables,
    refill_steps,
    sticky_tables,
)
from certify.model.screens import is_screen_game

Multiplier = int | Fraction  # the multiplier a row's pays are multiplied by


@dataclass(frozen=True)
class EntrySums:
    """Per pay entry over a weighted cycle of one reel set (exact integers).

    ``hits[e]`` sums, over every stop combination, its weight times the
    number of lines (or ways families) that pay entry ``e``; ``credits[e]``
    sums weight x the credits entry ``e`` pays (wild multipliers and ways
    included). ``total`` is the cycle's total weight.
    """

    hits: list[int]
    credits: list[int]
    total: int
    # lines paying two entries at once (direction = "both"): key -> (entries, hits, credits)
    pairs: dict[int, tuple[tuple[int, ...], int, int]] = field(default_factory=dict)
    # per entry: multiplier applied -> (hits, credits); lines: the wild multiplier of the
    # paying state, ways: the product of the ways and wild multipliers; pairs by (key, win)
    split: dict[int, dict[Multiplier, tuple[int, int]]] = field(default_factory=dict)
    pair_split: dict[tuple[int, Multiplier], tuple[int, int]] = field(default_factory=dict)


@dataclass(frozen=True)
class Contribution:
    """One row of the PAR sheet's award table: an award's frequency and return."""

    section: str  # base | free_spins | bonus | jackpot
    kind: str  # line | ways | scatter | free_spins | bonus | bonus_award | jackpot
    combo: tuple[str, ...]
    pays: int | None  # credits at the level (line/way, scatter: total credits); None for features
    probability: float | None  # expected occurrences per paid spin (None: not known)
    rtp: float  # contribution to return per unit wagered
    multiplier: Multiplier | None = None  # applied to pays (wilds, ways): rtp = pays x it x p / bet
    source: str = "exact"  # exact | simulation (then ci: the row's interval)
    ci: tuple[float, float] | None = None


@dataclass(frozen=True)
class FreeSpinsBreakdown:
    """What the free-spins feature returns, component by component, per paid spin."""

    trigger_probability: float
    expected_spins: float  # free spins played per paid spin
    spins_per_trigger: float
    spin_mean: float  # credits of one free spin (multiplier applied), bonus included
    rows: list[Contribution] = field(default_factory=list)  # per entry, scatter, bonus

    @property
    def rtp(self) -> float:
        """The feature's contribution to return (sum of its rows)."""
        return float(sum(r.rtp for r in self.rows))


@dataclass(frozen=True)
class LevelContributions:
    """Every contribution of one bet level; base-game rows, features, bonus awards."""

    level_index: int
    level: int
    total_bet: int
    base: list[Contribution]
    free_spins: FreeSpinsBreakdown | None
    bonus_trigger_probability: float
    bonus_awards: list[Contribution]
    tables: list[FeatureTable] = field(default_factory=list)  # per-feature PAR tables

    @property
    def base_rtp(self) -> float:
        """Paytable return (lines/ways, scatter, free spins, bonus): no jackpots."""
        fs = self.free_spins.rtp if self.free_spins else 0.0
        return float(sum(r.rtp for r in self.base) + fs + sum(r.rtp for r in self.bonus_awards))


METHOD = (
    "per-reel decomposition with integer weights (lines: automaton state weights "
    "per payline; ways: joint per-reel products per family); free spins by Wald's "
    "identity over the exact retrigger/cap recursion"
)


def entry_sums(tables: GameTables, reels: ReelSet, lt: LevelTables, phase: int = 0) -> EntrySums:
    """Weighted hits and credits of every pay entry over the cycle of ``reels`` at ``lt``.

    ``phase`` 0 is the base game, 1 the free spins: when the feature pays from
    its own tables (an entry with ``free_spins_multiplier = false``) its lines
    start at the feature's start state and its ways pay ``credits_fs``.
    """
    credits = lt.credits if phase == 0 or not tables.fs_own_pays else lt.credits_fs
    if tables.is_ways:
        return _ways_sums(tables, reels, lt, credits)
    return _line_sums(tables, reels, lt, int(lt.start[phase]), credits)


def phase_entry_sums(tables: GameTables, lt: LevelTables, phase: int) -> EntrySums:
    """:func:`entry_sums` of a phase: its reel set, or a painted game's parts added up."""
    sets = reel_sets(tables)
    parts = [entry_sums(tables, sets[ps], lt, phase) for ps in phase_sets(tables, phase)]
    if len(parts) == 1:
        return parts[0]
    pairs: dict[int, tuple[tuple[int, ...], int, int]] = {}
    split: dict[int, dict[Multiplier, tuple[int, int]]] = {}
    pair_split: dict[tuple[int, Multiplier], tuple[int, int]] = {}
    for part in parts:
        for key, (entries, hits, credits) in part.pairs.items():
            old = pairs.get(key, (entries, 0, 0))
            pairs[key] = (entries, old[1] + hits, old[2] + credits)
        for e, by_mult in part.split.items():
            for mult, (hits, credits) in by_mult.items():
                _add(split.setdefault(e, {}), mult, hits, credits)
        for pk, (hits, credits) in part.pair_split.items():
            _add(pair_split, pk, hits, credits)
    return EntrySums(
        [sum(x) for x in zip(*(p.hits for p in parts), strict=True)],
        [sum(x) for x in zip(*(p.credits for p in parts), strict=True)],
        sum(p.total for p in parts),
        pairs,
        split,
        pair_split,
    )


def _cycle_total(reels: ReelSet) -> int:
    total = 1
    for r in range(reels.length.shape[0]):
        total *= int(reels.total_weight[r])
    return total


def _symbol_weights(reels: ReelSet, reel: int, row: int, n_symbols: int) -> list[int]:
    n = int(reels.length[reel])
    out = [0] * n_symbols
    for stop in range(n):
        out[int(reels.window[reel, stop, row])] += int(reels.weight[reel, stop])
    return out


def _ratio(win: int, pays: int) -> Multiplier:
    """The multiplier of a win over its pays: an integer where it divides, else a fraction."""
    if pays <= 0:
        return 1
    q = Fraction(win, pays)
    return int(q) if q.denominator == 1 else q


def multiplier_value(mult: Multiplier | None) -> int | float | None:
    """A row's multiplier as JSON can hold it: an integer, or the fraction's float."""
    if mult is None or isinstance(mult, int):
        return mult
    return int(mult) if mult.denominator == 1 else float(mult)


def _add(split: dict, key: Any, hits: int, credits: int) -> None:
    h, c = split.get(key, (0, 0))
    split[key] = (h + hits, c + credits)


def _line_sums(
    tables: GameTables, reels: ReelSet, lt: LevelTables, start: int, table: np.ndarray
) -> EntrySums:
    n_entries = len(tables.machine.pays)
    n_symbols = len(tables.symbol_ids)
    hits = [0] * n_entries
    credits = [0] * n_entries
    pairs: dict[int, tuple[tuple[int, ...], int, int]] = {}
    split: dict[int, dict[Multiplier, tuple[int, int]]] = {}
    pair_split: dict[tuple[int, Multiplier], tuple[int, int]] = {}
    live = lt.live
    keys = lt.award_keys
    for line in tables.paylines:
        # integer weights per automaton state; Python ints never overflow
        p: dict[int, int] = {start: 1}
        for reel, row in enumerate(line):
            dist = _symbol_weights(reels, reel, int(row), n_symbols)
            nxt: dict[int, int] = {}
            for state, w in p.items():
                if not live[state]:
                    nxt[state] = nxt.get(state, 0) + w * _rest(reels, reel)
                    continue
                row_t = lt.trans[state]
                for sym, ws in enumerate(dist):
                    if ws:
                        t = int(row_t[sym])
                        nxt[t] = nxt.get(t, 0) + w * ws
            p = nxt
        for state, w in p.items():
            k = int(lt.state_entry[state])
            if k < 0:
                continue
            entries = tuple(e for e in range(n_entries) for _ in range(int(keys[k, e])))
            one = int(lt.state_win[state])
            win = w * one
            for e in entries:
                hits[e] += w  # as the kernels count awards: each entry a pair pays
            if len(entries) == 1:
                credits[entries[0]] += win
                mult = _ratio(one, int(table[entries[0]]))
                _add(split.setdefault(entries[0], {}), mult, w, win)
            else:  # one line paid two entries (both ways): the pair is its own row
                _, h, c = pairs.get(k, (entries, 0, 0))
                pairs[k] = (entries, h + w, c + win)
                raw = sum(int(table[e]) for e in entries)
                _add(pair_split, (k, _ratio(one, raw)), w, win)
    return EntrySums(hits, credits, _cycle_total(reels), pairs, split, pair_split)


def _rest(reels: ReelSet, reel: int) -> int:
    """Total weight of one reel: a settled line still spans every stop of it."""
    return int(reels.total_weight[reel])


def _ways_sums(tables: GameTables, reels: ReelSet, lt: LevelTables, table: np.ndarray) -> EntrySums:
    n_entries = len(tables.machine.pays)
    ways = ways_sums(reels.window, tables.ways_match)  # [reel, stop, entry]
    lengths = [int(x) for x in tables.entry_len]
    credit = [int(x) for x in table]
    hits = [0] * n_entries
    credits = [0] * n_entries
    split: dict[int, dict[Multiplier, tuple[int, int]]] = {}
    families: dict[int, list[int]] = {}
    for e in range(n_entries):
        families.setdefault(int(tables.ways_family[e]), []).append(e)
    n_reels = reels.length.shape[0]
    for members in families.values():
        # joint distribution of the members' products so far (0 = no match)
        states: dict[tuple[int, ...], int] = {(1,) * len(members): 1}
        for r in range(n_reels):
            per_stop: dict[tuple[int, ...], int] = {}
            for stop in range(int(reels.length[r])):
                key = tuple(int(ways[r, stop, e]) if r < lengths[e] else 1 for e in members)
                per_stop[key] = per_stop.get(key, 0) + int(reels.weight[r, stop])
            nxt: dict[tuple[int, ...], int] = {}
            for prods, w in states.items():
                for key, ws in per_stop.items():
                    new = tuple(a * b for a, b in zip(prods, key))
                    nxt[new] = nxt.get(new, 0) + w * ws
            states = nxt
        for prods, w in states.items():
            best, best_len, best_win = -1, 0, 0
            for e, prod in zip(members, prods):  # the kernel's order and rule
                if prod > 0:
                    win = credit[e] * prod
                    if lengths[e] > best_len or (lengths[e] == best_len and win > best_win):
                        best, best_len, best_win = e, lengths[e], win
            if best >= 0:
                hits[best] += w
                credits[best] += w * best_win
                _add(split.setdefault(best, {}), _ratio(best_win, credit[best]), w, w * best_win)
    return EntrySums(hits, credits, _cycle_total(reels), split=split)


def _joint_counts(reels: ReelSet, symbols: list[int]) -> dict[tuple[int, ...], int]:
    """Weighted joint distribution of the counts of counted symbols ``symbols`` in the window."""
    joint: dict[tuple[int, ...], int] = {(0,) * len(symbols): 1}
    for r in range(reels.length.shape[0]):
        per: dict[tuple[int, ...], int] = {}
        for stop in range(int(reels.length[r])):
            key = tuple(int(reels.counted[c, r, stop]) for c in symbols)
            per[key] = per.get(key, 0) + int(reels.weight[r, stop])
        nxt: dict[tuple[int, ...], int] = {}
        for a, wa in joint.items():
            for b, wb in per.items():
                k = tuple(x + y for x, y in zip(a, b))
                nxt[k] = nxt.get(k, 0) + wa * wb
        joint = nxt
    return joint


def _scatter_rows(
    tables: GameTables, phase: int, table: np.ndarray
) -> list[tuple[tuple[str, ...], int, float, float]]:
    """(combo, credits, probability, mean credits per spin) of each scatter pay of a phase.

    Each counted symbol pays its highest reached entry; of the exclusive
    scatters (first in the counted order) only the first that pays, pays —
    the kernels' rule, applied to the exact joint distribution of the counts.
    """
    m = tables.machine
    if not m.scatter_pays:
        return []
    entries = [(tables.counted_names.index(sp.symbol), sp) for sp in m.scatter_pays]
    excl = [int(x) for x in tables.scatter_excl]
    plays = scatter_bonus_marks(m, tables.counted_names, table.shape)  # pays 0, plays the bonus
    hits = [0] * len(entries)
    credit = [0] * len(entries)
    played = counting_sets(tables, phase)  # a consecutive count: the parts' joints add up
    n_counted = len(tables.counted_names)
    group = [c for c in range(n_counted) if c < len(excl) and excl[c]]
    # the exclusive scatters' joint (the first that pays takes it), every other symbol's
    # own count: the same integer sums as one joint over all, without its size
    for symbols in [group] * bool(group) + [[c] for c in range(n_counted) if c not in group]:
        joint: dict[tuple[int, ...], int] = {}
        for part in played:
            for key, w in _joint_counts(part, symbols).items():
                joint[key] = joint.get(key, 0) + w
        for counts, w in joint.items():
            taken = False
            for c, n in zip(symbols, counts, strict=True):
                pay = int(table[c, n]) if n < table.shape[1] else 0
                paying = pay > 0 or (n < table.shape[1] and plays[c, n] > 0)
                if c in group:
                    if taken:
                        continue
                    if paying:
                        taken = True
                if not paying:
                    continue
                best = max(
                    (i for i, (cc, sp) in enumerate(entries) if cc == c and sp.count <= n),
                    key=lambda i: entries[i][1].count,
                )
                hits[best] += w
                credit[best] += w * pay
    total = sum(_cycle_total(part) for part in played)
    return [
        (
            (sp.symbol,) * sp.count,
            int(table[c, sp.count]) if sp.count < table.shape[1] else 0,
            hits[i] / total,
            credit[i] / total,
        )
        for i, (c, sp) in enumerate(entries)
    ]


def _bonus_starters(m: Any) -> dict[tuple[str, tuple[str, ...]], tuple[int, int]]:
    """(row kind, combo) of each pay entry that plays a bonus game -> (the game, its plays)."""
    out = {("line", e.combo): (m.bonus_law(e.bonus_game), e.bonus_plays) for e in m.pays if e.bonus}
    out |= {
        ("scatter", (sp.symbol,) * sp.count): (m.bonus_law(sp.bonus_game), sp.bonus_plays)
        for sp in m.scatter_pays
        if sp.bonus
    }
    return out


def _played_bonus_rows(
    m: Any, rows: list[Contribution], level: int, section: str, kind: str, tb: int
) -> list[Contribution]:
    """The prizes of the bonus games the pay rows play, by each game's expected plays.

    ``kind`` ``"bonus_award"``: one row per award of each game (its plays x the
    award's chance); otherwise one row per game. Rows' probabilities are per spin.
    """
    starters = _bonus_starters(m)
    plays = [0.0] * len(m.bonus_laws)
    for r in rows:
        if (r.kind, r.combo) in starters:
            law, times = starters[r.kind, r.combo]
            plays[law] += (r.probability or 0.0) * times
    out = []
    for law, (_, game) in enumerate(m.bonus_laws):
        if plays[law] <= 0:
            continue
        combo = min(c for (_, c), (k, _) in starters.items() if k == law)
        total = sum(a.weight for a in game.awards)
        credits = [(a.pays * m.law_bet(law, level), a.weight / total) for a in game.awards]
        if kind != "bonus_award":
            mean = sum(c * q for c, q in credits)
            out.append(Contribution(section, kind, combo, None, plays[law], plays[law] * mean / tb))
            continue
        out += [
            Contribution(section, kind, combo, c, plays[law] * q, plays[law] * q * c / tb, 1)
            for c, q in credits
        ]
    return out


def _bonus_table(tables: GameTables, lt: LevelTables) -> tuple[list[int], list[float], float]:
    """Bonus award credits, their probabilities given a trigger, and the mean award."""
    if tables.machine.bonus is None or tables.hold_on:
        return [], [], 0.0
    weights = np.diff(np.concatenate([[0], tables.bonus_weight_cum])).astype(np.int64)
    total = int(weights.sum())
    pays = [int(x) for x in lt.bonus_pay]
    probs = [int(w) / total for w in weights]
    mean = sum(int(w) * p for w, p in zip(weights, pays)) / total
    return pays, probs, mean


def expected_free_spins(tables: GameTables, only: int | None = None) -> tuple[float, float]:
    """(P(trigger), free spins played per paid spin), exact (retrigger and cap included).

    ``only``: the spins of the trigger counts whose multiplier by count
    (``multiplier_by_count``) is this value (P(trigger) stays the whole feature's).

    Unlimited retriggers: the exact recursion of :mod:`certify.exact.features`.
    ``retrigger = "once"``: ``n`` starting spins, the first retrigger among
    them (probability ``r`` per spin, ``a`` spins added) ends retriggering, so
    ``E[N] = n + E[min(a, cap - n); retrigger] x sum_{j<n} (1 - r)^j``.
    """
    if tables.fs_counted < 0:
        return 0.0, 0.0
    fs_dist = phase_count_distribution(tables, 1, tables.fs_counted)
    base_dist = phase_count_distribution(tables, 0, tables.fs_counted)
    once = getattr(tables, "fs_retrigger_once", False)
    classes: dict[int, tuple[float, float, float]] = {}
    for count, q in enumerate(fs_dist):
        a = int(tables.fs_respins[count])
        old = classes.get(a, (0.0, 0.0, 0.0))
        classes[a] = (old[0] + float(q), 0.0, 0.0)
    spins = 0.0
    for count in range(tables.fs_min, base_dist.shape[0]):
        if base_dist[count] <= 0 or (only is not None and tables.fs_count_mult[count] != only):
            continue
        n = int(tables.fs_spins[count])
        if once and tables.fs_retrigger:
            if tables.fs_max:
                n = min(n, tables.fs_max)
            room = (tables.fs_max - n) if tables.fs_max else None
            r = sum(q for a, (q, _, _) in classes.items() if a > 0)
            added = sum(
                q * (min(a, room) if room is not None else a)
                for a, (q, _, _) in classes.items()
                if a > 0
            )
            played = n + added * sum((1 - r) ** j for j in range(n))
        else:
            played = feature_moments(classes, n, tables.fs_max)[2]
        spins += base_dist[count] * played
    return float(base_dist[tables.fs_min :].sum()), spins


def _entry_rows(
    tables: GameTables, sums: EntrySums, pays: np.ndarray, section: str, scale: float, tb: int
) -> list[Contribution]:
    """Rows of every pay entry split by the multiplier applied, then of every both-ways pair.

    ``scale`` is what one spin of this reel set counts for per paid spin (1 in
    the base game, the expected free spins in the feature) times the
    multiplier the kernels apply to its credits. Each row's contribution is
    ``pays x multiplier x probability / total bet``: ``pays`` the entry's
    credits at the level, ``multiplier`` the wild multipliers (lines) or the
    ways times the wild multipliers (ways) of the spins the row counts. An
    entry that never pays keeps one row (multiplier 1, probability 0).
    """
    m = tables.machine
    kind = "ways" if tables.is_ways else "line"
    rows = []
    for e in m.pays:
        parts = sums.split.get(e.index) or {1: (0, 0)}
        for mult in sorted(parts):
            hits, credit = parts[mult]
            rows.append(
                Contribution(
                    section,
                    kind,
                    e.combo,
                    int(pays[e.index]),
                    hits / sums.total,
                    scale * credit / sums.total / tb,
                    mult,
                )
            )
    for (k, mult), (hits, credit) in sorted(sums.pair_split.items()):
        entries = sums.pairs[k][0]
        combo: tuple[str, ...] = ()
        for i in entries:
            combo += (*(() if not combo else ("+",)), *m.pays[i].combo)
        pair_pays = sum(int(pays[i]) for i in entries)
        rows.append(
            Contribution(
                section,
                "line_pair",
                combo,
                pair_pays,
                hits / sums.total,
                scale * credit / sums.total / tb,
                mult,
            )
        )
    return rows


def _drawn_rows(rows: list[Contribution], tables: GameTables) -> list[Contribution]:
    """Each base row split by the multiplier a paid spin draws (``[rules] spin_multiplier``).

    The draw is independent of the stops: a row of probability ``p`` becomes one
    row per value ``v`` (probability ``p x P(v)``, multiplier x ``v``), so each row
    still reads ``pays x multiplier x probability / total bet``.
    """
    values, weights = tables.base_each_mult, tables.base_each_weights
    if values.shape[0] == 1 and values[0] == 1:
        return rows
    total = int(weights.sum())
    return [
        replace(
            r,
            probability=(r.probability or 0.0) * int(w) / total,
            rtp=r.rtp * int(v) * int(w) / total,
            multiplier=(r.multiplier or 1) * int(v),
        )
        for r in rows
        for v, w in zip(values, weights, strict=True)
    ]


def level_contributions(tables: GameTables, lt: LevelTables) -> LevelContributions:
    """Every award's exact frequency and contribution to return at one bet level."""
    m = tables.machine
    tb = lt.total_bet
    base = phase_entry_sums(tables, lt, 0)
    rows = _entry_rows(tables, base, lt.credits, "base", 1.0, tb)
    for combo, pays, p, mean in _scatter_rows(tables, 0, lt.scatter_pay):
        rows.append(Contribution("base", "scatter", combo, pays, p, mean / tb, 1))
    rows = _drawn_rows(rows, tables)
    bonus_pays, bonus_probs, bonus_mean = _bonus_table(tables, lt)
    p_bonus = (
        float(phase_count_distribution(tables, 0, tables.bonus_counted)[tables.bonus_min :].sum())
        if tables.bonus_counted >= 0
        else 0.0
    )
    starters = _bonus_starters(m)
    awards = [
        Contribution(
            "bonus", "bonus_award", m.bonus_combo, pays, p_bonus * q, p_bonus * q * pays / tb, 1
        )
        for pays, q in zip(bonus_pays, bonus_probs)
        if m.bonus_combo  # a triggered bonus; the games pays play below
    ]
    awards += _played_bonus_rows(m, rows, lt.level, "bonus", "bonus_award", tb)
    p_bonus += sum(r.probability or 0.0 for r in rows if (r.kind, r.combo) in starters)  # plays
    same = tables.free is tables.base and not getattr(tables, "fs_own_pays", False)
    return LevelContributions(
        lt.level_index,
        lt.level,
        tb,
        rows,
        _free_spins(tables, lt, base if same else None, bonus_mean),
        p_bonus,
        awards,
    )


def _spins_by_multiplier(tables: GameTables, n_spins: float) -> dict[int, float]:
    """Expected free spins per paid spin by the multiplier ``multiplier_by_count`` gives them.

    ``{1: n_spins}`` where the multiplier is not by count (the kernels' ``fs_mult``
    is then in the credits). Each value's spins are those of the trigger counts
    that give it, so the rows keep ``pays x multiplier x probability / total bet``.
    """
    if tables.fs_count_mult.shape[0] <= 1:
        return {1: n_spins}
    values = sorted({int(v) for v in tables.fs_count_mult[tables.fs_min :]})
    return {v: expected_free_spins(tables, only=v)[1] for v in values}


def _free_spins(
    tables: GameTables, lt: LevelTables, base: EntrySums | None, bonus_mean: float
) -> FreeSpinsBreakdown | None:
    """The feature's return by component: Wald, E[free spins] x E[one free spin]."""
    m = tables.machine
    if m.free_spins is None or tables.fs_counted < 0:
        return None
    p_trigger, n_spins = expected_free_spins(tables)
    tb = lt.total_bet
    own = getattr(tables, "fs_own_pays", False)
    shown = 1 if own else tables.fs_mult  # a row's credits as the glass shows them
    by_value = _spins_by_multiplier(tables, n_spins)
    # what the kernels multiply a free spin's win by, on average over the spins played
    mult = float(shown * sum(v * s for v, s in by_value.items()) / n_spins) if n_spins else shown
    sums = base if base is not None else phase_entry_sums(tables, lt, 1)
    pays = lt.credits_fs if own else lt.credits * tables.fs_mult
    rows = [  # probabilities per paid spin; a count's multiplier splits the rows
        replace(
            r,
            probability=(r.probability or 0.0) * spins,
            multiplier=r.multiplier if v == 1 else (r.multiplier or 1) * v,
        )
        for v, spins in by_value.items()
        for r in _entry_rows(tables, sums, pays, "free_spins", spins * v * shown, tb)
    ]
    mean = mult * (sum(sums.credits) + sum(c for _, _, c in sums.pairs.values())) / sums.total
    scatter_table = lt.scatter_pay_fs if own else lt.scatter_pay
    for combo, credit, p, smean in _scatter_rows(tables, 1, scatter_table):
        rows += [
            Contribution(
                "free_spins",
                "scatter",
                combo,
                credit * shown,
                spins * p,
                spins * v * shown * smean / tb,
                v,
            )
            for v, spins in by_value.items()
        ]
        mean += mult * smean
    if tables.bonus_counted >= 0 and m.bonus is not None:
        p_bonus = float(
            phase_count_distribution(tables, 1, tables.bonus_counted)[tables.bonus_min :].sum()
        )
        rows.append(
            Contribution(
                "free_spins",
                "bonus",
                m.bonus_combo,
                None,
                n_spins * p_bonus,
                n_spins * p_bonus * bonus_mean / tb,
            )
        )
        mean += p_bonus * bonus_mean
    for row in _played_bonus_rows(
        m, rows, lt.level, "free_spins", "bonus", tb
    ):  # bonus games the free spins' pays play (per paid spin), unmultiplied
        rows.append(row)
        mean += row.rtp * tb / n_spins
    per_trigger = n_spins / p_trigger if p_trigger > 0 else 0.0
    return FreeSpinsBreakdown(p_trigger, n_spins, per_trigger, mean, rows)


def machine_contributions(tables: GameTables) -> list[LevelContributions]:
    """:func:`level_contributions` of every bet level of a compiled machine."""
    return [level_contributions(tables, lt) for lt in tables.levels]


def per_entry_applies(tables: GameTables) -> bool:
    """Whether the per-entry sums apply (not: screens, hold and spin, Book of Ra, full windows)."""
    fs = tables.machine.free_spins
    return not (
        is_screen_game(tables.machine)  # cascades, clusters, sticky wilds
        or tables.hold_on
        or bool(tables.expand_symbols)
        or bool(tables.full_window_mult.size)
        or bool(fs and fs.options_drawn)  # the feature is a mixture over the options
        or bool(fs and fs.multipliers)  # each free spin's multiplier is drawn
        or tables.factor_on  # what the reels show multiplies the spin
    )


def feature_contributions(tables: GameTables, lt: LevelTables, ex: Any) -> LevelContributions:
    """The PAR rows of a game the per-entry sums do not cover, from the exact figures.

    The base game's lines or ways are still summed per entry (split by
    multiplier) where its base cycle is plain (hold and spin, Book of Ra,
    sticky wilds, full windows: the feature lies elsewhere) and the rows agree
    with the cycle's line return to 1e-12; full-window pays add one row, what
    their multipliers add. Cascades and clusters keep one row for their wins
    over every screen. Then one row per remaining part of the certified
    return (scatters, free spins, hold and spin or the bonus), so the rows add
    up to the certified return; the per-feature tables
    (:mod:`certify.exact.parfeatures`) say more.
    """
    m = tables.machine
    base = _plain_base_rows(tables, lt, ex) or _cluster_entry_rows(tables, lt, ex)
    base = base or _part_rows(tables, ex)
    extra: list[FeatureTable] = []
    if m.evaluation == "cluster":
        extra.append(_cluster_sizes(tables, lt, ex))
    free = None
    if m.free_spins is not None:
        free = _feature_free_spins(tables, lt, ex, extra)
    if tables.hold_on:
        extra += hold_tables(tables, lt)
    extra += sticky_tables(tables, lt)
    played = cascade_sequences(tables, lt)
    if played is not None:
        extra += [cascade_table(tables, lt, played), cascade_steps(tables, lt, played)]
    steps = refill_steps(tables, lt)
    if steps is not None:
        extra.append(steps)
    if m.full_window_pays:
        fw = sum(r.rtp for r in base if r.kind == "full_window")
        table = full_window_table(tables, lt, fw)
        if table is not None:
            extra.append(table)
    bonus_kind = "hold_and_spin" if tables.hold_on else "bonus"
    awards = [Contribution("bonus", bonus_kind, (), None, ex.bonus_probability, ex.bonus_rtp)]
    return LevelContributions(
        lt.level_index,
        lt.level,
        lt.total_bet,
        base,
        free,
        ex.bonus_probability,
        awards if (m.bonus is not None or tables.hold_on) else [],
        extra,
    )


def _cluster_groups(tables: GameTables, ex: Any) -> list[tuple[Any, str, Any]]:
    """(cluster_pays entry, its sizes "5-7" / "16+", exact award) of a cluster game."""
    from certify.model.screens import cluster_pays_of

    pays = cluster_pays_of(tables.machine)
    awards = [a for a in ex.awards if a.kind == "cluster"]
    out = []
    for cp, award in zip(pays, awards, strict=False):
        larger = [q.size for q in pays if q.symbol == cp.symbol and q.size > cp.size]
        sizes = f"{cp.size}+" if not larger else f"{cp.size}-{min(larger) - 1}"
        out.append((cp, sizes, award))
    return out


def _cluster_sizes(tables: GameTables, lt: LevelTables, ex: Any) -> FeatureTable:
    """Paid groups per spin by symbol and size (exact, every screen of every spin)."""
    rows = [
        (cp.symbol, sizes, a.pays, a.probability, 1 / a.probability if a.probability else None)
        for cp, sizes, a in _cluster_groups(tables, ex)
    ]
    return FeatureTable(
        "cluster_sizes",
        "Clusters: paid groups per spin by symbol and size (exact, every screen)",
        ("symbol", "sizes", "pays", "probability", "one_in"),
        rows,
    )


def _cluster_entry_rows(tables: GameTables, lt: LevelTables, ex: Any) -> list[Contribution] | None:
    """One row per cluster_pays entry, or None.

    None where the groups' pays are not the line return (screen multipliers).
    """
    if tables.machine.evaluation != "cluster":
        return None
    tb = lt.total_bet
    rows = [
        Contribution(
            "base",
            "cluster",
            (cp.symbol, sizes),
            a.pays,
            a.probability,
            a.pays * a.probability / tb,
            1,
        )
        for cp, sizes, a in _cluster_groups(tables, ex)
    ]
    if not rows or abs(sum(r.rtp for r in rows) - ex.line_rtp) > 1e-12 * max(1.0, ex.rtp):
        return None
    if tables.machine.scatter_pays or ex.scatter_rtp:
        rows.append(Contribution("base", "scatter", ("all",), None, None, ex.scatter_rtp))
    return rows


def _part_rows(tables: GameTables, ex: Any) -> list[Contribution]:
    """One row for the line, ways or cluster wins over every screen, one for the scatters."""
    m = tables.machine
    kind = "cluster" if m.evaluation == "cluster" else ("ways" if tables.is_ways else "line")
    rows = [Contribution("base", kind, ("all",), None, None, ex.line_rtp)]
    if m.scatter_pays or ex.scatter_rtp:
        # over a sequence of screens the chance that a scatter pays is not enumerated
        rows.append(Contribution("base", "scatter", ("all",), None, None, ex.scatter_rtp))
    return rows


def _plain_base_rows(tables: GameTables, lt: LevelTables, ex: Any) -> list[Contribution] | None:
    """Per-entry and scatter rows of a base game played on one plain screen, or None."""
    from certify.model.screens import cascade_of

    m = tables.machine
    if cascade_of(m) is not None or m.evaluation == "cluster":
        return None
    tb = lt.total_bet
    sums = entry_sums(tables, tables.base, lt, 0)
    rows = _entry_rows(tables, sums, lt.credits, "base", 1.0, tb)
    scatter = [
        Contribution("base", "scatter", combo, pays, p, mean / tb, 1)
        for combo, pays, p, mean in _scatter_rows(tables, 0, lt.scatter_pay)
    ]
    tol = 1e-12 * max(1.0, abs(ex.rtp))
    if abs(sum(r.rtp for r in scatter) - ex.scatter_rtp) > tol:
        return None
    lines = sum(r.rtp for r in rows)
    if m.full_window_pays:
        fw = _full_window_probability(tables)
        rows.append(
            Contribution("base", "full_window", ("full", "window"), None, fw, ex.line_rtp - lines)
        )
    elif abs(lines - ex.line_rtp) > tol:
        return None
    return rows + scatter


def _full_window_probability(tables: GameTables) -> float:
    """P(the base window is full of any target), exact over the full windows."""
    from certify.exact.fullwindow import full_window_stops
    from certify.exact.parfeatures import combo_weights

    stops, _ = full_window_stops(tables, 0)
    if not stops.shape[0]:
        return 0.0
    return int(combo_weights(tables.base, stops).sum()) / int(tables.base.cycle)


def _feature_free_spins(
    tables: GameTables, lt: LevelTables, ex: Any, extra: list[FeatureTable]
) -> FreeSpinsBreakdown:
    """The free spins of a feature game: one row, or one per drawn expanding symbol."""
    m = tables.machine
    assert m.free_spins is not None
    p_trigger, spins = expected_free_spins(tables)  # first screen's triggers
    if m.free_spins.options_drawn:
        spins, table = drawn_options_table(tables)
        extra.append(table)
    per_trigger = spins / p_trigger if p_trigger else 0.0
    mean = ex.free_spins_rtp * lt.total_bet / spins if spins else 0.0
    trig = m.free_spins.trigger
    symbols = expanding_rows(tables, lt)
    if symbols and abs(sum(r[2] for r in symbols) - ex.free_spins_rtp) <= 1e-12:
        extra.append(expanding_table(symbols))
        rows = [
            Contribution(
                "free_spins",
                "expanding_symbol",
                (symbol,),
                None,
                ex.fs_probability * p,
                rtp,
            )
            for symbol, p, rtp, _ in symbols
        ]
    else:
        rows = [
            Contribution(
                "free_spins",
                "free_spins",
                (trig.symbol,) * trig.count,
                None,
                ex.fs_probability,
                ex.free_spins_rtp,
            )
        ]
    return FreeSpinsBreakdown(ex.fs_probability, spins, per_trigger, mean, rows)


def drawn_options_table(tables: GameTables) -> tuple[float, FeatureTable]:
    """(free spins played per paid spin, the options table) of drawn free-spin options.

    Each option's free spins per paid spin is exact (:func:`expected_free_spins`
    of the game played with that option alone); the game's is their mixture.
    """
    fs = tables.machine.free_spins
    assert fs is not None
    total = sum(o.weight or 0 for o in fs.options)
    rows: list[tuple[Any, ...]] = []
    spins = 0.0
    for i, (option, variant) in enumerate(
        zip(fs.options, tables.machine.option_machines(), strict=True)
    ):
        share = (option.weight or 0) / total
        played = expected_free_spins(compile_machine(variant))[1]
        spins += share * played
        awards = ", ".join(f"{c}: {n}" for c, n in option.spins)
        rows.append((i + 1, option.weight, share, awards, option.multiplier, played))
    table = FeatureTable(
        "free_spin_options",
        "Free-spin options the machine draws when the feature starts: weight, probability, "
        "spins by trigger count, multiplier, free spins played per paid spin (exact)",
        ("option", "weight", "probability", "spins", "multiplier", "spins_per_paid_spin"),
        rows,
        (),
    )
    return spins, table


def simulated_contributions(
    tables: GameTables, lt: LevelTables, sim: Any, confidence: float
) -> LevelContributions | None:
    """The award table of a game with no exact figures: the simulation's, marked as such.

    A cluster game: one row per ``cluster_pays`` entry (symbol and group
    sizes) from the simulation's count of paid groups, its contribution
    ``count x credits / spins / total bet`` with a Poisson interval on the
    count; what the entries do not carry (cascade multipliers, scatters,
    features) is one more row. Other games: one row for every win. Either
    way the rows add up to the simulated return the verdict rests on (its
    interval on the last row).
    """
    from certify.stats import interval, z_value

    if sim is None or not sim.spins:
        return None
    m = tables.machine
    kind = "cluster" if m.evaluation == "cluster" else ("ways" if tables.is_ways else "line")
    rows = _cluster_rows(tables, lt, sim, z_value(confidence)) if kind == "cluster" else []
    rest = sim.rtp - sum(r.rtp for r in rows)
    features = m.free_spins is not None or m.bonus is not None or tables.hold_on
    if not rows or rest != 0.0:
        combo: tuple[str, ...] = ("all",) if not rows else ("other", "wins")
        if features:
            combo += ("(features included)",)
        ci = interval(sim.rtp, sim.std_error, confidence)
        p = sim.hit_frequency if not rows else None
        rows.append(Contribution("base", kind, combo, None, p, rest, None, "simulation", ci))
    return LevelContributions(lt.level_index, lt.level, lt.total_bet, rows, None, 0.0, [])


def _cluster_rows(tables: GameTables, lt: LevelTables, sim: Any, z: float) -> list[Contribution]:
    """One simulated row per cluster_pays entry (paid groups per spin, Poisson interval)."""
    from certify.model.screens import cluster_pays_of

    pays = cluster_pays_of(tables.machine)
    counts = np.asarray(sim.award_counts)
    if counts.shape[0] != len(pays):
        return []
    n, tb = sim.spins, lt.total_bet
    rows = []
    for i, cp in enumerate(pays):
        larger = [q.size for q in pays if q.symbol == cp.symbol and q.size > cp.size]
        sizes = f"{cp.size}+" if not larger else f"{cp.size}-{min(larger) - 1}"
        credits = cp.pays * tb
        c = int(counts[i])
        half = z * float(np.sqrt(c))
        ci = (max(c - half, 0.0) * credits / n / tb, (c + half) * credits / n / tb)
        rows.append(
            Contribution(
                "base",
                "cluster",
                (cp.symbol, sizes),
                credits,
                c / n,
                c * credits / n / tb,
                1,
                "simulation",
                ci,
            )
        )
    return rows
