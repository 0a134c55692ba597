"""Every validation rule of a superjackpot group (``slotcert/link@1``), exact wording.

Each case edits the shipped group ``models/links/atlantico.toml`` (four
JACKPOT-5X3 machines at level 5 in two casinos) and checks the first error.
"""

from __future__ import annotations

import copy
import tomllib
from decimal import Decimal

import pytest
from testpaths import MACHINES, ROOT

from certify.cli import main
from certify.errors import ModelError
from certify.model.links import load_link, parse_link
from certify.model.loader import parse_machine, read_toml

LINKS = ROOT / "models" / "links"
DATA = ROOT / "tests" / "jackpots" / "data"
BASE = tomllib.loads((LINKS / "atlantico.toml").read_text(encoding="utf-8"))


def _errors(edit) -> list[str]:
    data = copy.deepcopy(BASE)
    edit(data)
    with pytest.raises(ModelError) as info:
        parse_link(data, "l.toml", LINKS, MACHINES)
    return [str(p) for p in info.value.problems if p.severity == "error"]


def _member(i, key, value):
    def edit(d):
        d["members"][i][key] = value

    return edit


def _top(key, value):
    def edit(d):
        d[key] = value

    return edit


def _undeclared(d):
    d["trigger"] = {"combo": ["7", "7", "7", "7", "7"]}
    for m in d["members"]:
        m["model"] = "REF-5X3-20"


def _mixed_low_level(d):
    d["same_model"] = False
    d["members"][1]["bet_level"] = 2


# (rule, edit, first error)
CASES = [
    (
        "unknown member model id",
        _member(1, "model", "NOPE-1"),
        f'l.toml: members[1].model: no machine file or model id "NOPE-1" (looked in {MACHINES})',
    ),
    (
        "unknown member model file",
        _member(1, "model", "../machines/nope.toml"),
        f'l.toml: members[1].model: no machine file "../machines/nope.toml" (relative to {LINKS})',
    ),
    (
        "member listed twice",
        _member(2, "machine_id", "EST-0101"),
        'l.toml: members[2].machine_id: "EST-0101" is already members[0]',
    ),
    (
        "member of a different model",
        _member(2, "model", "REF-5X3-20"),
        'l.toml: members[2].model: model "REF-5X3-20" differs from members[0] model '
        '"JACKPOT-5X3"; same_model = true requires one model',
    ),
    (
        "member at a different stake",
        _member(1, "bet_level", 2),
        "l.toml: members[1].bet_level: stake 0.40 EUR (level 2 x 20 x 0.01) per spin differs "
        "from members[0] stake 1.00 EUR (level 5 x 20 x 0.01); same_model = true requires the "
        "same stakes",
    ),
    (
        "contributions at or above 100%",
        _top("contribution", "0.995"),
        'l.toml: members[0]: model "JACKPOT-5X3" contributes 0.010 of coin-in to its own '
        "jackpots plus 0.996 to this group: 1.006, at or above 100%",
    ),
    (
        "trigger combo not a pay",
        _top("trigger", {"combo": ["BN"] * 5, "min_bet_level": 5}),
        'l.toml: trigger.combo: ["BN", "BN", "BN", "BN", "BN"] is not one of the [[pays]] combos '
        'of members[0] model "JACKPOT-5X3"; a jackpot replaces a line pay',
    ),
    (
        "member below min_bet_level",
        _mixed_low_level,
        "l.toml: members[1].bet_level: 2 is below trigger.min_bet_level 5: the jackpot can never "
        "be won on this machine",
    ),
    (
        "cap below the reset",
        _top("cap", "100.00"),
        'l.toml: cap: cap "100.00" is below the reset "5000.00"',
    ),
    (
        "money as a float",
        _top("contribution", 0.005),
        'l.toml: contribution: must be a decimal string such as "0.05", got 0.005',
    ),
    (
        "money not a number",
        _top("reset", "cinco mil"),
        "l.toml: reset: is not a decimal number: 'cinco mil'",
    ),
    ("unknown key", _top("colour", "red"), "l.toml: colour: unknown key 'colour'"),
    ("unknown member key", _member(0, "seat", 3), "l.toml: members[0].seat: unknown key 'seat'"),
    (
        "bet level the model lacks",
        _member(3, "bet_level", 4),
        "l.toml: members[3].bet_level: 4 is not one of the bet levels [1, 2, 5] of model "
        '"JACKPOT-5X3"',
    ),
    (
        "negative play rate",
        _member(3, "spins_per_day", -1),
        "l.toml: members[3].spins_per_day: must be a positive number, got -1",
    ),
    (
        "currency differs",
        _top("currency", "USD"),
        'l.toml: members[0].model: model "JACKPOT-5X3" plays in EUR, the group in USD',
    ),
    (
        "machine says otherwise",
        _top("reset", "6000.00"),
        'l.toml: members[0].model: model "JACKPOT-5X3" declares jackpots[1].reset = "5000.00" '
        'for link "SJ-ATLANTICO", the group says "6000.00"',
    ),
    (
        "combo trigger the machine does not declare",
        _undeclared,
        'l.toml: members[0].model: model "REF-5X3-20" has no [[jackpots]] entry with link = '
        '"SJ-ATLANTICO"; a combo trigger must replace that line\'s pay on the machine',
    ),
]


@pytest.mark.parametrize("rule, edit, message", CASES, ids=[c[0] for c in CASES])
def test_link_rule_message(rule, edit, message):
    assert _errors(edit)[0] == message


def test_trigger_that_cannot_occur():
    """TINY-LINKED has no C on reel 3: a group won on C C C could never pay."""
    with pytest.raises(ModelError) as info:
        load_link(DATA / "links-impossible.toml", machines_dir=DATA)
    assert [str(p) for p in info.value.problems] == [
        f'{DATA / "links-impossible.toml"}: trigger.combo: ["C", "C", "C"] can never occur on '
        'members[0] model "TINY-LINKED": nothing on reel 3 matches "C"'
    ]


def test_mixed_group_allowed_when_not_same_model():
    """same_model = false admits another model (a mystery trigger needs no pay of it)."""
    data = copy.deepcopy(BASE)
    data["same_model"] = False
    data["members"][2]["model"] = "REF-5X3-20"
    link = parse_link(data, "l.toml", LINKS, MACHINES)
    assert {m.machine.id for m in link.members} == {"JACKPOT-5X3", "REF-5X3-20"}
    with pytest.raises(ModelError):
        parse_link({**data, "same_model": True}, "l.toml", LINKS, MACHINES)


def test_shipped_group_loads():
    link = load_link(LINKS / "atlantico.toml")
    assert link.id == "SJ-ATLANTICO" and len(link.members) == 4
    assert {m.casino for m in link.members} == {"Casino Estoril", "Casino Lisboa"}
    assert {m.stake for m in link.members} == {Decimal("1.00")}
    assert link.mystery == Decimal("0.00000002") and link.min_bet_level == 5


def test_validate_command_exit_codes(capsys):
    assert main(["validate", str(LINKS)]) == 0
    assert main(["validate", str(DATA / "links-impossible.toml")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "can never occur" in err[0]


MACHINE = tomllib.loads((MACHINES / "jackpot-5x3.toml").read_text(encoding="utf-8"))

# machine-level jackpot rules added with the groups (loader._jackpot_identity)
MACHINE_CASES = [
    (
        "linked without link",
        (1, "link"),
        None,
        "m.toml: jackpots[1].link: is required for a linked jackpot (the id of its "
        "models/links group)",
    ),
    (
        "standalone with link",
        (0, "link"),
        "SJ-X",
        "m.toml: jackpots[0].link: a standalone jackpot has no link, got 'SJ-X'",
    ),
    (
        "duplicate id",
        (1, "id"),
        "local-mega",
        'm.toml: jackpots[1].id: "local-mega" duplicates another jackpot id',
    ),
]


@pytest.mark.parametrize(
    "rule, where, value, message", MACHINE_CASES, ids=[c[0] for c in MACHINE_CASES]
)
def test_machine_jackpot_rule_message(rule, where, value, message):
    data = copy.deepcopy(MACHINE)
    entry = data["jackpots"][where[0]]
    if value is None:
        del entry[where[1]]
    else:
        entry[where[1]] = value
    with pytest.raises(ModelError) as info:
        parse_machine(data, "m.toml")
    assert [str(p) for p in info.value.problems if p.severity == "error"] == [message]


def test_mystery_trigger_keeps_its_min_bet_level():
    machine, _ = parse_machine(read_toml(MACHINES / "jackpot-5x3.toml"), "m.toml")
    sj = machine.jackpots[1]
    assert sj.mystery == Decimal("0.00000002") and sj.min_bet_level == 5
