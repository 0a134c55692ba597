"""``free_spins.big_symbol``: one symbol covering consecutive reels' whole window.

AGT Valkyrie's free spins (slotopol ``SpinBig``): reels 1 and 5 spin as usual and
reels 2-4 show one 3x3 symbol drawn from a reel of its own. The covered reels are
linked, so the engine plays the feature as one reel set per big symbol
(``certify/engine/big.py``) and the exact calculator adds their cycles up. Oracles:
slotopol's brute-force figures for Valkyrie (tests/exact/test_real_games.py), a
hand count (docstring), the twin's brute force (``tests/twins/lines.py
feature_windows``: its own reading of the window) on random games, and the
simulation inside the exact interval.
"""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
import test_twin_rules as T
from hypothesis import given
from hypothesis import strategies as st
from rule_checks import (
    RULE_SETTINGS,
    assert_exact_equals_twin,
    assert_replay_tells_apart,
    three_strips,
    two_row_game,
)
from testpaths import DATA
from twins import lines as twin

from certify.engine import compile_machine, simulate
from certify.errors import ModelError
from certify.exact import compute_exact
from certify.exact.contributions import level_contributions
from certify.exact.decompose import mean_return
from certify.model import load_machine
from certify.stats import z_value

REAL = DATA / "real"
BIG = 'big_symbol = {reels = [2, 3], strip = ["A", "W", "B", "A"]}'
FREE = f"""[free_spins]
trigger = {{symbol = "S", count = 1}}
spins = 1
{BIG}
"""
BODY = (
    """
[symbols]
A = {kind = "regular"}
B = {kind = "regular"}
W = {kind = "wild"}
S = {kind = "scatter"}
[[pays]]
combo = ["A", "A", "A"]
pays = 2
[[pays]]
combo = ["B", "B", "B"]
pays = 4
"""
    + FREE
)
HAND = 'strips = [["A", "B", "S"], ["A", "B", "S"], ["A", "B", "A"]]'


def test_the_feature_by_hand(tmp_path):
    """Reels [A, B, S], [A, B, S], [A, B, A], one row and line; one S anywhere gives
    one free spin where reels 2-3 show one big symbol from [A, W, B, A].
    Base game (27): A A A pays 2 (1 x 1 x 2 = 2 windows), B B B 4 (1); so E[base] =
    (4 + 4) / 27 = 8/27. Windows with an S: 27 - 2 x 2 x 3 = 15. A free spin: reel 1
    A (1/3) pays 2 with big A or W (3/4): 2 x 3/4 / 3 = 1/2; reel 1 B pays 4 with big
    B or W (2/4): 4 x 1/2 / 3 = 2/3; so E[free] = 7/6, and E[X] = 8/27 + 15/27 x 7/6
    = 8/27 + 35/54 = 51/54 = 17/18. Unlinked reels 2-3 from the big strip would give a
    free spin 2/3 x 1/4 + ... a different figure: the hand count's E[free] needs both
    reels to show the same symbol. P(free spins row, A A A) = 15/27 x 1/3 x 3/4."""
    tables = compile_machine(T.game(tmp_path, BODY, HAND))
    lvl = compute_exact(tables).levels[0]
    assert lvl.rtp == pytest.approx(17 / 18, rel=1e-14)
    assert mean_return(tables, tables.levels[0]) == pytest.approx(17 / 18, rel=1e-14)
    ref = twin.brute_force(tables.machine, 0)
    assert ref["rtp"] == Fraction(17, 18)
    free = level_contributions(tables, tables.levels[0]).free_spins
    assert free is not None
    rows = {(r.kind, r.combo): r for r in free.rows}
    assert rows[("line", ("A", "A", "A"))].probability == pytest.approx(
        15 / 27 * 1 / 3 * 3 / 4, rel=1e-14
    )


@RULE_SETTINGS
@given(
    three_strips(),
    st.sampled_from([[1, 2], [2, 3], [2], [1, 2, 3]]),
    st.lists(st.sampled_from(["A", "B", "W"]), min_size=1, max_size=4),
    st.lists(st.integers(1, 3), min_size=4, max_size=4),
    st.booleans(),
)
def test_exact_equals_the_twin(tmp_path_factory, strips, reels, big, weights, retrigger):
    """Random reels of A, B, a wild W and a scatter S, two rows and two lines; 2+ S
    give 2 free spins (retriggered or not, at most 6) whose covered reels show one
    big symbol drawn from a random weighted strip: return, variance and hit frequency
    equal the twin's brute force to 1e-12."""
    weighted = weights[: len(big)]
    free = f"""[free_spins]
trigger = {{symbol = "S", count = 2}}
spins = 2
retrigger = {"true" if retrigger else "false"}
max_spins = 6
big_symbol = {{reels = {reels}, strip = {str(big).replace("'", '"')}, weights = {weighted}}}
"""
    body = BODY.replace(FREE, free) + '[[pays]]\ncombo = ["W", "W"]\npays = 3\n'
    body += '[[scatter_pays]]\nsymbol = "S"\ncount = 2\npays = 1\n'
    m = two_row_game(tmp_path_factory, strips, body)
    assert_exact_equals_twin(m, twin.brute_force(m, 0))


def test_covers_by_hand(tmp_path):
    """The hand game with B covering reel 2 only (``covers = {B = 1}``): under a big
    B reel 3 spins its own strip [A, B, A]. A free spin: reel 1 A (1/3) pays 2 with big
    A or W (3/4), as before: 1/2; reel 1 B (1/3) pays 4 with big W (1/4) or big B and
    reel 3's B (1/4 x 1/3): 4 x 1/3 x 1/3 = 4/9; so E[free] = 17/18 and E[X] = 8/27
    + 15/27 x 17/18 = 133/162 (17/18 with B covering both reels)."""
    tables = compile_machine(T.game(tmp_path, COVERS, HAND))
    assert compute_exact(tables).levels[0].rtp == pytest.approx(133 / 162, rel=1e-14)
    assert mean_return(tables, tables.levels[0]) == pytest.approx(133 / 162, rel=1e-14)
    assert twin.brute_force(tables.machine, 0)["rtp"] == Fraction(133, 162)


COVERS = BODY.replace(BIG, BIG[:-1] + ", covers = {B = 1}}")


def test_the_simulation_plays_the_covers(tmp_path):
    """The hand game with B covering reel 2 only (E[X] = 133/162): the simulation lies
    within z(0.999) sigma / sqrt(n) of it, and 133/162 is many intervals from 17/18."""
    tables = compile_machine(T.game(tmp_path, COVERS, HAND))
    exact = compute_exact(tables).levels[0]
    n = 1_000_000
    half = z_value(0.999) * exact.sigma / math.sqrt(n)
    assert abs(simulate(tables, 0, n, seed=5).rtp - 133 / 162) < half
    assert abs(17 / 18 - 133 / 162) > 10 * half


def test_fairy_queen_simulated_inside_its_exact_interval():
    """Novomatic Fairy Queen (covers by symbol, the light one cell per reel, counted
    there and retriggering): 4M simulated spins lie within z(0.999) sigma / sqrt(n) of
    the exact return, which the server's printed 96.566458% confirms
    (tests/exact/test_real_games.py)."""
    tables = compile_machine(load_machine(REAL / "novomatic_fairy_queen.toml"))
    exact = compute_exact(tables).levels[0]
    n = 4_000_000
    half = z_value(0.999) * exact.sigma / math.sqrt(n)
    sim = simulate(tables, 0, n, seed=17)
    assert abs(sim.rtp - exact.rtp) < half
    p = exact.fs_probability
    assert abs(sim.fs_triggers - n * p) < z_value(0.999) * math.sqrt(n * p * (1 - p))


def test_what_the_free_spins_show_includes_every_big_symbol():
    """Fairy Queen's reel 2 is one stop under the big symbol in the played strips; it
    still shows every symbol of the big strip (a dragon run of three can occur in the
    free spins, for a line bonus), and the light's column shows the blank; a symbol on
    no strip of the feature cannot."""
    m = load_machine(REAL / "novomatic_fairy_queen.toml")
    assert m.free_spins_show(("DRAGON", "DRAGON", "DRAGON"))
    assert m.free_spins_show(("_", "_"))
    assert not m.free_spins_show(("PRINCESS", "PRINCESS"))


def test_outcome_replay_holds_the_machine_to_the_covers(tmp_path):
    """A log of the game whose big B covers reel 2 only (reel 3 logs its own stop,
    hidden under the other symbols) passes against its model and fails against the
    game whose big A covers reel 2 only instead (the same strips)."""
    other = BODY.replace(BIG, BIG[:-1] + ", covers = {A = 1}}")
    assert_replay_tells_apart(tmp_path, COVERS, other, HAND)


@RULE_SETTINGS
@given(
    three_strips(),
    st.sampled_from([[1, 2], [2, 3], [1, 2, 3]]),
    st.lists(st.sampled_from(["A", "B", "W", "S"]), min_size=1, max_size=4),
    st.lists(st.integers(1, 3), min_size=4, max_size=4),
    st.data(),
)
def test_covers_and_columns_equal_the_twin(tmp_path_factory, strips, reels, big, weights, data):
    """Random reels and a random big strip whose symbols cover a random number of the
    listed reels, S showing one cell per covered reel (``columns``, a blank beside it)
    and A a random column: 2+ S pay 1 and give 2 free spins (retriggered, at most 6);
    return, variance and hit frequency equal the twin's brute force to 1e-12."""
    covers = {
        s: data.draw(st.integers(1, len(reels)), label=f"covers {s}") for s in sorted(set(big))
    }
    top = data.draw(st.booleans(), label="S on the top row")
    a_column = data.draw(st.lists(st.sampled_from(["A", "W", "_"]), min_size=2, max_size=2))
    columns = {"S": ["S", "_"] if top else ["_", "S"], "A": a_column}
    shown = {k: v for k, v in columns.items() if k in big}
    keys = f", covers = {_inline(covers)}" + (f", columns = {_inline(shown)}" if shown else "")
    strip = str(big).replace("'", '"')
    free = f"""[free_spins]
trigger = {{symbol = "S", count = 2}}
spins = 2
retrigger = true
max_spins = 6
big_symbol = {{reels = {reels}, strip = {strip}, weights = {weights[: len(big)]}{keys}}}
"""
    body = BODY.replace(FREE, free).replace(
        'S = {kind = "scatter"}', 'S = {kind = "scatter"}\n_ = {kind = "blank"}'
    )
    body += '[[pays]]\ncombo = ["W", "W"]\npays = 3\n'
    body += '[[scatter_pays]]\nsymbol = "S"\ncount = 2\npays = 1\n'
    m = two_row_game(tmp_path_factory, strips, body)
    assert_exact_equals_twin(m, twin.brute_force(m, 0))


def _inline(table: dict) -> str:
    """A TOML inline table of symbol = value."""
    items = ", ".join(f"{k} = {str(v).replace(chr(39), chr(34))}" for k, v in table.items())
    return "{" + items + "}"


SCATTER_BONUS = """
[[scatter_pays]]
symbol = "S"
count = 2
pays = 1
bonus = true
[[scatter_pays]]
symbol = "S"
count = 3
pays = 5
[bonus]
unit = "line_bet"
awards = [{pays = 2, weight = 1}, {pays = 10, weight = 1}]
[free_spins]
trigger = {symbol = "S", count = 2}
spins = 2
retrigger = true
max_spins = 6
big_symbol = {reels = [1, 2], strip = ["A", "S", "B", "W", "S"], weights = [3, 1, 2, 1, 2], \
columns = {S = ["_", "S", "_"], A = ["A", "W", "_"]}, covers = {B = 1}}
"""


def test_a_column_scatter_that_plays_the_bonus_decomposes(tmp_path):
    """Three rows, S on the big strip showing one cell per covered reel (``columns``) and
    2 S playing the bonus (a scatter pay with ``bonus = true``): the per-reel
    decomposition counts the free spins' bonus plays part by part, so its mean equals
    the full cycle's, and the twin's brute force agrees (found in review: the
    decomposition read the free spins' unsplit reel set for the plays, 16.25 against
    14.00)."""
    head = (
        '[reels]\nrows = 3\nstrips = [["A", "B", "S", "W"], ["A", "B", "S", "A"], '
        '["A", "B", "A", "S", "W"]]\npaylines = [[1, 1, 1], [0, 0, 0]]\n'
    )
    body = (
        '[symbols]\nA = {kind = "regular"}\nB = {kind = "regular"}\nW = {kind = "wild"}\n'
        'S = {kind = "scatter"}\n_ = {kind = "blank"}\n[[pays]]\ncombo = ["A", "A", "A"]\n'
        'pays = 2\n[[pays]]\ncombo = ["B", "B", "B"]\npays = 4\n' + SCATTER_BONUS
    )
    path = tmp_path / "m.toml"
    path.write_text(
        'schema = "slotcert/machine@1"\n[machine]\nid = "R3"\nname = "R3"\n[bet]\n'
        'denomination = "1.00"\ncurrency = "EUR"\nlines = 2\nbet_levels = [1]\n' + head + body
    )
    tables = compile_machine(load_machine(path))
    exact = compute_exact(tables).levels[0]
    assert mean_return(tables, tables.levels[0]) == pytest.approx(exact.rtp, rel=1e-12)
    assert_exact_equals_twin(tables.machine, twin.brute_force(tables.machine, 0))


def test_the_simulation_links_the_reels(tmp_path):
    """The hand game (E[X] = 17/18): the simulation lies within z(0.999) sigma /
    sqrt(n) of it, while the game whose reels 2-3 spin the big strip apart is many
    intervals away."""
    tables = compile_machine(T.game(tmp_path, BODY, HAND))
    exact = compute_exact(tables).levels[0]
    n = 1_000_000
    sim = simulate(tables, 0, n, seed=11)
    half = z_value(0.999) * exact.sigma / math.sqrt(n)
    assert abs(sim.rtp - exact.rtp) < half
    apart = BODY.replace(
        BIG, 'strips = [["A", "B", "S"], ["A", "W", "B", "A"], ["A", "W", "B", "A"]]'
    )
    (tmp_path / "apart").mkdir()
    unlinked = compute_exact(compile_machine(T.game(tmp_path / "apart", apart, HAND)))
    assert abs(exact.rtp - unlinked.levels[0].rtp) > 10 * half


def test_outcome_replay_holds_the_machine_to_the_big_symbol(tmp_path):
    """A log of the machine passes against its model and fails against the game
    whose covered reels spin the big strip apart (the log gives the big stop on the
    first covered reel, stop 0 on the others)."""
    apart = BODY.replace(BIG, 'strips = [["A", "B", "S"], ["A", "W", "B", "A"], ["A"]]')
    assert_replay_tells_apart(tmp_path, BODY, apart, HAND)


@pytest.mark.parametrize(
    ("new", "path"),
    [
        ('big_symbol = {reels = [2, 3], strip = ["A", "Z"]}', "free_spins.big_symbol.strip[1]"),
        ('big_symbol = {reels = [2, 3], strip = ["A", "S"]}', "free_spins.big_symbol.strip[1]"),
        ('big_symbol = {reels = [1, 3], strip = ["A"]}', "free_spins.big_symbol.reels"),
        ('big_symbol = {reels = [3, 4], strip = ["A"]}', "free_spins.big_symbol.reels[1]"),
        (
            'big_symbol = {reels = [2], strip = ["A"], weights = [1, 2]}',
            "free_spins.big_symbol.weights",
        ),
        ('big_symbol = {reels = [2], strip = ["A"], size = 3}', "free_spins.big_symbol.size"),
        ("big_symbol = {reels = [2], strip = []}", "free_spins.big_symbol.strip"),
        (
            'big_symbol = {reels = [2, 3], strip = ["A"], covers = {B = 1}}',
            "free_spins.big_symbol.covers.B",
        ),
        (
            'big_symbol = {reels = [2, 3], strip = ["A"], covers = {A = 3}}',
            "free_spins.big_symbol.covers.A",
        ),
        (
            'big_symbol = {reels = [2, 3], strip = ["A"], covers = {A = 0}}',
            "free_spins.big_symbol.covers.A",
        ),
        (
            'big_symbol = {reels = [2, 3], strip = ["A"], columns = {A = ["A", "A"]}}',
            "free_spins.big_symbol.columns.A",
        ),
        (
            'big_symbol = {reels = [2, 3], strip = ["A"], columns = {A = ["Z"]}}',
            "free_spins.big_symbol.columns.A[0]",
        ),
        (
            'big_symbol = {reels = [2, 3], strip = ["A"], covers = {}}',
            "free_spins.big_symbol.covers",
        ),
    ],
    ids=[
        "unknown",
        "counted",
        "apart",
        "beyond",
        "weights",
        "unknown-key",
        "empty",
        "covers-off-strip",
        "covers-too-many",
        "covers-none",
        "column-rows",
        "column-unknown",
        "covers-empty",
    ],
)
def test_a_bad_big_symbol_is_located(tmp_path, new, path):
    """An unknown or counted symbol on the big strip (a counted one needs its cells
    in ``columns``), reels that are not consecutive or beyond the machine's, weights
    that do not match the strip, an unknown key, an empty strip, ``covers`` of a
    symbol not on the strip or outside 1..len(reels), and a column that is not one
    known symbol per row is a located error."""
    body = BODY.replace(BIG, new, 1)
    assert body != BODY
    with pytest.raises(ModelError) as err:
        T.game(tmp_path, body, HAND)
    assert path in {p.path for p in err.value.problems}


def test_covering_every_listed_reel_is_as_if_not_said(tmp_path):
    """``covers = {A = 2}`` on ``reels = [2, 3]`` is what A does anyway: the same machine,
    fingerprint included (and no "only reels" sentence on the pay-glass)."""
    from certify.model.fingerprint import fingerprint

    said = BODY.replace(BIG, BIG[:-1] + ", covers = {A = 2}}")
    (tmp_path / "said").mkdir()
    assert fingerprint(T.game(tmp_path / "said", said, HAND)) == fingerprint(
        T.game(tmp_path, BODY, HAND)
    )


def test_a_big_symbol_with_a_window_rule_is_refused(tmp_path):
    """A big symbol with a wild that expands (a window rule across reels) is refused
    at the key, for validate, exact, simulate and certify alike (the reader's check)."""
    body = BODY.replace('W = {kind = "wild"}', 'W = {kind = "wild", expands = true}')
    with pytest.raises(ModelError) as err:
        T.game(tmp_path, body, HAND)
    assert "free_spins.big_symbol" in {p.path for p in err.value.problems}
