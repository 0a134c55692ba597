"""The ``[hold_and_spin]`` reader: the parsed block, and every rule with its exact message."""

from __future__ import annotations

import copy
import tomllib
from fractions import Fraction

import pytest

from certify.errors import ModelError
from certify.model.hold import (
    HoldAndSpin,
    HoldValue,
    check_hold_window,
    read_hold_and_spin,
)
from certify.model.reader import Reader
from certify.model.schema import Symbol, Trigger

SYMBOLS = {
    "A": Symbol("A", "regular"),
    "SC": Symbol("SC", "scatter"),
    "COIN": Symbol("COIN", "bonus"),
}
POOLS = {"pool-grand"}
BLOCK = {
    "trigger": {"symbol": "COIN", "count": 6},
    "respins": 3,
    "cell_probability": "0.03",
    "values": [
        {"pays": 1, "weight": 60},
        {"pays": 2, "weight": 25},
        {"pays": 5, "weight": 10},
        {"jackpot": "MINI", "weight": 4},
        {"jackpot": "MAJOR", "weight": 1},
    ],
    "full_window": "GRAND",
    "jackpots": {"MINI": 10, "MINOR": 25, "MAJOR": 100, "GRAND": 1000},
}


def _read(raw):
    rd = Reader("m.toml")
    return read_hold_and_spin(rd, raw, SYMBOLS, POOLS), rd


def test_the_spec_block_reads_into_exact_values():
    hs, rd = _read(BLOCK)
    assert rd.problems == []
    assert hs == HoldAndSpin(
        trigger=Trigger("COIN", 6),
        respins=3,
        cell_probability=Fraction(3, 100),
        values=(
            HoldValue(60, 1, None),
            HoldValue(25, 2, None),
            HoldValue(10, 5, None),
            HoldValue(4, None, "MINI"),
            HoldValue(1, None, "MAJOR"),
        ),
        full_window="GRAND",
        jackpots=(("MINI", 10), ("MINOR", 25), ("MAJOR", 100), ("GRAND", 1000)),
    )
    assert hs.jackpot_names() == ("MINI", "MINOR", "MAJOR", "GRAND")


def test_absent_block_is_none():
    hs, rd = _read(None)
    assert hs is None and rd.problems == []


def test_a_pool_id_may_be_named_without_a_fixed_prize():
    raw = copy.deepcopy(BLOCK)
    raw["values"][4] = {"jackpot": "pool-grand", "weight": 1}
    raw["full_window"] = "pool-grand"
    del raw["jackpots"]["GRAND"]
    hs, rd = _read(raw)
    assert rd.problems == []
    assert hs.values[4].jackpot == "pool-grand" and hs.full_window == "pool-grand"
    assert hs.jackpot_names() == ("MINI", "MINOR", "MAJOR", "pool-grand")


def test_optional_keys_may_be_left_out():
    raw = copy.deepcopy(BLOCK)
    raw["values"] = [{"pays": 1, "weight": 1}]
    del raw["full_window"], raw["jackpots"]
    hs, rd = _read(raw)
    assert rd.problems == []
    assert hs.full_window is None and hs.jackpots == ()


_DELETE = object()


def _change(path: tuple, value) -> dict:
    data = copy.deepcopy(BLOCK)
    node = data
    for key in path[:-1]:
        node = node[key]
    if value is _DELETE:
        del node[path[-1]]
    else:
        node[path[-1]] = value
    return data


H = "m.toml: hold_and_spin"
# (id, key path to change, new value, every message expected, in order)
ERRORS = [
    ("not a table", (), "x", [f"{H}: must be a table, got 'x'"]),
    ("unknown key", ("respin",), 3, [f"{H}.respin: unknown key 'respin'"]),
    ("respins missing", ("respins",), _DELETE, [f"{H}.respins: is required"]),
    ("respins zero", ("respins",), 0, [f"{H}.respins: must be at least 1, got 0"]),
    ("respins a float", ("respins",), 3.0, [f"{H}.respins: must be an integer, got 3.0"]),
    ("trigger missing", ("trigger",), _DELETE, [f"{H}.trigger: is required"]),
    (
        "trigger count missing",
        ("trigger", "count"),
        _DELETE,
        [f"{H}.trigger.count: is required"],
    ),
    (
        "trigger unknown symbol",
        ("trigger", "symbol"),
        "ZZ",
        [f'{H}.trigger.symbol: unknown symbol "ZZ"'],
    ),
    (
        "trigger not a bonus symbol",
        ("trigger", "symbol"),
        "A",
        [f"{H}.trigger.symbol: 'A' is regular; expected bonus"],
    ),
    (
        "trigger a scatter",
        ("trigger", "symbol"),
        "SC",
        [f"{H}.trigger.symbol: 'SC' is scatter; expected bonus"],
    ),
    (
        "trigger count zero",
        ("trigger", "count"),
        0,
        [f"{H}.trigger.count: must be at least 1, got 0"],
    ),
    (
        "trigger unknown key",
        ("trigger", "min"),
        1,
        [f"{H}.trigger.min: unknown key 'min'"],
    ),
    (
        "probability a float",
        ("cell_probability",),
        0.03,
        [f'{H}.cell_probability: must be a decimal string such as "0.05", got 0.03'],
    ),
    (
        "probability not a number",
        ("cell_probability",),
        "three",
        [f"{H}.cell_probability: is not a decimal number: 'three'"],
    ),
    (
        "probability zero",
        ("cell_probability",),
        "0",
        [f'{H}.cell_probability: must be a probability in (0, 1), got "0"'],
    ),
    (
        "probability one",
        ("cell_probability",),
        "1.0",
        [f'{H}.cell_probability: must be a probability in (0, 1), got "1.0"'],
    ),
    (
        "probability negative",
        ("cell_probability",),
        "-0.1",
        [f"{H}.cell_probability: must not be negative, got '-0.1'"],
    ),
    (
        "probability beyond the engine",
        ("cell_probability",),
        "0.0000000001",
        [
            f'{H}.cell_probability: "0.0000000001" has too many decimal places: the engine '
            "draws a cell exactly only for a denominator below 2**32 (at most 9 decimal places)"
        ],
    ),
    (
        "values empty",
        ("values",),
        [],
        [f"{H}.values: must be a non-empty array, got an empty array"],
    ),
    (
        "value not a table",
        ("values", 1),
        5,
        [f"{H}.values[1]: must be a table, got 5"],
    ),
    (
        "value weight zero",
        ("values", 0, "weight"),
        0,
        [f"{H}.values[0].weight: must be at least 1, got 0"],
    ),
    (
        "value weight missing",
        ("values", 2, "weight"),
        _DELETE,
        [f"{H}.values[2].weight: is required"],
    ),
    (
        "value pays zero",
        ("values", 0, "pays"),
        0,
        [f"{H}.values[0].pays: must be at least 1, got 0"],
    ),
    (
        "value both pays and jackpot",
        ("values", 1, "jackpot"),
        "MINI",
        [f"{H}.values[1]: needs exactly one of `pays` or `jackpot`"],
    ),
    (
        "value neither pays nor jackpot",
        ("values", 1, "pays"),
        _DELETE,
        [f"{H}.values[1]: needs exactly one of `pays` or `jackpot`"],
    ),
    (
        "value unknown key",
        ("values", 0, "pay"),
        1,
        [f"{H}.values[0].pay: unknown key 'pay'"],
    ),
    (
        "value unknown jackpot",
        ("values", 3, "jackpot"),
        "MEGA",
        [f'{H}.values[3].jackpot: unknown jackpot "MEGA"'],
    ),
    (
        "value weights overflow the engine",
        ("values", 0, "weight"),
        1 << 32,
        [
            f"{H}.values: weights add up to 4294967336, "
            "above what the engine draws exactly (2**32 - 1)"
        ],
    ),
    (
        "full window unknown jackpot",
        ("full_window",),
        "MEGA",
        [f'{H}.full_window: unknown jackpot "MEGA"'],
    ),
    (
        "full window not a string",
        ("full_window",),
        7,
        [f"{H}.full_window: must be a non-empty string, got 7"],
    ),
    (
        "jackpot prize zero",
        ("jackpots", "MINI"),
        0,
        [f"{H}.jackpots.MINI: must be at least 1, got 0"],
    ),
    (
        "jackpot prize a string",
        ("jackpots", "MAJOR"),
        "100",
        [f"{H}.jackpots.MAJOR: must be an integer, got '100'"],
    ),
    (
        "jackpots not a table",
        ("jackpots",),
        [10, 25],
        [
            f"{H}.jackpots: must be a table such as {{MINI = 10, MAJOR = 100}}",
            f'{H}.values[3].jackpot: unknown jackpot "MINI"',
            f'{H}.values[4].jackpot: unknown jackpot "MAJOR"',
            f'{H}.full_window: unknown jackpot "GRAND"',
        ],
    ),
]


@pytest.mark.parametrize(
    ("path", "value", "messages"), [e[1:] for e in ERRORS], ids=[e[0] for e in ERRORS]
)
def test_each_rule_names_the_key_and_the_value(path, value, messages):
    raw = value if path == () else _change(path, value)
    _, rd = _read(raw)
    assert [str(p) for p in rd.problems] == messages
    assert all(p.severity == "error" for p in rd.problems)
    with pytest.raises(ModelError):
        rd.raise_if_errors()


def test_every_problem_is_reported_in_one_pass():
    raw = _change(("respins",), 0)
    raw["values"][3]["jackpot"] = "MEGA"
    raw["full_window"] = "HUGE"
    _, rd = _read(raw)
    assert [p.code for p in rd.problems] == ["range", "unknown_jackpot", "unknown_jackpot"]


def test_a_trigger_larger_than_the_window_is_an_error():
    hs, rd = _read(BLOCK)
    check_hold_window(rd, hs, 6)
    assert rd.problems == []
    check_hold_window(rd, hs, 5)
    assert [str(p) for p in rd.problems] == [
        f"{H}.trigger.count: 6 coins can never show in a window of 5 cells"
    ]


def test_the_spec_text_reads_from_toml():
    """The block exactly as SPEC 3.1b writes it (comments and line breaks included)."""

    text = """
[hold_and_spin]               # cash-on-reels respins ("hold and spin", "link" games)
trigger = {symbol = "COIN", count = 6}   # 6 or more coins anywhere start it
respins = 3                   # respins left; back to 3 whenever a respin locks a new coin
cell_probability = "0.03"     # chance that an empty cell shows a coin on one respin
values = [{pays = 1, weight = 60}, {pays = 2, weight = 25}, {pays = 5, weight = 10},
          {jackpot = "MINI", weight = 4}, {jackpot = "MAJOR", weight = 1}]
full_window = "GRAND"         # locking every cell awards this jackpot as well
jackpots = {MINI = 10, MINOR = 25, MAJOR = 100, GRAND = 1000}
"""
    hs, rd = _read(tomllib.loads(text)["hold_and_spin"])
    assert rd.problems == []
    assert hs == _read(BLOCK)[0]
