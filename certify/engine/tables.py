"""Compile a :class:`Machine` into the flat arrays the kernels read.

Nothing here runs per spin: it is done once per machine and bet level.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from certify.engine.dfa import build_line_automaton, token_match
from certify.engine.limits import check_machine
from certify.model.schema import Machine

HIST_BINS = 32  # bin 0: no win; bin k: win / total bet in [2^(k-11), 2^(k-10))
WEIGHT_LOOKUP_MAX = 1 << 16


@dataclass(frozen=True)
class ReelSet:
    """One set of strips (base game or free spins) as kernel arrays.

    Attributes
    ----------
    window : (reels, max_len, rows) uint8, symbol id at each row of each stop
    length : (reels,) int64, stops per strip
    weight : (reels, max_len) int64, stop weights (1 when unweighted)
    total_weight : (reels,) int64
    lookup : (reels, max_total) int32, draw -> stop, when totals are small
    cumulative : (reels, max_len) int64, running weights, for binary search
    counted : (n_counted, reels, max_len) int64, counted symbols in each window

    """

    window: np.ndarray
    length: np.ndarray
    weight: np.ndarray
    total_weight: np.ndarray
    lookup: np.ndarray
    cumulative: np.ndarray
    counted: np.ndarray
    weighted: bool

    @property
    def cycle(self) -> int:
        """Number of weighted stop combinations in the full cycle."""
        return int(np.prod([int(w) for w in self.total_weight], dtype=object))


@dataclass(frozen=True)
class LevelTables:
    """Everything a kernel needs for one bet level."""

    level_index: int
    level: int
    total_bet: int
    credits: np.ndarray  # (n_entries,) credits per line/way
    trans: np.ndarray  # lines: automaton
    live: np.ndarray
    state_win: np.ndarray
    state_entry: np.ndarray
    scatter_pay: np.ndarray  # (n_counted, max_count + 1) credits at this level
    bonus_pay: np.ndarray  # (n_awards,) credits
    finishing: tuple = field(compare=False)  # lines: see finishing_automaton
    signature: tuple = field(default=())


@dataclass(frozen=True)
class GameTables:
    """Level-independent arrays of a machine."""

    machine: Machine
    symbol_ids: dict[str, int]
    is_ways: bool
    paylines: np.ndarray  # (n_lines, reels) int64
    base: ReelSet
    free: ReelSet  # same object as base when no feature strips
    counted_names: tuple[str, ...]
    fs_counted: int  # index in counted (-1 none)
    fs_min: int
    fs_spins: np.ndarray  # (max_count + 1,) spins awarded by count
    fs_mult: int
    fs_retrigger: bool
    fs_max: int  # 0 = no cap
    bonus_counted: int
    bonus_min: int
    bonus_weight_cum: np.ndarray  # (n_awards,) running weights
    ways_match: np.ndarray  # (n_entries, reels, n_symbols) multiplier or 0
    ways_family: np.ndarray  # (n_entries,) family id (entries sharing a first token)
    entry_len: np.ndarray  # (n_entries,)
    levels: list[LevelTables]
    prefix_cache: dict = field(default_factory=dict, compare=False, repr=False)


def compile_machine(machine: Machine) -> GameTables:
    """Build the kernel tables of every bet level of ``machine``."""
    ids = {s.name: i for i, s in enumerate(machine.symbols)}
    check_machine(machine)  # every bound the kernels rely on (certify.engine.limits)
    counted = _counted_symbols(machine)
    base = _reel_set(machine.strips, machine.weights, machine.rows, ids, counted)
    fs = machine.free_spins
    free = base
    if fs is not None and fs.strips is not None:
        free = _reel_set(fs.strips, fs.weights, machine.rows, ids, counted)
    max_count = machine.rows * machine.reels
    fs_spins = np.zeros(max_count + 1, dtype=np.int64)
    if fs is not None:
        for c in range(max_count + 1):
            fs_spins[c] = fs.spins_for(c) if c >= fs.trigger.count else 0
    bonus = machine.bonus
    n_entries = len(machine.pays)
    tables = GameTables(
        machine=machine,
        symbol_ids=ids,
        is_ways=machine.evaluation == "ways",
        paylines=np.array(machine.paylines or [[0] * machine.reels], dtype=np.int64),
        base=base,
        free=free,
        counted_names=tuple(counted),
        fs_counted=counted.index(fs.trigger.symbol) if fs else -1,
        fs_min=fs.trigger.count if fs else 0,
        fs_spins=fs_spins,
        fs_mult=fs.multiplier if fs else 1,
        fs_retrigger=bool(fs and fs.retrigger),
        fs_max=(fs.max_spins or 0) if fs else 0,
        bonus_counted=counted.index(bonus.trigger.symbol) if bonus else -1,
        bonus_min=bonus.trigger.count if bonus else 0,
        bonus_weight_cum=np.cumsum([a.weight for a in bonus.awards]).astype(np.int64)
        if bonus
        else np.zeros(1, dtype=np.int64),
        ways_match=_ways_match(machine, ids)
        if machine.evaluation == "ways"
        else np.zeros((n_entries, machine.reels, len(ids)), dtype=np.int64),
        ways_family=_ways_family(machine),
        entry_len=np.array([len(e.combo) for e in machine.pays], dtype=np.int64),
        levels=[],
    )
    for li, level in enumerate(machine.bet_levels):
        tables.levels.append(_level_tables(machine, tables, li, level))
    return tables


def _counted_symbols(machine: Machine) -> list[str]:
    names: list[str] = []
    for sp in machine.scatter_pays:
        names.append(sp.symbol)
    if machine.free_spins is not None:
        names.append(machine.free_spins.trigger.symbol)
    if machine.bonus is not None:
        names.append(machine.bonus.trigger.symbol)
    return list(dict.fromkeys(names))


def _reel_set(
    strips: tuple, weights: tuple | None, rows: int, ids: dict[str, int], counted: list[str]
) -> ReelSet:
    reels = len(strips)
    max_len = max(len(s) for s in strips)
    window = np.zeros((reels, max_len, rows), dtype=np.uint8)
    weight = np.zeros((reels, max_len), dtype=np.int64)
    count = np.zeros((max(len(counted), 1), reels, max_len), dtype=np.int64)
    for r, strip in enumerate(strips):
        n = len(strip)
        for stop in range(n):
            for row in range(rows):
                name = strip[(stop + row) % n]
                window[r, stop, row] = ids[name]
                if name in counted:
                    count[counted.index(name), r, stop] += 1
            weight[r, stop] = weights[r][stop] if weights else 1
    total = weight.sum(axis=1)
    cumulative = np.cumsum(weight, axis=1)
    small = int(total.max()) <= WEIGHT_LOOKUP_MAX
    lookup = np.zeros((reels, int(total.max()) if small else 1), dtype=np.int32)
    if small:
        for r in range(reels):
            lookup[r, : total[r]] = np.repeat(np.arange(max_len), weight[r])
    return ReelSet(
        window,
        np.array([len(s) for s in strips], dtype=np.int64),
        weight,
        total,
        lookup,
        cumulative,
        count,
        weighted=weights is not None,
    )


def _ways_match(machine: Machine, ids: dict[str, int]) -> np.ndarray:
    out = np.zeros((len(machine.pays), machine.reels, len(ids)), dtype=np.int64)
    for e in machine.pays:
        for pos, token in enumerate(e.combo):
            for name, sid in ids.items():
                ok, mult = token_match(machine, token, name)
                if ok:
                    out[e.index, pos, sid] = mult
    return out


def _ways_family(machine: Machine) -> np.ndarray:
    """Family id per entry: entries sharing the first token pay only the longest."""
    first: dict[str, int] = {}
    return np.array(
        [first.setdefault(e.combo[0], len(first)) for e in machine.pays], dtype=np.int64
    )


JACKPOT_RANK = 10**15


def jackpot_entries(machine: Machine, level: int) -> dict[int, str]:
    """Pay entries replaced by a jackpot at ``level``: entry index -> jackpot id."""
    out = {}
    for jp in machine.jackpots:
        if jp.trigger_combo is None:
            continue
        if jp.min_bet_level is not None and level < jp.min_bet_level:
            continue
        for e in machine.pays:
            if e.combo == jp.trigger_combo:
                out[e.index] = jp.id
    return out


def _level_tables(machine: Machine, tables: GameTables, li: int, level: int) -> LevelTables:
    credits = [e.credits(li, level) for e in machine.pays]
    rank = list(credits)
    for index in jackpot_entries(machine, level):
        credits[index] = 0
        rank[index] = JACKPOT_RANK
    total_bet = machine.total_bet(level)
    max_count = machine.rows * machine.reels
    scatter = np.zeros((max(len(tables.counted_names), 1), max_count + 1), dtype=np.int64)
    for c, name in enumerate(tables.counted_names):
        for sp in sorted(
            (s for s in machine.scatter_pays if s.symbol == name), key=lambda s: s.count
        ):
            scatter[c, sp.count :] = sp.pays * total_bet
    bonus = np.array(
        [a.pays * total_bet for a in machine.bonus.awards] if machine.bonus else [0], dtype=np.int64
    )
    if tables.is_ways:
        trans = np.zeros((1, len(tables.symbol_ids)), dtype=np.int32)
        live = np.zeros(1, dtype=np.bool_)
        win = np.zeros(1, dtype=np.int64)
        entry = np.full(1, -1, dtype=np.int32)
    else:
        dfa = build_line_automaton(machine, credits, rank)
        trans, live, win, entry = dfa.trans, dfa.live, dfa.win, dfa.best_entry
    signature = (
        tuple(np.array(credits) * 1.0 / total_bet),
        tuple(scatter.ravel() / total_bet),
        tuple(bonus / total_bet),
    )
    return LevelTables(
        li,
        level,
        total_bet,
        np.array(credits, dtype=np.int64),
        trans,
        live,
        win,
        entry,
        scatter,
        bonus,
        finishing_automaton(trans, live, win, entry),
        signature,
    )


def ways_sums(window: np.ndarray, ways_match: np.ndarray) -> np.ndarray:
    """Ways each pay entry finds on each reel at each stop: ``[reel, stop, entry]``.

    The sum over the window's rows of ``ways_match`` (1, or a wild's
    multiplier, where a symbol matches the entry's token on that reel): a
    spin's ways for an entry are the product over its reels.
    """
    reels = window.shape[0]
    out = np.zeros((reels, window.shape[1], ways_match.shape[0]), dtype=np.int64)
    for r in range(reels):
        out[r] = ways_match[:, r, window[r]].sum(axis=-1).T
    return out


PAIR_TABLE_MAX = 1 << 18  # entries; beyond, spins step one reel at a time


def finishing_automaton(
    trans: np.ndarray, live: np.ndarray, win: np.ndarray, entry: np.ndarray
) -> tuple:
    """The line automaton as the simulation finishes lines: no live checks needed.

    Returns ``(step, pair, win, entry1)`` over the states plus one *null*
    state (index ``n_states``: dead, no pay) that stands for "no line". In
    ``step`` (one reel) and ``pair`` (two reels at once, ``[state, a *
    n_symbols + b]``) dead states stay where they are, so a line can be
    stepped over every remaining reel without testing whether it died;
    ``entry1`` is the paying entry + 1 (0: none). ``pair`` is a (1, 1) dummy
    when it would exceed :data:`PAIR_TABLE_MAX` entries.
    """
    n_states, n_symbols = trans.shape
    null = n_states
    states = np.arange(n_states + 1)
    step = np.vstack([trans, np.full((1, n_symbols), null)]).astype(np.int32)
    alive = np.append(live, False)
    step[~alive] = states[~alive, None]
    if (n_states + 1) * n_symbols * n_symbols > PAIR_TABLE_MAX:
        pair = np.zeros((1, 1), dtype=np.int32)
    else:
        pair = step[step].reshape(n_states + 1, n_symbols * n_symbols)
    return (
        step,
        pair,
        np.append(win, 0).astype(np.int64),
        np.append(entry + 1, 0).astype(np.int64),
    )
