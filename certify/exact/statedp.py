"""State-merging exact calculation: a dynamic programme over the reels.

The full cycle (:mod:`certify.exact.cycle`) visits every stop combination;
its cost grows with stops^reels. But after the first reels a spin's future
depends only on a small *state*: the automaton state of each line still
alive (or, in a ways game, the running ways of each entry not yet finished
and the entry each family pays so far), the counted symbols seen (scatters,
triggers) and, under a win cap, the credits already settled. Every prefix
with the same state has the same future, so prefixes are merged reel by reel
with four sums (weight, weight x settled credits, its square, the weight
already winning): the settled credits enter the moments linearly, and the
hit frequency through "settled > 0 or the rest wins". The cost grows with
the distinct states times the stops of the next reel.

It gives exactly what the full cycle gives, bucket by bucket (weights,
credit sums, hits, award counts as integers; sums of squares to float
rounding): the tests check the two equal on every shipped model and on
random small games. It applies to every reel set :func:`enumerate_cycle`
walks; Book of Ra's expanded free-spin cycles (a counted row per drawn
symbol, :func:`certify.exact.cycle._expanded_free_cycle`) and the screen
games (:mod:`certify.exact.screens`) keep their own enumeration.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import numba
import numpy as np

from certify.engine.kernel_inputs import SpinScore, phase_sets, reel_sets
from certify.engine.tables import GameTables, LevelTables, ReelSet, ways_sums
from certify.exact import _statedp as k
from certify.exact.factorised import nested_families, ways_factorised
from certify.exact.kernel_records import BucketRule, BucketSums, LineReels, StateTable, WaysReels

METHOD = "state-merging"
METHOD_WAYS = "state-merging + per-reel factorisation"  # ways, nested families (no win cap)
# Stop combinations of a reel set from which state merging is used: below, the
# full cycle takes milliseconds and its kernels are the ones the small games
# have always used; above, merging wins (the reference game, 7.6e8: 0.16 s
# merged, 0.7-1.2 s walked, docs/PERFORMANCE.md).
DP_FROM = 2_000_000
MAX_STATE_WORDS = 1 << 26  # int64 words of one state table (512 MB): beyond, refused
FINISH_ROWS = 16  # output rows of the finishing kernels (parallel chunks)


@dataclass(frozen=True)
class StateRun:
    """What one state-merging run did: distinct states after each reel and transitions."""

    states: tuple[int, ...]
    work: int


class TooLarge(Exception):
    """The run would exceed its work or memory bound (``args[0]``: the located reason)."""


def uses_states(tables: GameTables, ps: int) -> bool:
    """Whether reel set ``ps`` is summed by state merging (else walked by the full cycle).

    From :data:`DP_FROM` stop combinations on (below, the full cycle is as
    fast and needs no compile); Book of Ra's free-spin set is always walked
    (its cycles carry one counted row per drawable symbol).
    """
    sets = reel_sets(tables)
    if ps == len(sets) - 1 and tables.expand_symbols and tables.fs_counted >= 0:
        return ps == 0 and set_size(sets[0]) > DP_FROM  # base phase only
    return set_size(sets[ps]) > DP_FROM


def method(tables: GameTables) -> str:
    """The name of this module's method for ``tables``."""
    nested = tables.is_ways and tables.machine.rules.win_cap is None
    return METHOD_WAYS if nested and nested_families(tables) is not None else METHOD


def walked_size(tables: GameTables) -> int:
    """Stop combinations the full cycle walks: reel sets not merged, Book of Ra's free set."""
    sets = reel_sets(tables)
    size = sum(set_size(s) for ps, s in enumerate(sets) if not uses_states(tables, ps))
    if tables.expand_symbols and tables.fs_counted >= 0 and uses_states(tables, len(sets) - 1):
        size += set_size(sets[-1])  # one set: merged for base spins, walked for the feature
    return size


def merged_sets(tables: GameTables) -> list[tuple[int, int]]:
    """(phase, reel set) pairs summed by state merging (0 base, 1 free spins)."""
    out = [(0, ps) for ps in phase_sets(tables, 0) if uses_states(tables, ps)]
    if tables.fs_counted >= 0 and not tables.expand_symbols:
        out += [(1, ps) for ps in phase_sets(tables, 1) if uses_states(tables, ps)]
    return out


def set_size(reels: ReelSet) -> int:
    """Distinct stop combinations of one reel set (a Python integer)."""
    return int(np.prod([int(n) for n in reels.length], dtype=object))


def rest_weights(reels: ReelSet) -> np.ndarray:
    """Total weight of the reels after each reel ``r`` (int64; 1 after the last)."""
    totals = [int(t) for t in reels.total_weight]
    out = [1] * len(totals)
    for r in range(len(totals) - 2, -1, -1):
        out[r] = out[r + 1] * totals[r + 1]
    return np.array(out, dtype=np.int64)


def _start_lines(tables: GameTables, lt: LevelTables, phase: int) -> np.ndarray:
    n_lines = tables.paylines.shape[0]
    start = int(lt.start[phase])
    return np.full(n_lines, start if lt.live[start] else -1, dtype=np.int64)


def _ways_rules(tables: GameTables, lt: LevelTables, phase: int) -> tuple:
    """(entry_len, family, entries per family (-1 padded), rank, credits) of a ways phase."""
    family = tables.ways_family
    n_families = int(family.max(initial=0)) + 1
    members = [np.nonzero(family == f)[0] for f in range(n_families)]
    fam = np.full((n_families, max(len(m) for m in members)), -1, dtype=np.int64)
    for f, m in enumerate(members):
        fam[f, : len(m)] = m
    credits = lt.credits if phase == 0 else lt.credits_fs
    return tables.entry_len, family, fam, lt.credits, credits


def _start_key(
    tables: GameTables, reels: ReelSet, lt: LevelTables, phase: int, cap_on: bool
) -> np.ndarray:
    """The one state before any reel."""
    n_counted = reels.counted.shape[0]
    if tables.is_ways:
        n_entries = tables.entry_len.shape[0]
        n_families = int(tables.ways_family.max(initial=0)) + 1
        head = np.concatenate(
            [np.ones(n_entries), np.full(n_families, -1), np.zeros(n_families)]
        ).astype(np.int64)
    else:
        head = _start_lines(tables, lt, phase)
    return np.concatenate([head, np.zeros(n_counted + int(cap_on), dtype=np.int64)])


def state_cycle(
    tables: GameTables,
    reels: ReelSet,
    lt: LevelTables,
    phase: int,
    score: SpinScore,
    max_work: int = 1 << 62,
    ps: int | None = None,
) -> tuple[Any, ...]:
    """The cycle of ``reels`` (reel set ``ps``, default the phase's first) by state merging.

    Returns (w, wb, wb2, hit, awards) as :func:`certify.exact.cycle.walk_cycle`
    gives them to ``_buckets``, and the :class:`StateRun`. Raises
    :class:`TooLarge` when the transitions would exceed ``max_work`` or a
    state table :data:`MAX_STATE_WORDS`.
    """
    cap_on = score.cap > 0
    key = _start_key(tables, reels, lt, phase, cap_on)
    fact = ways_factorised(tables, lt, phase) if tables.is_ways and not cap_on else None
    reel, rules = _kernel_inputs(tables, reels, lt, phase, fact is not None)
    pack = key_packing(tables, reels, lt, reel[0], key.shape[0] - int(cap_on), int(cap_on))
    one = np.ones(1, dtype=np.int64)
    table = StateTable(pack_key(key, pack)[None, :], one, one * 0, np.zeros(1), one * 0, 1)
    n_reels = int(reels.length.shape[0])
    memo = (
        "statedp-steps",
        lt.level_index,
        phase_sets(tables, phase)[0] if ps is None else ps,
        key.tobytes(),
        _step_key(rules),
    )
    if memo not in tables.prefix_cache:
        tables.prefix_cache[memo] = _merged_states(
            tables, reels, lt, table, (reel, rules, pack, cap_on), max_work
        )
    table, aw, states, work = tables.prefix_cache[memo]
    if work + table[-1] * int(reels.length[-1]) > max_work:
        raise TooLarge(_too_large(max_work, n_reels))
    out = _finish_outputs(tables, lt, min(FINISH_ROWS, table[-1]))
    rule = BucketRule(tables.fs_counted, tables.bonus_counted, tables.bonus_min)
    finish = k.ways_finish if tables.is_ways else k.lines_finish
    extra = () if tables.is_ways else (tables.paylines,)
    finish(StateTable(*table), n_reels - 1, reel, rules, *extra, score, rule, cap_on, pack, out)
    out[4][0] += aw[: out[4].shape[1]]
    work += table[-1] * int(reels.length[-1])
    if fact is not None:  # the credit sums by factorisation; weights, hits, awards merged
        out[1][:] = 0
        out[1][0] = np.array(fact.wb, dtype=np.int64)  # in int64: engine/limits.py
        out[2][:] = 0
        out[2][0] = np.array([float(x) for x in fact.wb2])
    return (*out, StateRun(tuple(states), work))


def forget(tables: GameTables) -> None:
    """Drop the state-merging runs kept with ``tables`` (benchmarks time them afresh)."""
    kept = [x for x in tables.prefix_cache if isinstance(x, tuple) and "statedp" in x[0]]
    for key in kept:
        del tables.prefix_cache[key]


def _step_key(rules: tuple) -> bytes:
    """What the steps over reels 1..R-1 depend on beyond the reel set: the rules' arrays."""
    return b"".join(np.ascontiguousarray(a).tobytes() for a in rules)


def _merged_states(
    tables: GameTables,
    reels: ReelSet,
    lt: LevelTables,
    table: tuple,
    inputs: tuple,
    max_work: int,
) -> tuple:
    """The state table before the last reel, the awards settled, states per reel, transitions."""
    reel, rules, pack, cap_on = inputs
    rest = rest_weights(reels)
    aw = np.zeros(max(lt.n_keys, 1), dtype=np.int64)
    states, work = [1], 0
    for r in range(int(reels.length.shape[0]) - 1):
        table, done = _step(tables, table, r, inputs, rest[r], aw, max_work - work)
        work += done
        if table[-1] < 0:
            raise TooLarge(_too_large(max_work, r + 1))
        states.append(int(table[-1]))
    return table, aw, states, work


PARALLEL_FROM = 2048  # states from which a step is split over the numba threads


def _step(
    tables: GameTables, table: tuple, r: int, inputs: tuple, rest: int, aw: np.ndarray, budget: int
) -> tuple[tuple, int]:
    """One reel's step: the next table and its transitions (parents split over threads)."""
    reel, rules, pack, cap_on = inputs
    step = k.ways_step if tables.is_ways else k.lines_step
    extra = () if tables.is_ways else (tables.paylines,)
    n = table[-1]
    threads = min(numba.get_num_threads(), 2 if n >= PARALLEL_FROM else 1)
    cuts = [n * t // threads for t in range(threads + 1)]
    awards = [aw] + [np.zeros_like(aw) for _ in range(threads - 1)]

    def part(t: int) -> tuple:
        a, b = cuts[t], cuts[t + 1]
        keys, w, s1, s2, h = (x[a:b] for x in table[:5])
        sub = StateTable(keys, w, s1, s2, h, b - a)
        out = step(sub, r, reel, rules, *extra, rest, awards[t], cap_on, pack, budget,
                   MAX_STATE_WORDS)  # fmt: skip
        return tuple(out[:6]), int(out[6])

    if threads == 1:
        return part(0)
    with ThreadPoolExecutor(threads) as pool:
        parts = list(pool.map(part, range(threads)))
    for extra_aw in awards[1:]:
        aw += extra_aw
    if any(p[0][-1] < 0 for p in parts):
        return (*parts[0][0][:5], -1), sum(p[1] for p in parts)
    merged = parts[0][0]
    for p in parts[1:]:
        merged = k.merge_tables(StateTable(*merged), StateTable(*p[0]))
    return tuple(merged), sum(p[1] for p in parts)


def key_packing(
    tables: GameTables, reels: ReelSet, lt: LevelTables, sums: np.ndarray, small: int, big: int
) -> tuple[int, int, int, int]:
    """How a state key is packed: (small fields, big fields, bits per field, fields per word).

    Each small field (line state, running ways, pending entry, count) is
    stored + 1 in as many bits as its largest value needs, so a key is a few
    words: hashing and comparing it is what a transition costs.
    """
    cells = tables.machine.max_count  # the largest count a field holds (doubles: more)
    if tables.is_ways:
        top = max(sums.max(axis=1).max(axis=0).max(initial=1), 1)
        largest = max(int(top) ** int(tables.entry_len.max(initial=1)), tables.entry_len.shape[0])
    else:
        largest = int(lt.trans.shape[0])
    bits = min(max(largest, cells) + 2, 1 << 62).bit_length()
    return small, big, bits, max(63 // bits, 1)


def pack_key(key: np.ndarray, pack: tuple[int, int, int, int]) -> np.ndarray:
    """A key packed as the kernels store it (see :func:`certify.exact._statedp._pack`)."""
    small, big, bits, per = pack
    words = -(-small // per)
    out = np.zeros(words + big, dtype=np.int64)
    for f in range(small):
        out[f // per] |= (int(key[f]) + 1) << ((f % per) * bits)
    out[words:] = key[small:]
    return out


def _too_large(max_work: int, reel: int) -> str:
    return (
        f"state-merging: more than {max_work:,} transitions or "
        f"{MAX_STATE_WORDS:,} state words by reel {reel}"
    )


def _kernel_inputs(
    tables: GameTables, reels: ReelSet, lt: LevelTables, phase: int, matched: bool = False
) -> tuple:
    """(reel, rules) of the kernels; ``matched``: a ways game's ways and credits as 0/1.

    Matched only, a ways game's states are which entries are still alive
    (not their ways): what the hits, the weights and the entries paid need
    when its families are nested (:mod:`certify.exact.factorised`).
    """
    if tables.is_ways:
        sums = ways_sums(reels.window, tables.ways_match)
        rules = _ways_rules(tables, lt, phase)
        if matched:
            sums = (sums > 0).astype(np.int64)
            rules = (*rules[:4], (rules[4] > 0).astype(np.int64))
        return WaysReels(sums, reels.weight, reels.length, reels.counted), rules
    automaton = (lt.trans, lt.live, lt.state_win, lt.state_entry.astype(np.int64))
    return LineReels(reels.window, reels.weight, reels.length, reels.counted), automaton


def _finish_outputs(tables: GameTables, lt: LevelTables, rows: int) -> BucketSums:
    rows = max(rows, 1)
    n_buckets = (tables.bonus_jmax + 1) * (tables.machine.max_count + 1)
    return BucketSums(
        np.zeros((rows, n_buckets), dtype=np.int64),
        np.zeros((rows, n_buckets), dtype=np.int64),
        np.zeros((rows, n_buckets), dtype=np.float64),
        np.zeros((rows, n_buckets), dtype=np.int64),
        np.zeros((rows, max(lt.n_keys, 1)), dtype=np.int64),
    )
