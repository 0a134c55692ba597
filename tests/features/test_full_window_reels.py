"""Full-window pays on some reels (``[[full_window_pays]] reels = k`` or ``[2, 3, 4]``).

References: hand counts (docstrings), the pure-Python twin's brute force
(``tests/twins/features.py``, which judges the cells of the entry's reels), for
the real game AGT Cherry Hot a plain enumerator written in this file, and for
AGT Valentine's Day and CT Halloween Hot (blocks of whole reels through reel 3)
slotopol's own brute-force figures printed in their data files.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_full_window import game
from test_window_features import SC, R, check, machine_from, pays
from testpaths import DATA
from twins import features as twin

from certify.errors import ModelError
from certify.exact import compute_exact
from certify.model import load_machine
from certify.model.fingerprint import fingerprint

W = "{kind = 'wild'}"
CHERRY_HOT = DATA / "real" / "agt_cherry_hot.toml"
VALENTINES_DAY = DATA / "real" / "agt_valentines_day.toml"
HALLOWEEN_HOT = DATA / "real" / "ct_halloween_hot.toml"


def test_the_first_reels_filled_multiply():
    """The A B W game of test_full_window (27 windows, 125 credits without the feature).
    A x3 on reels 1-2: a column passes A only at stop 2 (W over A), so the windows
    (2, 2, s) qualify, whatever reel 3 shows: top rows W W A (A A A: 10), W W B (B B B:
    5), W W W (W W W: 20), 35 credits, tripled: (125 + 2 x 35) / 27 = 195/27."""
    check(
        game("[[full_window_pays]]\nsymbol = 'A'\nreels = 2\nmultiplier = 3\n"), Fraction(195, 27)
    )


@pytest.mark.parametrize("reels", ["[2, 3]", "[1, 3]", "[3, 2]"])
def test_any_reels_filled_multiply(reels):
    """The same game, A x3 judged on two reels other than the first two. Reels 2 and 3
    pass A only at stop 2 (W over A), so the windows (s, 2, 2) qualify: top rows
    A W W (A A A: 10), B W W (B B B: 5), W W W (W W W: 20), 35 credits, tripled:
    (125 + 70) / 27 = 195/27. Reels 1 and 3: windows (2, s, 2), top rows W A W (10),
    W B W (5), W W W (20), the same 35 credits. The order written does not matter."""
    check(
        game(f"[[full_window_pays]]\nsymbol = 'A'\nreels = {reels}\nmultiplier = 3\n"),
        Fraction(195, 27),
    )


def test_reels_as_a_prefix_array_is_the_count():
    two = game("[[full_window_pays]]\nsymbol = 'A'\nreels = 2\nmultiplier = 3\n")
    listed = game("[[full_window_pays]]\nsymbol = 'A'\nreels = [1, 2]\nmultiplier = 3\n")
    middle = game("[[full_window_pays]]\nsymbol = 'A'\nreels = [2, 3]\nmultiplier = 3\n")
    assert listed.full_window_pays == two.full_window_pays
    assert fingerprint(listed) == fingerprint(two)
    assert fingerprint(middle) != fingerprint(two)


def test_reels_equal_to_the_machine_is_the_whole_window():
    plain = game("[[full_window_pays]]\nsymbol = 'A'\nmultiplier = 3\n")
    every = game("[[full_window_pays]]\nsymbol = 'A'\nreels = 3\nmultiplier = 3\n")
    assert every.full_window_pays == plain.full_window_pays
    assert fingerprint(every) == fingerprint(plain)
    two = game("[[full_window_pays]]\nsymbol = 'A'\nreels = 2\nmultiplier = 3\n")
    assert fingerprint(two) != fingerprint(plain)


@pytest.mark.parametrize(
    "reels,message,path",
    [
        (4, "at most the machine's 3 reels", "reels"),
        (1, "at least 2", "reels"),
        ("[2]", "at least two reels", "reels"),
        ("[2, 4]", "at most the machine's 3 reels", "reels[1]"),
        ("[0, 2]", "at least 1", "reels[0]"),
    ],
)
def test_reels_out_of_range_is_located(reels, message, path):
    with pytest.raises(ModelError) as err:
        game(f"[[full_window_pays]]\nsymbol = 'A'\nreels = {reels}\nmultiplier = 3\n")
    (p,) = [p for p in err.value.problems if p.path == f"full_window_pays[0].{path}"]
    assert message in p.message and p.code == "range"


@st.composite
def reel_fill_games(draw):
    sym = st.sampled_from(["A", "B", "W", "S"])
    strips = [draw(st.lists(sym, min_size=2, max_size=3)) for _ in range(4)]
    entries = ""
    for _ in range(draw(st.integers(1, 3))):
        target = draw(st.sampled_from(["A", "B", "ANY", "AB"]))
        k = draw(
            st.integers(2, 4)
            | st.lists(st.integers(1, 4), min_size=2, max_size=4, unique=True).map(str)
        )
        mult = draw(st.integers(2, 5))
        entries += f"[[full_window_pays]]\nsymbol = '{target}'\nreels = {k}\nmultiplier = {mult}\n"
    free = draw(st.booleans())
    extra = "\n[groups]\nAB = ['A', 'B']\n"
    if free:
        extra += "[free_spins]\ntrigger = {symbol = 'S', count = 2}\nspins = 2\nmultiplier = 2\n"
    table = pays("A A A = 10", "B B B B = 25", "A A = 1", "W W W = 20")
    table += "\n[[scatter_pays]]\nsymbol = 'S'\ncount = 2\npays = 1\n"
    return machine_from(
        strips,
        {"A": R, "B": R, "W": W, "S": SC},
        table,
        entries + extra,
        rows=2,
        bet="lines = 2",
        lines="paylines = [[0, 0, 0, 0], [1, 1, 0, 1]]",
    )


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(reel_fill_games())
def test_twin_equals_exact_on_random_reel_fills(machine):
    exact = compute_exact(machine)
    assert exact is not None
    for li in range(len(machine.bet_levels)):
        ref = twin.brute_force(machine, li)
        level = exact.levels[li]
        assert level.rtp == pytest.approx(float(ref["rtp"]), rel=1e-12, abs=1e-12)
        assert level.hit_frequency == pytest.approx(float(ref["hit_frequency"]), abs=1e-12)
        assert level.variance == pytest.approx(float(ref["variance"]), rel=1e-10, abs=1e-12)


def _line_win(cells, pay) -> int:
    first = cells[0]
    run = 1
    while run < 5 and cells[run] == first:
        run += 1
    return pay.get(first, {}).get(run, 0)


def _plain_return(machine) -> Fraction:
    """Cherry Hot's return per total bet by a plain enumerator of the game's rules.

    slotopol ``game/slot/agt/cherryhot/cherryhot_rule.go``: a line pays its run of the
    symbol on reel 1 (no wild); when the top-left symbol is plum, pear, peach or cherry
    and the first k >= 3 reels show only that symbol, every line win of the spin is
    multiplied by k; scatters pay 2/12/60 x total bet for 3/4/5 anywhere, unmultiplied.
    Every stop equally likely. Lines without the multiplier: each line has the same
    expectation (uniform strips), so 20 x one line's. The multiplier's extra, (k - 1) x
    the spin's line wins, is summed over the spins whose reels 1-3 are full of one
    symbol: every such triple of stops x every stop of reels 4 and 5, all 20 lines.
    """
    pay: dict[str, dict[int, int]] = {}
    for e in machine.pays:
        pay.setdefault(e.combo[0], {})[len(e.combo)] = e.pays
    strips, rows, n_lines = machine.strips, machine.rows, len(machine.paylines)
    sizes = [len(s) for s in strips]
    total = 1
    for size in sizes:
        total *= size
    counts = [{s: strip.count(s) for s in set(strip)} for strip in strips]
    one_line = Fraction(0)
    for cells in itertools.product(*(sorted(c) for c in counts)):
        weight = 1
        for r, s in enumerate(cells):
            weight *= counts[r][s]
        one_line += weight * _line_win(cells, pay)
    lines = n_lines * one_line

    def column(r, stop):
        return [strips[r][(stop + k) % sizes[r]] for k in range(rows)]

    extra = 0
    for sym in ("PLUM", "PEAR", "PEACH", "CHERRY"):
        full = [[s for s in range(sizes[r]) if set(column(r, s)) == {sym}] for r in range(5)]
        for head in itertools.product(*full[:3]):
            for s4, s5 in itertools.product(range(sizes[3]), range(sizes[4])):
                stops = (*head, s4, s5)
                window = [column(r, stops[r]) for r in range(5)]
                k = 3 + (set(window[3]) == {sym}) + (set(window[3]) == {sym} == set(window[4]))
                wins = sum(
                    _line_win([window[r][line[r]] for r in range(5)], pay)
                    for line in machine.paylines
                )
                extra += (k - 1) * wins
    dist = {0: Fraction(1)}
    for r in range(5):
        shown: dict[int, int] = {}
        for stop in range(sizes[r]):
            c = column(r, stop).count("SC")
            shown[c] = shown.get(c, 0) + 1
        nxt: dict[int, Fraction] = {}
        for have, q in dist.items():
            for c, ways in shown.items():
                nxt[have + c] = nxt.get(have + c, 0) + q * Fraction(ways, sizes[r])
        dist = nxt
    scatter_pay = {sp.count: sp.pays for sp in machine.scatter_pays}
    scatter = sum(
        q * max((v for c, v in scatter_pay.items() if c <= k), default=0) for k, q in dist.items()
    )
    return (lines + Fraction(extra)) / total / n_lines + scatter


def test_real_game_cherry_hot():
    """AGT "Cherry Hot" (5x3, first 5 lines of AGT's table in slotopol, ``LNum: 5``), reel
    set "87.545004" of slotopol/server ``game/slot/agt/cherryhot/cherryhot_data.yaml``
    ("RTP = 81.916(lined) + 5.6286(scatter) = 87.545004%", its brute force over all
    49,563,500 stop combinations at 5 lines): the first 3, 4 or 5 reels filled by
    plum, pear, peach or cherry multiply the spin's line wins by 3, 4 or 5. Exact =
    this file's plain enumerator to 1e-9 and slotopol's printed figure to its last
    digit."""
    machine = load_machine(CHERRY_HOT)
    exact = compute_exact(machine)
    assert exact is not None
    level = exact.levels[0]
    reference = _plain_return(machine)
    assert level.rtp == pytest.approx(float(reference), abs=1e-9)
    assert level.rtp == pytest.approx(0.87545004, abs=5e-9)
    assert level.scatter_rtp == pytest.approx(0.056286, abs=5e-7)


@pytest.mark.parametrize(
    "path,printed,lined,scatter",
    [
        (VALENTINES_DAY, 0.89243786, 0.78184, 0.1106),
        (HALLOWEEN_HOT, 0.85764169, 0.78943, 0.068212),
    ],
)
def test_real_games_with_blocks_through_the_middle_reel(path, printed, lined, scatter):
    """AGT "Valentine's Day" (reel set "89.243786") and CT Interactive "Halloween Hot"
    (reel set "85.764169") of slotopol/server (``game/slot/agt/valentinesday``,
    ``game/slot/ct/halloweenhot``), both 5x3 scanned at their ``LNum`` of 5 lines: a
    block of n >= 3 whole reels through reel 3 full of one symbol (the server's
    ``FillMult``) multiplies the spin's line wins by n - 1 (Valentine's Day: soul, toy,
    balloon, hearts) or n (Halloween Hot: any symbol, a wild only as itself). The
    references are the server's brute force over every stop combination printed in
    the data files: "RTP = 78.184(lined) + 11.06(scatter) = 89.243786%" and
    "RTP = 78.943(lined) + 6.8212(scatter) = 85.764169%"; the multiplier is in the
    lined part, so a wrong block (the first reels, or no block) misses it."""
    exact = compute_exact(load_machine(path))
    assert exact is not None
    level = exact.levels[0]
    assert level.rtp == pytest.approx(printed, abs=5e-9)
    assert level.scatter_rtp == pytest.approx(scatter, abs=5e-5)
    assert level.rtp - level.scatter_rtp == pytest.approx(lined, abs=5e-6)
