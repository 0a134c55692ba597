"""Named bonus games and plays per pay (``[bonus_games.NAME]``, ``bonus = "NAME"``, plays).

Megajack's Slotopol starts two different bonus games from two lines: five spin
symbols play the Eldorado wheel nine times, five dice the Monopoly board once
(Slotopol Deluxe: 3/4/5 spins play the wheel 1/3/6 times). Oracles: a hand
count with a spin that plays both games (the cross term), the lines twin (each
window's plays, every play an independent draw: E[S^2] = Var(S) + E[S]^2),
simulation inside the exact interval, the PAR rows adding up, and the server's
own printed brute-force figures for both real games.
"""

from __future__ import annotations

import tomllib
from fractions import Fraction
from pathlib import Path

import pytest
from feature_games import R, free_spins_of, machine_of, pays_of, strips_of, with_symbols
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from slotopol_boards import ELDORADO, monopoly_law
from test_features_property import assert_twin_equals_exact
from twins import lines as twin

from certify.engine import compile_machine, simulate
from certify.errors import ModelError
from certify.exact import compute_exact
from certify.exact.contributions import level_contributions
from certify.model import load_machine
from certify.model.fingerprint import canonical_form
from certify.model.loader import parse_machine
from certify.stats import z_value
from reports.par import _feature_sections
from reports.paytable import glass_in
from reports.translations import translation

REAL = Path(__file__).parents[1] / "data" / "real"
GAME = (Path(__file__).parents[1] / "data" / "rules" / "named_bonus_games.toml").read_text()


def _game(text: str = GAME):
    return parse_machine(tomllib.loads(text), "<t>")[0]


def test_by_hand():
    """3 reels of B/D, 2 rows (a reel shows B over D or D over B), line 1 the top row,
    line 2 the bottom one. With all three reels alike (2 of 8 spins) one line shows
    B B B and the other D D D: the spin plays [bonus] twice (2 or 4 x the line bet:
    mean 3, E[B^2] = 10) and "dice" once (0 or 6: mean 3, E[D^2] = 18), so
    E[S] = 9 and E[S^2] = Var + 81 = 2 (10 - 9) + (18 - 9) + 81 = 92. Total bet 2 x
    the line bet: return 9/4 / 2 = 9/8; E[W^2] / 4 = 23/4, variance 23/4 - 81/64 =
    287/64; 1 spin in 4 pays. Without the cross term between the two games the
    variance would be 287/64 - 2 x 6 x 3 / 4 / 4 (the 2 E[nB nD] mu_B mu_D part)."""
    ex = compute_exact(_game())
    assert ex is not None
    for level in ex.levels:
        assert level.rtp == pytest.approx(9 / 8, rel=1e-14)
        assert level.variance == pytest.approx(287 / 64, rel=1e-13)
        assert level.hit_frequency == pytest.approx(1 / 4, rel=1e-14)
        assert level.bonus_rtp == pytest.approx(9 / 8, rel=1e-14)


def test_twin_by_hand_too():
    """The twin's figure on the hand-counted game (a check of the oracle itself)."""
    ref = twin.brute_force(_game(), 1)
    assert ref["rtp"] == Fraction(9, 8)
    assert ref["variance"] == Fraction(287, 64)


def test_the_simulation_plays_each_game_its_times():
    """2,000,000 spins fall within z(0.999) standard errors of 9/8. A kernel that
    played the [bonus] once per line would return (3 + 3) / 4 / 2 = 3/4; one that
    played "dice" with [bonus]'s law, 9/8 too but a variance apart (the max win:
    at most 4 + 4 + 6 = 14 line bets, 28 credits at level 2)."""
    tables = compile_machine(_game())
    for li in range(2):
        sim = simulate(tables, li, 2_000_000, 5 + li)
        assert abs(sim.rtp - 9 / 8) <= z_value(0.999) * sim.std_error
        assert abs(3 / 4 - 9 / 8) > 30 * sim.std_error
        assert sim.max_win <= 14 * (li + 1)


def test_the_decomposition_and_the_par_rows_add_up():
    """The certificate's decomposed return and the PAR's rows both give 9/8: per game,
    its expected plays x its mean prize (1/4 x 2 x 3 and 1/4 x 1 x 3 line bets)."""
    from certify.exact.decompose import mean_return

    tables = compile_machine(_game())
    for lt in tables.levels:
        assert mean_return(tables, lt) == pytest.approx(9 / 8, rel=1e-14)  # x total bet
        pc = level_contributions(tables, lt)
        by_combo: dict[tuple, float] = {}
        for r in pc.bonus_awards:
            by_combo[r.combo] = by_combo.get(r.combo, 0.0) + r.rtp
        assert by_combo[("B", "B", "B")] == pytest.approx(3 / 4, rel=1e-14)
        assert by_combo[("D", "D", "D")] == pytest.approx(3 / 8, rel=1e-14)


@st.composite
def bonus_games_games(draw):
    """Lines games (2 rows, 2 lines) whose B and C lines play two bonus games, each
    entry 1-3 times: B B / B B B play [bonus] or "g", C C C plays "g" or [bonus]
    (pays 0-2), a wild that stands for neither, sometimes a scatter that plays one
    too, sometimes free spins whose lines play them."""
    symbols = {
        "A": R,
        "W": "{kind = 'wild', multiplier = 2}",
        "B": "{kind = 'bonus'}",
        "C": "{kind = 'bonus'}",
    }
    strips = with_symbols(draw, strips_of(draw, ["A", "W", "B", "C"]), ["B", "C", "B"])
    table = pays_of([(["A", "A", "A"], draw(st.integers(1, 9)))])

    first, second = draw(st.permutations(["true", "'g'"]))  # each game played by some pay

    def play(game: str | None = None) -> str:
        game = game or draw(st.sampled_from(["true", "'g'"]))
        return f"bonus = {game}\nbonus_plays = {draw(st.integers(1, 3))}\n"

    for i, n in enumerate(sorted(draw(st.sets(st.sampled_from([2, 3]), min_size=1)))):
        pays = draw(st.integers(0, 2))
        table += f"[[pays]]\ncombo = {['B'] * n}\npays = {pays}\n" + play(first if i == 0 else None)
    table += f"[[pays]]\ncombo = ['C', 'C', 'C']\npays = {draw(st.integers(0, 2))}\n" + play(second)
    extra = ""
    if draw(st.booleans()):
        symbols["S"] = "{kind = 'scatter'}"
        strips = with_symbols(draw, strips, ["S", "S"])
        extra += "[[scatter_pays]]\nsymbol = 'S'\ncount = 2\npays = 1\n" + play()
    for name in ("bonus", "bonus_games.g"):
        unit = draw(st.sampled_from(["total_bet", "line_bet"]))
        awards = draw(
            st.lists(st.tuples(st.integers(0, 9), st.integers(1, 3)), min_size=1, max_size=3)
        )
        extra += f"[{name}]\nunit = '{unit}'\nawards = ["
        extra += ", ".join(f"{{pays = {p}, weight = {w}}}" for p, w in awards) + "]\n"
    if draw(st.booleans()) and "S" not in symbols:
        symbols["S"] = "{kind = 'scatter'}"
        strips = with_symbols(draw, strips, ["S", "S"])
        free = [["A", "W", "S", "B"], ["A", "S", "B", "C"], ["W", "A", "B", "C"]]
        extra += free_spins_of(draw, "S", extra=f"strips = {free}\n")
    return machine_of(strips, symbols, table, extra)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(bonus_games_games())
def test_twin_equals_exact(machine):
    """Random games with two bonus games and plays: exact = the lines twin's brute force
    to 1e-12 (the cross terms of two games in one spin, several plays per line)."""
    assert_twin_equals_exact(machine, twin.brute_force)


def test_slotopol_reproduced():
    """Megajack Slotopol as slotopol plays it (tests/data/real/megajack_slotopol.toml;
    slotopol game/slot/megajack/slotopol, the one reel set of slotopol_data.yaml, whose
    header reads "symbols: 48.848(lined) + 39.546(scatter) = 88.394135%; spin9
    bonuses: count 2700, rtp = 7.676482%; monopoly bonuses: count 4320, rtp =
    3.689938%; RTP = 88.394(sym) + 7.6765(mje9) + 3.6899(mjm) = 99.760556%"): five
    spins play the Eldorado wheel 9 times, five dice the Monopoly board once. The
    server's figures are its own brute force over the 33,554,432 combinations (one
    line: every line returns the same); the return printed leaves out the fund that
    five wilds win (`rtp` here: the base game's return, no jackpot)."""
    _printed("megajack_slotopol.toml", 99.760556, 88.394135, 7.676482 + 3.689938)


def test_slotopol_deluxe_reproduced():
    """Megajack Slotopol Deluxe (tests/data/real/megajack_slotopol_deluxe.toml;
    slotopol game/slot/megajack/slotopoldeluxe, reel set "95.677817" of its data file:
    "RTP = ... = 95.677817%"; 3, 4 and 5 spins on a line play the wheel 1, 3 and 6
    times, the entries written shortest first: of equal worth, the longest run met
    plays, so a line of 5 plays the wheel 6 times, not once). The
    server's parts for the set are in the file's header; here its total."""
    machine = load_machine(REAL / "megajack_slotopol_deluxe.toml")
    ex = compute_exact(machine)
    assert ex is not None
    assert ex.levels[0].rtp * 100 == pytest.approx(95.677817, abs=5e-7)


def test_the_real_files_hold_the_server_s_boards():
    """The Monopoly law in both files is the board's, enumerated over its 6^7 throws
    from monopoly.go (tests/features/slotopol_boards.py, mean 80231330 / 279936 as the
    server's comment prints); the wheel is eldorado.go's 20 segments, one draw each."""
    law = monopoly_law()
    assert sum(v * n for v, n in law.items()) == 80_231_330
    for name in ("megajack_slotopol.toml", "megajack_slotopol_deluxe.toml"):
        m = load_machine(REAL / name)
        games = dict(m.bonus_laws)
        assert {a.pays: a.weight for a in games["monopoly"].awards} == law
        wheel = games[""].awards
        assert sorted((a.pays, a.weight) for a in wheel) == sorted(
            (v, ELDORADO.count(v)) for v in set(ELDORADO)
        )


def test_slotopol_simulates_inside_the_interval():
    """2,000,000 spins of Slotopol land within z(0.999) standard errors of its exact
    return (the kernels' nine wheel draws and the board's law against the walks)."""
    machine = load_machine(REAL / "megajack_slotopol.toml")
    ex = compute_exact(machine)
    assert ex is not None
    sim = simulate(compile_machine(machine), 0, 2_000_000, 17)
    assert abs(sim.rtp - ex.levels[0].rtp) <= z_value(0.999) * sim.std_error


def _printed(name: str, rtp: float, symbols: float, bonus: float) -> None:
    """A real game's return (its fund aside), symbols' part and bonus part against the
    server's printed figures (6 places: half a unit)."""
    ex = compute_exact(load_machine(REAL / name))
    assert ex is not None
    level = ex.levels[0]
    assert level.rtp * 100 == pytest.approx(rtp, abs=5e-7)
    assert (level.line_rtp + level.scatter_rtp) * 100 == pytest.approx(symbols, abs=5e-7)
    assert level.bonus_rtp * 100 == pytest.approx(bonus, abs=1e-6)


def test_the_pay_glass_and_the_par_name_each_game():
    m = _game()
    glass = glass_in(m, translation("en"))
    titles = [s.heading for s in glass.sections]
    assert "Bonus" in titles and "Bonus: dice" in titles
    text = " ".join(" ".join(s.paragraphs) for s in glass.sections)
    assert "B B B from the leftmost reel plays the bonus 2 times, each play its own prize" in text
    assert "D D D from the leftmost reel plays the bonus once" in text
    for lang in ("es", "fr", "pt"):
        other = " ".join(" ".join(s.paragraphs) for s in glass_in(m, translation(lang)).sections)
        assert "{" not in other and " 2 " in other


def test_the_fingerprint_names_the_game_and_plays():
    """A pay's game and plays change the fingerprint; a pay playing [bonus] once prints
    as before (no new key)."""
    base = canonical_form(_game())
    assert "bonus_games" in base
    assert base["pays"][0]["bonus_plays"] == 2 and "bonus_game" not in base["pays"][0]
    assert base["pays"][1]["bonus_game"] == "dice" and "bonus_plays" not in base["pays"][1]
    once = canonical_form(_game(GAME.replace("bonus_plays = 2\n", "")))
    assert "bonus_plays" not in once["pays"][0] and once != base


def _problems(old: str, new: str) -> list[tuple[str, str, str]]:
    try:
        _, problems = parse_machine(tomllib.loads(GAME.replace(old, new)), "<t>")
    except ModelError as err:
        problems = err.problems
    return [(p.path, p.code, p.severity) for p in problems]


@pytest.mark.parametrize(
    ("old", "new", "path", "code"),
    [
        ('bonus = "dice"', 'bonus = "dices"', "pays[1].bonus", "missing_key"),
        ('bonus = "dice"', 'bonus = "1dice"', "pays[1].bonus", "type"),
        ('bonus = "dice"', "bonus = 3", "pays[1].bonus", "type"),
        ("bonus_plays = 2", "bonus_plays = 0", "pays[0].bonus_plays", "range"),
        ("bonus_plays = 2", "bonus_plays = 1001", "pays[0].bonus_plays", "range"),
        ('bonus = "dice"\n', "", None, None),
        ('bonus = "dice"', "bonus_plays = 2", "pays[1].bonus_plays", "missing_key"),
        (
            "[bonus_games.dice]\n",
            "[bonus_games.dice]\ntrigger = {symbol = 'D', count = 3}\n",
            "bonus_games.dice.trigger",
            "unknown_key",
        ),
    ],
)
def test_refusals_are_located(old, new, path, code):
    found = _problems(old, new)
    if path is None:  # "dice" played by nothing: refused at the game (a misspelt name?)
        assert ("bonus_games.dice", "rule_not_applicable", "error") in found
        return
    assert (path, code, "error") in found


def test_more_plays_than_a_field_holds_is_refused():
    """Two games share the 22 bits above the mark: 11 bits each, at most 2,047 plays of
    one game in a spin. 1,000 plays on each of 3 lines is 3,000: refused, located."""
    text = GAME.replace("lines = 2", "lines = 3").replace(
        "paylines = [[0, 0, 0], [1, 1, 1]]", "paylines = [[0, 0, 0], [1, 1, 1], [0, 0, 0]]"
    )
    text = text.replace("bonus_plays = 2", "bonus_plays = 1000")
    text = text.replace('currency = "EUR"', 'currency = "EUR"\nduplicate_lines = "allow"')
    with pytest.raises(ModelError) as err:
        compile_machine(_game(text))
    found = [(p.path, p.code) for p in err.value.problems]
    assert ("pays[0].bonus", "engine_limit") in found


def test_the_par_lists_each_game():
    """The PAR has one bonus section per game, each naming the pays that play it."""
    m = _game()
    titles = [s.title for s in _feature_sections({"levels": []}, m) if s.title.startswith("Bonus")]
    assert any(t.startswith("Bonus: a line of B B B (2 plays)") for t in titles)
    assert any(t.startswith("Bonus game 'dice': a line of D D D") for t in titles)


def test_an_exclusive_group_plays_one_game():
    """Exclusive scatters whose entries play different games are refused, located: the
    exact walks take one game at a time, and the group's choice must not depend on it."""
    text = GAME.replace(
        'D = {kind = "bonus"}',
        'D = {kind = "bonus"}\nS1 = {kind = "scatter"}\nS2 = {kind = "scatter"}',
    ).replace(
        'strips = [["B", "D"], ["B", "D"], ["B", "D"]]',
        'strips = [["B", "D", "S1"], ["B", "D", "S2"], ["B", "D"]]',
    )
    text += (
        '[rules]\nexclusive_scatters = ["S1", "S2"]\n'
        '[[scatter_pays]]\nsymbol = "S1"\ncount = 1\npays = 0\nbonus = true\n'
        '[[scatter_pays]]\nsymbol = "S2"\ncount = 1\npays = 0\nbonus = "dice"\n'
    )
    found = [(p, c) for p, c, sev in _problems(GAME, text) if sev == "error"]
    assert ("scatter_pays[0].bonus", "unsupported") in found
    same = text.replace(
        'count = 1\npays = 0\nbonus = "dice"\n', "count = 1\npays = 0\nbonus = true\n"
    )
    assert not [p for p, c, sev in _problems(GAME, same) if sev == "error"]


def test_a_pay_playing_a_game_is_refused_with_hold_and_spin():
    """A named game lets a line play a bonus without ``[bonus]``, which hold and spin
    excludes; hold and spin with pays playing a game is refused, located (its coins
    are the bonus symbols and its draws the bonus path)."""
    text = (Path(__file__).parents[2] / "models" / "machines" / "hold-5x3-20.toml").read_text()
    text += (
        '\n[[pays]]\ncombo = ["COIN", "COIN", "COIN", "COIN", "COIN"]\npays = 0\nbonus = "x"\n'
        "[bonus_games.x]\nawards = [{pays = 1, weight = 1}]\n"
    )
    with pytest.raises(ModelError) as err:
        parse_machine(tomllib.loads(text), "<t>")
    found = [(p.path, p.code) for p in err.value.problems]
    assert any(path.endswith(".bonus") and code == "unsupported" for path, code in found)
