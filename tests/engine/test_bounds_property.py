"""Property: a model near the bounds is refused with a located message, or computed right.

Random small models with weights up to 2^40, pays up to 1e15, bet levels up to
1e6 and one or two lines: either :func:`certify.engine.limits.machine_limits`
refuses them (and so does ``compile_machine``, every problem located), or the
exact calculator equals the pure-Python brute force (or refuses with a located
reason) and a simulation lands within its interval around the brute-force
truth. Never a crash, a hang or a wrapped sum.
"""

from __future__ import annotations

import math

import pytest
from bounds_models import machine, three_reels
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from twins import lines as twin

from certify.engine import compile_machine, simulate
from certify.engine.limits import machine_limits
from certify.errors import ModelError
from certify.exact import compute_exact
from certify.exact.cycle import exact_infeasible

WEIGHTS = [1, 3, 700, 1 << 20, (1 << 31) - 1, 1 << 32, (1 << 32) + 1, 1 << 40]
PAYS = [1, 7, 10**6, 10**12, 10**15, 1 << 40]
LEVELS = [1, 3, 1000, 10**6]
SPINS = 1 << 14


@st.composite
def models(draw):
    rows = draw(st.sampled_from([1, 2]))
    strips = [draw(st.lists(st.sampled_from("ABS"), min_size=1, max_size=3)) for _ in range(3)]
    weighted = draw(st.booleans())
    weights = [[draw(st.sampled_from(WEIGHTS)) for _ in s] for s in strips] if weighted else None
    paylines = (
        [[0, 0, 0]] if rows == 1 else draw(st.sampled_from([[[1, 1, 1]], [[0, 0, 0], [1, 1, 1]]]))
    )
    pays = [
        (["A", "A", "A"], draw(st.sampled_from(PAYS))),
        (["B", "B", "ANY"], draw(st.sampled_from(PAYS))),
    ]
    levels = sorted(set(draw(st.lists(st.sampled_from(LEVELS), min_size=1, max_size=2))))
    extra = {}
    if draw(st.booleans()):
        extra["scatter_pays"] = [{"symbol": "S", "count": 2, "pays": draw(st.sampled_from(PAYS))}]
    return three_reels(
        strips,
        weights,
        pays=pays,
        rows=rows,
        paylines=paylines,
        levels=levels,
        symbols={"A": {"kind": "regular"}, "B": {"kind": "regular"}, "S": {"kind": "scatter"}},
        **extra,
    )


@settings(
    max_examples=40,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(models())
def test_refused_or_right(data):
    m = machine(data)
    limits = machine_limits(m)
    if limits.problems:
        with pytest.raises(ModelError) as exc:
            compile_machine(m)
        assert exc.value.problems
        assert all(p.file == "m.toml" and p.path and p.message for p in exc.value.problems)
        return
    tables = compile_machine(m)
    exact = compute_exact(tables)
    if exact is None:
        assert exact_infeasible(tables).startswith("m.toml: ")
    for li in range(len(m.bet_levels)):
        brute = twin.brute_force(m, li)
        truth, var = float(brute["rtp"]), float(brute["variance"])
        if exact is not None:
            assert exact.levels[li].rtp == pytest.approx(truth, rel=1e-12)
            assert exact.levels[li].variance == pytest.approx(var, rel=1e-9, abs=1e-12)
        sim = simulate(tables, li, SPINS, 11 + li)
        assert 0 <= sim.max_win <= limits.max_spin_win[li]
        assert sim.total_win >= 0
        assert abs(sim.rtp - truth) <= 7 * math.sqrt(var / SPINS) + 1e-12 * truth
