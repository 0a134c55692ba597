"""A cascade whose free-spin trigger vanishes as a win does (``cascade.trigger_vanishes``).

slotopol's Gonzo's Quest returns its free-fall trigger as a win item with the
trigger's cells and no pay, so the cells are struck and the avalanche goes on.
Oracles: the screens twin (tests/twins/screens.py plays the rule cell by cell)
on small games, random ones included (hypothesis), and the server's own brute
force of the real game.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from games import lines_data, machine_of
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_screens_twin import SYMBOLS, assert_same

from certify.errors import ModelError
from certify.exact import compute_exact
from certify.model import load_machine
from certify.model.loader import parse_machine
from certify.model.screens import Cascade
from reports.paytable import glass_in
from reports.translations import translation

REAL = Path(__file__).parents[1] / "data" / "real"
FREE = {
    "free_spins": {
        "trigger": {"symbol": "S", "count": 2},
        "spins": 2,
        "multiplier": 2,
        "retrigger": False,  # the screens twin plays no retrigger
    }
}


def _game(strips, vanish: bool = True, mults=(1, 2), max_screens: int = 6):
    data = lines_data(
        strips,
        2,
        [[0, 0, 0], [1, 1, 1]],
        [(["A", "A", "A"], 5), (["K", "K", "K"], 3), (["A", "A"], 1)],
        SYMBOLS,
        [("S", 3, 2)],
        extra=FREE,
    )
    return machine_of(data, Cascade("strip", tuple(mults), max_screens, (), vanish))


def test_both_readings_equal_the_twin_and_differ():
    """Reels ``S A A | S A K | A A K K`` (2 rows): the stops with S over A on reels 1 and
    2 start the free spins; kept, those S end the sequence unless a line pays, vanished,
    the A above fall in and lines of A follow at x2. The twin and the calculator agree
    on both readings, in the base game and the free spins, and the two differ (the trigger
    probability the same: it is read on the first screen)."""
    strips = [["S", "A", "A"], ["S", "A", "K"], ["A", "A", "K", "K"]]
    kept, gone = _game(strips, False), _game(strips, True)
    for m in (kept, gone):
        assert_same(m)
        assert_same(m, 1)
    a, b = compute_exact(kept), compute_exact(gone)
    assert a is not None and b is not None
    assert b.levels[0].rtp > a.levels[0].rtp
    assert b.levels[0].fs_probability == a.levels[0].fs_probability


strip = st.lists(st.sampled_from(["A", "K", "W", "S"]), min_size=2, max_size=4)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    strips=st.lists(strip, min_size=3, max_size=3),
    mults=st.lists(st.integers(1, 4), min_size=1, max_size=3),
    max_screens=st.integers(2, 8),
)
def test_twin_equals_exact(strips, mults, max_screens):
    """Random small line cascades with free spins whose trigger vanishes: exact = the
    screens twin's brute force to 1e-12, the base game and the free spins."""
    if sum(s.count("S") for s in strips) < 2:
        strips = [strips[0] + ["S"], strips[1] + ["S"], strips[2]]
    assert_same(_game(strips, True, mults, max_screens))


def test_gonzos_quest_reproduced():
    """NetEnt Gonzo's Quest as slotopol plays it (tests/data/real/netent_gonzos_quest.toml;
    slotopol game/slot/netent/gonzosquest, reel set "96.311812" of its data file, whose
    brute force over every start's whole avalanche prints "symbols: 90.105(lined) +
    0(scatter) = 90.105377%; free spins 1105920, q = 0.022445; RTP = 90.105(sym) +
    0.022445*276.52(fg) = 96.311812%"). Without the trigger vanishing the lines return
    89.7189% (an independent enumerator of the server's code, the file's header)."""
    ex = compute_exact(load_machine(REAL / "netent_gonzos_quest.toml"))
    assert ex is not None
    level = ex.levels[0]
    assert level.rtp * 100 == pytest.approx(96.311812, abs=5e-7)
    assert (level.line_rtp + level.scatter_rtp) * 100 == pytest.approx(90.105377, abs=5e-7)
    assert level.fs_probability == pytest.approx(1_105_920 / 10 / 49_273_344, rel=1e-12)


def test_it_needs_free_spins_and_the_glass_says_it():
    data = lines_data([["A"], ["A"], ["A"]], 1, [[0, 0, 0]], [(["A", "A", "A"], 1)])
    data["cascade"] = {"refill": "strip", "trigger_vanishes": True}
    with pytest.raises(ModelError) as err:
        parse_machine(data, "t.toml")
    assert "cascade.trigger_vanishes" in [p.path for p in err.value.problems]
    glass = glass_in(_game([["S", "A"], ["S", "K"], ["K", "A"]]), translation("en"))
    text = " ".join(" ".join(s.paragraphs) for s in glass.sections)
    assert "2 or more S vanish too, as a win does" in text
