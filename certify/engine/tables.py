"""Compile a :class:`Machine` into the flat arrays the kernels read.

Nothing here runs per spin: it is done once per machine and bet level.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from certify.engine.dfa import build_line_automaton, token_match
from certify.errors import ModelError, Problem
from certify.model.schema import Machine

HIST_BINS = 32  # bin 0: no win; bin k: win / total bet in [2^(k-11), 2^(k-10))
WEIGHT_LOOKUP_MAX = 1 << 16


class Finishing(NamedTuple):
    """The line automaton as lines are finished (see :func:`finishing_automaton`)."""

    step: np.ndarray  # (states + 1, symbols) one reel; dead states stay put
    pair: np.ndarray  # (states + 1, symbols^2) two reels at once, or a (1, 1) dummy
    win1: np.ndarray  # (states + 1,) credits of the final state
    entry1: np.ndarray  # (states + 1,) paying entry + 1 (0: none)


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
    trans: np.ndarray  # lines: automaton (base states, then the free spins' own if any)
    live: np.ndarray
    state_win: np.ndarray
    state_entry: np.ndarray  # award key of a settled state (-1 none), see award_keys
    scatter_pay: np.ndarray  # (n_counted, max_count + 1) credits at this level
    bonus_pay: np.ndarray  # (n_awards,) credits
    finishing: Finishing = field(compare=False)  # lines: see finishing_automaton
    signature: tuple = field(default=())
    credits_fs: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    scatter_pay_fs: np.ndarray = field(default_factory=lambda: np.zeros((1, 1), dtype=np.int64))
    start: np.ndarray = field(default_factory=lambda: np.zeros(2, dtype=np.int64))
    award_keys: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), dtype=np.int64))
    cap: int = 0  # win cap in credits (0: none)

    @property
    def n_keys(self) -> int:
        """Award keys a settled line state may pay (entries, then pairs of both-ways lines)."""
        return int(self.award_keys.shape[0])


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
    fs_mult: int  # the feature's multiplier
    fs_retrigger: bool
    fs_max: int  # 0 = no cap
    bonus_counted: int
    bonus_min: int
    bonus_weight_cum: np.ndarray  # (n_awards,) running weights
    ways_match: np.ndarray  # (n_entries, reels, n_symbols) multiplier or 0
    ways_family: np.ndarray  # (n_entries,) family id (entries sharing a first token)
    entry_len: np.ndarray  # (n_entries,)
    levels: tuple[LevelTables, ...]
    prefix_cache: dict = field(default_factory=dict, compare=False, repr=False)
    fs_own_pays: bool = False  # free spins pay from their own premultiplied tables
    fs_retrigger_once: bool = False
    scatter_excl: np.ndarray = field(default_factory=lambda: np.zeros(1, dtype=np.int64))

    @property
    def fs_spin_mult(self) -> int:
        """What the kernels multiply a free spin's line and scatter win by.

        1 when the free spins pay from their own tables, premultiplied entry by
        entry (some entry is not multiplied in the feature), else the multiplier.
        """
        return 1 if self.fs_own_pays else self.fs_mult

    @property
    def fs_retriggers(self) -> int:
        """Retriggers allowed in one feature: 0, 1 (``"once"``) or -1 (unlimited)."""
        if not self.fs_retrigger:
            return 0
        return 1 if self.fs_retrigger_once else -1


MAX_COUNTED = 8  # counted symbols travel packed, 8 bits each, in one uint64
MAX_WINDOW = 127  # cells of the window: a count must stay below 128 (SWAR alarm)


def compile_machine(machine: Machine) -> GameTables:
    """Build the kernel tables of every bet level of ``machine``."""
    ids = {s.name: i for i, s in enumerate(machine.symbols)}
    counted = _counted_symbols(machine)
    _check_engine_limits(machine, counted)
    base = _reel_set(machine.strips, machine.weights, machine.rows, ids, counted)
    fs = machine.free_spins
    free = base
    own_pays = fs is not None and any(not e.free_spins_multiplier for e in machine.pays)
    if fs is not None and fs.strips is not None:
        free = _reel_set(fs.strips, fs.weights, machine.rows, ids, counted)
    elif own_pays:  # the same strips, but a reel set of its own: its lines start elsewhere
        free = dataclasses.replace(base)
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
        levels=(),
        fs_own_pays=own_pays,
        fs_retrigger_once=bool(fs and fs.retrigger_once),
        scatter_excl=np.array(
            [1 if n in machine.rules.exclusive_scatters else 0 for n in counted] or [0],
            dtype=np.int64,
        ),
    )
    levels = tuple(
        _level_tables(machine, tables, li, level) for li, level in enumerate(machine.bet_levels)
    )
    return dataclasses.replace(tables, levels=levels)


def _check_engine_limits(machine: Machine, counted: list[str]) -> None:
    """Refuse, with a located error, a machine the kernels' packed counts cannot hold."""
    problems = []
    where = machine.source or machine.id
    if len(counted) > MAX_COUNTED:
        problems.append(
            Problem(
                where,
                "scatter_pays",
                f"{len(counted)} counted symbols "
                f"(scatters, feature triggers) {counted}: the engine counts at "
                f"most {MAX_COUNTED}",
                "engine_limit",
            )
        )
    if machine.rows * machine.reels > MAX_WINDOW:
        problems.append(
            Problem(
                where,
                "reels.rows",
                f"a window of {machine.rows} x "
                f"{machine.reels} cells: the engine counts at most {MAX_WINDOW}",
                "engine_limit",
            )
        )
    if problems:
        raise ModelError(problems)


def _counted_symbols(machine: Machine) -> list[str]:
    """Symbols counted anywhere: exclusive scatters first, in their listed order."""
    names: list[str] = list(machine.rules.exclusive_scatters)
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
            scatter[c, sp.count :] = sp.pays * machine.scatter_bet(level)
    bonus = np.array(
        [a.pays * total_bet for a in machine.bonus.awards] if machine.bonus else [0], dtype=np.int64
    )
    mult = tables.fs_mult if tables.fs_own_pays else 1
    credits_fs = [c * mult if e.free_spins_multiplier else c for c, e in zip(credits, machine.pays)]
    trans, live, win, entry, keys, start = _automaton(machine, tables, credits, credits_fs, rank)
    signature = (
        tuple(np.array(credits) * 1.0 / total_bet),
        tuple(scatter.ravel() / total_bet),
        tuple(bonus / total_bet),
        tuple(np.array(credits_fs) * 1.0 / total_bet),
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
        credits_fs=np.array(credits_fs, dtype=np.int64),
        scatter_pay_fs=scatter * mult,
        start=start,
        award_keys=keys,
        cap=(machine.rules.win_cap or 0) * total_bet,
    )


def _automaton(
    machine: Machine,
    tables: GameTables,
    credits: list[int],
    credits_fs: list[int],
    rank: list[int],
) -> tuple:
    """(trans, live, win, award key, key entries, start states) of a level.

    When free spins pay from their own tables the automaton is the union of
    the base game's and the feature's (premultiplied credits, chosen by the
    same base ranks); the feature's lines start at its first state.
    """
    n_entries = len(machine.pays)
    if tables.is_ways:
        return (
            np.zeros((1, len(tables.symbol_ids)), dtype=np.int32),
            np.zeros(1, dtype=np.bool_),
            np.zeros(1, dtype=np.int64),
            np.full(1, -1, dtype=np.int32),
            np.eye(n_entries, dtype=np.int64),
            np.zeros(2, dtype=np.int64),
        )
    base = build_line_automaton(machine, credits, rank)
    if not tables.fs_own_pays:
        keys = base.key_entries(n_entries)
        return base.trans, base.live, base.win, base.best_entry, keys, np.zeros(2, dtype=np.int64)
    free = build_line_automaton(machine, credits_fs, rank)
    n = base.trans.shape[0]
    key_index = {k: i for i, k in enumerate(base.keys)}
    for k in free.keys:
        key_index.setdefault(k, len(key_index))
    remap = np.array([key_index[k] for k in free.keys] + [-1], dtype=np.int32)
    keys = np.zeros((len(key_index), n_entries), dtype=np.int64)
    for k, i in key_index.items():
        for e in k:
            keys[i, e] += 1
    return (
        np.vstack([base.trans, free.trans + n]).astype(np.int32),
        np.concatenate([base.live, free.live]),
        np.concatenate([base.win, free.win]),
        np.concatenate([base.best_entry, remap[free.best_entry]]).astype(np.int32),
        keys,
        np.array([0, n], dtype=np.int64),
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
) -> Finishing:
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
    return Finishing(
        step,
        pair,
        np.append(win, 0).astype(np.int64),
        np.append(entry + 1, 0).astype(np.int64),
    )
