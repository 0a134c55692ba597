"""Bonus games started by a line (``[[pays]] bonus = true``).

Real cabinets start their bonus from a line of bonus symbols (slotopol's NetEnt
Diamond Dogs, Sim Salabim, Megajack Champagne, Neon Bananas' Lucky Slot). Oracles:
a hand count, the twin (tests/twins/lines.py counts each window's bonus lines and
adds their n independent prizes, where the calculator walks the cycle three
times), simulation inside the exact interval, and the PAR rows adding up.
"""

from __future__ import annotations

import tomllib
from fractions import Fraction
from pathlib import Path

import pytest
from feature_games import R, machine_of, pays_of, strips_of, with_symbols
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_features_property import assert_twin_equals_exact
from twins import lines as twin

from certify.engine import compile_machine, simulate
from certify.errors import ModelError
from certify.exact import compute_exact
from certify.exact.contributions import level_contributions
from certify.model import load_machine
from certify.model.loader import parse_machine
from certify.outcomes.model import replay_model
from certify.stats import z_value
from reports.paytable import glass_in
from reports.translations import translation

REAL = Path(__file__).parents[1] / "data" / "real"
GAME = """
schema = "slotcert/machine@1"
[machine]
id = "LINE-BONUS"
name = "line bonus"
[bet]
denomination = "0.01"
currency = "EUR"
lines = 5
duplicate_lines = "allow"
bet_levels = [1, 2]
[symbols]
A = {kind = "regular"}
B = {kind = "bonus"}
[reels]
rows = 1
strips = [["A", "B"], ["A", "B"], ["A", "B"]]
paylines = [[0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0]]
[[pays]]
combo = ["A", "A", "A"]
pays = 4
[[pays]]
combo = ["B", "B", "B"]
pays = 0
bonus = true
[bonus]
unit = "line_bet"
awards = [{pays = 10, weight = 1}, {pays = 20, weight = 1}]
"""


def _game(text: str = GAME):
    return parse_machine(tomllib.loads(text), "<t>")[0]


def test_by_hand():
    """3 reels of A/B, 1 row, the same line 5 times (a total bet of 5 per level).
    A A A (1/8) pays 4 on each line: 20. B B B (1/8) plays the bonus on each of
    the 5 lines: 5 independent prizes of 10 or 20 x the line bet (E[B] = 15,
    E[B^2] = 250), so E[S] = 75 and E[S^2] = 5 x 250 + 20 x 15^2 = 5750.
    Return (20 + 75) / 8 / 5 = 19/8; E[W^2] = (400 + 5750) / 8 = 768.75, / 5^2 =
    30.75; variance 30.75 - (19/8)^2 = 1607/64; 2 of 8 spins pay."""
    ex = compute_exact(_game())
    assert ex is not None
    for level in ex.levels:
        assert level.rtp == pytest.approx(19 / 8, rel=1e-14)
        assert level.variance == pytest.approx(1607 / 64, rel=1e-13)
        assert level.hit_frequency == pytest.approx(1 / 4, rel=1e-14)
        assert level.bonus_rtp == pytest.approx(75 / 40, rel=1e-14)
        assert level.line_rtp == pytest.approx(20 / 40, rel=1e-14)


def test_the_simulation_draws_a_prize_per_line():
    """2,000,000 spins fall within z(0.999) standard errors of 19/8. A kernel that
    drew one prize per spin (not per line) would return (20 + 15) / 40 = 7/8, and
    one that kept the line mark would pay 2^40 credits a line."""
    tables = compile_machine(_game())
    sim = simulate(tables, 0, 2_000_000, 5)
    assert abs(sim.rtp - 19 / 8) <= z_value(0.999) * sim.std_error
    assert abs(7 / 8 - 19 / 8) > 30 * sim.std_error
    assert sim.max_win < 1 << 40


def test_par_rows_add_up_and_count_bonus_plays():
    """The PAR's bonus rows count 5/8 bonus plays per spin (5 lines x 1/8), and the
    rows add up to the exact return."""
    tables = compile_machine(_game())
    ex = compute_exact(tables)
    assert ex is not None
    for lt in tables.levels:
        lc = level_contributions(tables, lt)
        assert lc.bonus_trigger_probability == pytest.approx(5 / 8, rel=1e-14)
        assert lc.base_rtp == pytest.approx(ex.levels[lt.level_index].rtp, rel=1e-13)


FREE = "[free_spins]\ntrigger = {symbol = 'B', count = 3}\nspins = 1\nmultiplier = 2\n[bonus]\n"


def test_by_hand_in_free_spins():
    """The hand game with 3 B also starting 1 free spin x2 on the same reels, where lines
    play the bonus too (slotopol's Champagne), its prizes not multiplied. A free spin
    returns (2 x 20 + 75) / 8 = 115/8 credits; a paid spin (20 + 75) / 8 + 1/8 x 115/8
    = 875/64, a return of 875/64/5 = 175/64 (a kernel multiplying the prizes would give
    (95/8 + 190/64) / 5 = 95/32). Exact, the decomposition, the twin and the PAR rows
    each give it; the simulation falls inside the exact interval."""
    from certify.exact.decompose import mean_return

    game = _game(GAME.replace("[bonus]\n", FREE))
    tables = compile_machine(game)
    ex = compute_exact(tables)
    assert ex is not None
    ref = twin.brute_force(game, 0)
    assert ref["rtp"] == Fraction(175, 64)
    for lt in tables.levels:
        level = ex.levels[lt.level_index]
        assert level.rtp == pytest.approx(175 / 64, rel=1e-14)
        assert level.variance == pytest.approx(float(ref["variance"]), rel=1e-12)
        assert mean_return(tables, lt) == pytest.approx(175 / 64, rel=1e-14)
        lc = level_contributions(tables, lt)
        assert lc.base_rtp == pytest.approx(175 / 64, rel=1e-13)
    glass = " ".join(" ".join(s.paragraphs) for s in glass_in(game, translation("en")).sections)
    assert "plays the bonus once, in the base game and in the free spins" in glass
    sim = simulate(tables, 0, 2_000_000, 7)
    assert abs(sim.rtp - 175 / 64) <= z_value(0.999) * sim.std_error
    assert abs(95 / 32 - 175 / 64) > 10 * sim.std_error


def test_the_decomposition_counts_the_bonus_lines():
    """The per-reel decomposition (the certificate's decomposed return) adds the lines'
    bonus prizes: 19/8 on the hand game, as the exact walk."""
    from certify.exact.decompose import mean_return

    tables = compile_machine(_game())
    for lt in tables.levels:
        assert mean_return(tables, lt) == pytest.approx(19 / 8, rel=1e-14)


@st.composite
def line_bonus_games(draw):
    """Lines games (2 rows, 2 lines) whose B lines play a bonus: B B or B B B (pays
    0-2) with ``bonus = true``, a wild that does not stand for B, a bonus of 1-3
    awards or a pick stage, x the total or the line bet, sometimes also started by
    3 B anywhere, sometimes free spins, on strips with or without B."""
    symbols = {"A": R, "W": "{kind = 'wild', multiplier = 2}", "B": "{kind = 'bonus'}"}
    strips = with_symbols(draw, strips_of(draw, ["A", "W", "B"]), ["B", "B", "B"])
    table = pays_of(
        [(["A", "A"], draw(st.integers(0, 3))), (["A", "A", "A"], draw(st.integers(1, 9)))]
    )
    for n in sorted(draw(st.sets(st.sampled_from([2, 3]), min_size=1))):
        table += f"[[pays]]\ncombo = {['B'] * n}\npays = {draw(st.integers(0, 2))}\nbonus = true\n"
    unit = draw(st.sampled_from(["total_bet", "line_bet"]))
    extra = f"[bonus]\nunit = '{unit}'\n"
    if draw(st.booleans()):
        extra += "trigger = {symbol = 'B', count = 3}\n"
    if draw(st.booleans()):
        awards = draw(
            st.lists(st.tuples(st.integers(0, 9), st.integers(1, 3)), min_size=1, max_size=3)
        )
        extra += (
            "awards = [" + ", ".join(f"{{pays = {p}, weight = {w}}}" for p, w in awards) + "]\n"
        )
    else:
        prizes = draw(st.lists(st.integers(0, 6), min_size=1, max_size=3))
        extra += f"[[bonus.stages]]\nkind = 'pick'\nprizes = {prizes + ['stop']}\n"
    if draw(st.booleans()):
        symbols["S"] = "{kind = 'scatter'}"
        strips = with_symbols(draw, strips, ["S", "S"])
        free = [["A", "W", "S"], ["A", "S"], ["W", "A"]]
        if draw(st.booleans()):  # the free spins' lines play the bonus too
            free = [reel + ["B"] for reel in free]
        extra += (
            "[free_spins]\ntrigger = {symbol = 'S', count = 2}\nspins = 2\nmultiplier = 2\n"
            f"retrigger = true\nmax_spins = 4\nstrips = {free}\n"
        )
    return machine_of(strips, symbols, table, extra)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(line_bonus_games())
def test_twin_equals_exact(machine):
    """Random line-bonus games: exact = the lines twin's brute force to 1e-12 (the
    features twin refuses line bonuses)."""
    assert_twin_equals_exact(machine, twin.brute_force)


def test_the_pay_glass_and_replay_say_it():
    glass = glass_in(_game(), translation("en"))
    text = " ".join(" ".join(s.paragraphs) for s in glass.sections)
    assert "Each played line showing B B B from the leftmost reel plays the bonus once" in text
    assert "The bonus awards one of these prizes, as multiples of the bet per line:" in text
    assert "lines that play the bonus game" in replay_model(_game()).not_replayed


def _refused(old: str, new: str) -> list[tuple[str, str]]:
    with pytest.raises(ModelError) as err:
        _game(GAME.replace(old, new))
    return [(p.path, p.code) for p in err.value.problems]


@pytest.mark.parametrize(
    ("old", "new", "path", "code"),
    [
        ('combo = ["B", "B", "B"]', 'combo = ["B", "A", "B"]', "pays[1].bonus", "bad_kind"),
        ("[bonus]\n", "[bonus]\ntrigger = {symbol = 'B', count = 3}\n", None, None),
        ("bonus = true\n", "", "bonus.trigger", "missing_key"),
        ("[bonus]\n", "[rules]\nwin_cap = 100\n[bonus]\n", "pays[1].bonus", "unsupported"),
        ("[bonus]\n", "[rules]\ndirection = 'both'\n[bonus]\n", "pays[1].bonus", "unsupported"),
        (
            "[bonus]\n",
            "[free_spins]\ntrigger = {symbol = 'B', count = 3}\nspins = 1\n"
            "expanding_symbol = {A = 1}\n[bonus]\n",
            "pays[1].bonus",
            "unsupported",
        ),
    ],
)
def test_refusals_are_located(old, new, path, code):
    if path is None:  # both a trigger and a line: valid
        assert _game(GAME.replace(old, new)).bonus.trigger is not None
        return
    assert (path, code) in _refused(old, new)


def test_without_a_bonus_table_it_is_located():
    text = GAME[: GAME.index("[bonus]")]
    with pytest.raises(ModelError) as err:
        _game(text)
    assert ("pays[1].bonus", "missing_key") in [(p.path, p.code) for p in err.value.problems]


def test_twin_by_hand_too():
    """The twin's figure on the hand-counted game (a check of the oracle itself)."""
    ref = twin.brute_force(_game(), 0)
    assert ref["rtp"] == Fraction(19, 8)
    assert ref["variance"] == Fraction(1607, 64)


def test_diamond_dogs_reproduced():
    """NetEnt Diamond Dogs as slotopol plays it (tests/data/real/netent_diamond_dogs.toml;
    slotopol game/slot/netent/diamonddogs, reel set "87.228472" of its data file,
    whose header reads "symbols: 35.8(lined) + 15.19(scatter) = 50.990861%;
    ne12 bonuses: hit rate 1/1412.9, rtp = 21.233092%; RTP = 50.991(sym) +
    21.233(ne12) + 0.062015*241.95(fg) = 87.228472%"). The server's figures are
    its own brute force over the 42,802,056 combinations, rounded to 6 places."""
    level = _printed_parts("netent_diamond_dogs.toml", 87.228472, 50.990861, 21.233092)
    assert level.free_spins_rtp * 100 == pytest.approx(0.062015 * 241.95, abs=5e-4)


def test_diamond_dogs_simulates_inside_the_interval():
    """400,000 spins of the real game land within z(0.999) standard errors of its
    exact return (the kernels' prizes per bonus line against the calculator's walks)."""
    tables = compile_machine(load_machine(REAL / "netent_diamond_dogs.toml"))
    sim = simulate(tables, 0, 400_000, 13)
    assert abs(sim.rtp - 0.87228472) <= z_value(0.999) * sim.std_error


def test_simsalabim_reproduced():
    """NetEnt Simsalabim as slotopol plays it (tests/data/real/netent_simsalabim.toml;
    slotopol game/slot/netent/simsalabim, which plays Diamond Dogs' bonus; reel set
    "84.545047", headed "symbols: 38.853(lined) + 13.276(scatter) = 52.128888%;
    ne12 bonuses: hit rate 1/1728, rtp = 17.361111%; RTP = 52.129(sym) +
    17.361(ne12) + 0.053168*283.16(fg) = 84.545047%"). A second game on the same
    rule, with free spins awarded by count (10, 20, 30)."""
    _printed_parts("netent_simsalabim.toml", 84.545047, 52.128888, 17.361111)


def test_champagne_reproduced():
    """Megajack Champagne as slotopol plays it (tests/data/real/megajack_champagne.toml;
    slotopol game/slot/megajack/champagne, reel set "95.958662" of its data file, whose
    header reads "symbols: 69.974(lined) + 0.7242(scatter) = 70.698214%; champagne
    bonuses: hit rate 1/3043.5, rtp = 5.519986%" for the base game and, for the free
    spins (x2, the bonus unmultiplied), "138.99(lined) + 0.7242(scatter) = 139.718556%
    ... rtp = 5.519986% ... RTP = sq*(rtp(sym)+rtp(mjc)) = 184.719467%", q = 0.106867,
    "RTP = 70.698 + 5.52 + 0.10687*184.72 = 95.958662%"): five fizz on a line play the
    bottles bonus in the free spins too. The server's figures are its own brute force
    over the 33,554,432 combinations (one line: every line returns the same)."""
    level = _printed_parts("megajack_champagne.toml", 95.958662, 70.698214, 5.519986)
    assert level.free_spins_rtp * 100 == pytest.approx(0.106867 * 184.719467, abs=5e-4)


def _printed_parts(name: str, rtp: float, symbols: float, bonus: float):
    """The exact level of a real game, its return, symbols' part (lines and scatters) and
    bonus part checked against the server's printed figures (6 places: half a unit)."""
    ex = compute_exact(load_machine(REAL / name))
    assert ex is not None
    level = ex.levels[0]
    assert level.rtp * 100 == pytest.approx(rtp, abs=5e-7)
    assert (level.line_rtp + level.scatter_rtp) * 100 == pytest.approx(symbols, abs=5e-7)
    assert level.bonus_rtp * 100 == pytest.approx(bonus, abs=5e-7)
    return level
