"""Exact calculator = pure-Python twin (brute force, rationals) on small screen games, to 1e-12."""

from __future__ import annotations

from games import cluster_machine, lines_data, machine_of, ways_data
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from twins import screens as twin

from certify.engine.tables import compile_machine
from certify.exact.screens import compute_screen_exact, screen_cycle
from certify.model.screens import Cascade

SYMBOLS = {
    "A": {"kind": "regular"},
    "K": {"kind": "regular"},
    "W": {"kind": "wild", "multiplier": 2},
    "S": {"kind": "scatter"},
}
CLUSTER_SYMBOLS = {
    "A": {"kind": "regular"},
    "K": {"kind": "regular"},
    "W": {"kind": "wild"},
}
SETTINGS = settings(
    max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)


def assert_same(m, li: int = 0) -> None:
    t = compile_machine(m)
    ex = compute_screen_exact(t)
    assert ex is not None
    lv = ex.levels[li]
    ref = twin.brute_force(m, li)
    assert abs(lv.rtp - float(ref["rtp"])) < 1e-12
    assert abs(lv.hit_frequency - float(ref["hit_frequency"])) < 1e-12
    assert abs(lv.variance - float(ref["variance"])) < 1e-12 * max(1.0, float(ref["variance"]))
    kinds = {"line", "ways", "cluster"}
    probs = [a.probability for a in lv.awards if a.kind in kinds]
    assert len(probs) == len(ref["awards"])
    for p, q in zip(probs, ref["awards"]):
        assert abs(p - float(q)) < 1e-12
    assert screen_cycle(t, t.levels[li], 0).longest == ref["longest"]


strip = st.lists(st.sampled_from(["A", "K", "W", "S"]), min_size=2, max_size=4)


@SETTINGS
@given(
    strips=st.lists(strip, min_size=3, max_size=3),
    pays=st.tuples(*[st.integers(1, 9)] * 4),
    mults=st.lists(st.integers(1, 5), min_size=1, max_size=3),
    max_screens=st.integers(1, 8),
    weighted=st.booleans(),
)
def test_lines_cascade_twin_equals_exact(strips, pays, mults, max_screens, weighted):
    weights = [[(i % 3) + 1 for i in range(len(s))] for s in strips] if weighted else None
    data = lines_data(
        strips,
        2,
        [[0, 0, 0], [1, 1, 1], [0, 1, 0]],
        [
            (["A", "A", "A"], pays[0]),
            (["K", "K", "K"], pays[1]),
            (["A", "A"], pays[2]),
            (["W", "W", "W"], pays[3]),
        ],
        SYMBOLS,
        [("S", 2, 1), ("S", 3, 4)],
        weights,
    )
    assert_same(machine_of(data, Cascade("strip", tuple(mults), max_screens)))


def test_cascade_with_free_spins_and_bonus_twin_equals_exact():
    symbols = {**SYMBOLS, "B": {"kind": "bonus"}}
    data = lines_data(
        [["A", "S", "K", "B"], ["K", "A", "S", "W"], ["A", "B", "S", "K", "A"]],
        2,
        [[0, 0, 0], [1, 1, 1]],
        [(["A", "A", "A"], 6), (["K", "K", "K"], 4), (["A", "A"], 1)],
        symbols,
        [("S", 3, 2)],
        extra={
            "free_spins": {
                "trigger": {"symbol": "S", "count": 2},
                "spins": {"2": 2, "3": 4},
                "multiplier": 2,
                "retrigger": False,
            },
            "bonus": {
                "trigger": {"symbol": "B", "count": 2},
                "awards": [{"pays": 3, "weight": 2}, {"pays": 10, "weight": 1}],
            },
        },
    )
    m = machine_of(data, Cascade("strip", (1, 2), 6))
    assert_same(m)
    assert_same(m, 1)


cluster_strip = st.lists(st.sampled_from(["A", "K", "W"]), min_size=2, max_size=3)


@SETTINGS
@given(
    strips=st.lists(cluster_strip, min_size=3, max_size=3),
    cascade=st.booleans(),
    pays=st.tuples(*[st.integers(1, 6)] * 3),
)
def test_cluster_twin_equals_exact(strips, cascade, pays):
    m = cluster_machine(
        strips,
        3,
        [("A", 3, pays[0]), ("A", 5, pays[0] + pays[1]), ("K", 4, pays[2])],
        CLUSTER_SYMBOLS,
        Cascade("strip", (1, 2), 5) if cascade else None,
    )
    assert_same(m)


def test_cluster_hand_grid():
    """Stops (0, 0, 0) of reels ``A K A | A W K | K K A`` (3 rows, read top-to-bottom).

    Grid (reel 1 is the left column)::

        A A K
        K W K
        A K A

    A: the top-left pair A A joins the wild below it: a group of 3 (pays 1);
    the bottom-left A touches only K: alone; the bottom-right A alone.
    K: K (reel 1, row 2), the wild, K (reel 2, row 3), and the right column's
    K K through the wild: a group of 5 (pays 2, the 4-entry). The wild belongs
    to one group of each symbol. Total (1 + 2) x total bet 1 = 3.
    """
    m = cluster_machine(
        [["A", "K", "A"], ["A", "W", "K"], ["K", "K", "A"]],
        3,
        [("A", 3, 1), ("K", 4, 2)],
        CLUSTER_SYMBOLS,
    )
    credits, _, screens, paid = twin.play(m, m.strips, None, (0, 0, 0), 0)
    assert (credits, screens, sorted(paid)) == (3, 1, [0, 1])
    import numpy as np

    from certify.engine.screens import play_sequences

    out = play_sequences(compile_machine(m), 0, np.array([[0, 0, 0]]))
    assert int(out[0, 0]) == 3


def test_win_cap_caps_the_sequence_total():
    data = lines_data(
        [["A", "A", "K"], ["A", "K", "A"], ["A", "K"]],
        2,
        [[0, 0, 0], [1, 1, 1]],
        [(["A", "A", "A"], 5), (["K", "K", "K"], 2)],
        extra={"rules": {"win_cap": 4}},
    )
    m = machine_of(data, Cascade("strip", (1, 2, 3), 10))
    assert_same(m)
    ex = compute_screen_exact(m)
    assert ex is not None and ex.levels[0].win_cap_rtp < 0


@SETTINGS
@given(
    strips=st.lists(strip, min_size=3, max_size=3),
    pays=st.tuples(*[st.integers(1, 9)] * 4),
    mults=st.lists(st.integers(1, 5), min_size=1, max_size=3),
)
def test_ways_cascade_twin_equals_exact(strips, pays, mults):
    data = ways_data(
        strips,
        2,
        [
            (["A", "A", "A"], pays[0]),
            (["K", "K", "K"], pays[1]),
            (["A", "A"], pays[2]),
            (["K", "K"], pays[3]),
        ],
        SYMBOLS,
        [("S", 3, 2)],
    )
    assert_same(machine_of(data, Cascade("strip", tuple(mults), 6)))


def test_unmultiplied_entry_in_free_spins_twin_equals_exact():
    """An entry with ``free_spins_multiplier = false`` keeps its pay in the feature's cascades."""
    symbols = {**SYMBOLS}
    data = lines_data(
        [["A", "S", "K", "W"], ["K", "A", "S", "W"], ["A", "S", "K", "A", "W"]],
        2,
        [[0, 0, 0], [1, 1, 1]],
        [(["A", "A", "A"], 6), (["K", "K", "K"], 4), (["W", "W", "W"], 20)],
        symbols,
        [("S", 3, 2)],
        extra={
            "free_spins": {
                "trigger": {"symbol": "S", "count": 2},
                "spins": {"2": 3},
                "multiplier": 3,
                "retrigger": False,
            },
        },
    )
    data["pays"][2]["free_spins_multiplier"] = False
    m = machine_of(data, Cascade("strip", (1, 2, 4), 6))
    assert compile_machine(m).fs_own_pays
    assert_same(m)


def _big_cluster_game(reels: int, rows: int, seed: int, lone_pays: bool):
    import random

    rng = random.Random(seed)
    strips = [[rng.choice("AAKKW") for _ in range(rng.randint(9, 14))] for _ in range(reels)]
    pays = [("A", 5, 1), ("A", 9, 4), ("K", 6, 2), ("W", 3, 5)]
    if lone_pays:
        pays.append(("K", 1, 1))  # a lone K pays: no seed may be dropped before growing
    return cluster_machine(strips, rows, pays, CLUSTER_SYMBOLS, Cascade("strip", (1, 2, 3), 6))


def test_cluster_windows_on_bitboards_and_beyond_equal_the_twin():
    """Kernel = twin, screen by screen, on 7x7, 8x8 (64 cells: every bit of the
    bitboard) and 9x8 (72 cells: the queue-based :func:`cluster_win`), with
    cascades, a wild that joins A and K groups and pays groups of its own, and
    a game where a lone cell pays.
    """
    import random

    import numpy as np

    from certify.engine.screens import play_sequences

    for reels, rows, lone_pays in ((7, 7, False), (8, 8, True), (9, 8, False), (9, 8, True)):
        m = _big_cluster_game(reels, rows, reels * rows, lone_pays)
        rng = random.Random(reels + rows)
        stops = [[rng.randrange(len(s)) for s in m.strips] for _ in range(300)]
        out = play_sequences(compile_machine(m), 0, np.array(stops))
        for row, got in zip(stops, out):
            credits, _, screens, _ = twin.play(m, m.strips, None, tuple(row), 0)
            assert (int(got[0]), int(got[4])) == (credits, screens), (reels, rows, row)
        assert out[:, 0].max() > 0 and out[:, 4].max() > 1  # groups paid and cascades ran
