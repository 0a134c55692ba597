"""Hold and spin inside the full cycle: twin = exact to 1e-12 on random small games.

The twin: every stop combination of a 2-reel x 2-row lines game, its line wins
by ``twins.lines`` (the coin is a bonus symbol: it pays nothing on the lines)
and, when the coins landed start the feature, the feature's award moments from
``tests/hold/test_hold_exact.py``'s brute force over every pattern of coin
appearances and every assignment of values (itself checked there against a
hand-worked example), started from the coins of the triggering screen. The
spin's win is line credits + award x total bet; hit = a line win or a trigger.
"""

from __future__ import annotations

import sys
from fractions import Fraction
from pathlib import Path

import pytest
from feature_games import R, machine_of, pays_of, with_symbols
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from twins import lines

from certify.exact import compute_exact

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "hold"))
from test_hold_exact import brute_force  # noqa: E402


@st.composite
def hold_games(draw):
    strips = with_symbols(
        draw,
        [draw(st.lists(st.sampled_from("ABC"), min_size=1, max_size=2)) for _ in range(2)],
        ["COIN", "COIN"],
    )
    count = draw(st.integers(1, 3))
    respins = draw(st.integers(1, 2))
    p = draw(st.sampled_from(["0.5", "0.25", "0.6"]))
    values = draw(st.lists(st.tuples(st.integers(1, 5), st.integers(1, 4)), min_size=1, max_size=3))
    text = ", ".join(f"{{pays = {v}, weight = {w}}}" for v, w in values)
    mini = draw(st.booleans())
    if mini:
        text += ", {jackpot = 'MINI', weight = 1}"
    extra = (
        f"[hold_and_spin]\ntrigger = {{symbol = 'COIN', count = {count}}}\nrespins = {respins}\n"
        f"cell_probability = '{p}'\nvalues = [{text}]\nfull_window = 'GRAND'\n"
        "jackpots = {MINI = 7, GRAND = 20}\n"
    )
    symbols = {"A": R, "B": R, "C": R, "COIN": "{kind = 'bonus'}"}
    table = pays_of([(["A", "A"], draw(st.integers(1, 4))), (["B", "B"], draw(st.integers(1, 3)))])
    return machine_of(strips, symbols, table, extra, 2, "lines = 2", "paylines = [[0, 0], [1, 0]]")


def twin_figures(m, li: int) -> dict:
    hs = m.hold_and_spin
    tb = m.total_bet(m.bet_levels[li])
    feature = {}
    total = 0
    s1 = s2 = hit = Fraction(0)
    for stops, w in lines.cycle(m, m.strips, m.weights):
        win = lines.window(m.strips, stops, m.rows)
        b, _ = lines.spin_value(m, win, li)
        n = lines.count(win, "COIN")
        e1, e2 = Fraction(b), Fraction(b * b)
        if n >= hs.trigger.count:
            if n not in feature:
                feature[n] = brute_force(hs, m.rows, m.reels, n, set())[1:3]
            a1, a2 = feature[n]
            e2 += 2 * e1 * a1 * tb + a2 * tb * tb
            e1 += a1 * tb
        total += w
        s1 += w * e1
        s2 += w * e2
        hit += w if (b > 0 or n >= hs.trigger.count) else 0
    mean = s1 / total
    return {
        "rtp": mean / tb,
        "hit_frequency": hit / total,
        "variance": (s2 / total - mean * mean) / tb**2,
    }


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hold_games())
def test_hold_and_spin_in_the_cycle(machine):
    exact = compute_exact(machine)
    assert exact is not None
    for li in range(len(machine.bet_levels)):
        ref = twin_figures(machine, li)
        level = exact.levels[li]
        assert level.rtp == pytest.approx(float(ref["rtp"]), rel=1e-12, abs=1e-12)
        assert level.hit_frequency == pytest.approx(float(ref["hit_frequency"]), abs=1e-12)
        tol = 1e-12 * (1 + float(ref["variance"] + ref["rtp"] ** 2))
        assert level.variance == pytest.approx(float(ref["variance"]), rel=1e-12, abs=tol)
