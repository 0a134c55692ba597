"""Repeated paylines (``[bet] duplicate_lines = "allow"``, SPEC 3.1): each copy pays.

Real line tables repeat lines (AGT's 30-line table, slotopol/server
``game/slot/lines.go`` ``BetLinesAgt5x3``, repeats lines 6 and 7 as 26 and 27;
CT's 50-line ``BetLinesCT5x4v2`` repeats line 6 as 44). The references here
are the pure-Python twin's brute force (``tests/twins/lines.py``, which plays
every payline in the file, copies included) and, for the real game, a plain
per-line enumerator written in this file from the game's rules.
"""

from __future__ import annotations

import itertools
import tomllib
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from testpaths import DATA
from twins import lines as twin

from certify.engine import compile_machine, simulate
from certify.engine.kernel_inputs import prefix_tables
from certify.engine.simulate import fast_flag
from certify.errors import ModelError
from certify.exact import compute_exact, statedp
from certify.model import load_machine
from certify.model.fingerprint import fingerprint
from certify.model.loader import parse_machine

REAL = DATA / "real" / "ct_30_treasures.toml"

LINES = [[1, 1, 1, 1, 1], [0, 0, 0, 0, 0], [0, 1, 2, 1, 0], [0, 1, 2, 1, 0], [2, 2, 2, 2, 2]]


def _text(
    paylines, allow: bool = True, strips=None, evaluation: str = "lines", rules: str = ""
) -> str:
    strips = strips or [
        ["A", "B", "W", "S"],
        ["B", "A", "A", "W"],
        ["A", "S", "B"],
        ["A", "B", "W"],
        ["B", "A", "S"],
    ]
    bet = f"lines = {len(paylines)}" if evaluation == "lines" else "ways = 243\ncost = 25"
    lines = f"paylines = {paylines!r}" if evaluation == "lines" else ""
    return f"""
schema = "slotcert/machine@1"
[machine]
id = "DUP"
name = "repeated lines"
[bet]
denomination = "0.01"
currency = "EUR"
{bet}
bet_levels = [1, 2]
{'duplicate_lines = "allow"' if allow else ""}
[symbols]
A = {{kind = "regular"}}
B = {{kind = "regular"}}
W = {{kind = "wild", multiplier = 2}}
S = {{kind = "scatter"}}
[reels]
rows = 3
evaluation = "{evaluation}"
strips = {strips!r}
{lines}
[[pays]]
combo = ["A", "A", "A"]
pays = 5
[[pays]]
combo = ["A", "A", "A", "A", "A"]
pays = 40
[[pays]]
combo = ["B", "B", "B", "B"]
pays = 12
[[pays]]
combo = ["W", "W", "W"]
pays = 30
[[scatter_pays]]
symbol = "S"
count = 3
pays = 2
[free_spins]
trigger = {{symbol = "S", count = 3}}
spins = {{3 = 2}}
multiplier = 2
retrigger = true
max_spins = 10
{rules}
"""


def _parse(text: str):
    return parse_machine(tomllib.loads(text), "<dup>")


def test_a_repeated_line_is_an_error_without_the_key():
    with pytest.raises(ModelError) as err:
        _parse(_text(LINES, allow=False))
    (p,) = [p for p in err.value.problems if p.code == "payline_duplicate"]
    assert p.path == "reels.paylines[3]" and p.severity == "error"
    assert 'duplicate_lines = "allow"' in p.message


def test_a_repeated_line_is_a_located_warning_with_the_key():
    machine, problems = _parse(_text(LINES))
    (p,) = [p for p in problems if p.code == "payline_duplicate"]
    assert (p.code, p.path, p.severity) == ("payline_duplicate", "reels.paylines[3]", "warning")
    assert "reels.paylines[2]" in p.message
    assert machine.paylines[2] == machine.paylines[3]


def test_the_key_is_refused_outside_lines_games():
    with pytest.raises(ModelError) as err:
        _parse(_text(LINES, evaluation="ways"))
    assert any(
        p.path == "bet.duplicate_lines" and p.code == "rule_not_applicable"
        for p in err.value.problems
    )


def test_the_key_is_part_of_the_fingerprint_only_when_set():
    distinct = [LINES[0], LINES[1], LINES[2], [1, 0, 0, 0, 1], LINES[4]]
    plain, _ = _parse(_text(distinct, allow=False))
    allowed, _ = _parse(_text(distinct))
    assert fingerprint(plain) != fingerprint(allowed)


@pytest.mark.parametrize("merged", [False, True], ids=["full-cycle", "state-merging"])
def test_each_copy_pays_exact_equals_twin(monkeypatch, merged):
    """Exact (full cycle through the prefix combos, or state merging) = the twin's brute
    force to 1e-12, free spins and scatters included; the copy counts (the figures differ
    from the same game with the copy moved to another line)."""
    monkeypatch.setattr(statedp, "DP_FROM", 0 if merged else 1 << 62)
    machine, _ = _parse(_text(LINES))
    exact = compute_exact(compile_machine(machine))
    assert exact is not None and exact.method == ("state-merging" if merged else "full-cycle")
    for li in range(2):
        ref = twin.brute_force(machine, li)
        level = exact.levels[li]
        assert level.rtp == pytest.approx(float(ref["rtp"]), rel=1e-12)
        assert level.hit_frequency == pytest.approx(float(ref["hit_frequency"]), abs=1e-12)
        assert level.variance == pytest.approx(float(ref["variance"]), rel=1e-12)
    moved = [*LINES[:3], [1, 0, 0, 0, 1], LINES[4]]
    other, _ = _parse(_text(moved, allow=False))
    assert float(twin.brute_force(other, 0)["variance"]) != pytest.approx(
        exact.levels[0].variance, rel=1e-6
    )


def test_the_simulation_fast_path_pays_each_copy():
    """The two-draw fast path of the simulation (prefix tables) agrees with exact."""
    machine, _ = _parse(_text(LINES))
    tables = compile_machine(machine)
    assert fast_flag(tables, prefix_tables(tables, 0)) == 1
    exact = compute_exact(tables)
    assert exact is not None
    sim = simulate(tables, 0, 2_000_000, 5)
    assert abs(sim.rtp - exact.levels[0].rtp) <= 4.5 * sim.std_error


@st.composite
def repeated_line_games(draw):
    lines = draw(
        st.lists(st.lists(st.integers(0, 2), min_size=5, max_size=5), min_size=2, max_size=4)
    )
    lines.append(draw(st.sampled_from(lines)))
    sym = st.sampled_from(["A", "B", "W", "S"])
    strips = [draw(st.lists(sym, min_size=2, max_size=3)) for _ in range(5)]
    rules = {
        "wild_multiplier": draw(st.sampled_from(["product", "max", "sum"])),
        "pure_wild_line": draw(st.sampled_from(["highest", "wild_award"])),
        "direction": draw(st.sampled_from(["left", "both"])),
    }
    text = "[rules]\n" + "\n".join(f'{k} = "{v}"' for k, v in rules.items())
    machine, _ = _parse(_text(lines, strips=strips, rules=text))
    return machine


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(repeated_line_games(), st.booleans())
def test_twin_equals_exact_on_random_repeated_lines(machine, merged):
    """Random 5-reel games with a repeated line under random rules of real games (both
    ways, wilds-only lines, wild multipliers): exact by either method = the twin."""
    saved = statedp.DP_FROM
    statedp.DP_FROM = 0 if merged else 1 << 62
    try:
        exact = compute_exact(compile_machine(machine))
    finally:
        statedp.DP_FROM = saved
    assert exact is not None
    ref = twin.brute_force(machine, 0)
    level = exact.levels[0]
    assert level.rtp == pytest.approx(float(ref["rtp"]), rel=1e-12, abs=1e-12)
    assert level.hit_frequency == pytest.approx(float(ref["hit_frequency"]), abs=1e-12)
    assert level.variance == pytest.approx(float(ref["variance"]), rel=1e-10, abs=1e-12)


def _per_line_return(machine) -> tuple[Fraction, Fraction]:
    """A real game's line and scatter return per total bet, by a plain enumerator.

    The games' rules (slotopol ``30treasures_rule.go``, ``50shiningjewels_rule.go``): a
    line pays the larger of its leading wild run (where the wild has pays of its own)
    and its first symbol's run with wilds substituting; the scatter pays its count
    anywhere x total bet. Every stop of a reel is equally likely, so every row of a reel
    shows each symbol with the same probability and every line has the same expected
    win: the line return is (lines x one line's expectation) / lines credits, whether or
    not lines repeat; the scatter return is the count's distribution over the windows.
    """
    pay: dict[str, dict[int, int]] = {}
    for e in machine.pays:
        pay.setdefault(e.combo[0], {})[len(e.combo)] = e.pays
    strips, n = machine.strips, machine.reels
    counts = [{s: strip.count(s) for s in set(strip)} for strip in strips]
    total = 1
    for strip in strips:
        total *= len(strip)
    line = Fraction(0)
    for cells in itertools.product(*(sorted(c) for c in counts)):
        weight = 1
        for r, s in enumerate(cells):
            weight *= counts[r][s]
        lead = next((i for i, s in enumerate(cells) if s != "W"), n)
        wild_pay = pay.get("W", {}).get(lead, 0)
        first = cells[lead] if lead < n else None
        run = lead
        while run < n and cells[run] in ("W", first):
            run += 1
        symbol_pay = pay.get(first, {}).get(run, 0) if first not in (None, "SC") else 0
        line += weight * max(wild_pay, symbol_pay)
    dist = {0: Fraction(1)}
    for strip in strips:
        size = len(strip)
        shown: dict[int, int] = {}
        for stop in range(size):
            k = sum(strip[(stop + r) % size] == "SC" for r in range(machine.rows))
            shown[k] = shown.get(k, 0) + 1
        nxt: dict[int, Fraction] = {}
        for have, q in dist.items():
            for k, ways in shown.items():
                nxt[have + k] = nxt.get(have + k, 0) + q * Fraction(ways, size)
        dist = nxt
    scatter_pay = {sp.count: sp.pays for sp in machine.scatter_pays}
    scatter = sum(
        q * max((v for c, v in scatter_pay.items() if c <= k), default=0) for k, q in dist.items()
    )
    return line / total, Fraction(scatter)


REAL_GAMES = [
    # file, repeated (copy, original) 0-based, slotopol's total, line and scatter figures
    ("ct_30_treasures.toml", [(25, 5), (26, 6)], 0.86772266, 0.83849, 0.029235),
    ("ct_50_shining_jewels.toml", [(43, 5)], 0.84911592, 0.81594, 0.033176),
    ("agt_mega_shine.toml", [(25, 5), (26, 6)], 0.88895802, 0.86279, 0.026169),
]


@pytest.mark.parametrize("name,repeats,total,lined,scatter", REAL_GAMES, ids=lambda x: str(x))
def test_real_games_with_repeated_lines(name, repeats, total, lined, scatter):
    """Real games of slotopol/server whose line tables repeat lines; the reference figures
    are slotopol's, printed over each reel set of its data file from its brute force over
    every stop combination (30 Treasures, ``game/slot/ct/30treasures/30treasures_data.yaml``
    reel set "86.772266": "RTP = 83.849(lined) + 2.9235(scatter) = 86.772266%" over
    184,528,125 combinations, AGT's 30-line table repeating lines 6 and 7 as 26 and 27;
    50 Shining Jewels, ``game/slot/ct/50shiningjewels/50shiningjewels_data.yaml`` reel set
    "84.911592": "RTP = 81.594(lined) + 3.3176(scatter) = 84.911592%" over 713,480,400,
    CT's 50-line 5x4 table repeating line 6 as 44; AGT Mega Shine, the 30-line alias of
    ``game/slot/agt/icefruits``, reel set "88.895802": "RTP = 86.279(lined) +
    2.6169(scatter) = 88.895802%" over 9,318,751,596, on AGT's 30-line table). The return
    equals this file's plain enumerator to 1e-9 and slotopol's printed figures to their
    last digit."""
    machine = load_machine(DATA / "real" / name)
    for copy, original in repeats:
        assert machine.paylines[copy] == machine.paylines[original]
    exact = compute_exact(machine)
    assert exact is not None
    level = exact.levels[0]
    line_return, scatter_return = _per_line_return(machine)
    assert level.line_rtp == pytest.approx(float(line_return), abs=1e-9)
    assert level.scatter_rtp == pytest.approx(float(scatter_return), abs=1e-9)
    assert level.rtp == pytest.approx(float(line_return + scatter_return), abs=1e-9)
    assert level.rtp == pytest.approx(total, abs=5e-9)
    assert level.line_rtp == pytest.approx(lined, abs=5e-6)
    assert level.scatter_rtp == pytest.approx(scatter, abs=5e-7)


def test_an_award_counts_each_copy_of_a_repeated_line():
    """30 Treasures: 5 wilds on one line is 3^5 / 45^5 (three wilds on each 45-stop reel,
    a 3-stop block of them shown on any row), on each of its 30 lines (copies included)."""
    exact = compute_exact(load_machine(REAL))
    assert exact is not None
    five_wilds = next(a for a in exact.levels[0].awards if a.combo == ("W",) * 5)
    assert five_wilds.probability == pytest.approx(30 * 3**5 / 45**5, rel=1e-12)


@pytest.mark.parametrize(
    "lang,phrase",
    [
        ("pt", "Linha 4: 1-2-3-2-1 (as mesmas posições da linha 3; cada uma das duas linhas paga)"),
        ("en", "Line 4: 1-2-3-2-1 (the same positions as line 3; each of the two lines pays)"),
    ],
)
def test_the_pay_glass_names_each_repeated_line(lang, phrase):
    from reports.paytable import pay_glass

    machine, _ = _parse(_text(LINES))
    glass = next(g for g in pay_glass(machine) if g.lang == lang)
    items = [item for section in glass.sections for item in section.items]
    assert phrase in items
    assert sum("1-2-3-2-1" in item for item in items) == 2
