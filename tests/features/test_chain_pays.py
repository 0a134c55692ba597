"""``[cascade] chain_pays``: a cascade's sequence pays a prize by its length.

CT Interactive Win Feast (slotopol ``ct/winfeast``): when an avalanche ends on
its 8th screen (the first screen without wins, counted as the server's fall
number CFN) the spin wins 100 credits, on the 9th or later 1000. Oracles: a
hand count (the hand-worked cascade of ``tests/screens/test_cascade_hand.py``),
slotopol's own brute-force counts for Win Feast, the screen twin's brute force
(``tests/twins/screens.py``, generated in ``tests/features/test_registry.py``).
Outcome logs of cascade games are not replayed screen by screen (their stops are
still tested: ``certify/outcomes/model.py``), so neither is the prize.
"""

from __future__ import annotations

import dataclasses
import tomllib
from fractions import Fraction

import pytest
from testpaths import ROOT

from certify.engine import compile_machine
from certify.errors import ModelError
from certify.exact import compute_exact
from certify.exact.parfeatures import cascade_sequences, cascade_steps, cascade_table
from certify.exact.screens import screen_cycle
from certify.model import load_machine
from certify.model.fingerprint import canonical_form, fingerprint
from certify.model.loader import parse_machine
from reports.paytable import render_pay_glass

WIN_FEAST = ROOT / "tests/data/real/ct_win_feast.toml"
SMALL = ROOT / "tests/data/rules/chain_pays.toml"


HAND_GAME = """
schema = "slotcert/machine@1"
[machine]
id = "HAND-CASCADE"
name = "Hand cascade"
[bet]
denomination = "0.01"
currency = "EUR"
lines = 2
bet_levels = [1, 2]
[symbols]
A = {kind = "regular"}
K = {kind = "regular"}
[reels]
rows = 2
strips = [["A", "A", "K"], ["A", "K", "A"], ["A", "K"]]
paylines = [[0, 0, 0], [1, 1, 1]]
[cascade]
refill = "strip"
multipliers = [1, 2, 3]
max_screens = 10
%s
[[pays]]
combo = ["A", "A", "A"]
pays = 5
[[pays]]
combo = ["K", "K", "K"]
pays = 2
"""


def _chained(prizes: str):
    """The cascade worked by hand in tests/screens/test_cascade_hand.py, with ``prizes``."""
    machine, _ = parse_machine(tomllib.loads(HAND_GAME % prizes), "hand.toml")
    return machine


def test_the_hand_cascade_with_length_prizes():
    """The hand table (tests/screens/test_cascade_hand.py): without prizes the cycle pays 73
    credits over its 18 starts; one start, (2, 1, 1), plays 3 screens and one, (0, 2, 0),
    4; every other plays 1 or 2. With ``chain_pays = {3 = 1, 4 = 10}`` at level 1 (total bet 2) they
    win 2 and 20 credits more: 73 + 22 = 95 credits over 18 spins of 2, return 95/36; the
    hit frequency stays 8/18 (both starts already paid); level 2 pays in proportion."""
    plain = compute_exact(compile_machine(_chained("")))
    assert plain is not None and plain.levels[0].rtp == pytest.approx(73 / 36, rel=1e-15)
    exact = compute_exact(compile_machine(_chained("chain_pays = {3 = 1, 4 = 10}")))
    assert exact is not None
    for lvl in exact.levels:
        assert lvl.rtp == pytest.approx(95 / 36, rel=1e-15)
        assert lvl.hit_frequency == pytest.approx(8 / 18, rel=1e-15)


def test_a_prize_for_3_screens_or_more_pays_every_longer_sequence():
    """``{3 = 1}`` alone: the 3- and the 4-screen start both win 1 x 2 credits: 77/36."""
    exact = compute_exact(compile_machine(_chained("chain_pays = {3 = 1}")))
    assert exact is not None
    assert exact.levels[0].rtp == pytest.approx(77 / 36, rel=1e-15)


def test_the_par_rows_show_the_prize_and_the_steps_add_up():
    """The lengths table names each length's prize; the steps (a cut sequence has not
    ended: no prize) still add up to the return, 95/36 by the hand count above."""
    tables = compile_machine(_chained("chain_pays = {3 = 1, 4 = 10}"))
    lt = tables.levels[0]
    played = cascade_sequences(tables, lt)
    table = cascade_table(tables, lt, played)
    prize = table.columns.index("chain_pays_x_bet")
    assert {row[0]: row[prize] for row in table.rows} == {1: 0, 2: 0, 3: 1, 4: 10}
    rtp = table.columns.index("rtp_contribution")
    assert sum(row[rtp] for row in table.rows) == pytest.approx(95 / 36, rel=1e-15)
    steps = cascade_steps(tables, lt, played)
    col = steps.columns.index("rtp_contribution")
    assert sum(row[col] for row in steps.rows) == pytest.approx(95 / 36, rel=1e-15)


@pytest.mark.slow
def test_win_feast_equals_the_published_brute_force():
    """CT Interactive Win Feast, 129,564,864 starts, each avalanche played to its end.

    Reference: slotopol/server, game/slot/ct/winfeast/winfeast_data.yaml, reel set
    "89.934145" (its own brute force over every start): RTP = 89.934145%, N[2] =
    18,398,922 starts reaching screen 2 (the starts that pay), N[8] = 6,975,
    N[9] = 3,427, Ncascmax = 11. The printed RTP is the lines' and scatters' (the
    server's ``EvD`` sums symbol pays: the fall-number prizes, win items with no
    symbol, are not in it), so the game returns it plus the prizes counted from the
    same brute force: (N[8] - N[9]) x 100 + N[9] x 1000 credits over the starts at
    20 credits a spin = 189,090 / 129,564,864 = 0.1459423%.
    """
    prize = Fraction((6_975 - 3_427) * 5 + 3_427 * 50, 129_564_864)
    t = compile_machine(load_machine(WIN_FEAST))
    lt = t.levels[0]
    cyc = screen_cycle(t, lt, 0)
    assert cyc.buckets.total == 129_564_864
    rtp = Fraction(sum(cyc.buckets.wb), cyc.buckets.total * lt.total_bet)
    assert abs(float(rtp - prize) * 100 - 89.934145) <= 5e-7
    assert abs(float(prize) * 100 - 0.1459423) <= 5e-8  # the prizes matter at this precision
    assert int(cyc.buckets.hit.sum()) == 18_398_922
    assert cyc.longest == 11


def test_the_pay_glass_says_the_prizes():
    text = render_pay_glass(load_machine(WIN_FEAST))
    assert "is screen 8 pays 5 x the total bet" in text
    assert "is screen 9 or later pays 50 x the total bet" in text


def test_the_fingerprint_tells_the_prizes_and_keeps_older_prints():
    """A cascade without the key prints as before the key existed (no ``chain_pays``)."""
    with_prizes = load_machine(SMALL)
    without = dataclasses.replace(
        with_prizes, cascade=dataclasses.replace(with_prizes.cascade, chain_pays=())
    )
    assert fingerprint(with_prizes) != fingerprint(without)
    assert "chain_pays" in canonical_form(with_prizes)["cascade"]
    assert "chain_pays" not in canonical_form(without)["cascade"]


@pytest.mark.parametrize(
    ("prizes", "path"),
    [
        ("{1 = 5}", "cascade.chain_pays.1"),
        ("{40 = 5}", "cascade.chain_pays.40"),
        ("{3 = 0}", "cascade.chain_pays.3"),
        ("{}", "cascade.chain_pays"),
        ("5", "cascade.chain_pays"),
    ],
)
def test_a_bad_prize_table_is_a_located_error(prizes, path):
    """Keys from 2 to max_screens (30 here), prizes of 1 or more, a non-empty table."""
    text = SMALL.read_text().replace("chain_pays = {3 = 2, 5 = 10}", f"chain_pays = {prizes}")
    with pytest.raises(ModelError) as err:
        parse_machine(tomllib.loads(text), "chain.toml")
    assert path in {p.path for p in err.value.problems}
