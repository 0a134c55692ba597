"""Scatters counted by rule in screen games: their reels, their wilds, doubles, any number.

The screen kernels count a cell by its reel and symbol (``ScreenInputs.count_by``,
built from :meth:`Machine.counts_on`), so ``reels``, ``wilds_count`` and
``counts_as`` play in cascades, clusters and sticky-wild games, and a screen game
may count more symbols than the 8 fields of the cycle path's packed word. Every
cell counting for a paying scatter vanishes, its wilds included (CT Sugar Town:
the symbol's cells and every wild, slotopol's ``SymPos2``). Oracles: a hand count
of the counting table, the screen twin's brute force (its own reading through
``counts_on``, cell by cell) and slotopol's brute force of Sugar Town.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import numpy as np
import pytest
from testpaths import ROOT
from twins import lines as lines_twin
from twins import screens as twin
from twins.check import assert_exact_equals_twin

from certify.engine import compile_machine
from certify.engine.prefix import count_width
from certify.engine.screens import screen_inputs
from certify.exact.screens import screen_cycle
from certify.model import load_machine

SMALL = ROOT / "tests/data/rules/screen_counting.toml"
SUGAR_TOWN = ROOT / "tests/data/real/ct_sugar_town.toml"


def test_a_cell_counts_by_its_reel_and_symbol():
    """By hand from the model: a wild adds 1 to S1-S7 (``wilds_count``) and to itself, not
    to S8; D adds 2 to S1 (``counts_as``); S8 counts on reels 1 and 3 only."""
    t = compile_machine(load_machine(SMALL))
    count_by = screen_inputs(t, 0).count_by
    ids, counted = t.symbol_ids, list(t.counted_names)
    assert len(counted) == 9  # above the packed word's 8
    c = counted.index
    for r in range(3):
        assert count_by[r, ids["W"], c("S1")] == 1 and count_by[r, ids["W"], c("W")] == 1
        assert count_by[r, ids["W"], c("S8")] == 0
        assert count_by[r, ids["D"], c("S1")] == 2 and count_by[r, ids["D"], c("S2")] == 0
    assert [int(count_by[r, ids["S8"], c("S8")]) for r in range(3)] == [1, 0, 1]


def test_exact_equals_the_twin_at_every_level():
    """Nine counted symbols, wilds counting with seven of them, a double, reels: the screen
    cycle (729 starts, every avalanche) against the twin's brute force, to 1e-12."""
    assert_exact_equals_twin(load_machine(SMALL), twin.brute_force)


def test_wild_cells_vanish_with_the_symbol_they_count_for():
    """A hand case of the twin's reading: stops (0, 0, 0) show S1 S2 S8 | S2 W S1 | S1 S6 S7
    (reel by reel, top to bottom). S1 counts 4 with the wild and pays its 3's 6, S2
    counts 3 with it and pays 5 (x the bet: 11 at level 1); S8 counts 1 (reels 1 and 3),
    S6 and S7 2 each, below their 3. The cells of S1 and S2 and the wild (6 cells)
    vanish."""
    m = load_machine(SMALL)
    strips = m.strips
    win, cells, counts = twin.scatter_screen(
        m,
        [[strips[r][(stop + w) % 9] for w in range(3)] for r, stop in enumerate((0, 0, 0))],
        0,
    )
    assert counts["S1"] == 4 and counts["S2"] == 3 and win == 11
    assert cells == {(0, 0), (0, 1), (1, 0), (1, 1), (1, 2), (2, 0)}


def test_a_cycle_game_packs_more_than_8_counts_narrower():
    """The lines and ways kernels pack the counts in one word: the same model without
    its cascade counts 9 symbols in 7-bit fields (a 3x3 window counts at most 9 of one),
    and its exact return equals the lines twin's (every stop combination, one screen)."""
    m = dataclasses.replace(load_machine(SMALL), cascade=None)
    t = compile_machine(m)
    assert len(t.counted_names) == 9 and count_width(len(t.counted_names)) == 7
    assert_exact_equals_twin(m, lines_twin.brute_force)


@pytest.mark.reference  # about 100 s on 2 cores: python -m pytest -m reference
def test_sugar_town_equals_the_published_brute_force():
    """CT Interactive Sugar Town, 1,020,148,992 starts, each avalanche played to its end.

    Reference: slotopol/server, game/slot/ct/sugartown/sugartown_data.yaml, reel set
    "83.522519" (its own brute force over every start): RTP = 0 (lined) + 83.523
    (scatter) = 83.522519%, N[2] = 310,208,593 starts with a second screen (the starts
    that pay), Ncascmax = 16. Matched to the printed rounding (half a unit of the last
    digit), the count exactly.
    """
    t = compile_machine(load_machine(SUGAR_TOWN))
    lt = t.levels[0]
    cyc = screen_cycle(t, lt, 0)
    assert cyc.buckets.total == 1_020_148_992
    rtp = Fraction(sum(cyc.buckets.wb), cyc.buckets.total * lt.total_bet)
    assert abs(float(rtp) * 100 - 83.522519) <= 5e-7
    assert int(cyc.buckets.hit.sum()) == 310_208_593
    assert cyc.longest == 16


def test_the_prefix_kernel_plays_a_counts_only_game_to_the_bit():
    """A game paying only counts anywhere (no ways pays) is enumerated with the first screen
    shared by reel prefixes (``prefix_shared``); the plain odometer, every start played,
    gives the same outputs to the bit at every level."""
    from test_screens_prefix import run_kernel

    from certify.exact.screens import prefix_shared

    t = compile_machine(load_machine(SMALL))
    assert prefix_shared(t)
    for li in range(len(t.levels)):
        a = run_kernel(t, li, 0, shared=True)
        b = run_kernel(t, li, 0, shared=False)
        for x, y in zip(a, b, strict=True):
            assert np.array_equal(x, y)


def test_sugar_town_is_exact_at_the_default_budget():
    """The largest real screen game of the catalogue (1,020,148,992 starts; the other
    server computes it by brute force) is admitted at the default budget: its work,
    measured on the fixed sample of starts, predicts about 86 s at the two-core rate,
    under the 120 s default and over the old 60 s."""
    from certify.exact.screens import screen_infeasible_reason

    t = compile_machine(load_machine(SUGAR_TOWN))
    assert screen_infeasible_reason(t) is None
    refused = screen_infeasible_reason(t, budget_s=60)
    assert refused is not None and "would take about" in refused
