"""Random small games using the rules of real games: the twin's brute force = exact to 1e-12.

The twin (``tests/twins/lines.py``) is written from the SPEC text alone; the exact
calculator goes through the line automaton, prefix tables and kernels. Each
example draws 3 reels of 2-4 stops over a few symbols (a x2 and a x3 wild,
two scatters), a pay table with runs and ``anywhere`` entries, and a random
choice of every rule; the published game (IGT Cleopatra) is checked against
its published figures.
"""

from __future__ import annotations

import tomllib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from testpaths import DATA
from twins import lines as twin

from certify.engine import compile_machine, simulate
from certify.exact import compute_exact
from certify.model import load_machine
from certify.model.loader import parse_machine

SYMBOLS = ["A", "B", "W", "V", "S", "T", "X"]
SPEC = {
    "A": "{kind = 'regular'}",
    "B": "{kind = 'regular'}",
    "X": "{kind = 'regular'}",
    "W": "{kind = 'wild', multiplier = 2}",
    "V": "{kind = 'wild', multiplier = 3}",
    "S": "{kind = 'scatter'}",
    "T": "{kind = 'scatter'}",
}


@st.composite
def rule_games(draw):
    strips = [draw(st.lists(st.sampled_from(SYMBOLS), min_size=2, max_size=4)) for _ in range(3)]
    rules = {
        "wild_multiplier": draw(st.sampled_from(["product", "max", "sum"])),
        "pure_wild_line": draw(st.sampled_from(["highest", "wild_award"])),
        "direction": draw(st.sampled_from(["left", "both"])),
    }
    anywhere = draw(st.booleans()) and rules["direction"] == "left"
    exclusive = draw(st.booleans())
    cap = draw(st.sampled_from([None, 8, 30]))
    fs = draw(st.sampled_from([None, "true", '"once"'])) if cap is None else None
    unmultiplied = fs is not None and draw(st.booleans())
    pays = [
        f'[[pays]]\ncombo = ["A", "A", "A"]\npays = {draw(st.integers(1, 20))}\n'
        + ("free_spins_multiplier = false\n" if unmultiplied else ""),
        f'[[pays]]\ncombo = ["A", "A"]\npays = {draw(st.integers(0, 5))}\n',
        f'[[pays]]\ncombo = ["B", "B", "B"]\npays = {draw(st.integers(1, 10))}\n',
        f'[[pays]]\ncombo = ["W", "W", "W"]\npays = {draw(st.integers(1, 40))}\n',
    ]
    if anywhere:
        pays.append(f'[[pays]]\ncombo = ["B"]\nanywhere = true\npays = {draw(st.integers(1, 3))}\n')
    scatter = (
        '[[scatter_pays]]\nsymbol = "S"\ncount = 2\npays = 2\n'
        '[[scatter_pays]]\nsymbol = "T"\ncount = 1\npays = 1\n'
    )
    rule_text = "\n".join(f'{k} = "{v}"' for k, v in rules.items())
    if exclusive:
        rule_text += '\nexclusive_scatters = ["T", "S"]'
    if cap is not None:
        rule_text += f"\nwin_cap = {cap}"
    feature = ""
    if fs is not None:
        feature = (
            "[free_spins]\ntrigger = {symbol = 'S', count = 2}\nspins = {2 = 2, 3 = 3}\n"
            f"multiplier = 3\nretrigger = {fs}\nmax_spins = 12\n"
        )
    text = f"""
schema = "slotcert/machine@1"
[machine]
id = "PROP"
name = "property"
[bet]
denomination = "0.01"
currency = "EUR"
lines = 2
bet_levels = [1, 3]
[symbols]
{chr(10).join(f"{n} = {SPEC[n]}" for n in SYMBOLS)}
[reels]
rows = 2
strips = {strips!r}
paylines = [[0, 0, 0], [1, 0, 1]]
{"".join(pays)}
{scatter}
{feature}
[rules]
{rule_text}
"""
    machine, _ = parse_machine(tomllib.loads(text.replace("'", '"')), "<property>")
    return machine


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rule_games())
def test_twin_equals_exact_on_random_rule_games(machine):
    exact = compute_exact(machine)
    assert exact is not None
    for li in range(len(machine.bet_levels)):
        ref = twin.brute_force(machine, li)
        level = exact.levels[li]
        assert level.rtp == pytest.approx(float(ref["rtp"]), rel=1e-12, abs=1e-12)
        assert level.hit_frequency == pytest.approx(float(ref["hit_frequency"]), abs=1e-12)
        assert level.variance == pytest.approx(float(ref["variance"]), rel=1e-10, abs=1e-12)


def test_cleopatra_published_figures_by_the_engine():
    """IGT Cleopatra written naturally (wild x2 with wild_multiplier = "max", the 10,000
    entry with free_spins_multiplier = false): Wizard of Odds, "Deconstructing Cleopatra"
    (https://wizardofodds.com/games/slots/cleopatra/, see tests/data/published/SOURCES.md):
    total 95.025%, line 52.047%, scatter 17.508%, free spins 25.470% (published to 3
    decimals); the simulation must agree with the exact figure."""
    machine = load_machine(DATA / "published" / "cleopatra.toml")
    tables = compile_machine(machine)
    ex = compute_exact(tables)
    assert ex is not None
    lv = ex.levels[0]
    assert lv.rtp == pytest.approx(0.95025, abs=5e-6)
    assert lv.line_rtp == pytest.approx(0.52047, abs=5e-6)
    assert lv.scatter_rtp == pytest.approx(0.17508, abs=5e-6)
    assert lv.free_spins_rtp == pytest.approx(0.25470, abs=5e-6)
    sim = simulate(tables, 0, 4_000_000, 11)
    assert abs(sim.rtp - lv.rtp) <= 4.5 * sim.std_error
