"""Compile a :class:`Machine` into the flat arrays the kernels read.

Nothing here runs per spin: it is done once per machine and bet level.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np

from certify.bounds import LINE_BONUS_BITS, LINE_BONUS_TAG, law_field
from certify.engine.big import filled, one_part, split_big
from certify.engine.dfa import build_line_automaton, key_matrix, token_match
from certify.engine.fullwindow import full_window_arrays
from certify.engine.hold import hold_arrays
from certify.engine.limits import check_machine, jackpot_entries
from certify.engine.modes import chance_expanding, drawn_chance, mode_parts
from certify.engine.paint import Parts, paints, split_phase
from certify.engine.runs import refusals as consecutive_refusals
from certify.engine.runs import split_runs
from certify.errors import ModelError, Problem
from certify.model.schema import Machine, Symbol
from certify.model.screens import is_screen_game

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
    factor : (reels, max_len) int64, what the stop multiplies the spin's wins by
        (``window_multiplier`` cells, a ``full_reel_multiplier`` value drawn into
        the stop), or None where every stop is x1

    """

    window: np.ndarray
    length: np.ndarray
    weight: np.ndarray
    total_weight: np.ndarray
    lookup: np.ndarray
    cumulative: np.ndarray
    counted: np.ndarray
    weighted: bool
    factor: np.ndarray | None = None

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
    hold: Any = None  # hold-and-spin kernel arrays at this bet (HoldArrays), else None
    expand_pay: np.ndarray = field(default_factory=lambda: np.zeros((1, 1), dtype=np.int64))
    law_pay: np.ndarray = field(  # the bonus games pays play: their prizes, one after another
        default_factory=lambda: np.zeros(1, dtype=np.int64)
    )

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
    # ``paints``: each phase's reel sets, one per painting reels' signature (None: not painted);
    # free_parts is base_parts when the free spins play the base set
    base_parts: Parts | None = None
    free_parts: Parts | None = None
    bonus_jmax: int = 1  # bonus buckets: 1 (a pick bonus: triggered or not), or the coins counted
    hold_on: bool = False  # the bonus symbol starts hold and spin
    fs_own_pays: bool = False  # free spins pay from their own premultiplied tables
    fs_retrigger_once: bool = False
    fs_respins: np.ndarray = field(  # (max_count + 1,) spins a retrigger adds by count
        default_factory=lambda: np.zeros(1, dtype=np.int64)
    )
    scatter_excl: np.ndarray = field(default_factory=lambda: np.zeros(1, dtype=np.int64))
    expand_symbols: tuple[str, ...] = ()  # Book of Ra: the symbols the feature may draw
    expand_weights: np.ndarray = field(default_factory=lambda: np.ones(1, dtype=np.int64))
    expand_present: np.ndarray = field(  # (reels, stops, symbols) 1: the free column shows it
        default_factory=lambda: np.zeros((1, 1, 1), dtype=np.int64)
    )
    fs_each_mult: np.ndarray = field(  # (values,) multipliers drawn for each free spin ([1]: none)
        default_factory=lambda: np.ones(1, dtype=np.int64)
    )
    fs_each_weights: np.ndarray = field(  # (values,) their weights
        default_factory=lambda: np.ones(1, dtype=np.int64)
    )
    base_each_mult: np.ndarray = field(  # (values,) multipliers each paid spin draws ([1]: none)
        default_factory=lambda: np.ones(1, dtype=np.int64)
    )
    base_each_weights: np.ndarray = field(  # (values,) their weights
        default_factory=lambda: np.ones(1, dtype=np.int64)
    )
    fs_draw_weights: np.ndarray = field(  # (options,) weights of drawn free-spin options
        default_factory=lambda: np.ones(1, dtype=np.int64)
    )
    fs_draw_spins: np.ndarray = field(  # (options, 2 (max count + 1)) trigger then retrigger
        default_factory=lambda: np.zeros((1, 2), dtype=np.int64)
    )
    fs_draw_mult: np.ndarray = field(  # (options,) each drawn option's multiplier
        default_factory=lambda: np.ones(1, dtype=np.int64)
    )
    fs_count_mult: np.ndarray = field(  # (max count + 1,) the feature's multiplier by trigger
        default_factory=lambda: np.ones(1, dtype=np.int64)  # count ([1]: fs_mult for every count)
    )
    full_window_mask: np.ndarray = field(  # (sets, reels, stops) targets each column passes
        default_factory=lambda: np.zeros((1, 1, 1), dtype=np.uint64)
    )
    full_window_mult: np.ndarray = field(  # (targets,) multiplier of a window full of each
        default_factory=lambda: np.ones(0, dtype=np.int64)
    )
    line_bonus_tag: int = 0  # credits that mark a line bonus in the kernels' line wins (0: none)
    law_cum: np.ndarray = field(  # each bonus game pays play: running weights, one after another
        default_factory=lambda: np.zeros(1, dtype=np.int64)
    )
    law_off: np.ndarray = field(  # (games + 1,) where each game's prizes start in law_cum
        default_factory=lambda: np.zeros(2, dtype=np.int64)
    )
    law_field: int = LINE_BONUS_BITS  # bits of a spin's mark counting one game's plays

    @property
    def fs_spin_mult(self) -> int:
        """What the kernels multiply a free spin's line and scatter win by.

        1 when the free spins pay from their own tables, premultiplied entry by
        entry (some entry is not multiplied in the feature), else the multiplier.
        """
        return 1 if self.fs_own_pays else self.fs_mult

    @property
    def fs_mult_moments(self) -> tuple[float, float]:
        """(E[M], E[M^2]) of what the kernels multiply a free spin's win by.

        :attr:`fs_spin_mult` and its square, or the moments of a multiplier
        drawn for each free spin (``free_spins.multiplier`` as a table).
        """
        if self.fs_each_mult.shape[0] > 1 or self.fs_each_mult[0] != 1:
            w = self.fs_each_weights / self.fs_each_weights.sum()
            v = self.fs_each_mult.astype(np.float64)
            return float(np.dot(w, v)), float(np.dot(w, v * v))
        return float(self.fs_spin_mult), float(self.fs_spin_mult) ** 2

    @property
    def factor_on(self) -> bool:
        """Whether some stop multiplies the spin's wins (``window_multiplier``, full reels)."""
        return self.base.factor is not None or self.free.factor is not None

    @property
    def base_mult_moments(self) -> tuple[float, float]:
        """(E[M], E[M^2]) of the multiplier a paid spin draws (``[rules] spin_multiplier``).

        It multiplies the paid spin's line, ways and scatter win, independently of
        the stops; (1, 1) where the game has none.
        """
        w = self.base_each_weights / self.base_each_weights.sum()
        v = self.base_each_mult.astype(np.float64)
        return float(np.dot(w, v)), float(np.dot(w, v * v))

    @property
    def fs_retriggers(self) -> int:
        """Retriggers allowed in one feature: 0, 1 (``"once"``) or -1 (unlimited)."""
        if not self.fs_retrigger:
            return 0
        return 1 if self.fs_retrigger_once else -1


def _phase_reel_sets(
    machine: Machine, ids: dict[str, int], counted: list[str]
) -> tuple[ReelSet, ReelSet, Any, Any]:
    """The base game's and the free spins' reel sets, and their parts (painted, big, modes).

    The free spins share the base game's set unless they have strips, a window rule
    or pays of their own.
    """
    drawn = {s.name: s.multipliers for s in machine.symbols if s.multipliers}
    factors = window_factors(machine)

    fs = machine.free_spins
    # a retrigger by another symbol: the free spins' sets count it in the trigger's place
    recount = {fs.trigger.symbol: fs.retrigger_symbol} if fs and fs.retrigger_symbol else {}

    def reel_set(
        strips: tuple, weights: Any, free: bool, expanding: frozenset[str] = frozenset()
    ) -> ReelSet:
        rule = _column_rule(machine, free, expanding)
        return _reel_set(
            strips,
            weights,
            machine.rows,
            ids,
            counted,
            rule,
            machine.heights,
            machine.counts_on,
            drawn,
            factors,
            recount if free else None,
        )

    base = reel_set(machine.strips, machine.weights, False)
    free = base
    own_pays = _free_spins_own_pays(machine)
    own_window = fs is not None and (
        any(s.expands == "free_spins" or s.wild_in_free_spins for s in machine.symbols)
        or bool(recount)
    )
    big = fs.big_symbol if fs is not None else None

    def big_cells(r: int, cells: tuple[str, ...]) -> list[int]:  # counted as the free sets count
        return [machine.counts_on(recount.get(n, n), r, cells) for n in counted]

    if fs is not None and big is not None:
        free = reel_set(*fs.played_strips(machine.strips, machine.weights), True)
        free = filled(free, big, ids, big_cells)
    elif fs is not None and fs.strips is not None:
        free = reel_set(fs.strips, fs.weights, True)
    elif own_window:
        free = reel_set(machine.strips, machine.weights, True)
    elif own_pays:  # the same strips, but a reel set of its own: its lines start elsewhere
        free = dataclasses.replace(base)
    base_parts = free_parts = None
    if paints(machine):
        base_parts = split_phase(machine, base, ids, reweighted)
        free_parts = base_parts if free is base else split_phase(machine, free, ids, reweighted)
    elif big is not None:  # the free spins' linked reels: one part per big symbol
        base_parts, free_parts = one_part(base), split_big(free, big, ids, reweighted, big_cells)
    elif (runs := split_runs(machine, base, counted, reweighted)) is not None:
        base_parts = runs  # by which leading reels show the consecutive symbol
        free_parts = base_parts if free is base else split_runs(machine, free, counted, reweighted)
        if free_parts is None:
            free_parts = one_part(free)
    elif (chance := drawn_chance(machine)) is not None:  # the plain and the expanding mode
        wilds = chance_expanding(machine)
        played = {False: (machine.strips, machine.weights)}
        if fs is not None:
            played[True] = fs.played_strips(machine.strips, machine.weights)
        base_parts = mode_parts(base, reel_set(*played[False], False, wilds), chance, reweighted)
        free_parts = (
            base_parts
            if free is base
            else mode_parts(free, reel_set(*played[True], True, wilds), chance, reweighted)
        )
    return base, free, base_parts, free_parts


def _free_spins_own_pays(machine: Machine) -> bool:
    """Free spins pay other credits than the base game (unmultiplied or own pays)."""
    return machine.free_spins is not None and (
        any(not e.free_spins_multiplier for e in machine.pays) or has_free_spins_pays(machine)
    )


def compile_machine(machine: Machine) -> GameTables:
    """Build the kernel tables of every bet level of ``machine``."""
    refuse_unsupported(machine)
    play = play_machine(machine)
    ids = {s.name: i for i, s in enumerate(play.symbols)}
    counted = _counted_symbols(machine)
    check_machine(machine)  # every bound the kernels rely on (certify.engine.limits)
    base, free, base_parts, free_parts = _phase_reel_sets(machine, ids, counted)
    fs = machine.free_spins
    max_count = machine.max_count
    fs_spins, fs_respins = _spins_by_count(fs, max_count)
    bonus = machine.bonus
    hold = machine.hold_and_spin
    trigger = (bonus.trigger if bonus else None) or (hold.trigger if hold else None)
    n_entries = len(machine.pays)
    tables = GameTables(
        machine=machine,
        symbol_ids=ids,
        is_ways=machine.evaluation == "ways",
        paylines=np.array(machine.paylines or [[0] * machine.reels], dtype=np.int64),
        base=base,
        free=free,
        base_parts=base_parts,
        free_parts=free_parts,
        counted_names=tuple(counted),
        fs_counted=counted.index(fs.trigger.symbol) if fs else -1,
        fs_min=fs.trigger.count if fs else 0,
        fs_spins=fs_spins,
        fs_mult=fs.multiplier if fs else 1,
        fs_retrigger=bool(fs and fs.retrigger),
        fs_max=(fs.max_spins or 0) if fs else 0,
        bonus_counted=counted.index(trigger.symbol) if trigger else -1,
        bonus_min=trigger.count if trigger else 0,
        bonus_weight_cum=np.cumsum([a.weight for a in bonus.awards]).astype(np.int64)
        if bonus
        else np.zeros(1, dtype=np.int64),
        ways_match=_ways_match(play, ids)
        if machine.evaluation == "ways"
        else np.zeros((n_entries, machine.reels, len(ids)), dtype=np.int64),
        ways_family=_ways_family(machine),
        entry_len=np.array([len(e.combo) for e in machine.pays], dtype=np.int64),
        levels=(),
        bonus_jmax=machine.rows * machine.reels if hold else 1,
        hold_on=hold is not None,
        fs_own_pays=_free_spins_own_pays(machine),
        fs_retrigger_once=bool(fs and fs.retrigger_once),
        fs_respins=fs_respins,
        **_drawn_options(machine, max_count, fs_spins, fs_respins),
        fs_count_mult=_multiplier_by_count(fs, max_count),
        **_each_spin_multipliers(fs),
        **_paid_spin_multipliers(machine),
        scatter_excl=np.array(
            [1 if n in machine.rules.exclusive_scatters else 0 for n in counted] or [0],
            dtype=np.int64,
        ),
        **_expansion(
            machine,
            fs.strips if fs and fs.strips else machine.strips,
            fs.weights if fs and fs.strips else machine.weights,
            free,
        ),
        **full_window_arrays(
            machine, play.symbols, [base.window] if free is base else [base.window, free.window]
        ),
        line_bonus_tag=LINE_BONUS_TAG if machine.pays_play_bonus else 0,
        **_bonus_laws(machine),
    )
    levels = tuple(
        _level_tables(play, tables, li, level) for li, level in enumerate(machine.bet_levels)
    )
    return dataclasses.replace(tables, levels=levels)


def _expansion(machine: Machine, strips: tuple, weights: Any, free: ReelSet) -> dict:
    """Book of Ra: the drawable symbols, their weights, and where each shows on the free reels."""
    fs = machine.free_spins
    if fs is None or not fs.expanding_symbol:
        return {}
    names = tuple(name for name, _ in fs.expanding_symbol)
    present = np.zeros((free.length.shape[0], free.window.shape[1], len(names)), dtype=np.int64)
    for r, strip in enumerate(strips):
        n = len(strip)
        for stop in range(n):  # as landed: a wild (or wild-scatter) is not the drawn symbol
            column = {strip[(stop + i) % n] for i in range(machine.rows)}
            for j, name in enumerate(names):
                present[r, stop, j] = 1 if name in column else 0
    return {
        "expand_symbols": names,
        "expand_weights": np.array([w for _, w in fs.expanding_symbol], dtype=np.int64),
        "expand_present": present,
    }


def expansion_pays(machine: Machine, credits_fs: list[int], names: tuple[str, ...]) -> np.ndarray:
    """(symbols, reels + 1) credits the expanded symbol adds on every line, by reels shown.

    It pays, on every line, its entry for that number of reels (the longest
    entry not longer, from its shortest pay up) as if they stood adjacent.
    """
    out = np.zeros((max(len(names), 1), machine.reels + 1), dtype=np.int64)
    lines = max(len(machine.paylines), 1)
    for j, name in enumerate(names):
        own = {
            len(e.combo): credits_fs[e.index]
            for e in machine.pays
            if not e.anywhere and e.combo == (name,) * len(e.combo)
        }
        for k in range(machine.reels + 1):
            fit = [n for n in own if n <= k]
            if fit and k >= min(own):
                out[j, k] = lines * own[max(fit)]
    return out


def _counted_symbols(machine: Machine) -> list[str]:
    """Symbols counted anywhere: exclusive scatters first, in their listed order."""
    names: list[str] = list(machine.rules.exclusive_scatters)
    if machine.hold_and_spin is not None:
        names.append(machine.hold_and_spin.trigger.symbol)
    for sp in machine.scatter_pays:
        names.append(sp.symbol)
    if machine.free_spins is not None:
        names.append(machine.free_spins.trigger.symbol)
    if machine.bonus is not None and machine.bonus.trigger is not None:
        names.append(machine.bonus.trigger.symbol)
    return list(dict.fromkeys(names))


EMPTY = "\u00b7"  # a cell a shorter reel does not show (variable heights): matches nothing


def refuse_unsupported(machine: Machine) -> None:
    """A located error for a feature the file may declare but this engine does not play yet.

    Never a silently wrong figure: a game using one of these is refused (exit 2).
    """
    where = machine.source or machine.id
    found = []
    if machine.full_window_pays and machine.cluster_pays:
        found.append(("full_window_pays", "[[full_window_pays]] in a cluster game"))
    elif machine.cascade is not None:  # a cascade multiplies its screens' line or ways wins
        for i, e in enumerate(machine.full_window_pays):
            if e.jackpot is not None:
                where = f"full_window_pays[{i}].jackpot"
                found.append((where, "a full-window jackpot in a cascade game"))
    found += _unplayed_rule_combinations(machine)
    if found:
        raise ModelError(
            [
                Problem(
                    where, key, f"{what} is not played by this version's engine yet", "unsupported"
                )
                for key, what in found
            ]
        )


def _spins_by_count(fs: Any, max_count: int) -> tuple[np.ndarray, np.ndarray]:
    """(spins a trigger awards, spins a retrigger adds) by count, 0 to ``max_count``."""
    spins = np.zeros(max_count + 1, dtype=np.int64)
    respins = np.zeros(max_count + 1, dtype=np.int64)
    if fs is not None:
        for c in range(max_count + 1):
            spins[c] = fs.spins_for(c) if c >= fs.trigger.count else 0
            respins[c] = fs.retrigger_for(c)
    return spins, respins


def _drawn_options(
    machine: Machine, max_count: int, fs_spins: np.ndarray, fs_respins: np.ndarray
) -> dict[str, Any]:
    """The ``GameTables`` fields of the free-spin options the machine draws (one row if none).

    Row ``o``: option ``o``'s spins by trigger count, then what a retrigger adds
    (``retrigger_spins``, else the option's own spins), as ``GameInputs.fs_spins``.
    """
    fs = machine.free_spins
    if fs is None or not fs.options_drawn:
        return {
            "fs_draw_weights": np.ones(1, dtype=np.int64),
            "fs_draw_spins": np.concatenate([fs_spins, fs_respins])[None, :],
            "fs_draw_mult": np.array([fs.multiplier if fs else 1], dtype=np.int64),
        }
    rows = []
    for variant in machine.option_machines():
        spins, respins = _spins_by_count(variant.free_spins, max_count)
        rows.append(np.concatenate([spins, respins]))
    return {
        "fs_draw_weights": np.array([o.weight for o in fs.options], dtype=np.int64),
        "fs_draw_spins": np.array(rows, dtype=np.int64),
        "fs_draw_mult": np.array([o.multiplier for o in fs.options], dtype=np.int64),
    }


def _multiplier_by_count(fs: Any, max_count: int) -> np.ndarray:
    """The feature's multiplier by trigger count, 0 to ``max_count`` ([1]: not by count)."""
    if fs is None or not fs.multiplier_by_count:
        return np.ones(1, dtype=np.int64)
    return np.array([fs.multiplier_at(c) for c in range(max_count + 1)], dtype=np.int64)


def _each_spin_multipliers(fs: Any) -> dict[str, Any]:
    """The ``GameTables`` fields of a multiplier drawn for each free spin (x1, weight 1: none)."""
    table = fs.multipliers if fs is not None and fs.multipliers else ((1, 1),)
    return {
        "fs_each_mult": np.array([v for v, _ in table], dtype=np.int64),
        "fs_each_weights": np.array([w for _, w in table], dtype=np.int64),
    }


def _paid_spin_multipliers(machine: Machine) -> dict[str, Any]:
    """The ``GameTables`` fields of the multiplier each paid spin draws (x1, weight 1: none)."""
    table = machine.rules.spin_multipliers or ((1, 1),)
    return {
        "base_each_mult": np.array([v for v, _ in table], dtype=np.int64),
        "base_each_weights": np.array([w for _, w in table], dtype=np.int64),
    }


def _spin_multiplier_limits(machine: Machine, screens: bool) -> list[str]:
    """Why ``[rules] spin_multiplier`` is not played with this game, if it is not."""
    what = "a multiplier drawn for each paid spin"
    out = []
    if screens:
        out.append(f"{what} in a screen game (cascade, cluster, sticky, hold)")
    if machine.rules.win_cap is not None:
        out.append(f"{what} with rules.win_cap")
    if machine.pays_play_bonus:
        out.append(f"{what} with pays that play the bonus game")
    fs = machine.free_spins
    if fs is not None and fs.expanding_symbol:
        out.append(f"{what} with free_spins.expanding_symbol")
    return out


def _window_factor_refusals(machine: Machine, screens: bool) -> list[tuple[str, str]]:
    """(key, what) of each symbol that multiplies the spin in a game that does not play it."""
    out = []
    for s in machine.symbols:
        for key, on in (
            ("window_multiplier", s.window_multiplier != 1),
            ("full_reel_multiplier", bool(s.full_reel_multipliers)),
        ):
            if on:
                where = f"symbols.{s.name}.{key}"
                out += [(where, f"{where} {w}") for w in _window_factor_limits(machine, screens)]
    return out


def _window_factor_limits(machine: Machine, screens: bool) -> list[str]:
    """Why a symbol that multiplies the spin is not played with this game, if it is not."""
    out = []
    if screens:
        out.append("in a screen game (cascade, cluster, sticky, hold)")
    if machine.rules.win_cap is not None:
        out.append("with rules.win_cap")
    if machine.pays_play_bonus:
        out.append("with pays that play the bonus game")
    if machine.full_window_pays:
        out.append("with [[full_window_pays]]")
    fs = machine.free_spins
    if fs is not None and fs.expanding_symbol:
        out.append("with free_spins.expanding_symbol")
    return out


def _unplayed_rule_combinations(machine: Machine) -> list[tuple[str, str]]:
    """(key, what) of the compile-time rules of real games where they are not played.

    Screen games (cascade, cluster, sticky wilds) and hold and spin count and pay
    on their own cell grid, and the Book-of-Ra symbol reads the physical stops and
    the base credits: none of them sees a transform of the reel sets or tables.
    """
    out = []
    fs = machine.free_spins
    screens = is_screen_game(machine) or machine.hold_and_spin is not None
    in_screens = " in a screen game (cascade, cluster, sticky, hold)"
    if screens and fs is not None and machine.symbol(fs.trigger.symbol).kind == "wild":
        out.append(("free_spins.trigger.symbol", "free spins triggered by a wild" + in_screens))
    free_pays = [f"pays[{e.index}]" for e in machine.pays if e.free_spins_pays is not None]
    free_pays += [
        f"scatter_pays[{i}]"
        for i, sp in enumerate(machine.scatter_pays)
        if sp.free_spins_pays is not None
    ]
    for where in free_pays[:1]:
        # a screen game's scatter tables are per phase (the free spins' own); its lines'
        # automaton reads one table, and hold and spin pays on its own grid
        if screens and (where.startswith("pays") or machine.hold_and_spin is not None):
            out.append((f"{where}.free_spins_pays", "the free spins' own pays" + in_screens))
        if fs is not None and fs.expanding_symbol:
            what = "the free spins' own pays with free_spins.expanding_symbol"
            out.append((f"{where}.free_spins_pays", what))
    hold, in_hold = machine.hold_and_spin is not None, " with hold and spin"
    for s in machine.symbols:
        keys = [("multipliers", "multiplier", screens, in_screens)]
        # the screen kernels count a cell by its reel and symbol (engine/screens.count_by)
        keys += [(key, key, hold, in_hold) for key in ("reels", "wilds_count", "counts_as")]
        if s.kind == "scatter":
            keys.append(("wild_in_free_spins", "wild_in_free_spins", screens, in_screens))
        for field_name, key, refused, game in keys:
            if getattr(s, field_name) and refused:
                out.append((f"symbols.{s.name}.{key}", f"symbols.{s.name}.{key}" + game))
        if s.multipliers and fs is not None and fs.expanding_symbol:
            what = "a drawn wild multiplier with free_spins.expanding_symbol"
            out.append((f"symbols.{s.name}.multiplier", what))
    out += consecutive_refusals(machine, screens)
    if machine.rules.spin_multipliers:
        out += [("rules.spin_multiplier", w) for w in _spin_multiplier_limits(machine, screens)]
    out += _window_factor_refusals(machine, screens)
    if fs is not None and fs.multiplier_by_count:
        out += [
            ("free_spins.multiplier_by_count", w)
            for w in _count_multiplier_limits(machine, screens)
        ]
    if fs is not None and fs.options_drawn:
        out += [("free_spins.options", what) for what in _drawn_option_limits(machine, screens)]
    if fs is not None and fs.multipliers:
        out += [
            (
                "free_spins.multiplier",
                what.replace("drawn free-spin options", "a multiplier drawn for each free spin"),
            )
            for what in _drawn_option_limits(machine, screens)
        ]
    return out


def _count_multiplier_limits(machine: Machine, screens: bool) -> list[str]:
    """Why ``free_spins.multiplier_by_count`` is not played with this game, if it is not.

    A retrigger is refused: cabinets differ on whether it keeps the feature's
    multiplier or takes its own count's (slotopol's Jaguar Moon takes the new one).
    """
    fs = machine.free_spins
    assert fs is not None
    what = "a free-spin multiplier by trigger count"
    out = []
    if screens:
        out.append(f"{what} in a screen game (cascade, cluster, sticky, hold)")
    if fs.retrigger:
        out.append(f"{what} with a retrigger (keep the multiplier or take the new count's?)")
    if _free_spins_own_pays(machine):
        out.append(f"{what} with the free spins' own pays (free_spins_pays, free_spins_multiplier)")
    return out


def _drawn_option_limits(machine: Machine, screens: bool) -> list[str]:
    """Why drawn free-spin options (``weight``) are not played with this game, if they are not."""
    fs = machine.free_spins
    assert fs is not None
    out = []
    if screens:
        out.append("drawn free-spin options in a screen game (cascade, cluster, sticky, hold)")
    if fs.expanding_symbol:
        out.append("drawn free-spin options with free_spins.expanding_symbol")
    premultiplied = any(
        e.free_spins_pays is not None or not e.free_spins_multiplier for e in machine.pays
    )
    premultiplied |= any(sp.free_spins_pays is not None for sp in machine.scatter_pays)
    if premultiplied:
        out.append(
            "drawn free-spin options with free_spins_pays or free_spins_multiplier = false"
            " (the feature's tables are premultiplied)"
        )
    if machine.rules.win_cap is not None:
        out.append("drawn free-spin options with rules.win_cap")
    return out


def play_machine(machine: Machine) -> Machine:
    """The machine as the engine plays it: virtual symbols appended.

    A regular symbol with ``wild_in_free_spins`` gets a wild twin ``X*`` that
    the free-spin windows show in its place (it matches ``X`` literally and
    substitutes like a wild); a wild with drawn multipliers one wild per value
    (:func:`drawn_name`); variable heights get the empty cell ``EMPTY``.
    """
    extra = [
        Symbol(
            f"{s.name}*",
            "wild",
            1,
            tuple(x.name for x in machine.symbols if x.kind == "regular"),
            plays=s.name,
        )
        for s in machine.symbols
        if s.wild_in_free_spins
    ]
    extra += [
        Symbol(drawn_name(s.name, v), "wild", v, s.substitutes, plays=s.name)
        for s in machine.symbols
        for v, _ in s.multipliers
    ]
    if machine.heights is not None:
        extra.append(Symbol(EMPTY, "blank", plays=EMPTY))
    return (
        dataclasses.replace(machine, symbols=machine.symbols + tuple(extra)) if extra else machine
    )


def _column_rule(machine: Machine, free: bool, drawn: frozenset[str] = frozenset()):
    """How a landed column is evaluated on the lines: wilds in free spins, expanding wilds.

    ``drawn``: wilds expanding in this reel set (the drawn mode of ``expands = {chance}``).
    """
    as_wild = {s.name: f"{s.name}*" for s in machine.symbols if s.wild_in_free_spins and free}
    expanding = {s.name for s in machine.symbols if s.expands == "always" or (free and s.expands)}
    expanding |= drawn

    def rule(column: tuple[str, ...]) -> tuple[str, ...]:
        column = tuple(as_wild.get(name, name) for name in column)
        for name in column:
            if name in expanding:
                return (name,) * len(column)
        return column

    return rule


def _reel_set(
    strips: tuple,
    weights: tuple | None,
    rows: int,
    ids: dict[str, int],
    counted: list[str],
    rule=None,
    heights: tuple | None = None,
    counts_on=None,
    drawn: dict[str, tuple[tuple[int, int], ...]] | None = None,
    factors: WindowFactors | None = None,
    recount: dict[str, str] | None = None,
) -> ReelSet:
    """Kernel arrays of one set of strips.

    Each reel's *stops* are its (height, stop) pairs (one height of ``rows``
    unless the reels have variable heights), weighted by height weight x stop
    weight. ``window`` holds the column as the lines evaluate it (``rule``:
    expanding wilds, wilds in free spins; a shorter reel padded with
    :data:`EMPTY`); ``counted`` counts the symbols as they landed
    (``counts_on``: :meth:`Machine.counts_on`, a symbol's reels and wilds).
    A wild with ``drawn`` multipliers splits each stop showing it into one
    stop per drawn value (see :func:`_draw_multipliers`); ``factors`` gives each
    stop what it multiplies the spin's wins by, a drawn full-reel value split
    into the stop the same way (see :func:`_window_factor_columns`). ``recount``:
    counted name -> the symbol counted in its place (a retrigger by another symbol).
    """
    reels = len(strips)
    columns = [
        _draw_multipliers(
            _columns(strip, weights[r] if weights else None, rows, heights, r, rule), drawn or {}
        )
        for r, strip in enumerate(strips)
    ]
    stop_factors: list[list[int]] | None = None
    if factors is not None and factors.any:
        split = [_window_factor_columns(c, factors) for c in columns]
        columns = [[c[:3] for c in reel] for reel in split]
        stop_factors = [[c[3] for c in reel] for reel in split]
    max_len = max(len(c) for c in columns)
    window = np.zeros((reels, max_len, rows), dtype=np.uint8)
    weight = np.zeros((reels, max_len), dtype=np.int64)
    count = np.zeros((max(len(counted), 1), reels, max_len), dtype=np.int64)
    for r, reel in enumerate(columns):
        for stop, (shown, landed, w) in enumerate(reel):
            window[r, stop] = [ids[name] for name in shown]
            for c, name in enumerate(counted):
                name = (recount or {}).get(name, name)
                count[c, r, stop] = counts_on(name, r, landed) if counts_on else landed.count(name)
            weight[r, stop] = w
    total, cumulative, lookup = _draw_arrays(weight)
    factor = None
    if stop_factors is not None:
        factor = np.ones((reels, max_len), dtype=np.int64)
        for r, values in enumerate(stop_factors):
            factor[r, : len(values)] = values
    return ReelSet(
        window,
        np.array([len(c) for c in columns], dtype=np.int64),
        weight,
        total,
        lookup,
        cumulative,
        count,
        weighted=bool((weight[weight > 0] != 1).any()) or weights is not None,
        factor=factor,
    )


def _draw_arrays(weight: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(totals, running weights, draw -> stop lookup) of per-reel stop weights.

    The lookup has one column where a reel's total is above :data:`WEIGHT_LOOKUP_MAX`.
    """
    total = weight.sum(axis=1)
    small = int(total.max()) <= WEIGHT_LOOKUP_MAX
    lookup = np.zeros((weight.shape[0], int(total.max()) if small else 1), dtype=np.int32)
    if small:
        for r in range(weight.shape[0]):
            lookup[r, : total[r]] = np.repeat(np.arange(weight.shape[1]), weight[r])
    return total, np.cumsum(weight, axis=1), lookup


def reweighted(reels: ReelSet, window: np.ndarray, weight: np.ndarray) -> ReelSet:
    """``reels`` showing ``window`` with stop weights ``weight`` (some may be 0)."""
    total, cumulative, lookup = _draw_arrays(weight)
    return dataclasses.replace(
        reels,
        window=window,
        weight=weight,
        total_weight=total,
        lookup=lookup,
        cumulative=cumulative,
        weighted=True,
    )


@dataclass(frozen=True)
class WindowFactors:
    """The symbols that multiply a spin's wins by what a reel shows.

    ``cell``: name -> ``window_multiplier`` (each cell showing it, as landed);
    ``full``: name -> ``full_reel_multiplier`` table (value, weight), a reel
    showing only it drawing one value.
    """

    cell: dict[str, int]
    full: dict[str, tuple[tuple[int, int], ...]]

    @property
    def any(self) -> bool:
        """Whether some symbol multiplies the spin."""
        return bool(self.cell or self.full)


def window_factors(machine: Machine) -> WindowFactors:
    """The machine's :class:`WindowFactors` (empty where no symbol multiplies the spin)."""
    return WindowFactors(
        {s.name: s.window_multiplier for s in machine.symbols if s.window_multiplier != 1},
        {s.name: s.full_reel_multipliers for s in machine.symbols if s.full_reel_multipliers},
    )


def _window_factor_columns(reel: list, factors: WindowFactors) -> list[tuple]:
    """One reel's columns with what each multiplies the spin by: (shown, landed, weight, x).

    A column whose landed cells all show a ``full`` symbol becomes one column per
    value (weight x the value's weight); every other column keeps one, weight x
    the draw's total weight (so the reel's weights keep one scale), as
    :func:`_draw_multipliers` does for a wild's drawn multiplier.
    """

    def filled(landed: tuple) -> str | None:
        return landed[0] if len(set(landed)) == 1 and landed[0] in factors.full else None

    present = sorted({n for _, landed, _ in reel if (n := filled(landed)) is not None})
    total = {n: sum(w for _, w in factors.full[n]) for n in present}
    out = []
    for shown, landed, weight in reel:
        cells = math.prod(factors.cell.get(c, 1) for c in landed)
        name = filled(landed)
        scale = math.prod(total[n] for n in present if n != name)
        draws = factors.full[name] if name is not None else ((1, 1),)
        for value, w in draws:
            out.append((shown, landed, weight * scale * w, cells * value))
    return out


def drawn_name(name: str, value: int) -> str:
    """The virtual wild a drawn-multiplier wild ``name`` shows when it draws ``value``."""
    return f"{name}\u00d7{value}"


def _draw_multipliers(reel: list, drawn: dict[str, tuple[tuple[int, int], ...]]) -> list:
    """One reel's columns with each drawn-multiplier wild's draw made part of the stop.

    The multiplier is drawn once per reel and spin (every cell of the wild on
    that reel shows it): a column showing the wild becomes one column per value
    (weight x the value's weight, the wild shown as :func:`drawn_name`); a
    column not showing it keeps one column, weight x the draw's total weight.
    """
    present = sorted({c for shown, _, _ in reel for c in shown if c in drawn})
    if not present:
        return reel
    total = {n: sum(w for _, w in drawn[n]) for n in present}
    out = []
    for shown, landed, weight in reel:
        here = [n for n in present if n in shown]
        scale = math.prod(total[n] for n in present if n not in here)
        for choice in itertools.product(*(drawn[n] for n in here)):
            names = {n: drawn_name(n, v) for n, (v, _) in zip(here, choice)}
            w = weight * scale * math.prod(wt for _, wt in choice)
            out.append((tuple(names.get(c, c) for c in shown), landed, w))
    return out


def _columns(strip, weights, rows, heights, r, rule) -> list[tuple[tuple, tuple, int]]:
    """(column as evaluated, column as landed, weight) of every stop of one reel."""
    n = len(strip)
    out = []
    for h, hw in heights[r] if heights else ((rows, 1),):
        for stop in range(n):
            landed = tuple(strip[(stop + i) % n] for i in range(h))
            shown = rule(landed) if rule else landed
            out.append(
                (shown + (EMPTY,) * (rows - h), landed, hw * (weights[stop] if weights else 1))
            )
    return out


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


def pool_ids(machine: Machine) -> frozenset[str]:
    """The machine's progressive pools (a hold-and-spin prize naming one pays that pool)."""
    return frozenset(j.id for j in machine.jackpots)


def has_free_spins_pays(machine: Machine) -> bool:
    """Whether some line, ways or scatter entry pays otherwise during free spins."""
    return any(e.free_spins_pays is not None for e in machine.pays) or any(
        s.free_spins_pays is not None for s in machine.scatter_pays
    )


def _scatter_table(machine: Machine, names: tuple[str, ...], level: int, free: bool) -> np.ndarray:
    """(counted symbols, count + 1) scatter credits of a window showing that many."""
    max_count = machine.max_count
    scatter = np.zeros((max(len(names), 1), max_count + 1), dtype=np.int64)
    for c, name in enumerate(names):
        for sp in sorted(
            (s for s in machine.scatter_pays if s.symbol == name), key=lambda s: s.count
        ):
            scatter[c, sp.count :] = sp.credits(machine.scatter_bet(level), free)
    return scatter


def _level_tables(
    machine: Machine,
    tables: GameTables,
    li: int,
    level: int,
    credit_mode: str = "",
    coeffs: tuple[int, ...] | None = None,
) -> LevelTables:
    credits = [e.credits(li, level) for e in machine.pays]
    free_credits = [e.free_credits(li, level) for e in machine.pays]
    rank = list(credits)
    jackpots = jackpot_entries(machine, level)
    replaced = jackpot_entries(machine, level, kept=False)
    for index in jackpots:
        if index in replaced:
            credits[index] = free_credits[index] = 0
        rank[index] = JACKPOT_RANK
    total_bet = machine.total_bet(level)
    names = tables.counted_names
    scatter = _scatter_table(machine, names, level, False)
    if credit_mode:  # a line bonus's variant (see :func:`line_bonus_variant`); ranks stay
        credits, scatter = _line_bonus_credits(
            machine, names, credits, scatter, credit_mode, coeffs
        )
    bonus = np.array(
        [a.pays * machine.bonus_bet(level) for a in machine.bonus.awards] if machine.bonus else [0],
        dtype=np.int64,
    )
    mult = tables.fs_mult if tables.fs_own_pays else 1
    credits_fs = [
        c * mult if e.free_spins_multiplier else c for c, e in zip(free_credits, machine.pays)
    ]
    rank_fs = rank
    if has_free_spins_pays(machine):  # the feature's line pays its own best entry
        rank_fs = [JACKPOT_RANK if i in jackpots else c for i, c in enumerate(credits_fs)]
    scatter_fs = _scatter_table(machine, names, level, True)
    scatter_pay_fs = scatter_fs * mult  # the signature keeps scatter_fs: unmultiplied, unmarked
    if credit_mode:  # the free spins' bonus plays too (after their premultiplied credits)
        credits_fs, scatter_pay_fs = _line_bonus_credits(
            machine, names, credits_fs, scatter_pay_fs, credit_mode, coeffs
        )
    law_pay = [
        a.pays * machine.law_bet(k, level)
        for k, (_, game) in enumerate(machine.bonus_laws if machine.pays_play_bonus else ())
        for a in game.awards
    ]
    trans, live, win, entry, keys, start = _automaton(
        machine, tables, credits, credits_fs, rank, rank_fs
    )
    signature = (
        tuple(np.array(credits) * 1.0 / total_bet),
        tuple(scatter.ravel() / total_bet),
        tuple(bonus / total_bet),
        tuple(np.array(credits_fs) * 1.0 / total_bet),
        tuple(scatter_fs.ravel() / total_bet),
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
        scatter_pay_fs=scatter_pay_fs,
        start=start,
        award_keys=keys,
        cap=(machine.rules.win_cap or 0) * total_bet,
        hold=hold_arrays(machine.hold_and_spin, total_bet, pool_ids(machine))
        if machine.hold_and_spin is not None
        else None,
        expand_pay=expansion_pays(machine, credits_fs, tables.expand_symbols),
        law_pay=np.array(law_pay or [0], dtype=np.int64),
    )


def _bonus_laws(machine: Machine) -> dict[str, Any]:
    """The kernels' arrays of the bonus games pay entries play (:attr:`Machine.bonus_laws`)."""
    laws = machine.bonus_laws if machine.pays_play_bonus else ()
    cums = [np.cumsum([a.weight for a in game.awards]) for _, game in laws]
    return {
        "law_cum": np.concatenate(cums).astype(np.int64) if cums else np.zeros(1, dtype=np.int64),
        "law_off": np.cumsum([0] + [len(c) for c in cums]).astype(np.int64)
        if cums
        else np.zeros(2, dtype=np.int64),
        "law_field": law_field(len(laws)),
    }


def law_marks(machine: Machine, mode: str, coeffs: tuple[int, ...] | None) -> tuple[int, ...]:
    """Credits one play of each bonus game adds to a spin in a variant of the pays.

    ``"tag"``: :data:`LINE_BONUS_TAG` shifted to the game's field (the kernels
    read each game's plays from its field); otherwise ``coeffs`` (1 each by default).
    """
    games = len(machine.bonus_laws)
    if mode == "tag":
        return tuple(LINE_BONUS_TAG << (law_field(games) * k) for k in range(games))
    return coeffs if coeffs is not None else (1,) * games


def _line_bonus_credits(
    machine: Machine,
    names: tuple[str, ...],
    credits: list[int],
    scatter: np.ndarray,
    mode: str,
    coeffs: tuple[int, ...] | None = None,
) -> tuple[list[int], np.ndarray]:
    """A phase's line credits and scatter table in a variant of the pays that play a bonus.

    Each line paying an entry with ``bonus``, and each scatter entry with
    ``bonus`` where it pays, adds its plays times the game's mark
    (:func:`law_marks`). ``"tag"``: the kernels count the plays by the marks
    and draw a prize for each; ``"plain"``: only those pay (the cycle then sums
    the plays ``n`` and ``n^2``); ``"plus"``: the game's credits too (the cycle
    sums ``(F + n)^2``). ``coeffs``: per game, the credits of one play (1 each
    by default; 0 leaves a game out).
    """
    marks = law_marks(machine, mode, coeffs)
    add = {
        e.index: marks[machine.bonus_law(e.bonus_game)] * e.bonus_plays
        for e in machine.pays
        if e.bonus
    }
    plays = scatter_bonus_marks(machine, names, scatter.shape, marks)
    if mode == "plain":
        return [add.get(i, 0) for i in range(len(credits))], plays
    return [c + add.get(i, 0) for i, c in enumerate(credits)], scatter + plays


def scatter_bonus_marks(
    machine: Machine, names: tuple[str, ...], shape: tuple, marks: tuple[int, ...] | None = None
) -> np.ndarray:
    """Where a scatter entry with ``bonus`` is the one its count pays: its plays x its game's mark.

    ``shape``: the scatter table's (counted symbols, counts); ``names`` its rows;
    ``marks``: per bonus game, what one play counts (1 each by default), 0 elsewhere.
    """
    out = np.zeros(shape, dtype=np.int64)
    for c, name in enumerate(names):
        entries = sorted(
            (s for s in machine.scatter_pays if s.symbol == name), key=lambda s: s.count
        )
        for i, sp in enumerate(entries):
            if sp.bonus:
                end = entries[i + 1].count if i + 1 < len(entries) else shape[1]
                mark = 1 if marks is None else marks[machine.bonus_law(sp.bonus_game)]
                out[c, sp.count : end] = mark * sp.bonus_plays
    return out


def line_bonus_variant(
    tables: GameTables, mode: str, coeffs: tuple[int, ...] | None = None
) -> GameTables:
    """``tables`` with every level's credits in a ``mode`` of the bonus plays.

    Kept with the tables (its own prefix cache); ``tables`` itself when the
    game has no pay that plays a bonus.
    """
    if not tables.machine.pays_play_bonus:
        return tables
    key = ("line_bonus", mode, coeffs)
    if key not in tables.prefix_cache:
        play = play_machine(tables.machine)
        levels = tuple(
            _level_tables(play, tables, li, level, mode, coeffs)
            for li, level in enumerate(tables.machine.bet_levels)
        )
        tables.prefix_cache[key] = dataclasses.replace(tables, levels=levels, prefix_cache={})
    return tables.prefix_cache[key]


def _automaton(
    machine: Machine,
    tables: GameTables,
    credits: list[int],
    credits_fs: list[int],
    rank: list[int],
    rank_fs: list[int],
) -> tuple:
    """(trans, live, win, award key, key entries, start states) of a level.

    When free spins pay from their own tables the automaton is the union of
    the base game's and the feature's (premultiplied credits, chosen by
    ``rank_fs``: the base ranks, or the feature's own credits where some entry
    has ``free_spins_pays``); the feature's lines start at its first state.
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
    free = build_line_automaton(machine, credits_fs, rank_fs)
    n = base.trans.shape[0]
    key_index = {k: i for i, k in enumerate(base.keys)}
    for k in free.keys:
        key_index.setdefault(k, len(key_index))
    remap = np.array([key_index[k] for k in free.keys] + [-1], dtype=np.int32)
    keys = key_matrix(list(key_index), n_entries)  # dicts keep insertion (= index) order
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
