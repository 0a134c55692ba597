"""Repeated paylines (``bet.duplicate_lines = "allow"``) in a strip cascade: each copy pays."""

from __future__ import annotations

import pytest
from games import lines_data, machine_of
from twins import screens as screens_twin

from certify.engine.tables import compile_machine
from certify.exact.screens import compute_screen_exact
from certify.model.screens import Cascade


def test_a_cascade_pays_each_copy_exact_equals_twin():
    """A strip cascade over a repeated line: each copy pays on every screen (its cells vanish
    once); the screen-by-screen exact calculator = the screens twin's brute force, 1e-12."""
    data = lines_data(
        [["A", "K", "W", "A"], ["K", "A", "A", "W"], ["A", "K", "A"]],
        2,
        [[0, 0, 0], [1, 1, 1], [0, 1, 0], [0, 1, 0]],
        [(["A", "A", "A"], 5), (["K", "K", "K"], 3), (["A", "A"], 1)],
        {"A": {"kind": "regular"}, "K": {"kind": "regular"}, "W": {"kind": "wild"}},
    )
    data["bet"]["duplicate_lines"] = "allow"
    machine = machine_of(data, Cascade("strip", (1, 2, 3), 10))
    exact = compute_screen_exact(compile_machine(machine))
    assert exact is not None
    ref = screens_twin.brute_force(machine, 0)
    level = exact.levels[0]
    assert level.rtp == pytest.approx(float(ref["rtp"]), rel=1e-12)
    assert level.hit_frequency == pytest.approx(float(ref["hit_frequency"]), abs=1e-12)
    assert level.variance == pytest.approx(float(ref["variance"]), rel=1e-12)
