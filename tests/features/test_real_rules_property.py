"""Random small games with this round's rules of real cabinets: twin = exact to 1e-12.

Each game draws, independently: a retrigger award of its own
(``free_spins.retrigger_spins``, from 2 symbols where 2 or 3 trigger), free-spin
pays for line, ways and scatter entries (``free_spins_pays``), a scatter counted
on some reels and/or with wilds (``[symbols] reels``, ``wilds_count``), a wild
whose multiplier is drawn per reel (``multiplier = {v = w}``), and, in lines
games, ``both_ways = "better"`` and ``line_pays = "longest"``. The oracle is the
pure-Python twin's brute force (``tests/twins/lines.py``: its own enumeration of
the draws, its own counting, its own free-spin pay view, its own retrigger
lookup) in Fractions.
"""

from __future__ import annotations

import pytest
from feature_games import R, machine_of, strips_of, with_symbols
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from twins import lines as twin

from certify.exact import compute_exact

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
    if draw(st.booleans()):
        reels = sorted(draw(st.sets(st.integers(1, 3), min_size=1, max_size=3)))
        counting += f", reels = {reels}"
    counting += _maybe(draw, ", wilds_count = true")
    if draw(st.booleans()):
        weights = draw(st.lists(st.integers(1, 3), min_size=1, max_size=3))
        wild = "{" + ", ".join(f"{v + 1} = {w}" for v, w in enumerate(weights)) + "}"
    else:
        wild = str(draw(st.integers(1, 3)))
    symbols = {
        "A": R,
        "B": R,
        "S": f"{{kind = 'scatter'{counting}}}",
        "W": f"{{kind = 'wild', multiplier = {wild}}}",
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
            again = f"{{2 = {draw(st.integers(1, 3))}, 3 = {draw(st.integers(1, 3))}}}"
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
        return machine_of(strips, symbols, "", extra)
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
