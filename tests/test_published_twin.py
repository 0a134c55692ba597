"""Published games with the rules of SPEC 3.1a, computed by the twin (tests/twins/lines.py).

* IGT **Cleopatra** -- Michael Shackleford, "Deconstructing Cleopatra", The Wizard
  of Odds, https://wizardofodds.com/games/slots/cleopatra/ ; published return
  95.025% = line 52.047% + scatter 17.508% + free spins 25.470%. Its cycle
  (30^4 x 41 stops, 20 lines) is too large for pure-Python brute force, so the
  twin's ``mean_by_decomposition`` (per-line decomposition, scatter count
  convolution, free spins by Wald's identity) gives the figures, each matched to
  the published rounding (half a unit of the last digit: 5e-6).
* A **Double Diamond-style** game (IGT's rules, made-up weights; no published
  reels were found): brute force = decomposition = the hand count 7174 / 8000.

Sources and the rule mapping: tests/data/published/SOURCES.md.
"""

from __future__ import annotations

import dataclasses
import sys
from collections import Counter
from fractions import Fraction as F
from pathlib import Path

import pytest
from testpaths import DATA
from twins import lines as twin

from certify.model import load_machine

PUBLISHED = Path(__file__).parent / "data" / "published"
ROUNDING = 5e-6  # "95.025%" = 0.95025 +/- 0.000005


def load(path: Path):
    return load_machine(path)


# Symbol counts per reel (30, 30, 30, 30, 41 stops) of the published strips.
CLEOPATRA_COUNTS = {
    "CLEO": (1, 1, 1, 1, 2),
    "SPHINX": (1, 1, 1, 1, 1),
    "SCARAB": (2, 2, 2, 1, 2),
    "LOTUS": (2, 2, 1, 2, 2),
    "CARTOUCHE": (2, 2, 2, 2, 3),
    "SCEPTRE": (2, 2, 2, 3, 3),
    "EYE": (2, 2, 2, 2, 3),
    "A": (2, 2, 2, 4, 4),
    "K": (2, 2, 4, 2, 3),
    "Q": (5, 5, 2, 2, 4),
    "J": (2, 5, 2, 4, 4),
    "TEN": (5, 2, 4, 3, 5),
    "NINE": (2, 2, 5, 3, 5),
}


def test_cleopatra_model_is_the_published_game():
    """Strip lengths and symbol counts, rules and feature as published."""
    m = load(PUBLISHED / "cleopatra.toml")
    assert [len(s) for s in m.strips] == [30, 30, 30, 30, 41]
    for name, counts in CLEOPATRA_COUNTS.items():
        assert tuple(Counter(s)[name] for s in m.strips) == counts, name
    assert m.rules.wild_multiplier == "max" and m.symbol("CLEO").multiplier == 2
    five = [e for e in m.pays if e.combo == ("CLEO",) * 5]
    assert [e.pays for e in five] == [10000] and not five[0].free_spins_multiplier
    assert all(e.free_spins_multiplier for e in m.pays if e.combo != ("CLEO",) * 5)
    fs = m.free_spins
    assert (fs.spins_for(3), fs.multiplier, fs.retrigger, fs.max_spins) == (15, 3, True, 180)
    assert len(m.paylines) == len(set(m.paylines)) == 20


def test_cleopatra_published_figures():
    """The twin's decomposition gives the published 95.025% and its three parts."""
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    ref = twin.mean_by_decomposition(load(PUBLISHED / "cleopatra.toml"), 0)
    assert float(ref["line"]) == pytest.approx(0.52047, abs=ROUNDING)
    assert float(ref["scatter"]) == pytest.approx(0.17508, abs=ROUNDING)
    assert float(ref["free_spins"]) == pytest.approx(0.25470, abs=ROUNDING)
    assert float(ref["rtp"]) == pytest.approx(0.95025, abs=ROUNDING)
    assert ref["bonus"] == 0
    assert ref["rtp"] == ref["line"] + ref["scatter"] + ref["free_spins"]
    assert ref["scatter"] == F(35891, 205000)  # exact, see SOURCES.md


def test_double_diamond_style_by_hand():
    """Reels D 1, SEVEN 1, BAR 3, CH 1, BL 14 (of 20), the same on each reel; D a x2
    wild; pays D D D 1000, 7 7 7 80, BAR x3 10, CH x3 10, any 2 CH 5, any 1 CH 2;
    wild_award. By the number d of wilds (S = 1 + 3 + 14 = 18, the weight of the
    cells that are neither D nor CH), weighted pays summed over the 8000 combinations:
    d = 3: D D D 1000.
    d = 2 (3 places for the other cell X): 7 -> 80 x 4 = 320, BAR -> 40 x 3,
      CH -> 40 (the run beats any-2 x 4 = 20); BL -> 0 (no cherry: wilds alone are
      not a cherry under wild_award): 3 x (320 + 120 + 40) = 1440.
    d = 1: equal pair 7 7 -> 160, BAR BAR 20 x 9, CH CH 20 x 1; a CH with one of S
      -> any 2 cherries x 2 = 10, two orders: 3 x (160 + 180 + 20 + 20 x 18) = 2160.
    d = 0: 80 + 10 x 27 + 10 + (two CH: 3 places x 18 x 5 = 270)
      + (one CH: 3 x 18^2 x 2 = 1944) = 2574.
    Total 1000 + 1440 + 2160 + 2574 = 7174 / 8000 = 89.675%.
    With "highest" a lone wild counts as a cherry: + D D BL 3 x 14 x 20 = 840,
    + D with two different of S (118 ordered) 3 x 118 x 4 = 1416, + D BL BL
    3 x 196 x 4 = 2352 -> 11782 / 8000.
    """
    m = load(PUBLISHED / "double_diamond.toml")
    assert m.rules.pure_wild_line == "wild_award"
    assert twin.brute_force(m, 0)["rtp"] == F(7174, 8000)
    assert twin.mean_by_decomposition(m, 0)["rtp"] == F(7174, 8000)
    highest = dataclasses.replace(m, rules=dataclasses.replace(m.rules, pure_wild_line="highest"))
    assert twin.brute_force(highest, 0)["rtp"] == F(11782, 8000)


@pytest.mark.parametrize(
    "name", ["tiny_lines.toml", "small_features.toml", "published/wizard_fruit_slot.toml"]
)
def test_decomposition_equals_brute_force(name):
    """The twin's two methods for the mean agree exactly where both run."""
    m = load(DATA / name)
    for li in range(len(m.bet_levels)):
        assert twin.mean_by_decomposition(m, li)["rtp"] == twin.brute_force(m, li)["rtp"]
