"""The twin's rules of real games (SPEC 3.1a), each on a tiny game counted by hand.

Every game is 3 reels x 1 row with one payline (one ways game), equally likely
stops, bet level 1 unless said, so the return is (sum of the pays over the
cycle) / (cycle x total bet). Each docstring lists the combinations and pays;
the twin's brute force must give that figure exactly (Fractions), and where
it applies (lines games read left, no cap) so must the twin's second method,
``mean_by_decomposition``.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction as F

import pytest
from twins import lines as twin

from certify.model import load_machine

HEAD = """schema = "slotcert/machine@1"
[machine]
id = "RULES-{id}"
name = "Rules {id}"
[bet]
denomination = "1.00"
currency = "EUR"
{bet}
[reels]
rows = 1
{reels}
"""
LINES = "lines = 1\nbet_levels = [1]"


def game(tmp_path, body: str, reels: str, bet: str = LINES, name: str = "g", **rules):
    """Load a machine from its parts (written to a file, read by the real loader).

    ``rules`` become the file's ``[rules]`` table (strings quoted, lists as arrays).
    """
    head = HEAD.format(id=name.upper(), bet=bet, reels=reels)
    if "evaluation" not in reels:
        head += "paylines = [[0, 0, 0]]\n"
    table = "".join(f"{k} = {_toml(v)}\n" for k, v in rules.items())
    path = tmp_path / f"{name}.toml"
    path.write_text(head + (f"[rules]\n{table}" if rules else "") + body)
    m = load_machine(path)
    for key, value in rules.items():
        assert getattr(m.rules, key) == (tuple(value) if isinstance(value, list) else value)
    return m


def _toml(value) -> str:
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return str(value)


def with_rules(m, **rules):
    return dataclasses.replace(m, rules=dataclasses.replace(m.rules, **rules))


WILDS = """
[symbols]
A = {kind = "regular"}
W1 = {kind = "wild"}
W2 = {kind = "wild", multiplier = 2}
W3 = {kind = "wild", multiplier = 3}
[[pays]]
combo = ["A", "A", "A"]
pays = 10
"""


@pytest.mark.parametrize("rule,figure", [("product", F(40)), ("max", F(70, 3)), ("sum", F(100, 3))])
def test_wild_multiplier(tmp_path, rule, figure):
    """Reels [A, W2] / [A, W3] / [A, W2, W1]: 12 stop combinations, every one
    pays A A A = 10 x the multiplier of its substituting wilds (no W W W entry).

    Multipliers by reel 3 = A | W2 | W1, for reels 1-2 = (A,A) (A,W3) (W2,A) (W2,W3):
    product: 1 3 2 6 | 2 6 4 12 | 1 3 2 6  -> 48 -> 480 / 12 = 40
    max:     1 3 2 3 | 2 3 2 3  | 1 3 2 3  -> 28 -> 280 / 12 = 70/3
    sum:     1 3 2 5 | 2 5 4 7  | 1 3 2 5  -> 40 -> 400 / 12 = 100/3
    (sum: only multipliers > 1 add, 1 if none: a plain W1 adds nothing.)
    """
    strips = 'strips = [["A", "W2"], ["A", "W3"], ["A", "W2", "W1"]]'
    m = game(tmp_path, WILDS, strips, wild_multiplier=rule)
    assert m.rules.wild_multiplier == rule
    assert twin.brute_force(m, 0)["rtp"] == figure
    assert twin.mean_by_decomposition(m, 0)["rtp"] == figure


PURE = """
[symbols]
A = {kind = "regular"}
W = {kind = "wild", multiplier = 2}
[[pays]]
combo = ["A", "A", "A"]
pays = 10
[[pays]]
combo = ["W", "W", "W"]
pays = 30
"""


@pytest.mark.parametrize("rule,figure", [("highest", F(135, 4)), ("wild_award", F(55, 2))])
def test_pure_wild_line(tmp_path, rule, figure):
    """Reels [A, W] x 3, W a x2 wild; A A A = 10, W W W = 30. 8 combinations:
    A A A 10; one wild (3 combos) 10 x 2 = 20 each; two wilds (3) 10 x 4 = 40 each;
    W W W: "highest" pays it as A A A x 8 = 80 (its own entry, literal, is 30 x 1);
    "wild_award" excludes the substituted A A A there and pays W W W = 30.
    highest: 10 + 60 + 120 + 80 = 270 / 8 = 135/4;  wild_award: 220 / 8 = 55/2.
    """
    strips = 'strips = [["A", "W"], ["A", "W"], ["A", "W"]]'
    m = game(tmp_path, PURE, strips, pure_wild_line=rule)
    ref = twin.brute_force(m, 0)
    assert ref["rtp"] == figure
    assert ref["awards"][1] == (F(1, 8) if rule == "wild_award" else 0)


ANYWHERE = """
[symbols]
CH = {kind = "regular"}
B = {kind = "regular"}
D = {kind = "wild", multiplier = 2}
[[pays]]
combo = ["CH"]
anywhere = true
pays = 2
[[pays]]
combo = ["CH", "CH"]
anywhere = true
pays = 5
[[pays]]
combo = ["B", "B", "B"]
pays = 10
[[pays]]
combo = ["D", "D", "D"]
pays = 50
"""


@pytest.mark.parametrize("rule,figure", [("highest", F(446, 27)), ("wild_award", F(416, 27))])
def test_anywhere_cherries(tmp_path, rule, figure):
    """Double Diamond-style: reels [CH, B, D] x 3, D a x2 wild; any 1 cherry pays 2,
    any 2 pay 5 (D counts as a cherry), B B B 10, D D D 50. By counts (c cherries,
    b bars, d wilds; arrangements), the line's highest entry:
    (3,0,0) 1 x 5; (2,1,0) 3 x 5; (2,0,1) 3 x 10; (1,2,0) 3 x 2; (1,1,1) 6 x 10;
    (1,0,2) 3 x 20; (0,3,0) 1 x 10; (0,2,1) 3 x 20 (B B B x2 over any-1 = 4);
    (0,1,2) 3 x 40 (B B B x4 over any-2 = 20); (0,0,3) 1 x 80 (B B B x8).
    highest: 5+15+30+6+60+60+10+60+120+80 = 446 / 27.
    wild_award: D D D cannot pay B B B nor the cherries (all wilds, substituted):
    it pays its own 50, so 446 - 30 = 416 / 27.
    """
    strips = 'strips = [["CH", "B", "D"], ["CH", "B", "D"], ["CH", "B", "D"]]'
    m = game(tmp_path, ANYWHERE, strips, pure_wild_line=rule)
    assert m.pays[0].anywhere and m.pays[1].anywhere
    assert twin.brute_force(m, 0)["rtp"] == figure
    assert twin.mean_by_decomposition(m, 0)["rtp"] == figure


BOTH = """[symbols]
A = {kind = "regular"}
B = {kind = "regular"}
W = {kind = "wild"}
[[pays]]
combo = ["A", "A"]
pays = 2
[[pays]]
combo = ["A", "A", "A"]
pays = 10
[[pays]]
combo = ["B", "B"]
pays = 3
[[pays]]
combo = ["B", "B", "B"]
pays = 20
"""


def test_both_ways(tmp_path):
    """Reels [A, B] / [A, W] / [A, B], W a x1 wild, read left and right:
    A A A: 10 both ways, full line -> once 10;  A A B: left A A 2, right none -> 2;
    A W A: full both ways -> once 10;  A W B: left A A 2 + right (B W A) B B 3 -> 5
    (the wild in both);  B A A: left none, right A A 2 -> 2;  B A B: 0;
    B W A: left B B 3 + right A A 2 -> 5;  B W B: full -> once 20.
    Total 54 / 8 = 27/4. Awards: A A paid in 4 of 8, A A A 2, B B 2, B B B 1.
    Left only: 10 + 2 + 10 + 2 + 0 + 0 + 3 + 20 = 47 / 8.
    """
    m = game(tmp_path, BOTH, 'strips = [["A", "B"], ["A", "W"], ["A", "B"]]', direction="both")
    ref = twin.brute_force(m, 0)
    assert ref["rtp"] == F(27, 4)
    assert ref["awards"] == [F(4, 8), F(2, 8), F(2, 8), F(1, 8)]
    assert twin.brute_force(with_rules(m, direction="left"), 0)["rtp"] == F(47, 8)


WAYS = """[symbols]
A = {kind = "regular"}
S = {kind = "scatter"}
[[pays]]
combo = ["A", "A", "A"]
pays = 5
[[scatter_pays]]
symbol = "S"
count = 2
pays = 3
[[scatter_pays]]
symbol = "S"
count = 3
pays = 10
"""


@pytest.mark.parametrize("li", [0, 1])
def test_line_bet_scatter_on_ways(tmp_path, li):
    """Ways game, cost 10, levels 1 and 2; reels [A, S] x 3, 1 row (1 way).
    At level L (total bet 10 L): A A A 5 L (1 combo); 2 scatters 3 x L (3 combos);
    3 scatters 10 x L (1): 24 L / 8 = 3 L per spin -> 3/10 at every level.
    x total bet instead: 5 L + 9 x 10 L + 10 x 10 L = 195 L / 8 / 10 L = 39/16.
    """
    reels = 'strips = [["A", "S"], ["A", "S"], ["A", "S"]]\nevaluation = "ways"'
    m = game(
        tmp_path,
        WAYS,
        reels,
        bet="ways = 1\ncost = 10\nbet_levels = [1, 2]",
        scatter_unit="line_bet",
    )
    assert twin.brute_force(m, li)["rtp"] == F(3, 10)
    assert twin.brute_force(with_rules(m, scatter_unit="total_bet"), li)["rtp"] == F(39, 16)


EXCLUSIVE = """
[rules]
exclusive_scatters = ["S1", "S2"]
[symbols]
A = {kind = "regular"}
S1 = {kind = "scatter"}
S2 = {kind = "scatter"}
[[pays]]
combo = ["A", "A", "A"]
pays = 1
[[scatter_pays]]
symbol = "S1"
count = 2
pays = 4
[[scatter_pays]]
symbol = "S2"
count = 1
pays = 1
"""


def test_exclusive_scatters(tmp_path):
    """Reels [A, S1, S2] x 3 (27 combos); A A A 1, 2+ S1 pay 4, 1+ S2 pay 1.
    2+ S1: 3 x 2 + 1 = 7 combos x 4 = 28 (3 of them also show an S2);
    1+ S2: 27 - 8 = 19 combos; A A A: 1.
    [S1, S2]: S2 pays only without 2+ S1: 28 + (19 - 3) + 1 = 45 / 27 = 5/3.
    [S2, S1]: S1 pays only without S2 (3 + 1 = 4 combos): 16 + 19 + 1 = 36 / 27 = 4/3.
    not exclusive: 28 + 19 + 1 = 48 / 27 = 16/9.
    """
    m = game(
        tmp_path, EXCLUSIVE, 'strips = [["A", "S1", "S2"], ["A", "S1", "S2"], ["A", "S1", "S2"]]'
    )
    assert twin.brute_force(m, 0)["rtp"] == F(5, 3)
    assert twin.mean_by_decomposition(m, 0)["rtp"] == F(5, 3)
    assert twin.brute_force(with_rules(m, exclusive_scatters=("S2", "S1")), 0)["rtp"] == F(4, 3)
    assert twin.brute_force(with_rules(m, exclusive_scatters=()), 0)["rtp"] == F(16, 9)


FS_FIXED = """
[symbols]
A = {kind = "regular"}
S = {kind = "scatter"}
[[pays]]
combo = ["A", "A", "A"]
pays = 10
free_spins_multiplier = false
[[scatter_pays]]
symbol = "S"
count = 2
pays = 2
[free_spins]
trigger = {symbol = "S", count = 3}
spins = 1
multiplier = 3
"""


def test_free_spins_multiplier_false(tmp_path):
    """Reels [A, S] x 3; A A A 10 (not multiplied in free spins), 2+ S pay 2,
    3 S start 1 free spin x3 (no retrigger).
    Base: A A A 10 + 2 S (3 combos) 6 + 3 S 2 = 18 / 8; trigger 1/8.
    Free spin: A A A 10 as is + 4 combos with 2+ S x 2 x 3 = 24 -> 34 / 8 = 17/4.
    Return 18/8 + 1/8 x 17/4 = 89/32 (were A A A tripled: 18/8 + 1/8 x 54/8 = 99/32).
    """
    m = game(tmp_path, FS_FIXED, 'strips = [["A", "S"], ["A", "S"], ["A", "S"]]')
    assert not m.pays[0].free_spins_multiplier
    assert twin.brute_force(m, 0)["rtp"] == F(89, 32)
    assert twin.mean_by_decomposition(m, 0)["rtp"] == F(89, 32)
    tripled = dataclasses.replace(
        m, pays=(dataclasses.replace(m.pays[0], free_spins_multiplier=True),)
    )
    assert twin.brute_force(tripled, 0)["rtp"] == F(99, 32)


RETRIGGER = """
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
spins = 1
retrigger = "once"
"""


def test_retrigger_once(tmp_path):
    """Reels [A, S] x 3; A A A 1, 3 S pay 2 and start 1 free spin (x1).
    Every spin is worth v = (1 + 2) / 8 = 3/8 and triggers with p = 1/8.
    once: feature = v + p v = 3/8 + 3/64 = 27/64; return 3/8 + 1/8 x 27/64 = 219/512.
    unlimited with max_spins = 3: at most 3 spins, feature = v (1 + p + p^2)
    = 3/8 x 73/64 = 219/512; return 3/8 + 1/8 x 219/512 = 1755/4096.
    once with max_spins = 3: as once, 219/512.
    once with max_spins = 1: the one retrigger adds nothing: feature v, return 27/64.
    no retrigger: feature = 3/8; return 3/8 + 3/64 = 27/64.
    """
    m = game(tmp_path, RETRIGGER, 'strips = [["A", "S"], ["A", "S"], ["A", "S"]]')
    assert m.free_spins.retrigger_once
    assert twin.brute_force(m, 0)["rtp"] == F(219, 512)
    assert twin.mean_by_decomposition(m, 0)["rtp"] == F(219, 512)
    fs = m.free_spins
    capped = dataclasses.replace(fs, retrigger_once=False, max_spins=3)
    assert twin.brute_force(dataclasses.replace(m, free_spins=capped), 0)["rtp"] == F(1755, 4096)
    for cap, figure in ((3, F(219, 512)), (1, F(27, 64))):
        once = dataclasses.replace(fs, max_spins=cap)
        assert twin.brute_force(dataclasses.replace(m, free_spins=once), 0)["rtp"] == figure
    off = dataclasses.replace(
        m, free_spins=dataclasses.replace(fs, retrigger=False, retrigger_once=False)
    )
    assert twin.brute_force(off, 0)["rtp"] == F(27, 64)


CAP = """[symbols]
A = {kind = "regular"}
B = {kind = "regular"}
[[pays]]
combo = ["A", "A", "A"]
pays = 100
[[pays]]
combo = ["B", "B", "B"]
pays = 3
"""


@pytest.mark.parametrize("li", [0, 1])
def test_win_cap(tmp_path, li):
    """Reels [A, B] x 3, levels 1 and 2; A A A 100, B B B 3; cap 50 x total bet.
    Level L: A A A pays 100 L, capped at 50 L; B B B 3 L: (50 + 3) L / 8 / L = 53/8
    (uncapped: 103/8). A game with features is refused (NotImplementedError).
    """
    bet = "lines = 1\nbet_levels = [1, 2]"
    m = game(tmp_path, CAP, 'strips = [["A", "B"], ["A", "B"], ["A", "B"]]', bet=bet, win_cap=50)
    assert twin.brute_force(m, li)["rtp"] == F(53, 8)
    assert twin.brute_force(with_rules(m, win_cap=None), li)["rtp"] == F(103, 8)
    fs = game(tmp_path, RETRIGGER, 'strips = [["A", "S"], ["A", "S"], ["A", "S"]]', name="fs")
    with pytest.raises(NotImplementedError):
        twin.brute_force(with_rules(fs, win_cap=50), 0)


OPTIONS = """
[symbols]
A = {kind = "regular"}
S = {kind = "scatter"}
[[pays]]
combo = ["A", "A", "A"]
pays = 1
[free_spins]
trigger = {symbol = "S", count = 3}
[[free_spins.options]]
spins = 1
multiplier = 2
[[free_spins.options]]
spins = 3
multiplier = 1
"""


def test_free_spin_options(tmp_path):
    """Reels [A, S] x 3; A A A 1 (v = 1/8 a spin), 3 S (1/8) start free spins.
    Option 1, 1 spin x2: 1/8 + 1/8 x 2/8 = 10/64; option 2, 3 spins x1:
    1/8 + 1/8 x 3/8 = 11/64. Each option is its own game (the schema's
    option_variants gives the same figures); the machine itself is refused.
    """
    m = game(tmp_path, OPTIONS, 'strips = [["A", "S"], ["A", "S"], ["A", "S"]]')
    figures = [r["rtp"] for r in twin.brute_force_options(m, 0)]
    assert figures == [F(10, 64), F(11, 64)]
    assert [twin.brute_force(v, 0)["rtp"] for v in m.option_variants()] == figures
    with pytest.raises(ValueError):
        twin.brute_force(m, 0)
