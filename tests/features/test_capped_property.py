"""A capped game's exact figure is null or the brute force of the capped game (issue 31).

Random small games of every window feature (``feature_games``) and of hold and
spin (``test_hold_cycle_property``), each given ``[rules] win_cap`` of 1 to 30 x
the total bet. The exact calculator either refuses the game (None: it does not
cap a spin's whole win with its features, free spins, bonus or hold and spin,
and says so) or gives the return of the twin's brute force of the *capped*
game to 1e-12: ``twins.features.brute_force`` (the cap on each spin's line and
scatter wins) and, for hold and spin, ``twins.hold.capped_rtp`` (each spin's
line wins plus every final award, capped). Never an uncapped figure for a capped game.
"""

from __future__ import annotations

import dataclasses

import pytest
from feature_games import expanding_games, full_window_games, heights_games, mixed_games
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_hold_cycle_property import hold_games
from twins import features as twin
from twins import hold

from certify.exact import compute_exact


def capped(machine, cap: int):
    return dataclasses.replace(machine, rules=dataclasses.replace(machine.rules, win_cap=cap))


def has_features(m) -> bool:
    return m.free_spins is not None or m.bonus is not None or m.hold_and_spin is not None


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.one_of(expanding_games(), heights_games(), full_window_games(), mixed_games(), hold_games()),
    st.integers(1, 30),
)
def test_a_capped_exact_figure_is_null_or_the_capped_brute_force(game, cap):
    m = capped(game, cap)
    exact = compute_exact(m)
    if exact is None:
        assert has_features(m)  # a cap alone never refuses: only over features
        if m.hold_and_spin is not None:  # the capped truth exists; exact says none
            assert hold.capped_rtp(m) <= cap
        return
    assert not has_features(m)
    for li, level in enumerate(exact.levels):
        ref = twin.brute_force(m, li)
        assert level.rtp == pytest.approx(float(ref["rtp"]), rel=1e-12, abs=1e-12)
        second = float(ref["variance"] + ref["rtp"] ** 2)
        assert level.variance == pytest.approx(
            float(ref["variance"]), rel=1e-12, abs=1e-12 * (1 + second)
        )
