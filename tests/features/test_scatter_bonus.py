"""Bonus games started by a scatter pay (``[[scatter_pays]] bonus = true``).

Playtech Golden Tour (slotopol ``playtech/goldentour``): 3 or more of any one of
three golfer scatters start the golf bonus, the first golfer that reaches 3
(``exclusive_scatters``) playing it once. The kernels mark the entry in the
spin's scatter credits, as they mark a line that plays the bonus; the exact
calculator counts the plays with the same two walks of the cycle. Oracles: a
hand count, the lines twin (tests/twins/lines.py ``scatter_parts``: its own
reading of the scatters) on random games, simulation inside the exact interval,
slotopol's golf bonus figures for Golden Tour.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from feature_games import R, machine_of, strips_of, with_symbols
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_features_property import assert_twin_equals_exact
from twins import lines as twin

from certify.engine import compile_machine, simulate
from certify.errors import ModelError
from certify.exact import compute_exact
from certify.exact.contributions import level_contributions
from certify.exact.decompose import mean_return
from certify.model import load_machine
from certify.model.loader import parse_machine
from certify.outcomes.model import replay_model
from certify.stats import z_value
from reports.paytable import render_pay_glass

GAME = """
schema = "slotcert/machine@1"
[machine]
id = "SCATTER-BONUS"
name = "scatter bonus"
[bet]
denomination = "0.01"
currency = "EUR"
lines = 1
bet_levels = [1, 2]
[rules]
exclusive_scatters = ["S1", "S2"]
[symbols]
A = {kind = "regular"}
S1 = {kind = "scatter"}
S2 = {kind = "scatter"}
[reels]
rows = 1
strips = [["A", "S1", "S2"], ["A", "S1", "S2"], ["A", "S1", "S2"], ["A", "S1", "S2"]]
paylines = [[0, 0, 0, 0]]
[[pays]]
combo = ["A", "A", "A"]
pays = 4
[[scatter_pays]]
symbol = "S1"
count = 2
pays = 0
bonus = true
[[scatter_pays]]
symbol = "S2"
count = 2
pays = 0
bonus = true
[bonus]
awards = [{pays = 10, weight = 1}, {pays = 20, weight = 1}]
"""
GOLDEN_TOUR = Path(__file__).parents[1] / "data" / "real" / "playtech_golden_tour.toml"


def _game(text: str = GAME):
    return parse_machine(tomllib.loads(text), "<t>")[0]


def test_by_hand():
    """4 reels of A/S1/S2, 1 row, one line (total bet 1 per level). A A A from reel 1
    (3/81) pays 4. 2+ S1 (33/81) or 2+ S2 (33/81) play the bonus (E[B] = 15 x total bet),
    both at once (S1 S1 S2 S2 in any order: 6/81) once only, S1 being first: 60/81
    plays. Return (12 + 60 x 15) / 81 = 304/27 (without the exclusion 66 plays: 334/27);
    the decomposition, the PAR rows and the twin agree."""
    tables = compile_machine(_game())
    ex = compute_exact(tables)
    assert ex is not None
    ref = twin.brute_force(_game(), 0)
    assert float(ref["rtp"]) == pytest.approx(304 / 27, rel=1e-15)
    for lt in tables.levels:
        level = ex.levels[lt.level_index]
        assert level.rtp == pytest.approx(304 / 27, rel=1e-14)
        assert level.bonus_rtp == pytest.approx(900 / 81, rel=1e-14)
        assert level.bonus_probability == pytest.approx(60 / 81, rel=1e-14)
        assert level.variance == pytest.approx(float(ref["variance"]), rel=1e-12)
        assert mean_return(tables, lt) == pytest.approx(304 / 27, rel=1e-14)
        lc = level_contributions(tables, lt)
        assert lc.base_rtp == pytest.approx(304 / 27, rel=1e-13)
        assert lc.bonus_trigger_probability == pytest.approx(60 / 81, rel=1e-13)


def test_the_simulation_marks_the_scatter_plays():
    """1,000,000 spins fall within z(0.999) standard errors of 304/27; a kernel ignoring the
    exclusion would return 334/27, one keeping the mark 2^40 credits a play."""
    sim = simulate(compile_machine(_game()), 0, 1_000_000, 11)
    assert abs(sim.rtp - 304 / 27) <= z_value(0.999) * sim.std_error
    assert abs(334 / 27 - 304 / 27) > 10 * sim.std_error
    assert sim.max_win < 1 << 40


@st.composite
def scatter_bonus_games(draw):
    """Lines games (2 rows, 2 lines) where 2+ S1 or S2 (pays 0-3) play a bonus, the two
    sometimes exclusive, sometimes free spins (x2, on strips with the scatters)."""
    symbols = {
        "A": R,
        "W": "{kind = 'wild'}",
        "S1": "{kind = 'scatter'}",
        "S2": "{kind = 'scatter'}",
    }
    strips = with_symbols(draw, strips_of(draw, ["A", "W", "S1"]), ["S1", "S2", "S2"])
    table = '[[pays]]\ncombo = ["A", "A", "A"]\npays = 5\n'
    exclusive = draw(st.booleans())
    for sym in ("S1", "S2"):
        pays = draw(st.integers(0, 3))
        bonus = draw(st.booleans()) or sym == "S1"
        if exclusive:  # a credit-paying entry there is refused (tested below)
            pays = 0
        table += f"[[scatter_pays]]\nsymbol = '{sym}'\ncount = 2\npays = {pays}\n"
        table += "bonus = true\n" if bonus else ""
    extra = f"[bonus]\nunit = '{draw(st.sampled_from(['total_bet', 'line_bet']))}'\n"
    awards = draw(st.lists(st.tuples(st.integers(0, 9), st.integers(1, 3)), min_size=1, max_size=3))
    extra += "awards = [" + ", ".join(f"{{pays = {p}, weight = {w}}}" for p, w in awards) + "]\n"
    if exclusive:
        extra = "[rules]\nexclusive_scatters = ['S1', 'S2']\n" + extra
    if draw(st.booleans()):
        free = [["A", "S1", "S2"], ["A", "S1"], ["W", "S2"]]
        extra += (
            "[free_spins]\ntrigger = {symbol = 'S2', count = 3}\nspins = 2\nmultiplier = 2\n"
            f"strips = {free}\n"
        )
    return machine_of(strips, symbols, table, extra)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scatter_bonus_games())
def test_twin_equals_exact(machine):
    """Random scatter-bonus games: exact = the lines twin's brute force to 1e-12."""
    assert_twin_equals_exact(machine, twin.brute_force)


def test_refusals_are_located():
    """An exclusive group where an entry pays credits without the bonus, a win cap: located."""
    paying = GAME.replace(
        'symbol = "S2"\ncount = 2\npays = 0\nbonus = true', 'symbol = "S2"\ncount = 2\npays = 3'
    )
    capped = GAME.replace("[rules]\n", "[rules]\nwin_cap = 100\n")
    for text in (paying, capped):
        with pytest.raises(ModelError) as err:
            _game(text)
        assert ("scatter_pays[0].bonus", "unsupported") in [
            (p.path, p.code) for p in err.value.problems
        ]


def test_the_pay_glass_and_replay_say_it():
    text = render_pay_glass(_game())
    assert "2 or more S1 anywhere (the entry that pays) play the bonus once" in text
    assert "scatter pays that play the bonus game" in replay_model(_game()).not_replayed


def test_golden_tour_golf_bonus_reproduced():
    """Playtech Golden Tour as slotopol plays it (tests/data/real/playtech_golden_tour.toml;
    slotopol game/slot/playtech/goldentour, reel set "148.240153" of its data file, headed
    "golf bonuses: hit rate 1/92.503, rtp = 17.296786%"): 3+ of any one golfer play the
    golf bonus (16 prizes, mean 16 x the total bet). The golf figures are reproduced; the
    lines are the real cabinet's (both ways, the right run read whatever the left), where
    the server skips the right run after a wild run that a non-ball ends and caps it at
    the reels the left run left, so its 130.94% of line wins is not this game's."""
    ex = compute_exact(load_machine(GOLDEN_TOUR))
    assert ex is not None
    level = ex.levels[0]
    assert level.bonus_rtp * 100 == pytest.approx(17.296786, abs=5e-7)
    assert 1 / level.bonus_probability == pytest.approx(92.503, abs=5e-4)


def test_the_fingerprint_tells_the_play_and_keeps_older_prints():
    """``bonus = true`` on a scatter entry changes the fingerprint; unset, it prints as before."""
    import dataclasses

    from certify.model.fingerprint import canonical_form, fingerprint

    game = _game()
    plain = dataclasses.replace(
        game,
        scatter_pays=tuple(dataclasses.replace(s, bonus=False) for s in game.scatter_pays),
    )
    assert fingerprint(game) != fingerprint(plain)
    assert all("bonus" not in s for s in canonical_form(plain)["scatter_pays"])
