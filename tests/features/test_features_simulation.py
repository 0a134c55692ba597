"""Every shipped model with an exact figure: simulation inside the interval of exact.

tests/test_shipped_models.py checks the return of the first and last bet levels
at 2M spins; here every bet level, modest runs (300,000 spins), return and hit
frequency: the simulated return within z(0.999) x sigma / sqrt(n) of the exact
return (sigma the exact standard deviation per spin), the hit count within
z(0.999) binomial standard deviations of the exact hit frequency. Oracle: the
exact calculator (itself checked against the twins on small games).
"""

from __future__ import annotations

import math

import pytest
from testpaths import MACHINES

from certify.engine import compile_machine, simulate
from certify.exact import compute_exact
from certify.model import load_machine
from certify.stats import z_value

SPINS = 300_000
SIMULATION_ONLY = {"cluster-7x7"}  # the cycle of a 7x7 grid is beyond enumeration
MODELS = sorted(p.stem for p in MACHINES.glob("*.toml"))


@pytest.mark.parametrize("name", MODELS)
def test_simulation_inside_the_exact_interval(name):
    tables = compile_machine(load_machine(MACHINES / f"{name}.toml"))
    exact = compute_exact(tables)
    assert (exact is None) == (name in SIMULATION_ONLY)
    if exact is None:
        pytest.skip("simulation only: no exact figure to compare")
    z = z_value(0.999)
    for lt in tables.levels:
        lvl = exact.levels[lt.level_index]
        sim = simulate(tables, lt.level_index, SPINS, seed=41, stream=lt.level_index)
        assert abs(sim.rtp - lvl.rtp) < z * lvl.sigma / math.sqrt(SPINS), (lt.level, sim.rtp)
        p = lvl.hit_frequency
        assert abs(sim.hits - SPINS * p) < z * math.sqrt(SPINS * p * (1 - p)) + 1e-9
