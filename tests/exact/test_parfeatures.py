"""Per-feature PAR tables, the maximum win (exact or bounded) and the win probabilities.

Each figure is checked against a second method: the hand-counted cascade of
``tests/screens/test_cascade_hand.py``, the exact calculator's own parts (the
feature tables split a part of the return the full cycle computes), or the
pure-Python twin's brute force.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from testpaths import DATA, MACHINES
from twins import lines as twin

from certify.engine import compile_machine
from certify.exact import compute_exact
from certify.exact.contributions import feature_contributions
from certify.exact.maxwin import bound, max_win
from certify.exact.parfeatures import cascade_sequences, cascade_table, hold_tables
from certify.model import load_machine

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "screens"))


def _close(a: float, b: float) -> bool:
    return abs(a - b) <= 1e-12 * max(1.0, abs(b))


def _col(table, name):
    i = table.columns.index(name)
    return [r[i] for r in table.rows]


def test_cascade_table_is_the_hand_count():
    """The hand-counted cascade (tests/screens/test_cascade_hand.py, 18 combinations,
    total bet 2): 10 combinations show 1 screen, 6 show 2 (credits 5+5+5+7+5+5 = 32),
    1 shows 3 (17 credits), 1 shows 4 (24 credits). Returns per length 32/36, 17/36,
    24/36 (sum 73/36, the game's return). The largest win is 24 credits = 12x the bet,
    1 in 18; no win is below the bet (the smallest pays 5); 1/18 of spins win 10x+."""
    from test_cascade_hand import hand_machine

    tables = compile_machine(hand_machine())
    lt = tables.levels[0]
    played = cascade_sequences(tables, lt)
    assert played is not None
    table = cascade_table(tables, lt, played)
    assert _col(table, "screens") == [1, 2, 3, 4]
    assert _col(table, "probability") == pytest.approx([10 / 18, 6 / 18, 1 / 18, 1 / 18])
    assert _col(table, "rtp_contribution") == pytest.approx([0, 32 / 36, 17 / 36, 24 / 36])
    assert _col(table, "last_multiplier") == [1, 2, 3, 3]
    mw = max_win(tables, lt)
    assert mw.exact and mw.credits == 24 and mw.probability == pytest.approx(1 / 18)
    thresholds = dict(mw.thresholds)
    assert thresholds["win > 0 and < bet"] == 0
    assert thresholds["win >= 10x bet"] == pytest.approx(1 / 18)
    assert thresholds["win >= 100x bet"] == 0


@pytest.fixture(scope="module")
def hold():
    tables = compile_machine(load_machine(MACHINES / "hold-5x3-20.toml"))
    exact = compute_exact(tables)
    assert exact is not None
    return tables, exact


def test_hold_tables_split_the_exact_feature(hold):
    """Coins-locked rows and fixed-prize rows each add up to the feature's exact return
    (the cycle's buckets x the chain's moments: a second route to the same figure); the
    coin counts given a trigger add up to 1; the progressive level's hits per spin are
    the cycle's pool hits."""
    tables, exact = hold
    for lt in tables.levels:
        ex = exact.levels[lt.level_index]
        coins, prizes = hold_tables(tables, lt)
        assert _close(sum(_col(coins, "rtp_contribution")), ex.bonus_rtp)
        assert _close(sum(_col(coins, "probability_given_trigger")), 1.0)
        assert _close(sum(_col(coins, "probability")), ex.bonus_probability)
        fixed = [r for r in prizes.rows if r[1] == "fixed"]
        assert _close(sum(r[-1] for r in fixed), ex.bonus_rtp)
        for r in prizes.rows:
            if r[1] == "progressive":
                assert _close(r[3], ex.pool_hits[r[0]])
        assert {r[0] for r in prizes.rows} >= {"MINI", "MINOR", "MAJOR", "GRAND"}


def test_expanding_symbol_rows_add_up_to_the_free_spins():
    """Book of Ra: the free spins' return per drawn symbol adds up to the feature's exact
    return (mixed over the draw weights by the full cycle), each draw probability is its
    weight share."""
    tables = compile_machine(load_machine(MACHINES / "book-5x3-10.toml"))
    exact = compute_exact(tables)
    assert exact is not None
    lt = tables.levels[0]
    ex = exact.levels[0]
    lc = feature_contributions(tables, lt, ex)
    table = next(t for t in lc.tables if t.name == "expanding_symbol")
    assert _close(sum(_col(table, "rtp_contribution")), ex.free_spins_rtp)
    weights = tables.expand_weights / tables.expand_weights.sum()
    assert _col(table, "draw_probability") == pytest.approx(list(weights), rel=1e-15)
    assert lc.free_spins is not None and _close(lc.free_spins.rtp, ex.free_spins_rtp)
    assert _close(lc.base_rtp, ex.rtp)


@pytest.mark.parametrize(
    "name",
    ["tiny_lines.toml", "published/double_diamond.toml", "published/igt_double_strike.toml"],
)
def test_win_probabilities_and_bound_against_brute_force(name):
    """Exact thresholds equal the twin's full cycle; the stated bound is never below the
    exact maximum."""
    m = load_machine(DATA / name)
    tables = compile_machine(m)
    for lt in tables.levels:
        tb = lt.total_bet
        counts = {"ldw": 0, 10: 0, 100: 0, 1000: 0}
        total = 0
        for stops, w in twin.cycle(m, m.strips, m.weights):
            value, _ = twin.spin_value(m, twin.window(m.strips, stops, m.rows), lt.level_index)
            total += w
            counts["ldw"] += w if 0 < value < tb else 0
            for n in (10, 100, 1000):
                counts[n] += w if value >= n * tb else 0
        mw = max_win(tables, lt)
        got = dict(mw.thresholds)
        assert got["win > 0 and < bet"] == pytest.approx(counts["ldw"] / total, abs=1e-15)
        for n in (10, 100, 1000):
            assert got[f"win >= {n}x bet"] == pytest.approx(counts[n] / total, abs=1e-15)
        b = bound(tables, lt)
        assert not b.exact and b.credits is not None and b.credits >= mw.credits


@pytest.mark.parametrize(
    "name,stated",
    [
        ("ref-5x3-20.toml", "upper bound"),
        ("hold-5x3-20.toml", "upper bound"),
        ("ways-243.toml", "upper bound"),
        ("book-5x3-10.toml", "expanding symbol's largest pay"),
    ],
)
def test_every_exact_game_states_a_maximum_or_why(name, stated):
    """Games too large to enumerate get an upper bound with its reason (or the reason
    there is none), never a silent null."""
    tables = compile_machine(load_machine(MACHINES / name))
    mw = max_win(tables, tables.levels[0])
    assert not mw.exact and stated in mw.reason
    assert "upper bound" in mw.reason
    assert mw.credits is not None and mw.credits > 0


def test_simulated_cluster_rows_agree_with_the_exact_counts():
    """A small cluster game with a strip cascade (exact by enumeration): the simulated
    rows per cluster entry (paid groups per spin) lie within 5 sigma (Poisson) of the
    exact calculator's award frequencies, and the rows (one more for what the cascade
    multipliers add) sum to the simulated return."""
    from games import cluster_machine

    from certify.engine import simulate
    from certify.exact.contributions import simulated_contributions
    from certify.model.screens import Cascade

    symbols = {"A": {"kind": "regular"}, "K": {"kind": "regular"}, "W": {"kind": "wild"}}
    m = cluster_machine(
        [["A", "K", "W"], ["K", "A", "A", "K"], ["A", "K", "K"]],
        3,
        [("A", 3, 1), ("A", 5, 4), ("K", 3, 2), ("K", 6, 8)],
        symbols,
        Cascade("strip", (1, 2), 6),
    )
    tables = compile_machine(m)
    exact = compute_exact(tables)
    assert exact is not None
    lt = tables.levels[0]
    sim = simulate(tables, 0, 1 << 18, 5)
    lc = simulated_contributions(tables, lt, sim, 0.99)
    assert lc is not None
    entries = [r for r in lc.base if r.combo[0] != "other"]
    expected = [a for a in exact.levels[0].awards if a.kind == "cluster"]
    assert len(entries) == len(expected) == 4
    for row, award in zip(entries, expected, strict=True):
        assert row.source == "simulation" and row.pays == award.pays
        count = row.probability * sim.spins
        assert abs(count - award.probability * sim.spins) <= 5 * max(count, 1.0) ** 0.5
    assert _close(sum(r.rtp for r in lc.base), sim.rtp)
    assert lc.base[-1].combo[0] == "other"  # the cascade multipliers' share


def test_sticky_tables_split_the_exact_free_spins():
    """Sticky wilds: the forward chain's per-spin returns add up to the free spins' exact
    return (the backward recursion of certify.exact.sticky: the same chain run the
    other way); the held-wild counts at the end, given a trigger, add up to 1."""
    from certify.exact.parfeatures import sticky_tables

    tables = compile_machine(load_machine(DATA / "small_sticky.toml"))
    exact = compute_exact(tables)
    assert exact is not None
    for lt in tables.levels:
        held, spins = sticky_tables(tables, lt)
        assert _close(
            sum(_col(spins, "rtp_contribution")), exact.levels[lt.level_index].free_spins_rtp
        )
        assert _close(sum(_col(held, "probability_given_trigger")), 1.0)
        means = _col(spins, "mean_win_x_bet")
        assert means == sorted(means)  # held wilds only add: later spins win more


def test_exact_cluster_rows_per_symbol_and_size():
    """A small cluster game without a cascade: one award row per cluster_pays entry
    (symbol, sizes), each pays x probability / bet, adding up to the exact return; with a
    strip cascade the screen multipliers keep one row, and the sizes table still lists
    every entry."""
    from games import cluster_machine

    from certify.model.screens import Cascade

    symbols = {"A": {"kind": "regular"}, "K": {"kind": "regular"}, "W": {"kind": "wild"}}
    strips = [["A", "K", "W"], ["K", "A", "A", "K"], ["A", "K", "K"]]
    pays = [("A", 3, 1), ("A", 5, 4), ("K", 3, 2), ("K", 6, 8)]
    for cascade in (None, Cascade("strip", (1, 2), 6)):
        tables = compile_machine(cluster_machine(strips, 3, pays, symbols, cascade))
        exact = compute_exact(tables)
        assert exact is not None
        lt, ex = tables.levels[0], exact.levels[0]
        lc = feature_contributions(tables, lt, ex)
        assert _close(lc.base_rtp, ex.rtp)
        sizes = next(t for t in lc.tables if t.name == "cluster_sizes")
        assert [(r[0], r[1]) for r in sizes.rows] == [
            ("A", "3-4"),
            ("A", "5+"),
            ("K", "3-5"),
            ("K", "6+"),
        ]
        if cascade is None:
            assert [r.combo for r in lc.base] == [(r[0], r[1]) for r in sizes.rows]
            for r in lc.base:
                assert _close(r.pays * r.probability / lt.total_bet, r.rtp)


def test_cascade_steps_add_up_and_start_with_the_plain_game():
    """The hand-counted cascade: the screens' returns add up to its return 73/36; screen
    1 (the spin itself) returns what the same strips return without a cascade (the full
    cycle of the plain lines game, another method); screen 2 is shown on 8 of the 18
    combinations (the hand table: every sequence of 2 screens or more)."""
    from games import lines_data, machine_of
    from test_cascade_hand import hand_machine

    from certify.exact.parfeatures import cascade_steps

    tables = compile_machine(hand_machine())
    lt = tables.levels[0]
    played = cascade_sequences(tables, lt)
    steps = cascade_steps(tables, lt, played)
    assert sum(_col(steps, "rtp_contribution")) == pytest.approx(73 / 36, rel=1e-15)
    assert _col(steps, "probability_shown")[:2] == pytest.approx([1.0, 8 / 18])
    plain = machine_of(
        lines_data(
            [["A", "A", "K"], ["A", "K", "A"], ["A", "K"]],
            2,
            [[0, 0, 0], [1, 1, 1]],
            [(["A", "A", "A"], 5), (["K", "K", "K"], 2)],
        )
    )
    exact = compute_exact(compile_machine(plain))
    assert exact is not None
    assert _col(steps, "rtp_contribution")[0] == pytest.approx(exact.levels[0].rtp, rel=1e-15)
