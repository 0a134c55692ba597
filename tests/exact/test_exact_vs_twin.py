"""Exact figures proven by independent methods.

Oracles: the pure-Python brute-force twin (tests/twins/lines.py, exact fractions),
the per-reel decomposition (a second algorithm for the mean), and a hand
calculation.
"""

from __future__ import annotations

import pytest
from testpaths import DATA, MACHINES
from twins import lines as twin

from certify.engine import compile_machine
from certify.exact import compute_exact
from certify.exact.decompose import mean_return
from certify.model import load_machine

SMALL = [
    "tiny_lines.toml",
    "small_features.toml",
    "small_ways.toml",
    "published/wizard_fruit_slot.toml",
    "published/igt_red_white_blue.toml",
]


@pytest.mark.parametrize("name", SMALL)
def test_exact_equals_brute_force_twin(name):
    """Every figure of the exact calculator equals the brute-force twin to 1e-12."""
    machine = load_machine(DATA / name)
    exact = compute_exact(machine)
    for li in range(len(machine.bet_levels)):
        ref = twin.brute_force(machine, li)
        lvl = exact.levels[li]
        assert lvl.rtp == pytest.approx(float(ref["rtp"]), rel=1e-12)
        assert lvl.hit_frequency == pytest.approx(float(ref["hit_frequency"]), rel=1e-12)
        assert lvl.variance == pytest.approx(float(ref["variance"]), rel=1e-12)
        line_awards = [a.probability for a in lvl.awards[: len(machine.pays)]]
        assert line_awards == pytest.approx([float(x) for x in ref["awards"]], rel=1e-12, abs=1e-15)


def test_tiny_game_by_hand():
    """Hand calculation of tests/data/tiny_lines.toml at 1 credit.

    Reels 1-2: A, B, W(x2), S each 1/4; reel 3: A 1/2, B 1/4, W 1/4.
    A A A (wilds substitute, x2 each; W W W pays 10 x 8 = 80 > 50 so it pays
    as A A A): 10 x (1/4 + 2/4)^2 x (1/2 + 2/4) = 10 x 9/16 = 5.625.
    B B B without the all-wild case: 5 x [(3/4)^3 - (1/2)^3] = 5 x 0.296875
    = 1.484375. Two scatters (reels 1 and 2 only): 1/16 x 1 = 0.0625.
    Return 7.171875; hits 3/16 + (1/8 - 1/64) + 1/16 = 0.359375.
    """
    exact = compute_exact(load_machine(DATA / "tiny_lines.toml"))
    assert exact.levels[0].rtp == 7.171875
    assert exact.levels[0].hit_frequency == 0.359375
    assert exact.levels[0].awards[2].probability == 0.0  # W W W is never paid as such


@pytest.mark.parametrize(
    "name",
    [
        "classic-3r-1.toml",
        "edge-3r-1.toml",
        "lowball-3r-1.toml",
        "../../tests/data/small_features.toml",
    ],
)
def test_decomposition_equals_full_cycle(name):
    """Per-reel decomposition (a different algorithm) equals the full cycle to 1e-12."""
    tables = compile_machine(load_machine(MACHINES / name))
    exact = compute_exact(tables)
    for lt in tables.levels:
        assert mean_return(tables, lt) == pytest.approx(exact.levels[lt.level_index].rtp, rel=1e-12)


def test_cycle_too_large_is_none():
    """Where the cycle is too large the calculator says so (None), never guesses."""
    assert compute_exact(load_machine(DATA / "tiny_lines.toml"), max_cycle=10) is None


def _weighted(machine):
    """The machine with uneven base-strip weights (1, 2, 3, 1, 2, 3, ...)."""
    import dataclasses

    weights = tuple(tuple(1 + i % 3 for i in range(len(s))) for s in machine.strips)
    return dataclasses.replace(machine, weights=weights)


@pytest.mark.parametrize(
    "name,weighted",
    [("ref-5x3-20.toml", False), ("jackpot-5x3.toml", False), ("ref-5x3-20.toml", True)],
)
def test_combo_sums_equal_the_walked_cycle(name, weighted):
    """Two algorithms over the full cycle of every reel set (base, free spins):
    sums over prefix combos x last-two-reel pairs == the depth-first walk of
    every stop combination (weights, credit sums, hits, award counts exactly),
    also with weighted strips (combo and tail weights are products of stop weights)."""
    import numpy as np

    from certify.engine.kernel_inputs import reel_sets
    from certify.exact.cycle import enumerate_by_combos, spin_score, walk_cycle

    machine = load_machine(MACHINES / name)
    tables = compile_machine(_weighted(machine) if weighted else machine)
    lt = tables.levels[0]
    for ps, reels in enumerate(reel_sets(tables)):
        score = spin_score(tables, lt, ps)
        by_combos = enumerate_by_combos(tables, reels, lt, ps, score)
        walked = walk_cycle(tables, reels, lt, ps, score)
        assert by_combos.total == walked.total == reels.cycle
        assert by_combos.w.tolist() == walked.w.tolist()
        assert by_combos.wb == walked.wb
        assert by_combos.hit.tolist() == walked.hit.tolist()
        assert by_combos.awards.tolist() == walked.awards.tolist()
        np.testing.assert_allclose(by_combos.wb2, walked.wb2, rtol=1e-12)
