"""Random small games of each window feature: the twin's brute force = exact to 1e-12.

The twin (``tests/twins/features.py``) plays each feature from the SPEC 3.1a/3.1b
text with lists of symbols, full cycle in Fractions; the exact calculator goes
through the engine's tables, automata and kernels. Compared per bet level:
return, hit frequency, variance, and the free spins' part of the return, each to
1e-12 (the variance to 1e-12 x (1 + E[X^2]), the rounding of E[X^2] - E[X]^2 in
floating point: a game of variance 0 comes out as 2e-12).

``[[full_window_pays]]`` and ``sticky`` wilds were written here before the engine
played them (then marked xfail); they pass since the engine does.
"""

from __future__ import annotations

import dataclasses

import pytest
from feature_games import (
    book_games,
    expanding_games,
    full_window_games,
    heights_games,
    mixed_games,
    sticky_games,
    wild_in_free_spins_games,
    wild_scatter_games,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from twins import features as twin

from certify.exact import compute_exact

SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def assert_twin_equals_exact(machine, brute_force=None) -> None:
    """Exact = the twin's brute force to 1e-12 (``brute_force``: another twin's)."""
    brute_force = brute_force or twin.brute_force
    refs = [brute_force(machine, li) for li in range(len(machine.bet_levels))]
    exact = compute_exact(machine)  # after the twin: its play runs even where this refuses
    assert exact is not None
    for li, ref in enumerate(refs):
        level = exact.levels[li]
        assert level.rtp == pytest.approx(float(ref["rtp"]), rel=1e-12, abs=1e-12)
        assert level.hit_frequency == pytest.approx(float(ref["hit_frequency"]), abs=1e-12)
        # variance = E[X^2] - E[X]^2 in floats: its rounding scales with E[X^2]
        second = float(ref["variance"] + ref["rtp"] ** 2)
        tol = 1e-12 * (1 + second)
        assert level.variance == pytest.approx(float(ref["variance"]), rel=1e-12, abs=tol)
        if machine.free_spins is not None and "free_spins_rtp" in ref:  # the lines twin: none
            fs = float(ref["free_spins_rtp"])
            assert level.free_spins_rtp == pytest.approx(fs, rel=1e-12, abs=1e-12)
            assert level.fs_probability == pytest.approx(float(ref["fs_probability"]), abs=1e-12)


@SETTINGS
@given(expanding_games())
def test_expanding_wilds(machine):
    assert_twin_equals_exact(machine)


@SETTINGS
@given(wild_scatter_games())
def test_wild_that_is_a_scatter(machine):
    assert_twin_equals_exact(machine)


@SETTINGS
@given(wild_in_free_spins_games())
def test_wild_in_free_spins(machine):
    assert_twin_equals_exact(machine)


@SETTINGS
@given(book_games())
def test_book_of_ra_expanding_symbol(machine):
    assert_twin_equals_exact(machine)


@SETTINGS
@given(heights_games())
def test_variable_heights(machine):
    assert_twin_equals_exact(machine)


@SETTINGS
@given(full_window_games())
def test_full_window_pays(machine):
    assert_twin_equals_exact(machine)


@SETTINGS
@given(sticky_games())
def test_sticky_wilds(machine):
    assert_twin_equals_exact(machine)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mixed_games())
def test_features_together(machine):
    assert_twin_equals_exact(machine)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(sticky_games(), full_window_games()))
def test_twin_sticky_and_full_window_only_add(machine):
    """The twin's sticky and full-window play, checked by a property of its own that holds
    in these games: a wild on a cell never lowers a line (it matches
    every regular token of their pay tables, x1 or x2), and a full-window multiplier is
    >= 1; so the return with the feature is at least the return without it."""
    plain = dataclasses.replace(
        machine,
        full_window_pays=(),
        symbols=tuple(dataclasses.replace(s, sticky=False) for s in machine.symbols),
    )
    assert twin.brute_force(machine, 0)["rtp"] >= twin.brute_force(plain, 0)["rtp"]
