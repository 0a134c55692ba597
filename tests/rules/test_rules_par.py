"""The PAR sheet's contributions add up to the exact return under every rule of real games."""

from __future__ import annotations

import inspect

import pytest
import test_rules_hand as hand

from certify.engine import compile_machine
from certify.exact import compute_exact
from certify.exact.contributions import level_contributions

CASES = [
    name
    for name, fn in inspect.getmembers(hand, inspect.isfunction)
    if name.startswith("test_") and not inspect.signature(fn).parameters
]


def _sums_to_exact(machine) -> None:
    for variant in machine.option_variants():
        tables = compile_machine(variant)
        exact = compute_exact(tables)
        if exact is None:
            continue
        for lt in tables.levels:
            ex = exact.levels[lt.level_index]
            total = level_contributions(tables, lt).base_rtp + ex.win_cap_rtp
            assert total == pytest.approx(ex.rtp, abs=1e-12 * max(1.0, ex.rtp))


@pytest.mark.parametrize("name", CASES)
def test_contributions_follow_the_rule(monkeypatch, name):
    seen = []
    monkeypatch.setattr(hand, "check", lambda machine, *a, **k: seen.append(machine))
    monkeypatch.setattr(hand, "simulate", lambda *a, **k: pytest.skip("no simulation here"))
    original = hand.compute_exact

    def exact_and_record(machine, *a, **k):
        seen.append(machine)
        return original(machine, *a, **k)

    monkeypatch.setattr(hand, "compute_exact", exact_and_record)
    try:
        getattr(hand, name)()
    except (AssertionError, pytest.skip.Exception):
        pass  # the hand test's own figures are not this test's business
    for machine in seen:
        if hasattr(machine, "option_variants"):
            _sums_to_exact(machine)
