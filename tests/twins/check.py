"""The one comparison of an exact result with a twin's brute force (tests' helper)."""

from __future__ import annotations

import pytest

from certify.exact import compute_exact
from twins import lines


def assert_exact_equals_twin(machine, brute_force=lines.brute_force, awards: bool = False) -> None:
    """Return, variance and hit frequency of every level equal the twin's to 1e-12.

    ``brute_force`` is the twin that plays the game (``twins.lines`` or
    ``twins.features``); ``awards``: the pay entries' probabilities too.
    """
    exact = compute_exact(machine)
    assert exact is not None
    for li in range(len(machine.bet_levels)):
        ref = brute_force(machine, li)
        level = exact.levels[li]
        assert level.rtp == pytest.approx(float(ref["rtp"]), rel=1e-12)
        assert level.variance == pytest.approx(float(ref["variance"]), rel=1e-12)
        assert level.hit_frequency == pytest.approx(float(ref["hit_frequency"]), rel=1e-12)
        if awards:
            found = [a.probability for a in level.awards[: len(machine.pays)]]
            want = [float(x) for x in ref["awards"]]
            assert found == pytest.approx(want, rel=1e-12, abs=1e-15)
