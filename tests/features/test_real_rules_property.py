"""Random small games with this round's rules of real cabinets: twin = exact to 1e-12.

Each game draws, independently: a retrigger award of its own
(``free_spins.retrigger_spins``, from 2 symbols where 2 or 3 trigger), free-spin
pays for line, ways and scatter entries (``free_spins_pays``), a scatter counted
on some reels and/or with wilds (``[symbols] reels``, ``wilds_count``) or only on
consecutive reels from reel 1 (``consecutive``), a wild
whose multiplier is drawn per reel (``multiplier = {v = w}``) and may multiply
the whole spin per cell (``window_multiplier``), a scatter whose full reel draws a
multiplier (``full_reel_multiplier``), free games that go on until a free spin
shows 2 scatters (a retrigger table from 0), a multiplier each paid spin draws
(``[rules] spin_multiplier``), and, in lines games, ``both_ways = "better"`` and
``line_pays = "longest"``. The oracle is the
pure-Python twin's brute force (``tests/twins/lines.py``: its own enumeration of
the draws, its own counting, its own free-spin pay view, its own retrigger
lookup) in Fractions.
"""

from __future__ import annotations

import math
import tomllib

import pytest
from feature_games import R, machine_of, strips_of, with_symbols
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_twin_rules import HEAD
from twins import lines as twin

from certify.engine import compile_machine, simulate
from certify.exact import compute_exact
from certify.model.loader import parse_machine
from certify.stats import z_value

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _maybe(draw, text: str) -> str:
    return text if draw(st.booleans()) else ""


def _pays(draw, fs: bool) -> str:
    out = ""
    for combo in (["A", "A"], ["A", "A", "A"], ["B", "B", "B"], ["W", "W", "W"]):
        tokens = ", ".join(f"'{t}'" for t in combo)
        out += f"[[pays]]\ncombo = [{tokens}]\npays = {draw(st.integers(0, 9))}\n"
        if fs:
            out += _maybe(draw, f"free_spins_pays = {draw(st.integers(0, 12))}\n")
    for count in (2, 3):
        out += (
            f"[[scatter_pays]]\nsymbol = 'S'\ncount = {count}\npays = {draw(st.integers(0, 4))}\n"
        )
        if fs:
            out += _maybe(draw, f"free_spins_pays = {draw(st.integers(0, 6))}\n")
    return out


@st.composite
def real_rule_games(draw):
    ways = draw(st.booleans())
    fs = draw(st.booleans())
    counting = ""
    consecutive = draw(st.booleans())  # counted on consecutive reels, or by the others
    if consecutive:
        counting = f", consecutive = {draw(st.integers(1, 3))}"
    elif draw(st.booleans()):
        reels = sorted(draw(st.sets(st.integers(1, 3), min_size=1, max_size=3)))
        counting += f", reels = {reels}"
    if not consecutive:
        counting += _maybe(draw, ", wilds_count = true")
    if draw(st.booleans()):
        weights = draw(st.lists(st.integers(1, 3), min_size=1, max_size=3))
        wild = "{" + ", ".join(f"{v + 1} = {w}" for v, w in enumerate(weights)) + "}"
    else:
        wild = str(draw(st.integers(1, 3)))
    cells = ""
    if not consecutive:  # window factors are not played with a consecutive count
        counting += _maybe(draw, ", full_reel_multiplier = {2 = 1, 3 = 2}")
        cells = _maybe(draw, f", window_multiplier = {draw(st.integers(2, 3))}")
    symbols = {
        "A": R,
        "B": R,
        "S": f"{{kind = 'scatter'{counting}}}",
        "W": f"{{kind = 'wild', multiplier = {wild}{cells}}}",
    }
    names = list(symbols)
    strips = with_symbols(draw, strips_of(draw, names, size=(1, 2)), ["S", "W"])
    extra = _pays(draw, fs)
    if fs:
        spins = draw(st.integers(1, 2))
        count = draw(st.sampled_from([2, 3]))  # a retrigger table may start below it
        extra += (
            f"[free_spins]\ntrigger = {{symbol = 'S', count = {count}}}\n"
            f"spins = {{{count} = {spins}, 4 = {spins + 1}}}\n"
            f"multiplier = {draw(st.integers(1, 3))}\nmax_spins = 5\n"
        )
        retrigger = draw(st.sampled_from(["", "true", "'once'"]))
        if retrigger:
            extra += f"retrigger = {retrigger}\n"
            first = draw(st.sampled_from(["", "0 = 1, "]))  # free games until 2 S
            again = f"{{{first}2 = {draw(st.integers(0, 3))}, 3 = {draw(st.integers(1, 3))}}}"
            extra += _maybe(draw, f"retrigger_spins = {again}\n")
        if draw(st.booleans()):
            own = strips_of(draw, names, size=(2, 3))
            extra += "strips = [" + ", ".join(repr(s) for s in own) + "]\n"
    if not ways:
        rules = {"wild_multiplier": draw(st.sampled_from(["product", "max", "sum"]))}
        if draw(st.booleans()):
            rules["direction"] = "both"
            rules["both_ways"] = draw(st.sampled_from(["sum", "better"]))
        rules["line_pays"] = draw(st.sampled_from(["best", "longest"]))
        extra += "[rules]\n" + "".join(f"{k} = '{v}'\n" for k, v in rules.items())
        extra += _maybe(draw, "spin_multiplier = {1 = 2, 4 = 1}\n")
        return machine_of(strips, symbols, "", extra)
    extra += _maybe(draw, "[rules]\nspin_multiplier = {1 = 2, 4 = 1}\n")
    return machine_of(strips, symbols, "", extra, 2, "ways = 8\ncost = 1", "evaluation = 'ways'")


@SETTINGS
@given(real_rule_games())
def test_real_rules_twin_equals_exact(machine):
    refs = [twin.brute_force(machine, li) for li in range(len(machine.bet_levels))]
    exact = compute_exact(machine)
    assert exact is not None
    for li, ref in enumerate(refs):
        level = exact.levels[li]
        assert level.rtp == pytest.approx(float(ref["rtp"]), rel=1e-12, abs=1e-12)
        assert level.hit_frequency == pytest.approx(float(ref["hit_frequency"]), abs=1e-12)
        second = float(ref["variance"] + ref["rtp"] ** 2)
        assert level.variance == pytest.approx(
            float(ref["variance"]), rel=1e-12, abs=1e-12 * (1 + second)
        )


COMBINED = """
[symbols]
A = {kind = "regular"}
B = {kind = "regular"}
W = {kind = "wild", multiplier = {1 = 2, 3 = 1}, expands = true}
S = {kind = "scatter", reels = [1, 3], wilds_count = true}
[[pays]]
combo = ["A", "A", "A"]
pays = 3
free_spins_pays = 5
[[pays]]
combo = ["B", "B"]
pays = 1
[[scatter_pays]]
symbol = "S"
count = 2
pays = 2
free_spins_pays = 1
[free_spins]
trigger = {symbol = "S", count = 2}
spins = 2
multiplier = 2
retrigger = true
retrigger_spins = {1 = 1, 2 = 2}
max_spins = 10
"""
STRIPS = 'strips = [["A", "W", "B", "S", "A"], ["B", "A", "W", "S"], ["S", "A", "B", "W", "A"]]'
HEIGHTS = (
    '\nevaluation = "ways"\nheights = [[{rows = 1, weight = 1}, {rows = 2, weight = 2}], '
    "[{rows = 2, weight = 1}], [{rows = 1, weight = 3}, {rows = 2, weight = 1}]]"
)


@pytest.mark.parametrize("shape", ["lines, expanding wild", "ways, variable heights"])
def test_rules_with_window_features_simulate_inside_the_exact_interval(shape):
    """The twins do not play these rules on top of expanding wilds or variable heights;
    there the second method is the simulation: a drawn-multiplier wild that expands, a
    scatter counted on reels 1 and 3 with wilds, the feature's own pays and a retrigger
    from 1 symbol, 400,000 spins inside z(0.999) sigma / sqrt(n) of the exact return."""
    ways = shape.startswith("ways")
    bet = "ways = 8\ncost = 1\nbet_levels = [1]" if ways else "lines = 1\nbet_levels = [1]"
    head = HEAD.format(id="G", bet=bet, reels=STRIPS + (HEIGHTS if ways else ""))
    if ways:
        head = head.replace("rows = 1\n", "rows = 2\n", 1)
    else:
        head += "paylines = [[0, 0, 0]]\n"
    machine, _ = parse_machine(tomllib.loads(head + COMBINED), "<combined>")
    tables = compile_machine(machine)
    exact = compute_exact(tables).levels[0]
    n = 400_000
    sim = simulate(tables, 0, n, seed=3)
    assert abs(sim.rtp - exact.rtp) < z_value(0.999) * exact.sigma / math.sqrt(n)
