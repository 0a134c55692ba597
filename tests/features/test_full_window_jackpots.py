"""A window full of one symbol wins a progressive pool (``[[full_window_pays]] jackpot``).

Also ``wilds_count = false`` (a wild cell counts only as itself).

Novomatic's Ultra Sevens and Lovely Mermaid (slotopol/server,
``game/slot/novomatic/<game>/<game>_rule.go``): ``Filled()`` finds a window of
one symbol, the spin wins a jackpot pool and its lines are not read
(``multiplier = 0``). Oracles: the server's own brute-force counts for Ultra
Sevens, hand counts in the docstrings, the twin (tests/twins/features.py, its
own window test and pool rule) on random games, and simulation inside the
exact interval (``check``).
"""

from __future__ import annotations

import tomllib
from fractions import Fraction
from pathlib import Path

import pytest
import test_twin_rules as T
from feature_games import full_window_pool_games
from hypothesis import HealthCheck, given, settings
from test_features_property import assert_twin_equals_exact
from test_full_window import game
from test_window_features import check
from twins import features as twin

from certify.errors import ModelError
from certify.exact import compute_exact
from certify.model import load_machine
from certify.model.loader import parse_machine

REAL = Path(__file__).parents[1] / "data" / "real"
POOLS = """
[[jackpots]]
id = "P1"
kind = "standalone"
contribution = "0.01"
reset = "10.00"
[[jackpots]]
id = "P2"
kind = "standalone"
contribution = "0.01"
reset = "10.00"
trigger = {mystery = "0.000001"}
"""


def entry(symbol: str, multiplier: int, pool: str | None) -> str:
    named = f"jackpot = '{pool}'\n" if pool else ""
    return f"[[full_window_pays]]\nsymbol = '{symbol}'\nmultiplier = {multiplier}\n{named}"


def hits(machine) -> dict[str, float]:
    ex = compute_exact(machine)
    assert ex is not None
    return ex.levels[0].pool_hits


def test_ultra_sevens_reproduced():
    """slotopol's Ultra Sevens, reel set "92.512897" (tests/data/real/SOURCES.md): the
    server's brute force over its 63^5 = 992,436,543 stop combinations prints
    "RTP = 92.512897%" (the lines; the pools are funded apart) and counts 32 windows
    full of sevens, 64 of melons or grapes and 128 of the four small fruits. Each reel
    holds every symbol in a run of 5, which shows all 4 rows at 2 stops: 2^5 = 32 windows
    per symbol, so the counts are also a hand figure."""
    m = load_machine(REAL / "novomatic_ultra_sevens.toml")
    ex = compute_exact(m)
    assert ex is not None
    level = ex.levels[0]
    assert level.rtp == pytest.approx(0.92512897, abs=5e-9)
    cycle = 63**5
    assert level.pool_hits == pytest.approx(
        {"sevens": 32 / cycle, "big-fruits": 64 / cycle, "small-fruits": 128 / cycle}, rel=1e-12
    )


def test_lovely_mermaid_reproduced():
    """slotopol's Lovely Mermaid, reel set "81.330711" (tests/data/real/SOURCES.md): its
    brute force over 1,290,569,544 stop combinations prints "RTP = 81.330711%" (lines
    and scatters with the full windows' lines removed, plus the free spins), 155,982,400
    free spins awarded and 68 windows of one symbol (the mermaid's own included). Per
    paid spin the pool is then hit 68/N in the base game and 68/N on each of the
    q/(1 - q) free spins that follow, q = 155,982,400/N: 68/N x 1/(1 - q). (The server
    prints "hit rate 1/21588181.1219", i.e. N/68 x (1 + q/(1 - q)): it multiplies the
    one-in figure by the free spins' factor where the hits per paid spin grow by it.)"""
    m = load_machine(REAL / "novomatic_lovely_mermaid.toml")
    ex = compute_exact(m)
    assert ex is not None
    level = ex.levels[0]
    assert level.rtp == pytest.approx(0.81330711, abs=5e-9)
    n = 66 * 67 * 66 * 67 * 66
    assert n == 1_290_569_544
    q = 155_982_400 / n
    assert level.pool_hits == pytest.approx({"mermaid": 68 / n / (1 - q)}, rel=1e-12)


def test_a_full_window_pays_its_pool_instead_of_its_lines():
    """The A B W game of test_full_window (27 windows, return 125/27 without the feature).
    A window full of A, stops (2, 2, 2), shows W W W on the line (20 credits): with
    ``multiplier = 0`` it pays nothing on the line and wins P1: (125 - 20)/27 = 105/27,
    P1 hit 1/27 per spin, and that spin is no longer a paying one."""
    m = game(entry("A", 0, "P1"), extra=POOLS)
    check(m, Fraction(105, 27))
    assert hits(m) == pytest.approx({"P1": 1 / 27}, rel=1e-14)
    plain = compute_exact(game(entry("A", 1, None)))
    assert plain is not None
    ex = compute_exact(m)
    assert ex is not None
    assert ex.levels[0].hit_frequency == pytest.approx(plain.levels[0].hit_frequency - 1 / 27)


def test_the_first_listed_entry_with_a_pool_wins_it():
    """ANY (P1, x1) then B (P2, x0) on the A B W game: the window full of A, stops
    (2, 2, 2), and the one full of B, (1, 1, 1), both fill ANY, listed first: P1 is hit
    2/27 per spin, P2 never. The multiplier is the largest that applies (x1 over x0), so
    the lines pay as without the feature: 125/27. Listed the other way round, B's window
    wins P2 (1/27) and A's P1 (1/27); it then takes x1 from ANY, still 125/27."""
    first = game(entry("ANY", 1, "P1") + entry("B", 0, "P2"), extra=POOLS)
    check(first, Fraction(125, 27))
    assert hits(first) == pytest.approx({"P1": 2 / 27}, rel=1e-14)
    second = game(entry("B", 0, "P2") + entry("ANY", 1, "P1"), extra=POOLS)
    assert hits(second) == pytest.approx({"P1": 1 / 27, "P2": 1 / 27}, rel=1e-14)


AS = 'strips = [["A", "S"], ["A", "S"], ["A", "S"]]'


def free_game(tmp_path, multiplier: int):
    """Reels [A, S] x 3, one row and one line: A A A pays 1 but is a window full of A
    (x0, pool P1); S S S pays 2 x total bet and starts 1 free spin, retriggered with 2."""
    body = f"""
[symbols]
A = {{kind = "regular"}}
S = {{kind = "scatter"}}
[[pays]]
combo = ["A", "A", "A"]
pays = 1
[[scatter_pays]]
symbol = "S"
count = 3
pays = 2
[free_spins]
trigger = {{symbol = "S", count = 3}}
spins = 1
retrigger = true
retrigger_spins = 2
multiplier = {multiplier}
{POOLS}
{entry("A", 0, "P1")}
"""
    return T.game(tmp_path, body, AS)


@pytest.mark.parametrize("multiplier", [1, 3])
def test_free_spins_add_their_hits_and_the_multiplier_does_not(tmp_path, multiplier):
    """Each spin shows A A A (P1) or S S S with p = 1/8 each. A started feature plays
    1 / (1 - 2/8) = 4/3 spins on average. P1 hits per paid spin: 1/8 + 1/8 x 4/3 x 1/8
    = 7/48, whatever the feature's multiplier. Return: a spin is worth 2/8 (the scatter;
    A A A pays 0): 1/4 + 1/8 x 4/3 x (x m) 1/4 = 1/4 + m/24 (7/24 at x1, 3/8 at x3)."""
    m = free_game(tmp_path, multiplier)
    ex = compute_exact(m)
    assert ex is not None
    assert ex.levels[0].pool_hits == pytest.approx({"P1": 7 / 48}, rel=1e-14)
    assert ex.levels[0].rtp == pytest.approx(0.25 + multiplier / 24, rel=1e-14)


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(full_window_pool_games())
def test_pools_and_returns_equal_the_twin(machine):
    """Random lines and ways games with x0-x3 full windows naming pools, free spins or
    not: return, hit frequency and variance equal the twin's brute force (1e-12), and
    so does each pool's hits per spin."""
    assert_twin_equals_exact(machine)
    expected = twin.pool_hits(machine)
    got = compute_exact(machine).levels[0].pool_hits
    assert set(got) <= set(expected)
    for name, value in expected.items():
        assert got.get(name, 0.0) == pytest.approx(float(value), rel=1e-12, abs=1e-15)


def test_jackpot_return_uses_the_full_window_hits():
    """Ultra Sevens at 40 credits of 0.01: each pool returns its contribution plus its
    reset funding q x reset / stake (jackpot_return's model), q the server's count over
    63^5; sevens: 0.005 + (32 / 63^5) x 500 / 0.40."""
    from certify.jackpot_return import level_pools

    m = load_machine(REAL / "novomatic_ultra_sevens.toml")
    ex = compute_exact(m)
    assert ex is not None
    pools = {p.pool: p for p in level_pools(m, 0, ex.levels[0])}
    assert pools["sevens"].exact
    assert pools["sevens"].rtp == pytest.approx(0.005 + 32 / 63**5 * 500 / 0.40, rel=1e-12)


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
[reels]
rows = 1
strips = [["A"], ["A"]]
paylines = [[0, 0]]
[[pays]]
combo = ["A", "A"]
pays = 1
"""


def problems(extra: str) -> list[tuple[str, str]]:
    with pytest.raises(ModelError) as err:
        parse_machine(tomllib.loads(TEXT + extra), "<t>")
    return [(p.path, p.code) for p in err.value.problems]


def test_bad_pools_are_located():
    """An unknown pool, x0 without a pool, a pool nothing triggers: each a located error."""
    pool = '[[jackpots]]\nid = "P"\nkind = "standalone"\ncontribution = "0.01"\nreset = "1"\n'
    unknown = problems(pool + entry("A", 1, "Q"))
    assert ("full_window_pays[0].jackpot", "unknown_jackpot") in unknown
    zero = problems(pool + entry("A", 0, None))
    assert ("full_window_pays[0].multiplier", "range") in zero
    assert ("jackpots[0].trigger", "missing_key") in zero
    ok, _ = parse_machine(tomllib.loads(TEXT + pool + entry("A", 0, "P")), "<t>")
    assert (ok.full_window_pays[0].multiplier, ok.full_window_pays[0].jackpot) == (0, "P")
