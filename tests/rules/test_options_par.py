"""Free-spin options in the PAR sheet: one row per option and level, the worst marked."""

from __future__ import annotations

from fractions import Fraction

import pytest
from rule_games import game, pays
from testpaths import JURISDICTIONS

from certify.batch import certify_machine
from certify.model.jurisdiction import load_jurisdiction
from reports.certificate import build_certificate
from reports.par import par_sections

R = "{kind = 'regular'}"
SC = "{kind = 'scatter'}"


def test_each_option_has_its_par_rows():
    """The test_rules_hand options game: option 1 (1 spin x3) returns 40/81, option 2
    (2 spins x1) 116/243 (hand counts there). Option 2 is lower: it governs."""
    extra = (
        "[free_spins]\ntrigger = {symbol = 'S', count = 3}\n"
        "[[free_spins.options]]\nspins = 1\nmultiplier = 3\n"
        "[[free_spins.options]]\nspins = 2\nmultiplier = 1\n"
    )
    machine = game(
        [["A", "S", "X"]] * 3, {"A": R, "S": SC, "X": R}, pays("A A A = 9", "X X X = 3"), extra
    )
    pt = load_jurisdiction(JURISDICTIONS / "pt.toml")
    cert = build_certificate(certify_machine(machine, pt, 0, 1))
    (section,) = [s for s in par_sections(cert, machine) if s.name == "free_spin_options"]
    rows = {r[0]: r for r in section.rows}
    assert rows["option 1"][4] == pytest.approx(float(Fraction(40, 81)), abs=1e-12)
    assert rows["option 2"][4] == pytest.approx(float(Fraction(116, 243)), abs=1e-12)
    assert rows["option 2"][-1] == "yes" and rows["option 1"][-1] == "no"
    assert rows["option 1"][1:3] == ("3: 1", 3)


def test_exact_text_names_each_option_and_the_one_that_governs():
    """``slotcert exact`` without ``--json`` prints every option's levels, each named, and
    marks the worst (option 2: 116/243 = 47.736626% against option 1's 40/81 = 49.382716%,
    the hand counts above)."""
    from certify.cli.commands import exact_lines
    from certify.exact.report import exact_report

    extra = (
        "[free_spins]\ntrigger = {symbol = 'S', count = 3}\n"
        "[[free_spins.options]]\nspins = 1\nmultiplier = 3\n"
        "[[free_spins.options]]\nspins = 2\nmultiplier = 1\n"
    )
    machine = game(
        [["A", "S", "X"]] * 3, {"A": R, "S": SC, "X": R}, pays("A A A = 9", "X X X = 3"), extra
    )
    lines = exact_lines(exact_report(machine))
    assert len(lines) == 2 * len(machine.bet_levels)
    assert lines[0].startswith("option 1: level ") and "49.382716" in lines[0]
    governing = [x for x in lines if "(governs)" in x]
    assert governing and all(x.startswith("option 2 (governs): ") for x in governing)
    assert "47.736625" in governing[0] or "47.736626" in governing[0]
