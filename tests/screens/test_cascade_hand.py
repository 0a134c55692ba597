"""A cascade worked by hand: 3 reels x 2 rows, short strips, two lines.

Strips (stop order): reel 1 ``A A K``, reel 2 ``A K A``, reel 3 ``A K``;
lines: the top row and the bottom row; pays ``A A A`` = 5, ``K K K`` = 2
(x level 1, total bet 2); ``[cascade] refill = "strip"``,
``multipliers = [1, 2, 3]``, ``max_screens = 10``.

Grids below read reel by reel, each top-to-bottom.

Stops (0, 2, 0): screen 1 ``AA | AA | AK``: the top line pays A A A = 5 (x1);
its three cells vanish. Each reel keeps its bottom cell and gets one new cell
from the stop above its window (reel 1: stop 2 = K, reel 2: stop 1 = K,
reel 3: stop 1 = K). Screen 2 ``KA | KA | KK``: top K K K = 2, x2 = 4. New
cells: reel 1 stop 1 = A, reel 2 stop 0 = A, reel 3 stop 0 = A. Screen 3
``AA | AA | AK``: top A A A = 5, x3 = 15. New cells: stop 0 = A, stop 2 = A,
stop 1 = K. Screen 4 ``AA | AA | KK`` pays nothing: 4 screens, 5 + 4 + 15 = 24.

Stops (1, 0, 0): screen 1 ``AK | AK | AK``: both lines pay, 5 + 2 = 7; every
cell vanishes; each reel gets two new cells, the stop directly above the old
top lowest (reel 1: stop 0 = A lowest, stop 2 = K above it). Screen 2
``KA | KA | AK`` pays nothing: 2 screens, 7.

Stops (0, 0, 1): ``AA | AK | KA`` pays nothing: 1 screen, 0.

The whole cycle (18 combinations, screens and credits)::

    000: 2, 5    001: 1, 0    010: 1, 0    011: 2, 5    020: 4, 24   021: 2, 5
    100: 2, 7    101: 1, 0    110: 1, 0    111: 1, 0    120: 2, 5    121: 1, 0
    200: 1, 0    201: 1, 0    210: 1, 0    211: 3, 17   220: 1, 0    221: 2, 5

73 credits over 18 spins of 2 credits: return 73 / 36; 8 winning
combinations: hit frequency 4 / 9; the longest sequence is 4 screens.
A A A pays 10 times over the cycle (5 / 9 per spin), K K K 3 times (1 / 6).
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest
from games import lines_data, machine_of
from twins import screens as twin

from certify.engine.screens import play_sequences
from certify.engine.tables import compile_machine
from certify.exact.screens import compute_screen_exact, longest_cascade
from certify.model.screens import Cascade

HAND = {
    (0, 0, 0): (2, 5),
    (0, 0, 1): (1, 0),
    (0, 1, 0): (1, 0),
    (0, 1, 1): (2, 5),
    (0, 2, 0): (4, 24),
    (0, 2, 1): (2, 5),
    (1, 0, 0): (2, 7),
    (1, 0, 1): (1, 0),
    (1, 1, 0): (1, 0),
    (1, 1, 1): (1, 0),
    (1, 2, 0): (2, 5),
    (1, 2, 1): (1, 0),
    (2, 0, 0): (1, 0),
    (2, 0, 1): (1, 0),
    (2, 1, 0): (1, 0),
    (2, 1, 1): (3, 17),
    (2, 2, 0): (1, 0),
    (2, 2, 1): (2, 5),
}


def hand_machine(max_screens: int = 10):
    data = lines_data(
        [["A", "A", "K"], ["A", "K", "A"], ["A", "K"]],
        2,
        [[0, 0, 0], [1, 1, 1]],
        [(["A", "A", "A"], 5), (["K", "K", "K"], 2)],
    )
    return machine_of(data, Cascade("strip", (1, 2, 3), max_screens))


@pytest.fixture(scope="module")
def tables():
    return compile_machine(hand_machine())


def test_hand_cycle_matches_kernel_and_twin(tables):
    stops = np.array(list(itertools.product(range(3), range(3), range(2))))
    out = play_sequences(tables, 0, stops)
    for row, o in zip(stops, out):
        key = tuple(int(x) for x in row)
        assert (int(o[4]), int(o[0])) == HAND[key], key
        credits, _, screens, _ = twin.play(tables.machine, tables.machine.strips, None, key, 0)
        assert (screens, credits) == HAND[key], key
    assert sum(v[1] for v in HAND.values()) == 73


def test_hand_exact_figures(tables):
    ex = compute_screen_exact(tables)
    assert ex is not None
    lv = ex.levels[0]
    assert abs(lv.rtp - 73 / 36) < 1e-12
    assert abs(lv.hit_frequency - 4 / 9) < 1e-12
    mean = Fraction(73, 18)
    second = Fraction(sum(v[1] ** 2 for v in HAND.values()), 18)
    assert abs(lv.variance - float((second - mean * mean) / 4)) < 1e-12
    awards = {a.combo: a.probability for a in lv.awards}
    assert abs(awards[("A", "A", "A")] - 5 / 9) < 1e-12
    assert abs(awards[("K", "K", "K")] - 1 / 6) < 1e-12
    # level 2 pays twice as much on twice the bet: the same return
    assert abs(ex.levels[1].rtp - 73 / 36) < 1e-12
    assert longest_cascade(tables) == 4


def test_max_screens_cuts_the_sequence():
    t = compile_machine(hand_machine(max_screens=2))
    out = play_sequences(t, 0, np.array([[0, 2, 0]]))
    assert (int(out[0, 4]), int(out[0, 0])) == (2, 9)  # 5 + 2 x 2, then stopped


def test_the_cascade_check_is_the_exact_runs_first_level(monkeypatch):
    """The check's cycle (``longest_cascade``) is kept for the exact run: the first level
    is not played again, and the figures are those of a run alone, to the bit. A check
    whose sequences were cut short (longer than ``max_screens``) keeps nothing."""
    from certify.exact import _screens as kernels
    from certify.exact import screens as exact_screens

    machine = hand_machine()
    alone = compute_screen_exact(compile_machine(machine))
    assert longest_cascade(compile_machine(machine)) == 4
    played = []
    enumerate_line_screens = kernels.enumerate_line_screens

    def counted(play, *args):
        played.append(play.phase)
        return enumerate_line_screens(play, *args)

    monkeypatch.setattr(kernels, "enumerate_line_screens", counted)
    folded = compute_screen_exact(compile_machine(machine))
    assert alone is not None and folded is not None
    assert folded.levels == alone.levels
    assert played == [0]  # the second level's run only
    short = hand_machine(max_screens=3)
    assert longest_cascade(short) == 4  # cut short at 3 in the exact run: not its cycle
    assert not [k for k, (m, _) in exact_screens._PROBED.items() if m is short]
    assert [k for k, (m, _) in exact_screens._PROBED.items() if m is machine]
