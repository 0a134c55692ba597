"""A scatter paying a fraction of the bet: ``pays = "0.5"`` (whole credits at every level).

Play'n GO Fire Joker (slotopol): 2 scatters pay half the total bet. Oracles: hand
counts in the docstrings, the pure-Python twin (its own scatter credits, in
Fractions), the server's printed figures (``test_fire_joker_reproduced``), the
JSON Schema and the PAR's pay table read back.
"""

from __future__ import annotations

import tomllib
from fractions import Fraction

import jsonschema
import pytest
import test_twin_rules as T
from testpaths import DATA
from twins import lines as twin

from certify.errors import ModelError
from certify.exact import compute_exact
from certify.model import load_machine
from certify.model.fingerprint import canonical_form, canonical_json
from certify.model.jsonschema import json_schema
from reports.par import _pay_table
from reports.paytable import render_pay_glass

HALF = """
[symbols]
A = {kind = "regular"}
S = {kind = "scatter"}
[[pays]]
combo = ["A", "A", "A"]
pays = 4
[[scatter_pays]]
symbol = "S"
count = 2
pays = "0.5"
[[scatter_pays]]
symbol = "S"
count = 3
pays = "1.5"
"""
REELS = 'strips = [["A", "S"], ["A", "S"], ["A", "S"]]'
EVEN = "lines = 1\nbet_levels = [2, 6]"


def _game(tmp_path, body: str = HALF, bet: str = EVEN, reels: str = REELS, **rules):
    return T.game(tmp_path, body, reels, bet=bet, **rules)


def test_half_the_total_bet_by_hand(tmp_path):
    """Reels [A, S] x3, one line, levels 2 and 6; A A A pays 4 a credit of line bet; 2 S
    anywhere pay half the total bet (1 credit at level 2), 3 S pay 1.5 (3 credits).
    The 8 windows at level 2: AAA 8; three with 2 S pay 1; SSS pays 3; the rest nothing.
    Return (8 + 3 + 3) / 8 / 2 = 14/16 = 7/8, at level 6 the same (every pay x 3)."""
    m = _game(tmp_path)
    ex = compute_exact(m)
    assert [lv.rtp for lv in ex.levels] == pytest.approx([7 / 8, 7 / 8], rel=1e-14)
    assert twin.brute_force(m, 0)["rtp"] == Fraction(7, 8)
    assert twin.brute_force(m, 1)["rtp"] == Fraction(7, 8)


def test_free_spins_pays_may_be_a_fraction_too(tmp_path):
    """The same scatter pays "0.5" in free spins: the twin (its own free-spin view) and
    the exact figures agree to 1e-12."""
    body = HALF.replace('pays = "1.5"', 'pays = "1.5"\nfree_spins_pays = "0.5"') + (
        "[free_spins]\ntrigger = {symbol = 'S', count = 3}\nspins = 2\nretrigger = true\n"
        "max_spins = 6\n"
    )
    m = _game(tmp_path, body)
    ref = twin.brute_force(m, 0)
    assert compute_exact(m).levels[0].rtp == pytest.approx(float(ref["rtp"]), rel=1e-12)


@pytest.mark.parametrize(
    ("pays", "bet", "message"),
    [
        ('"0.5"', "lines = 1\nbet_levels = [1]", "0.5 x 1 credits (level 1) is 0.5"),
        ('"0.25"', "lines = 1\nbet_levels = [4, 6]", "0.25 x 6 credits (level 6) is 1.5"),
    ],
)
def test_a_fraction_that_is_not_whole_credits_is_located(tmp_path, pays, bet, message):
    """A pay of 2.5 credits cannot be paid: ``pay_value`` at the entry, naming the level."""
    body = HALF.replace('pays = "0.5"', f"pays = {pays}")
    with pytest.raises(ModelError) as err:
        _game(tmp_path, body, bet)
    assert ("scatter_pays[0].pays", "pay_value") in [(p.path, p.code) for p in err.value.problems]
    assert message in str(err.value)


@pytest.mark.parametrize(
    ("pays", "code"),
    [
        ("0.5", "type"),
        ('"-0.5"', "range"),
        ('"half"', "not_decimal"),
        ('"1e999999999"', "range"),
        ('"0.0000001"', "range"),
        ('"1e-999999999"', "range"),
    ],
)
def test_a_float_a_negative_or_a_word_is_refused(tmp_path, pays, code):
    """Money is never a float here: a decimal string, 0 to 10^9 with at most 6 decimals
    (an exponent of a billion digits is refused at once, not expanded)."""
    with pytest.raises(ModelError) as err:
        _game(tmp_path, HALF.replace('pays = "0.5"', f"pays = {pays}"))
    assert ("scatter_pays[0].pays", code) in [(p.path, p.code) for p in err.value.problems]


def test_glass_par_fingerprint_and_schema(tmp_path):
    """The pay glass shows the credits (1 and 3 at level 2), the PAR's pay table the
    decimal and the credits, the canonical form the string it was read from; the
    JSON Schema accepts the string and refuses a float."""
    m = _game(tmp_path)
    rows = {r[0]: r for r in _pay_table(m).rows}
    assert rows["scatter_pays[0]"][3:] == (0.5, 1, 3)
    assert rows["scatter_pays[1]"][3:] == (1.5, 3, 9)
    assert '"pays":"0.5"' in canonical_json(canonical_form(m))
    assert "Fraction" not in render_pay_glass(m)
    raw = tomllib.loads((tmp_path / "g.toml").read_text())
    check = jsonschema.Draft202012Validator(json_schema("machine"))
    assert not list(check.iter_errors(raw))
    raw["scatter_pays"][0]["pays"] = 0.5
    assert list(check.iter_errors(raw))


def test_a_line_bet_scatter_row_is_in_line_bets(tmp_path):
    """Under ``scatter_unit = "line_bet"`` the PAR's pay table pays x the line bet: two
    lines, 2 S pay 1 x the line bet, 1 credit at level 1 and 2 at level 2 (x the total
    bet, as the table printed before, 2 and 4); the glass says its free-spin pay is x
    the bet per line."""
    body = HALF.replace('pays = "0.5"', "pays = 1").replace('pays = "1.5"', "pays = 3")
    body += "free_spins_pays = 2\n[free_spins]\ntrigger = {symbol = 'S', count = 3}\nspins = 1\n"
    two = REELS + '\nevaluation = "lines"\npaylines = [[0, 0, 0], [0, 0, 0]]'
    bet = "lines = 2\nbet_levels = [1, 2]\nduplicate_lines = 'allow'"
    m = _game(tmp_path, body, bet, two, scatter_unit="line_bet")
    rows = {r[0]: r for r in _pay_table(m).rows}
    assert rows["scatter_pays[0]"][1] == "scatter (x line bet)"
    assert rows["scatter_pays[0]"][3:] == (1, 1, 2)
    assert rows["scatter_pays[1].free_spins_pays"][3:] == (2, 2, 4)
    assert "3 ou mais S: 2 x a aposta por linha" in render_pay_glass(m)


def test_fire_joker_reproduced():
    """Play'n GO Fire Joker, reel set "81.23534" of slotopol's firejoker_data.yaml:
    "symbols: mu = 68.030925%" (lines and scatters), "free spins: q = 0.050379" free
    spins per paid spin, "RTP(fg) = 262.10153%" a free spin's return (reels 2-4 one
    big fruit), "RTP = 68.031(sym) + 0.050379*262.1(fg) = 81.23534%". The 2-scatter
    pay is half the total bet: with it paid as 0 or 1 x total bet the return moves by
    the probability of 2 SC times 0.5 (about 2 points)."""
    level = compute_exact(load_machine(DATA / "real" / "playngo_fire_joker.toml")).levels[0]
    assert level.rtp * 100 == pytest.approx(81.23534, abs=5e-6)
    assert (level.line_rtp + level.scatter_rtp) * 100 == pytest.approx(68.030925, abs=5e-7)
    assert level.free_spins_rtp * 100 == pytest.approx(0.050379 * 262.10153, abs=5e-7 * 263)
