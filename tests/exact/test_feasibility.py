"""Exact feasibility is the work done (SPEC 3.1c), never the weights.

IGT Double Strike (3 reels x 22 weighted stops, 3,976^3 = 6.3e10 weighted
combinations, 10,648 distinct) was refused when feasibility was judged on
the product of the weights.
"""

from __future__ import annotations

import pytest
from bounds_models import machine, three_reels
from testpaths import DATA
from twins import lines as twin

from certify.engine import compile_machine
from certify.exact import compute_exact
from certify.exact.cycle import MAX_CYCLE, cycle_size, enumerated_size, exact_infeasible
from certify.model import load_machine

DOUBLE_STRIKE = DATA / "published" / "igt_double_strike.toml"


def test_double_strike_published_return():
    """IGT Double Strike reproduces its published return: 96.62% at 1 coin, 96.73% at 2.

    Source: Michael Shackleford, "Slot Machine Appendix 1" (Double Strike), The
    Wizard of Odds, https://wizardofodds.com/games/slots/appendix/1/ (read
    through its copy at https://nilapub.com/games/slots/appendix/1/); the model
    and its mapping: tests/data/published/igt_double_strike.toml, SOURCES.md.
    """
    m = load_machine(DOUBLE_STRIKE)
    tables = compile_machine(m)
    assert enumerated_size(tables) == 22**3
    assert cycle_size(tables) == 3976**3 > MAX_CYCLE
    result = compute_exact(tables)
    assert result is not None
    one, two = result.levels
    assert round(one.rtp * 100, 2) == 96.62
    assert round(two.rtp * 100, 2) == 96.73
    for li, level in enumerate(result.levels):
        brute = twin.brute_force(m, li)
        assert level.rtp == pytest.approx(float(brute["rtp"]), rel=1e-12)
        assert level.hit_frequency == pytest.approx(float(brute["hit_frequency"]), rel=1e-12)
        assert level.variance == pytest.approx(float(brute["variance"]), rel=1e-9)


def test_weights_700_equal_brute_force():
    """3 reels x 2 stops, every weight 700: 2.7e9 weighted combinations, 8 to enumerate."""
    m = machine(three_reels([["A", "B"]] * 3, [[700, 700]] * 3))
    result = compute_exact(m)
    assert result is not None and result.cycle == 1400**3
    assert result.levels[0].rtp == pytest.approx(float(twin.brute_force(m, 0)["rtp"]), rel=1e-15)


def test_distinct_combinations_decide():
    tables = compile_machine(load_machine(DOUBLE_STRIKE))
    assert exact_infeasible(tables) is None
    assert "10,648 stop combinations" in exact_infeasible(tables, max_cycle=10_000)
    assert compute_exact(tables, max_cycle=10_000) is None
