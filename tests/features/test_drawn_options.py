"""Free-spin options the machine draws (``[[free_spins.options]]`` with ``weight``),
and a multiplier drawn for each free spin (``free_spins.multiplier = {v = w}``).

Real cabinets draw the number of free spins ("10 to 25 free spins") or their
multiplier when the feature starts (slotopol's Play'n GO Cops'n'Robbers draws
both; Novomatic's Royal Dynasty the number; Novomatic's Chicago draws each free
spin's multiplier). Oracles: the server's own figure
for Cops'n'Robbers, a hand count, the twins (tests/twins/lines.py and
features.py draw the option inside the feature, where the calculator mixes the
options' whole games) on random games, and simulation inside the exact
interval.
"""

from __future__ import annotations

import math
import tomllib
from fractions import Fraction
from pathlib import Path

import pytest
import test_twin_rules as T
from feature_games import drawn_option_games
from hypothesis import HealthCheck, given, settings
from test_features_property import assert_twin_equals_exact

from certify.engine import compile_machine, simulate
from certify.errors import ModelError
from certify.exact import compute_exact
from certify.exact.decompose import mean_return
from certify.model import load_machine
from certify.model.loader import parse_machine
from certify.outcomes.model import replay_model
from certify.stats import z_value

REAL = Path(__file__).parents[1] / "data" / "real"
AS = 'strips = [["A", "S"], ["A", "S"], ["A", "S"]]'
BODY = """
[symbols]
A = {kind = "regular"}
S = {kind = "scatter"}
[[pays]]
combo = ["A", "A", "A"]
pays = 1
[[scatter_pays]]
symbol = "S"
count = 3
pays = 2
[free_spins]
trigger = {symbol = "S", count = 3}
[[free_spins.options]]
spins = 1
multiplier = 1
weight = 1
[[free_spins.options]]
spins = 2
multiplier = 3
weight = 1
"""


def test_cops_n_robbers_reproduced():
    """slotopol's Cops'n'Robbers, reel set "85.735488" (tests/data/real/SOURCES.md): the
    server prints "RTP = 74.985(sym) + 1.3*0.068725*120.32(fg) = 85.735488%", its
    brute force of the base reels (39^5 = 90,224,199 combinations) and of the free-spin
    reels (28^5) mixed by the mean number of free spins (17) and the mean multiplier
    (1.3) of its draws: a mixture that is exact here (no retrigger, the draw is
    independent of the screens)."""
    m = load_machine(REAL / "playngo_cops_n_robbers.toml")
    ex = compute_exact(m)
    assert ex is not None
    assert ex.levels[0].rtp == pytest.approx(0.85735488, abs=5e-9)


def test_a_drawn_option_by_hand(tmp_path):
    """Reels [A, S] x 3, one row and line: A A A pays 1, S S S pays 2 x total bet and
    starts the feature (each 1/8), so a spin at x1 is worth 3/8. Options drawn half and
    half: 1 spin at x1, or 2 spins at x3. E[feature] = 1/2 x 3/8 + 1/2 x 2 x 3 x 3/8 =
    21/16; return 3/8 + 1/8 x 21/16 = 69/128. The per-reel decomposition mixes the same
    options its own way and agrees; so does the simulation, within 4 standard errors."""
    m = T.game(tmp_path, BODY, AS)
    assert m.free_spins.options_drawn
    tables = compile_machine(m)
    ex = compute_exact(tables)
    assert ex is not None
    assert ex.levels[0].rtp == pytest.approx(69 / 128, rel=1e-14)
    assert mean_return(tables, tables.levels[0]) == pytest.approx(69 / 128, rel=1e-14)
    sim = simulate(tables, 0, 400_000, 11)
    assert abs(sim.rtp - 69 / 128) <= 4 * sim.std_error


def test_the_variance_is_the_mixtures(tmp_path):
    """Second moment by hand for the game above (per unit of total bet 1). A base spin
    pays X0 in {0, 1 (A A A), 2 (S S S)}, E[X0^2] = (1 + 4)/8 = 5/8. A started feature:
    option 1 (p 1/2) is one x1 spin, E[F] = 3/8, E[F^2] = 5/8; option 2 two x3 spins,
    F = 3 (X1 + X2): E[F] = 18/8, E[F^2] = 9 (2 x 5/8 + 2 x (3/8)^2) = 9 x 49/32 =
    441/32; mixed: E[F] = 21/16, E[F^2] = (20/32 + 441/32)/2 = 461/64. On S S S (1/8):
    E[(2 + F)^2] = 4 + 4 x 21/16 + 461/64 = (256 + 336 + 461)/64 = 1053/64. E[X^2] =
    1/8 x 1 + 1/8 x 1053/64 = 1117/512; variance = 1117/512 - (69/128)^2."""
    ex = compute_exact(T.game(tmp_path, BODY, AS))
    assert ex is not None
    expected = Fraction(1117, 512) - Fraction(69, 128) ** 2
    assert ex.levels[0].variance == pytest.approx(float(expected), rel=1e-12)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(drawn_option_games())
def test_drawn_options_equal_the_twin(machine):
    """Random lines and ways games with 2-3 drawn options (retriggers, own strips and an
    expanding wild or not): return, hit frequency, variance and the free spins' part
    equal the twin's brute force to 1e-12."""
    assert_twin_equals_exact(machine)


def test_the_simulation_draws_the_option(tmp_path):
    """The game of the hand count with the x3 option made rare (weight 1 of 9): its
    return is 3/8 + 1/8 x (8/9 x 3/8 + 1/9 x 18/8) = 3/8 + 1/8 x 7/12 = 43/96. A
    kernel that kept the first option would simulate 3/8 + 1/8 x 3/8 = 27/64, 0.026
    away, over 30 standard errors of this run; it falls within 4 of 43/96."""
    body = BODY.replace("multiplier = 1\nweight = 1", "multiplier = 1\nweight = 8")
    tables = compile_machine(T.game(tmp_path, body, AS))
    ex = compute_exact(tables)
    assert ex is not None
    assert ex.levels[0].rtp == pytest.approx(43 / 96, rel=1e-14)
    sim = simulate(tables, 0, 2_000_000, 3)
    assert abs(sim.rtp - 43 / 96) <= 4 * sim.std_error
    assert abs(27 / 64 - 43 / 96) > 10 * sim.std_error


TEXT = """
schema = "slotcert/machine@1"
[machine]
id = "X"
name = "x"
[bet]
denomination = "0.01"
currency = "EUR"
lines = 1
bet_levels = [1]
[symbols]
A = {kind = "regular"}
S = {kind = "scatter"}
[reels]
rows = 1
strips = [["A", "S"], ["A", "S"]]
paylines = [[0, 0]]
[[pays]]
combo = ["A", "A"]
pays = 1
[free_spins]
trigger = {symbol = "S", count = 2}
"""


def test_weights_on_some_options_only_are_located():
    """Either every option has a weight (drawn) or none (the player's choice)."""
    raw = (
        TEXT + "[[free_spins.options]]\nspins = 1\nweight = 2\n[[free_spins.options]]\nspins = 2\n"
    )
    with pytest.raises(ModelError) as err:
        parse_machine(tomllib.loads(raw), "<t>")
    where = [(p.path, p.code) for p in err.value.problems]
    assert ("free_spins.options[1].weight", "options_conflict") in where


def test_drawn_options_are_one_game_not_variants():
    """The player's options are certified one by one; drawn options are one game."""
    chosen = TEXT + "[[free_spins.options]]\nspins = 1\n[[free_spins.options]]\nspins = 2\n"
    drawn = chosen.replace("spins = 1\n", "spins = 1\nweight = 1\n").replace(
        "spins = 2\n", "spins = 2\nweight = 3\n"
    )
    m_chosen, _ = parse_machine(tomllib.loads(chosen), "<t>")
    m_drawn, _ = parse_machine(tomllib.loads(drawn), "<t>")
    assert len(m_chosen.option_variants()) == 2
    assert m_drawn.option_variants() == [m_drawn]


def test_the_outcome_log_does_not_replay_drawn_options():
    """A log does not say which option was drawn: replay marks such games unreplayed."""
    rm = replay_model(load_machine(REAL / "playngo_cops_n_robbers.toml"))
    assert "drawn" in rm.not_replayed


def test_cops_n_robbers_simulates_inside_the_interval():
    """400,000 spins of the real game land within z(0.999) standard errors of its exact
    return (the draws of the kernel against the calculator's mixture)."""
    m = load_machine(REAL / "playngo_cops_n_robbers.toml")
    tables = compile_machine(m)
    sim = simulate(tables, 0, 400_000, 7)
    assert abs(sim.rtp - 0.85735488) <= z_value(0.999) * sim.std_error
    assert math.isfinite(sim.std_error)


EACH = BODY[: BODY.index("[[free_spins.options]]")] + "spins = 1\nmultiplier = {1 = 1, 3 = 1}\n"


def test_chicago_reproduced():
    """slotopol's Chicago, reel set "83.520645" (tests/data/real/SOURCES.md): the server
    prints "RTP = 63.015(sym) + 0.071909*67.897(fg)*4.2 = 83.520645%": its brute force
    over 34^5 = 45,435,424 combinations, the free spins (12, retriggered on the same
    reels) worth sq = 1/(1 - q) spins of the base game, times the mean 4.2 of the
    multiplier each free spin draws from {1, 2, 3, 5, 10}."""
    m = load_machine(REAL / "novomatic_chicago.toml")
    assert m.free_spins.multipliers == ((1, 1), (2, 1), (3, 1), (5, 1), (10, 1))
    ex = compute_exact(m)
    assert ex is not None
    assert ex.levels[0].rtp == pytest.approx(0.83520645, abs=5e-9)


def test_a_multiplier_drawn_for_each_free_spin_by_hand(tmp_path):
    """The hand-count game with 1 free spin whose multiplier is x1 or x3, half and half:
    E[M] = 2, E[M^2] = 5. One spin pays W with E[W] = 3/8, E[W^2] = 5/8, so the feature
    is worth E[F] = 3/4 and E[F^2] = E[M^2] E[W^2] = 25/8 (a fixed x2 would give 5/2).
    Return 3/8 + 1/8 x 3/4 = 15/32. On S S S (1/8): E[(2 + F)^2] = 4 + 3 + 25/8 = 81/8;
    E[X^2] = 1/8 + 1/8 x 81/8 = 89/64; variance 89/64 - (15/32)^2 = 1199/1024."""
    tables = compile_machine(T.game(tmp_path, EACH, AS))
    ex = compute_exact(tables)
    assert ex is not None
    assert ex.levels[0].rtp == pytest.approx(15 / 32, rel=1e-14)
    assert ex.levels[0].variance == pytest.approx(1199 / 1024, rel=1e-12)
    assert mean_return(tables, tables.levels[0]) == pytest.approx(15 / 32, rel=1e-14)


def test_the_simulation_draws_each_spins_multiplier(tmp_path):
    """x1 nine times in ten, x10 once: E[M] = 1.9; return 3/8 + 1/8 x 1.9 x 3/8 =
    0.4640625. A kernel that played x1 would simulate 27/64 = 0.421875, over 30
    standard errors away; the kernel lands within 4 of the exact figure."""
    body = EACH.replace("multiplier = {1 = 1, 3 = 1}", "multiplier = {1 = 9, 10 = 1}")
    tables = compile_machine(T.game(tmp_path, body, AS))
    ex = compute_exact(tables)
    assert ex is not None
    assert ex.levels[0].rtp == pytest.approx(0.4640625, rel=1e-14)
    sim = simulate(tables, 0, 2_000_000, 5)
    assert abs(sim.rtp - 0.4640625) <= 4 * sim.std_error
    assert abs(27 / 64 - 0.4640625) > 10 * sim.std_error


def test_a_drawn_multiplier_is_located_when_bad(tmp_path):
    """A multiplier table with a bad key or weight is a located error; with options,
    the shared multiplier conflicts as before."""
    bad = EACH.replace("multiplier = {1 = 1, 3 = 1}", "multiplier = {x = 1, 3 = 0}")
    with pytest.raises(ModelError) as err:
        T.game(tmp_path, bad, AS)
    where = {p.path for p in err.value.problems}
    assert {"free_spins.multiplier.x", "free_spins.multiplier.3"} <= where
