"""Exact figures of a random-refill cascade: a chain over the screens the refill draws.

With ``refill = "random"`` every new cell of a reel is the symbol at a stop
drawn by the reel's weights, independently of everything before it, so the
rest of a sequence depends only on the screen it has reached (the cells, the
screen's index for its multiplier and ``max_screens``) and on what the
sequence has gathered so far: its largest trigger counts, whether it has won,
and (under a win cap) its credits. The chain plays that forward, one screen a
layer (:func:`refill_chain`):

1. layer 0 is every first screen the reel set can show, each reel's distinct
   columns with their stop weights (the product over the reels);
2. every distinct screen of a layer is evaluated once
   (:func:`certify.exact._screens.evaluate_grids`, the simulation's own
   :func:`certify.engine._screens.cascade_spin` cut to one screen); its
   credits x the screen's multiplier are added to each state's sums
   (probability, E[W 1], E[W^2 1]); award keys and scatter credits add up by
   probability;
3. a screen that marks nothing, or the ``max_screens``-th, ends its states
   (the length prize ``chain_pays`` is added) into the (trigger count, bonus
   part) buckets of :func:`certify.exact.cycle.enumerate_cycle`;
4. the others fall and refill: every combination of symbols of the new cells
   (a reel's refill symbols with their probabilities), states that reach the
   same screen with the same gathered values merged.

A screen is a number (:class:`ScreenCodes`: each cell the index of its symbol
among its reel's, in mixed radix), so a layer is three sparse matrices
(gathered values x screens: probability, E[W 1], E[W^2 1]) and the refill is
their product with the transition matrix of the layer's screens (scipy.sparse,
which adds up the states that meet).

The figures are sums of probabilities in float64, not integer cycle sums:
exact to rounding. The chain is admitted where the screens it may hold are
few (:func:`chain_refusal`): every window its reels' symbols can fill (the
first screens among them), at most :data:`CHAIN_SCREENS`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from certify.engine.kernel_inputs import game_inputs, level_inputs, reel_inputs, reel_sets
from certify.engine.screen_records import ScreenPhase
from certify.engine.screens import cascade_of, cluster_pays_of, screen_inputs
from certify.engine.tables import GameTables, LevelTables, ReelSet
from certify.exact import _screens as k
from certify.exact.cycle import _Buckets, spin_score

CHAIN_SCREENS = 1 << 20
"""Distinct screens a random-refill chain may hold: the windows its reels' symbols can fill."""

CHAIN_RATE = 1.5e5
"""Screens x layers a second the chain plays (two cores; docs/PERFORMANCE.md)."""

RANDOM_REFILL_SLOW = (
    'cascade refill = "random": the chain over the refill draws would take about {seconds:,.0f} s '
    "({screens:,} screens x up to {layers:,} screens a sequence x {runs} run(s); at most "
    "{budget:,.0f} s of work at the measured rate: `exact --budget SECONDS` or "
    "`certify --exact-budget SECONDS` allows more)"
)

RANDOM_REFILL_TOO_LARGE = (
    'cascade refill = "random": the chain over the refill draws would hold up to {screens:,} '
    "screens ({why}), above {limit:,}: simulation only"
)


@dataclass(frozen=True)
class ChainCycle:
    """What :func:`refill_chain` returns for one phase (as a strip cycle's sums).

    Attributes
    ----------
    buckets : _Buckets
        Per (trigger count, bonus part): probability, E[W 1], E[W^2 1], P(W > 0);
        awards per award key (expected per sequence); total 1.
    scatter_sum : float
        Expected scatter credits of a sequence (screen multipliers included).
    cluster_awards : ndarray
        Expected paid groups per ``cluster_pays`` entry.
    longest : int
        The longest sequence with a positive probability, in screens.
    steps : tuple
        Per screen k = 1, 2, ...: (k, probability that it is shown, its
        expected credits, its length prizes included).

    """

    buckets: _Buckets
    scatter_sum: float
    cluster_awards: np.ndarray
    longest: int
    steps: tuple[tuple[int, float, float], ...]


def refill_symbols(reels: ReelSet) -> list[tuple[np.ndarray, np.ndarray]]:
    """Per reel: the symbols a refilled cell can show and their probabilities.

    A new cell is the top cell of a stop drawn by the reel's weights
    (:func:`certify.engine._screens.refill_screen`); every symbol of the strip
    can fall in, so these are also every symbol a first screen can show.
    """
    out = []
    for r in range(reels.length.shape[0]):
        n = int(reels.length[r])
        symbols = reels.window[r, :n, 0].astype(np.int64)
        kinds, where = np.unique(symbols, return_inverse=True)
        weights = reels.weight[r, :n].astype(np.float64)
        out.append((kinds, np.bincount(where.ravel(), weights) / float(reels.total_weight[r])))
    return out


def chain_size(tables: GameTables) -> tuple[int, str]:
    """The most screens the chain may hold over the game's phases, and how they are counted."""
    rows = tables.machine.rows
    worst, why = 0, ""
    for reels in _phase_sets(tables).values():
        sizes = [len(symbols) for symbols, _ in refill_symbols(reels)]
        screens = int(np.prod([n**rows for n in sizes], dtype=object))
        if screens > worst:
            worst = screens
            why = f"{' x '.join(map(str, sizes))} symbols by reel on {rows} rows"
    return worst, why


def chain_refusal(tables: GameTables, budget_s: float) -> str | None:
    """Why a random-refill cascade has no exact chain within ``budget_s`` seconds (None: it has).

    The screens the chain may hold must be at most :data:`CHAIN_SCREENS`, and
    its work, screens x ``max_screens`` layers x runs (each bet level's base
    game, twice under a win cap, and free spins), at most ``budget_s`` at
    :data:`CHAIN_RATE`.
    """
    if screen_inputs(tables, 0).sticky_sym >= 0:
        return 'cascade refill = "random" with sticky wilds: simulation only'
    screens, why = chain_size(tables)
    if screens > CHAIN_SCREENS:
        return RANDOM_REFILL_TOO_LARGE.format(screens=screens, why=why, limit=CHAIN_SCREENS)
    if any(ScreenCodes(reels, tables.machine.rows).holed_size >= 1 << 62 for reels in
           _phase_sets(tables).values()):  # fmt: skip
        return 'cascade refill = "random": its fallen screens do not fit 62-bit codes'
    levels = max(len(tables.levels), 1)
    capped = bool(tables.levels) and spin_score(tables, tables.levels[0], 0).cap > 0
    runs = levels * (2 if capped else 1) + (levels if tables.fs_counted >= 0 else 0)
    layers = int(cascade_of(tables.machine).max_screens)
    seconds = screens * layers * runs / CHAIN_RATE
    if seconds > budget_s:
        return RANDOM_REFILL_SLOW.format(
            seconds=seconds, screens=screens, layers=layers, runs=runs, budget=budget_s
        )
    return None


def _phase_sets(tables: GameTables) -> dict[int, ReelSet]:
    """The reel set of each phase the chain plays (0 base game, 1 free spins)."""
    sets = reel_sets(tables)
    phases = (0, 1) if tables.fs_counted >= 0 else (0,)
    return {p: sets[0 if p == 0 else len(sets) - 1] for p in phases}


class ScreenCodes:
    """Screens of one reel set as numbers: cell (r, row) is digit ``r * rows + row``.

    A digit is the index of the cell's symbol among the reel's
    (:func:`refill_symbols`), its radix the reel's count of symbols. A fallen
    screen with holes to refill is a code of radix + 1 per cell
    (``holed_place``), the hole the largest digit.
    """

    def __init__(self, reels: ReelSet, rows: int) -> None:
        self.refill = refill_symbols(reels)
        self.rows = rows
        self.radix = np.repeat([len(s) for s, _ in self.refill], rows).astype(np.int64)
        self.place = np.concatenate([[1], np.cumprod(self.radix)[:-1]]).astype(np.int64)
        self.holed_size = int(np.prod(self.radix + 1, dtype=object))  # refused from 2^62 on
        fits = self.holed_size < 1 << 62
        holed = np.cumprod(self.radix + 1)[:-1] if fits else np.zeros(0, dtype=np.int64)
        self.holed_place = np.concatenate([[1], holed]).astype(np.int64)
        self.size = int(np.prod(self.radix, dtype=object))
        n_symbols = int(reels.window.max()) + 1
        self.index = np.full((len(self.refill), n_symbols), -1, dtype=np.int64)
        for r, (symbols, _) in enumerate(self.refill):
            self.index[r, symbols] = np.arange(len(symbols))

    def encode(self, grids: np.ndarray) -> np.ndarray:
        """Codes of grids (n, reels, rows) of symbol ids."""
        reel = np.arange(grids.shape[1])[None, :, None]
        digits = self.index[reel, grids].reshape(grids.shape[0], -1)
        return digits @ self.place

    def digits(self, codes: np.ndarray) -> np.ndarray:
        """Digits (n, reels, rows) of codes."""
        digits = (codes[:, None] // self.place[None, :]) % self.radix[None, :]
        return digits.reshape(codes.shape[0], -1, self.rows)

    def decode(self, codes: np.ndarray) -> np.ndarray:
        """Grids (n, reels, rows) of symbol ids of codes."""
        digits = self.digits(codes).reshape(codes.shape[0], -1)
        grids = np.empty(digits.shape, dtype=np.int64)
        for cell in range(digits.shape[1]):
            grids[:, cell] = self.refill[cell // self.rows][0][digits[:, cell]]
        return grids.reshape(codes.shape[0], -1, self.rows)


def refill_chain(
    tables: GameTables, lt: LevelTables, phase: int, capped: bool = True
) -> ChainCycle:
    """The exact sums of one phase's sequences, played forward screen by screen.

    Kept per (level, phase, cap) in ``tables.prefix_cache``. See the module's
    docstring for the method.
    """
    score = spin_score(tables, lt, phase)
    cap = score.cap if capped else 0
    key = ("refill_chain", lt.level_index, phase, cap)
    if key not in tables.prefix_cache:
        tables.prefix_cache[key] = _Chain(tables, lt, phase, cap).run()
    cached: ChainCycle = tables.prefix_cache[key]
    return cached


class _Layer(NamedTuple):
    """The states of one layer: (gathered values, screen) pairs, each once, with three sums."""

    carries: np.ndarray  # (C, 4) int64: largest free-spin count, largest bonus count, won, credits
    row: np.ndarray  # (E,) the state's gathered values (a row of carries)
    code: np.ndarray  # (E,) its screen (ScreenCodes)
    p: np.ndarray  # (E,) probability
    s1: np.ndarray  # E[W 1]
    s2: np.ndarray  # E[W^2 1]


class _Chain:
    """One phase's chain: its layers and the sums their ended states add up to."""

    def __init__(self, tables: GameTables, lt: LevelTables, phase: int, cap: int) -> None:
        sets = reel_sets(tables)
        ps = 0 if phase == 0 else len(sets) - 1
        self.reels, self.codes = sets[ps], ScreenCodes(sets[ps], tables.machine.rows)
        self.phase, self.cap, self.tables, self.lt = phase, cap, tables, lt
        score = spin_score(tables, lt, phase)
        scr = screen_inputs(tables, lt.level_index)
        self.mults, self.chain_pay, self.max_screens = (
            scr.mults,
            scr.chain_pay[phase],
            scr.max_screens,
        )
        self.scr = scr._replace(
            max_screens=1, mults=np.ones(1, dtype=np.int64), chain_pay=np.zeros_like(scr.chain_pay)
        )
        self.play = ScreenPhase(ps, phase, score.scatter_pay, score.excl)
        self.inputs = (reel_inputs(tables), level_inputs(lt, tables), game_inputs(tables))
        self.n_aw = lt.n_keys + len(cluster_pays_of(tables.machine)) + 1
        self.jmax = tables.bonus_jmax
        n_buckets = (self.jmax + 1) * (tables.machine.max_count + 1)
        self.sums = np.zeros((4, n_buckets))  # probability, E[W 1], E[W^2 1], P(W > 0)
        self.awards = np.zeros(self.n_aw)
        self.scatter = 0.0

    def run(self) -> ChainCycle:
        """Play every layer until no state goes on."""
        layer: _Layer | None = self._first_layer()
        steps: list[tuple[int, float, float]] = []
        while layer is not None:
            shown = float(layer.p.sum())
            layer, gained = self._step(len(steps), layer)
            steps.append((len(steps) + 1, shown, gained))
        lt = self.lt
        w, wb, wb2, hit = self.sums
        awards = self.awards[: max(lt.n_keys, 1)]
        buckets = _Buckets(w, list(wb), wb2, hit, awards, 1)
        off = lt.n_keys
        clusters = self.awards[off : off + len(cluster_pays_of(self.tables.machine))]
        return ChainCycle(buckets, self.scatter, clusters, len(steps), tuple(steps))

    def _first_layer(self) -> _Layer:
        """Every first screen with its probability (one row: nothing gathered yet)."""
        reels, rows = self.reels, self.codes.rows
        code, p = np.zeros(1, dtype=np.int64), np.ones(1)
        for r in range(reels.length.shape[0]):  # the product of the reels' columns
            n = int(reels.length[r])
            digits = self.codes.index[r][reels.window[r, :n].astype(np.int64)]  # (stops, rows)
            column = digits @ self.codes.place[r * rows : (r + 1) * rows]
            weights = reels.weight[r, :n].astype(np.float64) / float(reels.total_weight[r])
            code = (code[:, None] + column[None, :]).ravel()
            p = (p[:, None] * weights[None, :]).ravel()
        row = np.zeros(code.shape[0], dtype=np.int64)
        _, code, p, s1, s2 = _merge(row, code, p, np.zeros_like(p), np.zeros_like(p))
        return _Layer(np.zeros((1, 4), dtype=np.int64), np.zeros_like(code), code, p, s1, s2)

    def _step(self, n: int, layer: _Layer) -> tuple[_Layer | None, float]:
        """Screen ``n`` of every state: its sums, the states it ends, the next layer."""
        prob = layer.p
        screens, where = np.unique(layer.code, return_inverse=True)
        out, marks, awards = self._evaluate(self.codes.decode(screens))
        mult = int(self.mults[min(n, self.mults.shape[0] - 1)])
        per_screen = np.bincount(where, prob, minlength=screens.shape[0])
        self.awards += per_screen @ awards
        self.scatter += float(per_screen @ (out[:, 1] * mult).astype(np.float64))
        x = out[where, 0] * mult
        e1, e2 = _add(prob, layer.s1, layer.s2, x)
        carries = layer.carries[layer.row].copy()
        carries[:, 0] = np.maximum(carries[:, 0], out[where, 2])
        carries[:, 1] = np.maximum(carries[:, 1], out[where, 3])
        carries[:, 2] |= x > 0
        carries[:, 3] += x if self.cap > 0 else 0
        gained = float(prob @ x.astype(np.float64))
        goes = np.any(marks.reshape(marks.shape[0], -1), axis=1)
        goes &= n + 1 < self.max_screens
        ends = ~goes[where]
        gained += self._end(n + 1, carries[ends], prob[ends], e1[ends], e2[ends])
        if not goes.any():
            return None, gained
        on = ~ends
        kept, rows = _unique_rows(carries[on])
        holes = self._fallen(screens, marks)[where[on]]
        return _Layer(kept, *self._refill(rows, holes, prob[on], e1[on], e2[on])), gained

    def _evaluate(self, screens: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(out (n, 4), marks (n, reels, rows), awards (n, keys)) of each distinct screen."""
        n = screens.shape[0]
        out = np.zeros((n, 4), dtype=np.int64)
        marks = np.zeros(screens.shape, dtype=np.bool_)
        awards = np.zeros((n, self.n_aw), dtype=np.int64)
        ri, li, gi = self.inputs
        grids = np.ascontiguousarray(screens, dtype=np.int64)
        k.evaluate_grids(self.play, ri, li, gi, self.scr, grids, out, marks, awards)
        return out, marks, awards.astype(np.float64)

    def _end(self, shown: int, carries, p, s1, s2) -> float:
        """End states after ``shown`` screens into the buckets; their length prizes' sum."""
        prize = int(self.chain_pay[shown]) if shown < self.chain_pay.shape[0] else 0
        s1, s2 = _add(p, s1, s2, np.full(p.shape[0], prize, dtype=np.int64))
        won = (carries[:, 2] > 0) | (prize > 0)
        if self.cap > 0:  # the sequence's total, capped
            total = np.minimum(carries[:, 3] + prize, self.cap).astype(np.float64)
            s1, s2 = p * total, p * total * total
        tables = self.tables
        bonus = (tables.bonus_counted >= 0) & (carries[:, 1] >= tables.bonus_min)
        j = np.where(bonus, np.minimum(carries[:, 1], self.jmax), 0)
        b = carries[:, 0] * (self.jmax + 1) + j
        size = self.sums.shape[1]
        for row, values in enumerate((p, s1, s2, np.where(won, p, 0.0))):
            self.sums[row] += np.bincount(b, values, minlength=size)
        return prize * float(p.sum())

    def _fallen(self, screens: np.ndarray, marks: np.ndarray) -> np.ndarray:
        """Each screen with its marked cells gone and the rest fallen, as a code with holes.

        In ``ScreenCodes.holed_place`` a reel's digit ``d`` (its count of
        symbols) is a cell still to refill: the top ``k`` cells of a reel that
        lost ``k``.
        """
        codes = self.codes
        order = np.argsort(~marks, axis=2, kind="stable")  # marked first, then the kept in order
        fallen = np.take_along_axis(codes.digits(screens), order, axis=2)
        hole = np.arange(codes.rows)[None, None, :] < marks.sum(axis=2)[:, :, None]
        radix = codes.radix.reshape(1, -1, codes.rows)
        fallen = np.where(hole, np.broadcast_to(radix, fallen.shape), fallen)
        return fallen.reshape(fallen.shape[0], -1) @ codes.holed_place

    def _refill(self, rows, holed, p, s1, s2):
        """Fill every hole, cell by cell, with each of its reel's symbols; equal states merged.

        Cells refill independently, so filling one cell at a time over the
        merged states is the product of the refills, at the work of a few
        states per cell instead of every combination at once.
        """
        codes = self.codes
        rows, holed, p, s1, s2 = _merge(rows, holed, p, s1, s2)
        for cell in range(codes.radix.shape[0]):
            radix, place = int(codes.radix[cell]), int(codes.holed_place[cell])
            hole = (holed // place) % (radix + 1) == radix
            if not hole.any():
                continue
            q = codes.refill[cell // codes.rows][1]
            filled = holed[hole][:, None] + (np.arange(radix) - radix)[None, :] * place
            rows = np.concatenate([rows[~hole], np.repeat(rows[hole], radix)])
            holed = np.concatenate([holed[~hole], filled.ravel()])
            p, s1, s2 = (
                np.concatenate([v[~hole], (v[hole][:, None] * q[None, :]).ravel()])
                for v in (p, s1, s2)
            )
            rows, holed, p, s1, s2 = _merge(rows, holed, p, s1, s2)
        digits = (holed[:, None] // codes.holed_place[None, :]) % (codes.radix + 1)[None, :]
        return rows, digits @ codes.place, p, s1, s2


def _add(p: np.ndarray, s1: np.ndarray, s2: np.ndarray, x: np.ndarray):
    """The sums after every state wins ``x`` more: E[(W + x) 1], E[(W + x)^2 1]."""
    xf = x.astype(np.float64)
    return s1 + xf * p, s2 + 2.0 * xf * s1 + xf * xf * p


def _unique_rows(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct rows of a 2-d integer array and each row's index among them."""
    a = np.ascontiguousarray(a, dtype=np.int64)
    view = a.view(np.dtype((np.void, a.dtype.itemsize * a.shape[1]))).ravel()
    _, first, inverse = np.unique(view, return_index=True, return_inverse=True)
    return a[first], inverse.ravel()


def _merge(rows, codes, p, s1, s2):
    """States with the same gathered values and screen added up (sorted by both)."""
    width = int(codes.max(initial=0)) + 1
    if (int(rows.max(initial=0)) + 1) * width < 1 << 62:
        key = rows.astype(np.int64) * width + codes
        unique, inverse = np.unique(key, return_inverse=True)
        out_rows, out_codes = unique // width, unique % width
    else:
        pairs, inverse = _unique_rows(np.stack([rows, codes], axis=1))
        out_rows, out_codes = pairs[:, 0], pairs[:, 1]
    n = out_rows.shape[0]
    sums = (np.bincount(inverse, v, minlength=n) for v in (p, s1, s2))
    return (out_rows, out_codes, *sums)
