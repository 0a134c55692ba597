"""Canonical form and fingerprint: formatting never changes it, a characteristic always does."""

from __future__ import annotations

import json
import re
import tomllib

import pytest

from certify.model.fingerprint import (
    canonical_form,
    canonical_json,
    diff_canonical,
    fingerprint,
    fingerprint_of,
)
from certify.model.loader import parse_machine


def _load(text: str):
    machine, _ = parse_machine(tomllib.loads(text), "variant.toml")
    return machine


def _reordered(text: str) -> str:
    """The same model with [bet] keys, [symbols] entries and jackpot keys reordered."""
    out = text.replace(
        'denomination = "0.05"\ncurrency = "EUR"\nlines = 5\n',
        'lines = 5\ncurrency = "EUR"\ndenomination = "0.05"\n',
    )
    out = out.replace(
        'A = {kind = "regular"}\nK = {kind = "regular"}\n',
        'K = {kind = "regular"}\nA = {kind = "regular"}\n',
    )
    out = out.replace('overflow = "reserve"\n', "")
    out = out.replace('id = "super-lisboa"\n', 'id = "super-lisboa"\noverflow = "reserve"\n')
    assert out != text
    return out


def _reformatted(text: str) -> str:
    """Comments everywhere, different whitespace, money written with other zeros."""
    out = "# a comment at the top\n\n" + text.replace("\n[", "\n# section follows\n\n[")
    out = out.replace("rows = 3", "rows   =   3   # three rows")
    out = out.replace('contribution = "0.010"', 'contribution = "0.01"')
    out = out.replace('reset = "500.00"', 'reset = "500"')
    out = re.sub(r"\[(\d), (\d), (\d)\]", r"[ \1,\2 , \3 ]", out)
    assert out != text
    return out


def test_fingerprint_format(small_machine):
    assert re.fullmatch(r"sha256:[0-9a-f]{64}", fingerprint(small_machine))


@pytest.mark.parametrize("variant", [_reordered, _reformatted], ids=["key-order", "format"])
def test_formatting_does_not_change_fingerprint(small_text, small_machine, variant):
    assert fingerprint(_load(variant(small_text))) == fingerprint(small_machine)


def test_source_path_is_not_part_of_it(small_text, small_machine):
    machine, _ = parse_machine(tomllib.loads(small_text), "elsewhere/other-name.toml")
    assert fingerprint(machine) == fingerprint(small_machine)
    assert "small.toml" not in canonical_json(canonical_form(small_machine))


def test_omitted_weights_are_weight_one(small_text):
    start = small_text.index("weights = [")
    end = small_text.index("],\n]\n", start) + 4
    without = _load(small_text[:start] + small_text[end:])
    ones = re.sub(r"\[(\d+, ){11}\d+\]", "[" + ", ".join(["1"] * 12) + "]", small_text[start:end])
    explicit = _load(small_text[:start] + ones + small_text[end:])
    assert fingerprint(without) == fingerprint(explicit)


@pytest.mark.parametrize(
    ("old", "new", "path"),
    [
        ('"BN", "Q", "K"],\n  ["K"', '"BN", "Q", "A"],\n  ["K"', 'reels.strips[0][11]: "K" -> "A"'),
        ("pays = 20\n", "pays = 25\n", "pays[2].pays: 20 -> 25"),
        ("[3, 4, 4, 2,", "[3, 4, 4, 3,", "reels.weights[0][3]: 2 -> 3"),
        ('"0.010"', '"0.012"', 'jackpots[0].contribution: "0.01" -> "0.012"'),
        ("multiplier = 2\nretrigger", "multiplier = 3\nretrigger", "free_spins.multiplier: 2 -> 3"),
        ("[0, 1, 2], [2, 1, 0]", "[0, 1, 2], [2, 1, 1]", "reels.paylines[4][2]: 0 -> 1"),
        ('denomination = "0.05"', 'denomination = "0.10"', 'bet.denomination: "0.05" -> "0.1"'),
        (
            "pays_by_level = [100, 200, 1000]",
            "pays_by_level = [100, 200, 900]",
            "pays[6].pays_by_level[2]: 1000 -> 900",
        ),
        ("{pays = 100, weight = 1}", "{pays = 100, weight = 2}", "bonus.awards[2].weight: 1 -> 2"),
        ('ROYAL = ["K", "Q"]', 'ROYAL = ["K", "Q", "A"]', "groups.ROYAL: 2 items -> 3 items"),
    ],
)
def test_any_characteristic_changes_it_and_is_named(small_text, small_machine, old, new, path):
    assert small_text.count(old) == 1
    changed = _load(small_text.replace(old, new))
    assert fingerprint(changed) != fingerprint(small_machine)
    lines = diff_canonical(canonical_form(small_machine), canonical_form(changed))
    assert lines[0] == path


def test_diff_of_equal_forms_is_empty(small_machine):
    form = canonical_form(small_machine)
    assert diff_canonical(form, json.loads(json.dumps(form))) == []


def test_inserted_stop_is_aligned():
    old = {"reels": {"strips": [["A", "K", "Q", "J"]]}}
    new = {"reels": {"strips": [["A", "W", "K", "Q", "J"]]}}
    assert diff_canonical(old, new) == [
        "reels.strips[0]: 4 items -> 5 items",
        'reels.strips[0][1]: (absent) -> "W"',
    ]


def test_added_and_removed_entries_are_named():
    old = {"pays": [{"combo": ["A"], "pays": 1}], "bonus": None}
    new = {
        "pays": [{"combo": ["A"], "pays": 1}, {"combo": ["K"], "pays": 2}],
        "free_spins": None,
        "bonus": {"x": 1},
    }
    assert diff_canonical(old, new) == [
        'bonus: null -> {"x": 1}',
        "free_spins: (absent) -> null",
        "pays: 1 item -> 2 items",
        'pays[1]: (absent) -> {"combo": ["K"], "pays": 2}',
    ]


def test_removed_pay_in_the_middle_is_one_line_not_a_shifted_tail(small_text, small_machine):
    start = small_text.index('[[pays]]\ncombo = ["K", "K", "K"]')
    end = small_text.index("[[pays]]", start + 1)
    changed = _load(small_text[:start] + small_text[end:])
    assert diff_canonical(canonical_form(small_machine), canonical_form(changed)) == [
        "pays: 7 items -> 6 items",
        'pays[2]: {"combo": ["K", "K", "K"], "pays": 20, "pays_by_level": null} -> (absent)',
    ]


def test_quoted_keys_and_type_changes():
    assert diff_canonical({"symbols": {"7 bar": 1}}, {"symbols": {"7 bar": True}}) == [
        'symbols."7 bar": 1 -> true'
    ]


def test_fingerprint_of_round_trips_through_json(small_machine):
    form = json.loads(json.dumps(canonical_form(small_machine), indent=3))
    assert fingerprint_of(form) == fingerprint(small_machine)


# Every field of the model dataclasses must be in the canonical form, or a new
# characteristic could change without changing the fingerprint. Update both the
# canonical form and this table when a field is added.
_COVERED = {
    "Machine": {
        "id",
        "name",
        "manufacturer",
        "version",
        "instruction_languages",
        "denomination",
        "currency",
        "bet_levels",
        "symbols",
        "groups",
        "rows",
        "strips",
        "weights",
        "evaluation",
        "pays",
        "lines",
        "paylines",
        "ways",
        "cost",
        "duplicate_lines",
        "scatter_pays",
        "free_spins",
        "bonus",
        "bonus_games",
        "jackpots",
        "handpay_limit",
        "rules",
        "option_label",
        "full_window_pays",
        "heights",
        "hold_and_spin",
        "cascade",
        "cluster_pays",
        "source",
    },
    "Rules": {
        "both_ways",
        "line_pays",
        "leading_wilds",
        "wild_multiplier",
        "pure_wild_line",
        "direction",
        "scatter_unit",
        "exclusive_scatters",
        "win_cap",
        "spin_multipliers",
    },
    "FreeSpinOption": {"spins", "multiplier", "weight"},
    "Symbol": {
        "name",
        "kind",
        "multiplier",
        "substitutes",
        "expands",
        "scatter",
        "wild_in_free_spins",
        "sticky",
        "plays",
        "reels",
        "wilds_count",
        "multipliers",
        "window_multiplier",
        "full_reel_multipliers",
        "counts_as",
        "paints",
        "expands_chance",
        "consecutive",
    },
    "FullWindowPay": {"symbol", "multiplier", "reels", "jackpot", "wilds_count"},
    "PayEntry": {
        "index",
        "combo",
        "pays",
        "pays_by_level",
        "anywhere",
        "free_spins_multiplier",
        "free_spins_pays",
        "bonus",
        "bonus_game",
        "bonus_plays",
    },
    "ScatterPay": {
        "symbol",
        "count",
        "pays",
        "free_spins_pays",
        "bonus",
        "bonus_game",
        "bonus_plays",
    },
    "Trigger": {"symbol", "count"},
    "FreeSpins": {
        "retrigger_spins",
        "multipliers",
        "trigger",
        "spins",
        "multiplier",
        "retrigger",
        "max_spins",
        "strips",
        "weights",
        "retrigger_once",
        "options",
        "expanding_symbol",
        "big_symbol",
        "retrigger_symbol",
        "multiplier_by_count",
    },
    "BigSymbol": {"reels", "strip", "weights", "covers", "columns"},
    "BonusAward": {"pays", "weight"},
    "Bonus": {"trigger", "awards", "unit", "stages"},
    "PickStage": {"prizes", "picks", "safe", "match_multiplier", "kind"},
    "WheelStage": {"segments", "spins", "max_spins", "kind"},
    "WheelSegment": {"pays", "again", "weight"},
    "MultiplierStage": {"values", "kind"},
    "LadderStage": {"rungs", "climb", "collect", "lose", "kind"},
    "Jackpot": {
        "id",
        "kind",
        "contribution",
        "reset",
        "cap",
        "overflow",
        "reserve_rate",
        "trigger_combo",
        "min_bet_level",
        "mystery",
        "link",
        "keep_pay",
    },
}


@pytest.mark.parametrize("name", sorted(_COVERED))
def test_every_model_field_is_fingerprinted(name):
    import dataclasses

    from certify.model import schema

    fields = {f.name for f in dataclasses.fields(getattr(schema, name))}
    assert fields == _COVERED[name], (
        f"{name} fields changed: add {sorted(fields - _COVERED[name])} to canonical_form "
        "(certify/model/fingerprint.py) and to this table"
    )
