"""The masked ways spin (one bit per entry) against the entry-by-entry spin it replaces.

:func:`certify.engine._kernels.ways_win_masked` reads which entries a spin
pays with from the AND of per-reel bit masks and multiplies out only those;
:func:`certify.engine._kernels.ways_win` (kept for games of more than 64
entries, and what the exact full cycle uses) multiplies every entry. Both
are run on every stop combination of small games through the simulation
kernel's own evaluation (``evaluate_stops``): credits and award counts must
be equal. The twin (``tests/twins/lines.py``) checks the credits of the
shipped ways games independently (``test_engine_vs_twin.py``).
"""

from __future__ import annotations

import itertools

import numpy as np
from bounds_models import as_ways, machine, three_reels
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from own_draws import assert_kernel_pays_the_twin
from testpaths import DATA, MACHINES

from certify.engine import _kernels as k
from certify.engine.kernel_inputs import (
    WAYS_GROUP_REELS,
    WAYS_GROUP_ROWS,
    WAYS_MASK_BITS,
    game_inputs,
    level_inputs,
    prefix_inputs,
    prefix_tables,
    reel_inputs,
    reel_sets,
    ways_bit_order,
    ways_group_draw_on,
    ways_group_reels,
    ways_masked,
)
from certify.engine.simulate import simulate, ways_flag
from certify.engine.tables import GameTables, compile_machine, ways_sums
from certify.exact import compute_exact
from certify.model.loader import load_machine
from certify.stats import z_value


def _spins(tables: GameTables, level_index: int, fs: int, stops: np.ndarray, masked: bool):
    """Credits and award counts of each stop row, masked or entry by entry."""
    lt = tables.levels[level_index]
    out = np.zeros(stops.shape[0], dtype=np.int64)
    packed = np.zeros(stops.shape[0], dtype=np.uint64)
    awards = np.zeros((stops.shape[0], len(tables.machine.pays)), dtype=np.int64)
    k.evaluate_stops(
        np.ascontiguousarray(stops, dtype=np.int64),
        fs,
        reel_inputs(tables),
        prefix_inputs(prefix_tables(tables, level_index)),
        level_inputs(lt, tables),
        game_inputs(tables)._replace(ways_masked=masked),
        out,
        packed,
        awards,
        ways_flag(tables),
    )
    return out, awards


def _every_stop(tables: GameTables, fs: int) -> np.ndarray:
    reels = tables.free if fs else tables.base
    return np.array(list(itertools.product(*(range(n) for n in reels.length))), dtype=np.int64)


def _assert_same(tables: GameTables, stops_of=_every_stop) -> None:
    assert ways_masked(tables)
    for li in range(len(tables.levels)):
        for fs in (0, 1):
            stops = stops_of(tables, fs)
            masked, masked_awards = _spins(tables, li, fs, stops, True)
            plain, plain_awards = _spins(tables, li, fs, stops, False)
            assert masked.tolist() == plain.tolist(), (li, fs)
            assert (masked_awards == plain_awards).all(), (li, fs)


def test_small_ways_game_every_stop():
    """small_ways.toml: a family with entries of length 2 and 3, a x2 wild, free spins."""
    _assert_same(compile_machine(load_machine(DATA / "small_ways.toml")))


def test_ways_243_random_stops():
    """ways-243.toml on 200,000 random stop vectors per reel set."""
    rng = np.random.default_rng(3)

    def random_stops(tables, fs):
        reels = tables.free if fs else tables.base
        return np.stack([rng.integers(0, n, 200_000) for n in reels.length], axis=1)

    _assert_same(compile_machine(load_machine(MACHINES / "ways-243.toml")), random_stops)


@st.composite
def ways_games(draw):
    """Random 3-4 reel ways games whose families hold entries of one length with
    different tokens (the tie between them), nested lengths, wilds x1-x3 and a scatter."""
    n_reels = draw(st.sampled_from([3, 4]))
    rows = draw(st.sampled_from([1, 2, 3]))
    alphabet = "ABCWS"
    strips = [
        draw(st.lists(st.sampled_from(alphabet), min_size=1, max_size=5)) for _ in range(n_reels)
    ]
    tokens = st.sampled_from("ABC")
    pays = []
    for _ in range(draw(st.integers(1, 6))):
        length = draw(st.integers(2, n_reels))
        combo = [draw(tokens)] + [draw(tokens) for _ in range(length - 1)]
        if combo not in [c for c, _ in pays]:
            pays.append((combo, draw(st.integers(1, 30))))
    symbols = {
        "A": {"kind": "regular"},
        "B": {"kind": "regular"},
        "C": {"kind": "regular"},
        "W": {"kind": "wild", "multiplier": draw(st.sampled_from([1, 2, 3]))},
        "S": {"kind": "scatter"},
    }
    data = three_reels(strips, pays=pays, rows=rows, symbols=symbols)
    as_ways(data)
    data["scatter_pays"] = [{"symbol": "S", "count": 2, "pays": 1}]
    if draw(st.booleans()):
        data["free_spins"] = {
            "trigger": {"symbol": "S", "count": 2},
            "spins": {"2": 3},
            "multiplier": 2,
        }
    return data


@settings(
    max_examples=80,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(ways_games())
def test_random_ways_games_every_stop(data):
    """Every stop combination of random ways games: masked == entry by entry."""
    _assert_same(compile_machine(machine(data)))


def test_more_than_64_entries_spin_entry_by_entry():
    """A game of 65 entries is not masked, and its simulation still agrees with exact."""
    names = [f"S{i}" for i in range(22)]
    strips = [names[i:] + names[:i] for i in range(3)]
    pays = [([n] * length, 1 + length) for n in names for length in (2, 3)]  # 44 entries
    pays += [([n, n, names[0]], 2) for n in names[1:]]  # 21 more: 65
    data = three_reels(strips, pays=pays, rows=2, symbols={n: {"kind": "regular"} for n in names})
    as_ways(data, cost=8)
    tables = compile_machine(machine(data))
    assert len(tables.machine.pays) > WAYS_MASK_BITS
    assert not ways_masked(tables)
    exact = compute_exact(tables.machine).levels[0]
    sim = simulate(tables, 0, 400_000, seed=2)
    assert abs(sim.rtp - exact.rtp) < z_value(0.999) * exact.sigma / np.sqrt(sim.spins)


def test_group_tables_hold_each_groups_masks_counts_stops_and_ways():
    """ways-243's group tables: every row equals the per-reel masks ANDed, the per-reel
    packed counts summed, the stops decoded, and, for each entry of its mask, the
    product of that entry's per-reel ways over the group's reels before its end."""
    tables = compile_machine(load_machine(MACHINES / "ways-243.toml"))
    assert ways_group_draw_on(tables)
    reels = reel_inputs(tables)
    order = ways_bit_order(tables)
    for ps, rs in enumerate(reel_sets(tables)):
        ways = ways_sums(rs.window, tables.ways_match)
        groups = ways_group_reels(rs.length)
        assert [g[0] for g in groups] == reels.ways_group_first[ps, : len(groups)].tolist()
        for g, (lo, hi) in enumerate(groups):
            assert hi - lo <= WAYS_GROUP_REELS
            size = int(np.prod(rs.length[lo:hi]))
            assert size == reels.ways_group_size[ps, g]
            assert size <= WAYS_GROUP_ROWS or hi - lo == 1
            for v in range(0, size, 7):
                mask_row, counts_row, code, at = (int(x) for x in reels.ways_group_rows[ps, g, v])
                stops = [(code >> (16 * i)) & 0xFFFF for i in range(hi - lo)]
                assert v == int(np.ravel_multi_index(stops, rs.length[lo:hi]))
                mask, counts = ~np.uint64(0), np.uint64(0)
                for i, r in enumerate(range(lo, hi)):
                    mask &= reels.ways_mask[ps, r, stops[i]]
                    counts += reels.counts_pack[ps, r, stops[i]]
                assert mask_row == int(mask)
                assert counts_row == int(counts)
                for b in (b for b in range(len(order)) if mask_row >> b & 1):
                    e = int(order[b])
                    expected = 1
                    for i, r in enumerate(range(lo, min(hi, int(tables.entry_len[e])))):
                        expected *= int(ways[r, stops[i], e])
                    assert int(reels.ways_group_prod[ps, g, at]) == expected
                    at += 1


def test_reels_are_grouped_while_a_groups_table_stays_small():
    """Hand cases of ``ways_group_reels`` (at most 1,024 combinations and 4 reels a group):
    30-stop reels pair up (30 x 30 = 900; x 30 = 27,000 is too many); 5-stop reels go
    four at a time (625); a reel longer than 1,024 stops is a group of its own, and
    never leaves an empty group before it."""
    assert WAYS_GROUP_ROWS == 1024
    assert ways_group_reels(np.array([30] * 5)) == [(0, 2), (2, 4), (4, 5)]
    assert ways_group_reels(np.array([5] * 6)) == [(0, 4), (4, 6)]
    assert ways_group_reels(np.array([2000, 3, 3])) == [(0, 1), (1, 3)]
    assert ways_group_reels(np.array([3, 2000, 3])) == [(0, 1), (1, 2), (2, 3)]


def test_weighted_ways_games_draw_reel_by_reel():
    """Weighted strips are not uniform over a group's combinations: no group draw."""
    data = three_reels([["A", "B"], ["A"], ["A", "B"]], weights=[[1, 2], [1], [3, 1]])
    as_ways(data, cost=1)
    tables = compile_machine(machine(data))
    assert ways_masked(tables) and not ways_group_draw_on(tables)


@settings(
    max_examples=40,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(ways_games())
def test_group_draw_pays_what_the_twin_pays_on_its_own_draws(data):
    """Random ways games on the group draw: the kernel's total win and award counts on
    2,000 spins equal the twin's on the very stops it drew (replayed)."""
    data.pop("free_spins", None)  # the replay covers games whose spins draw nothing more
    m = machine(data)
    tables = compile_machine(m)
    assert ways_group_draw_on(tables)
    assert_kernel_pays_the_twin(m, tables, seed=4, n=2000)
