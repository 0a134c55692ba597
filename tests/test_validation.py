"""Every validation rule of SPEC section 3.1, with its exact message (one table)."""

from __future__ import annotations

import copy
import tomllib

import pytest
from testpaths import DATA

from certify.cli import main
from certify.errors import ModelError
from certify.model.loader import parse_machine

BASE = tomllib.loads((DATA / "small_features.toml").read_text())
F = "m.toml"


def _set(data: dict, path: tuple, value) -> dict:
    data = copy.deepcopy(data)
    node = data
    for key in path[:-1]:
        node = node[key]
    if value is _DELETE:
        del node[path[-1]]
    else:
        node[path[-1]] = value
    return data


_DELETE = object()

# (id, key path to change, new value, expected message of the first error)
ERRORS = [
    (
        "unknown symbol in a strip",
        ("reels", "strips", 2, 1),
        "WLD",
        'm.toml: reels.strips[2][1]: unknown symbol "WLD"',
    ),
    (
        "empty strip",
        ("reels", "strips", 1),
        [],
        "m.toml: reels.strips[1]: must be a non-empty array of symbols (empty strip)",
    ),
    (
        "ragged weights",
        ("reels", "weights", 0),
        [1, 2],
        "m.toml: reels.weights[0]: needs one weight per stop (8), got 2",
    ),
    (
        "zero weight",
        ("reels", "weights", 1, 3),
        0,
        "m.toml: reels.weights[1][3]: must be at least 1, got 0",
    ),
    (
        "negative weight",
        ("reels", "weights", 2, 0),
        -2,
        "m.toml: reels.weights[2][0]: must be at least 1, got -2",
    ),
    (
        "payline out of range",
        ("reels", "paylines", 3),
        [0, 1, 3],
        "m.toml: reels.paylines[3]: row 3 out of range 0..2",
    ),
    (
        "payline duplicated",
        ("reels", "paylines", 4),
        [1, 1, 1],
        "m.toml: reels.paylines[4]: duplicates reels.paylines[0] [1, 1, 1] "
        '(a line table that repeats lines needs bet.duplicate_lines = "allow")',
    ),
    (
        "paylines count != lines",
        ("bet", "lines"),
        6,
        "m.toml: reels.paylines: has 5 lines but bet.lines = 6",
    ),
    (
        "combo longer than the reels",
        ("pays", 0, "combo"),
        ["A", "A", "A", "A"],
        "m.toml: pays[0].combo: has 4 symbols but the machine has 3 reels",
    ),
    (
        "unknown pay token",
        ("pays", 1, "combo", 2),
        "KING",
        'm.toml: pays[1].combo[2]: unknown symbol or group "KING"',
    ),
    (
        "money as a float",
        ("bet", "denomination"),
        0.05,
        'm.toml: bet.denomination: must be a decimal string such as "0.05", got 0.05',
    ),
    (
        "money not a number",
        ("bet", "denomination"),
        "five cents",
        "m.toml: bet.denomination: is not a decimal number: 'five cents'",
    ),
    ("unknown key", ("machine", "colour"), "red", "m.toml: machine.colour: unknown key 'colour'"),
    ("missing key", ("reels", "rows"), _DELETE, "m.toml: reels.rows: is required"),
    (
        "bad kind",
        ("symbols", "A", "kind"),
        "royal",
        "m.toml: symbols.A.kind: must be one of regular, wild, scatter, bonus, blank, got 'royal'",
    ),
    (
        "pays and pays_by_level",
        ("pays", 0, "pays_by_level"),
        [1, 2],
        "m.toml: pays[0]: needs exactly one of `pays` or `pays_by_level`",
    ),
    (
        "pays_by_level length",
        ("pays", 2, "pays_by_level"),
        [10],
        "m.toml: pays[2].pays_by_level: needs one value per bet level (2), got 1",
    ),
    (
        "bet levels not increasing",
        ("bet", "bet_levels"),
        [3, 1],
        "m.toml: bet.bet_levels: must be strictly increasing, got [3, 1]",
    ),
    (
        "wild substitutes a blank",
        ("symbols", "X", "substitutes"),
        ["A", "_"],
        "m.toml: symbols.X.substitutes[1]: a wild substitutes only regular symbols; '_' is blank",
    ),
    (
        "scatter pay on a blank",
        ("scatter_pays", 0, "symbol"),
        "_",
        "m.toml: scatter_pays[0].symbol: '_' is blank; "
        "expected scatter or bonus or regular or wild",
    ),
]


@pytest.mark.parametrize("case", ERRORS, ids=[c[0] for c in ERRORS])
def test_each_rule_has_its_exact_message(case):
    _, path, value, message = case
    with pytest.raises(ModelError) as info:
        parse_machine(_set(BASE, path, value), F)
    assert message in [str(p) for p in info.value.problems if p.severity == "error"]


def test_every_problem_of_a_file_is_reported_at_once():
    data = _set(_set(BASE, ("reels", "strips", 0, 0), "WLD"), ("bet", "denomination"), 1.5)
    with pytest.raises(ModelError) as info:
        parse_machine(_set(data, ("machine", "colour"), "x"), F)
    assert len([p for p in info.value.problems if p.severity == "error"]) == 3


def test_jackpot_contribution_outside_unit_interval():
    data = _set(
        BASE,
        ("jackpots",),
        [
            {
                "id": "j",
                "kind": "standalone",
                "contribution": "1.2",
                "reset": "10.00",
                "trigger": {"mystery": "0.001"},
            }
        ],
    )
    with pytest.raises(ModelError) as info:
        parse_machine(data, F)
    assert 'm.toml: jackpots[0].contribution: must be in [0, 1), got "1.2"' in [
        str(p) for p in info.value.problems
    ]


def test_impossible_combo_is_a_warning_not_an_error():
    _, problems = parse_machine(BASE, F)
    assert [str(p) for p in problems] == [
        "m.toml: pays[5].combo: ['W', 'W', 'W'] can never occur: nothing on reel 2 matches \"W\""
    ]
    assert problems[0].severity == "warning"


def test_validate_exit_codes_and_no_traceback(tmp_path, capsys):
    good, bad = tmp_path / "good.toml", tmp_path / "bad.toml"
    good.write_text((DATA / "small_features.toml").read_text())
    bad.write_text(
        (DATA / "small_features.toml").read_text().replace('"K", "A", "X"', '"K", "WLD", "X"')
    )
    assert main(["validate", str(good)]) == 0
    assert main(["validate", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert f'{bad}: reels.strips[1][1]: unknown symbol "WLD"' in err
    assert "Traceback" not in err
