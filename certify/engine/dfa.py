"""Compile a lines pay table into a deterministic automaton over reel symbols.

Reading one payline from reel 1 is a walk through the automaton: the state
after reel ``d`` holds the pay entries whose first ``d`` tokens still match
(with the multiplier of the wilds that substituted so far) and the best
entry already complete. The kernels then evaluate a line with one table
lookup per reel, whatever the groups, ``ANY`` tokens, wilds, multipliers and
rules of the pay table; a state with no live entry is settled.

The rules of real games (SPEC 3.1a) live in the state too, so the kernels
never see them:

* ``wild_multiplier``: the multipliers of the substituting wilds combine by
  product, max or sum (sum: of the multipliers above 1; 1 if none);
* ``pure_wild_line = "wild_award"``: a run made only of wilds, one of which
  substituted, does not pay the substituted entry (the state remembers
  whether every symbol so far was a wild);
* ``anywhere`` entries count their symbol's matching cells over the whole
  line (the state keeps the count, capped at the entry's, and the multiplier);
* ``direction = "both"``: the state also carries the right-to-left runs that
  started on the reels read so far (an entry of length k starts on reel
  R - k); at the last reel the line pays its best left run plus its best
  right run, or the larger once when both cover every reel;
* ``leading_wilds = "one_kind"``: while every symbol read is a wild, the state
  keeps which wild (a drawn-multiplier or free-spin twin is the wild it
  plays); a wild of another kind settles the line on what it completed so far.

A wild multiplies a line win when it stands in for another symbol; a wild
that matches its own literal token (``W W W``) does not multiply. A line's
paying entry is chosen by ``rank`` (its base value); it pays ``credits``.
A line may pay two entries (both ways): the automaton's *award keys* name
the entries a final state pays (key ``e`` < number of entries: entry ``e``
alone; later keys: pairs).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from certify.model.schema import ANY, Machine

_NONE = (-1, 0)  # no complete entry: (entry, multiplier accumulator)
_NO_LEAD = ""  # leading_wilds = "one_kind": no symbol read yet


@dataclass(frozen=True)
class LineAutomaton:
    """Transition table and settled values of a lines pay table at one bet level.

    Attributes
    ----------
    trans : ndarray (n_states, n_symbols) int32
        Next state after reading a symbol.
    live : ndarray (n_states,) bool
        Whether some entry can still complete from this state.
    best_entry : ndarray (n_states,) int32
        Award key of what the state pays (-1 for none); see ``keys``.
    win : ndarray (n_states,) int64
        Credits the state pays (0 for none).
    keys : tuple of tuples of int
        Entries of each award key: key ``e`` is ``(e,)`` for every entry,
        later keys are pairs paid by one line (both ways).

    """

    trans: np.ndarray
    live: np.ndarray
    best_entry: np.ndarray
    win: np.ndarray
    keys: tuple[tuple[int, ...], ...]

    def key_entries(self, n_entries: int) -> np.ndarray:
        """(keys, entries) int64: how often each award key pays each entry."""
        return key_matrix(self.keys, n_entries)


def key_matrix(keys: tuple[tuple[int, ...], ...] | list, n_entries: int) -> np.ndarray:
    """(keys, entries) int64: how often each award key (a tuple of entries) pays each entry."""
    out = np.zeros((len(keys), n_entries), dtype=np.int64)
    for i, key in enumerate(keys):
        for e in key:
            out[i, e] += 1
    return out


def token_match(machine: Machine, token: str, symbol: str) -> tuple[bool, int]:
    """Whether ``symbol`` matches ``token``, and the multiplier it brings."""
    ok, mult, _ = token_match_full(machine, token, symbol)
    return ok, mult


def token_match_full(machine: Machine, token: str, symbol: str) -> tuple[bool, int, bool]:
    """(matches, multiplier brought, whether a wild substituted) of ``symbol`` for ``token``."""
    sym = machine.symbol(symbol)
    if sym.plays and sym.kind == "blank":  # an empty cell (variable heights) matches nothing
        return False, 1, False
    if token == ANY:
        return True, 1, False
    members = machine.group(token) or (token,)
    if symbol in members or sym.plays in members:
        return True, 1, False
    if sym.kind == "wild" and any(m in sym.substitutes for m in members):
        return True, sym.multiplier, True
    return False, 1, False


def multiplier_rule(rule: str) -> tuple[int, Callable[[int, int], int], Callable[[int], int]]:
    """(start, combine, final) of a ``wild_multiplier`` rule over substituting wilds."""
    if rule == "max":
        return 1, max, lambda acc: acc
    if rule == "sum":
        return 0, lambda acc, m: acc + (m if m > 1 else 0), lambda acc: acc if acc > 0 else 1
    return 1, lambda acc, m: acc * m, lambda acc: acc


class _Builder:
    """The automaton's states, interned as they are reached."""

    def __init__(self, machine: Machine, credits: list[int], rank: list[int]):
        self.m, self.credits, self.rank = machine, credits, rank
        rules = machine.rules
        self.start_acc, self.combine, self.final = multiplier_rule(rules.wild_multiplier)
        self.wild_award = rules.pure_wild_line == "wild_award"
        self.both = rules.direction == "both"
        self.better_way = rules.both_ways == "better"
        self.longest = rules.line_pays == "longest"
        self.one_kind = rules.leading_wilds == "one_kind"
        self.n = machine.reels
        names = [s.name for s in machine.symbols]
        self.is_wild = [machine.symbol(s).kind == "wild" for s in names]
        self.kind_of = [s.plays or s.name for s in machine.symbols]
        self.runs = [e for e in machine.pays if not e.anywhere]
        self.anywhere = [e for e in machine.pays if e.anywhere]
        self.match = {
            (e.index, pos, sid): token_match_full(machine, token, name)
            for e in machine.pays
            for pos, token in enumerate(e.combo)
            for sid, name in enumerate(names)
        }
        self.keys: dict[tuple[int, ...], int] = {(e.index,): e.index for e in machine.pays}

    def start(self) -> tuple:
        left = tuple((e.index, self.start_acc, False) for e in self.runs)
        anyw = tuple((e.index, 0, self.start_acc, True) for e in self.anywhere)
        lead = _NO_LEAD if self.one_kind else None
        return (0, left, _NONE, (), anyw, True if self.wild_award else False, lead)

    def value(self, cand: tuple[int, int], table: list[int]) -> int:
        e, acc = cand
        return table[e] * self.final(acc) if e >= 0 else -1

    def better(self, cand: tuple[int, int], best: tuple[int, int]) -> bool:
        """Whether ``cand`` outranks ``best`` (ties: the lower entry index).

        By worth (``rank`` x wild multiplier); under ``line_pays = "longest"``
        by the entry's length first, worth breaking ties. Of two entries of
        equal worth, one that plays a bonus game outranks one that does not, and
        of two that do the longer run wins (a line of 5 bonus symbols plays the
        5's game, as the cabinet reads the run, whatever the order written).
        """
        a, b = self.value(cand, self.rank), self.value(best, self.rank)
        if self.longest and cand[0] >= 0 and best[0] >= 0:
            la, lb = len(self.m.pays[cand[0]].combo), len(self.m.pays[best[0]].combo)
            if la != lb:
                return la > lb
        if a == b and cand[0] >= 0 and best[0] >= 0:
            pa, pb = (self.m.pays[e] for e in (cand[0], best[0]))
            la, lb = (len(p.combo) if p.bonus else 0 for p in (pa, pb))
            if la != lb:
                return la > lb
        return a > b or (a == b and best[0] >= 0 and cand[0] < best[0])

    def step(self, state: tuple, sid: int) -> tuple:
        if state[0] < 0:
            return state  # settled: absorbing
        depth, left, best, right, anyw, allwild, lead = state
        wild = self.is_wild[sid]
        if lead is not None:  # leading_wilds = "one_kind", every symbol so far a wild
            kind = self.kind_of[sid]
            if wild and lead not in (_NO_LEAD, kind):
                return self._settle(best, (), ())
            lead = kind if wild else None
        allwild = allwild and wild if self.wild_award else False
        still = []
        for e, acc, subst in left:
            hit = self.match.get((e, depth, sid))
            if hit is None or not hit[0]:
                continue
            acc, subst = self._take(acc, subst, hit)
            if len(self.m.pays[e].combo) == depth + 1:
                excluded = self.wild_award and allwild and subst
                if not excluded and self.better((e, acc), best):
                    best = (e, acc)
            else:
                still.append((e, acc, subst))
        right = self._step_right(right, depth, sid, wild) if self.both else ()
        anyw = tuple(self._step_anywhere(a, depth, sid) for a in anyw)
        if depth + 1 == self.n:
            return self._settle(best, right, anyw)
        starts_later = self.both and any(self.n - len(e.combo) > depth for e in self.runs)
        if not still and not right and not anyw and not starts_later:
            return self._settle(best, (), ())
        return (depth + 1, tuple(still), best, right, anyw, allwild, lead)

    def _take(self, acc: int, subst: bool, hit: tuple[bool, int, bool]) -> tuple[int, bool]:
        _, mult, substituted = hit
        return self.combine(acc, mult if substituted else 1), subst or substituted

    def _step_right(self, right: tuple, depth: int, sid: int, wild: bool) -> tuple:
        """Right-to-left runs: entries of length k start on reel R - k."""
        hyps = list(right) + [
            (e.index, self.start_acc, False, True)
            for e in self.runs
            if self.n - len(e.combo) == depth
        ]
        out = []
        for e, acc, subst, allwild in hyps:
            pos = self.n - 1 - depth
            hit = self.match.get((e, pos, sid))
            if hit is None or not hit[0]:
                continue
            acc, subst = self._take(acc, subst, hit)
            out.append((e, acc, subst, allwild and wild))
        return tuple(out)

    def _step_anywhere(self, a: tuple, depth: int, sid: int) -> tuple:
        e, count, acc, pure = a
        hit = self.match.get((e, 0, sid))
        if hit is None or not hit[0]:
            return a
        need = len(self.m.pays[e].combo)
        acc, _ = self._take(acc, False, hit)
        return (e, min(count + 1, need), acc, pure and hit[2])

    def _settle(self, best: tuple[int, int], right: tuple, anyw: tuple) -> tuple:
        """The settled state of a line: what it pays (award key) and its credits."""
        for e, count, acc, pure in anyw:
            met = count >= len(self.m.pays[e].combo)
            if met and not (self.wild_award and pure) and self.better((e, acc), best):
                best = (e, acc)
        right_best = _NONE
        for e, acc, subst, allwild in right:
            if not (self.wild_award and allwild and subst) and self.better((e, acc), right_best):
                right_best = (e, acc)
        paid = [c for c in (best, right_best) if c[0] >= 0]
        full = [c for c in paid if len(self.m.pays[c[0]].combo) == self.n]
        if len(paid) == 2 and (len(full) == 2 or self.better_way):
            paid = [best if not self.better(right_best, best) else right_best]
        if not paid:
            return (-1, -1, 0)
        entries = tuple(sorted(c[0] for c in paid))
        key = self.keys.setdefault(entries, len(self.keys))
        return (-1, key, sum(self.value(c, self.credits) for c in paid))

    def key_list(self) -> tuple[tuple[int, ...], ...]:
        return tuple(k for k, _ in sorted(self.keys.items(), key=lambda kv: kv[1]))


def build_line_automaton(
    machine: Machine, credits: list[int], rank: list[int] | None = None
) -> LineAutomaton:
    """Build the automaton for pay ``credits`` (one per pay entry, at one level).

    ``rank`` (default: the credits) decides which matching entry a line pays;
    a jackpot combination ranks above everything yet pays 0 credits on the line.
    """
    rank = list(credits) if rank is None else rank
    builder = _Builder(machine, credits, rank)
    start = builder.start()
    ids: dict[tuple, int] = {start: 0}
    order = [start]
    rows: list[list[int]] = []
    n_symbols = len(machine.symbols)
    i = 0
    while i < len(order):
        state = order[i]
        rows.append([_intern(builder.step(state, s), ids, order) for s in range(n_symbols)])
        i += 1
    settled = [_settled_of(s) for s in order]
    return LineAutomaton(
        trans=np.array(rows, dtype=np.int32),
        live=np.array([s[0] >= 0 for s in order]),
        best_entry=np.array([k for k, _ in settled], dtype=np.int32),
        win=np.array([w for _, w in settled], dtype=np.int64),
        keys=builder.key_list(),
    )


def _settled_of(state: tuple) -> tuple[int, int]:
    """(award key, credits) a state pays if the line ended there (live states: none)."""
    if state[0] >= 0:
        return -1, 0
    return state[1], state[2]


def _intern(state: tuple, ids: dict[tuple, int], order: list[tuple]) -> int:
    if state not in ids:
        ids[state] = len(order)
        order.append(state)
    return ids[state]
