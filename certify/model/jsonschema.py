"""JSON Schemas (draft 2020-12) of the model file kinds: machine, jurisdiction, link, table.

This is the one place the schemas are written (``slotcert schema KIND`` prints
them; ``docs/MODELS.md`` documents the same keys for people). A TOML model
file maps onto JSON one to one, so a validator checks a model's *shape*:
known keys only, types, ranges and choices. Cross-key rules (a combo's symbols
exist, paylines count equals ``bet.lines``, …) stay with the loaders, which
are the authority; the schema never accepts a key the loader refuses.

To add a key: add it to its table below (``_obj(...)``) with a type and a
description, and document it in ``docs/MODELS.md``. ``tests/test_schema.py``
reads the keys every loader accepts (its ``Reader.table`` calls) and fails on
a key missing from the schema or the docs.
"""

from __future__ import annotations

from typing import Any

from certify.bounds import MAX_RESPINS, MAX_SCREENS
from certify.kinds import MODEL_KIND_NAMES, schema_of_kind

KINDS = MODEL_KIND_NAMES
DIALECT = "https://json-schema.org/draft/2020-12/schema"

Schema = dict[str, Any]

# -- building blocks -------------------------------------------------------------------------

DECIMAL_PATTERN = r"^\s*\+?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?\s*$"
RATIO_PATTERN = r"^\s*([0-9]+(\.[0-9]+)?)\s*(/\s*[0-9]+)?\s*$"


def _int(minimum: int | None = None, description: str = "") -> Schema:
    out: Schema = {"type": "integer"}
    if minimum is not None:
        out["minimum"] = minimum
    return _described(out, description)


def _scatter_pay(description: str) -> Schema:
    """An integer >= 0, or a decimal string for a fraction of the bet (``"0.5"``)."""
    whole = "; or a decimal string (a fraction of the bet, whole credits at every level)"
    return {"oneOf": [_int(0), _money()], "description": description + whole}


def _str(description: str = "", choices: tuple[str, ...] | None = None) -> Schema:
    out: Schema = {"type": "string", "minLength": 1}
    if choices is not None:
        out = {"enum": list(choices)}
    return _described(out, description)


def _bool(description: str = "") -> Schema:
    return _described({"type": "boolean"}, description)


def _money(description: str = "") -> Schema:
    """A non-negative decimal written as a string (``"0.05"``); never a float."""
    return _described({"type": "string", "pattern": DECIMAL_PATTERN}, description)


def _ratio(description: str = "") -> Schema:
    """A decimal or fraction string (``"0.5"``, ``"1/3"``)."""
    return _described({"type": "string", "pattern": RATIO_PATTERN}, description)


def _array(items: Schema, description: str = "", min_items: int = 1) -> Schema:
    return _described({"type": "array", "items": items, "minItems": min_items}, description)


def _obj(
    properties: dict[str, Schema],
    required: tuple[str, ...] = (),
    description: str = "",
    **extra: Any,
) -> Schema:
    """A table with exactly these keys (unknown keys are errors, as in the loaders)."""
    out: Schema = {
        "type": "object",
        "properties": properties,
        "additionalProperties": False,
    }
    if required:
        out["required"] = list(required)
    out.update(extra)
    return _described(out, description)


def _described(schema: Schema, description: str) -> Schema:
    if description:
        schema["description"] = description
    return schema


def _keyed(types: dict[str, Schema], keys: tuple[str, ...]) -> dict[str, Schema]:
    """The properties of a table whose keys a loader lists: exactly ``keys``, typed by ``types``.

    A key the loader accepts but ``types`` lacks is still accepted (any value),
    so a new loader key never makes the schema refuse a valid file; the tests
    flag it as untyped and undocumented.
    """
    return {key: types.get(key, {}) for key in keys}


def _header(kind: str, title: str) -> Schema:
    return {
        "$schema": DIALECT,
        "$id": f"https://slotcert.invalid/schema/{kind}@1.json",
        "title": title,
    }


def _schema_key(kind: str) -> Schema:
    return {"const": schema_of_kind(kind), "description": "the file kind and format version"}


SYMBOL_NAMES = _array({"type": "string", "minLength": 1})
STRIPS = _array(
    _array({"type": "string", "minLength": 1}),
    "one list of symbols per reel, in stop order around the reel",
)
WEIGHTS = _array(
    _array({"type": "integer", "minimum": 1}),
    "per-stop weights (virtual reels), one list per reel; default 1 each",
)
TRIGGER = _obj(
    {
        "symbol": _str("the scatter or bonus symbol counted anywhere in the window"),
        "count": _int(1, "at least this many start the feature"),
    },
    ("symbol", "count"),
)
JACKPOT_TRIGGER = _obj(
    {
        "combo": _array(
            {"type": "string", "minLength": 1},
            "a [[pays]] combo: the jackpot replaces that line's fixed pay",
        ),
        "min_bet_level": _int(1, "lowest bet level that can win it"),
        "mystery": _money("probability per credit wagered, in (0, 1)"),
    },
    description="exactly one of combo or mystery",
    oneOf=[{"required": ["combo"]}, {"required": ["mystery"]}],
)
MACHINE_JACKPOT_TRIGGER = {  # a machine's pool may keep the line's pay (links may not)
    **JACKPOT_TRIGGER,
    "properties": {
        **JACKPOT_TRIGGER["properties"],
        "keep_pay": {
            "type": "boolean",
            "description": "with combo: the line pays its fixed pay as well as the jackpot",
        },
    },
}
OVERFLOW = _str("where contributions above cap go", ("reserve", "next-reset"))


def _drawn_table(description: str) -> Schema:
    """A table of value = weight (integers >= 1, at least one): drawn by weight."""
    return {
        "type": "object",
        "minProperties": 1,
        "propertyNames": {"pattern": "^[0-9]+$"},
        "additionalProperties": {"type": "integer", "minimum": 1},
        "description": description,
    }


SPINS = {
    "oneOf": [
        {
            "type": "object",
            "minProperties": 1,
            "propertyNames": {"pattern": "^[0-9]+$"},
            "additionalProperties": {"type": "integer", "minimum": 1},
        },
        {"type": "integer", "minimum": 1},
    ],
    "description": "spins awarded by trigger count, e.g. {3 = 10, 4 = 15}, or one number",
}

BONUS_STAGE: Schema = {
    "oneOf": [
        _obj(
            {
                "kind": {"const": "pick"},
                "prizes": _array(
                    {"oneOf": [{"type": "integer", "minimum": 0}, {"const": "stop"}]},
                    "hidden prizes (x the unit) and stops",
                ),
                "picks": _int(1, "picks made (default: until a stop)"),
                "safe": _int(0, "the first picks never reveal a stop"),
                "match_multiplier": _int(1, "all picks the same prize: their sum x this"),
            },
            ("kind", "prizes"),
        ),
        _obj(
            {
                "kind": {"const": "wheel"},
                "segments": _array(
                    _obj(
                        {
                            "pays": _int(0, "x the unit"),
                            "again": _int(0, "extra spins"),
                            "weight": _int(1, "relative weight"),
                        },
                        ("weight",),
                    )
                ),
                "spins": _int(1, "spins the wheel starts with"),
                "max_spins": _int(1, "at most this many spins in all"),
            },
            ("kind", "segments"),
        ),
        _obj(
            {
                "kind": {"const": "ladder"},
                "rungs": _array(_int(0), "each rung's prize, bottom to top"),
                "climb": _int(0, "weight of climbing a rung"),
                "collect": _int(0, "weight of ending with the rung's prize"),
                "lose": _int(0, "weight of ending with nothing"),
            },
            ("kind", "rungs", "climb", "collect"),
        ),
        _obj(
            {
                "kind": {"const": "multiplier"},
                "values": _array(
                    _obj(
                        {"multiplier": _int(1), "weight": _int(1, "relative weight")},
                        ("multiplier", "weight"),
                    )
                ),
            },
            ("kind", "values"),
        ),
    ]
}


# -- machine ---------------------------------------------------------------------------------


def _symbol_schema() -> Schema:
    """A ``[symbols.NAME]`` table."""
    return _obj(
        {
            "kind": _str("", ("regular", "wild", "scatter", "bonus", "blank")),
            "multiplier": {
                "oneOf": [
                    _int(1, "wilds only: multiplies the line wins it takes part in"),
                    _drawn_table("wilds only: value = weight, drawn per reel and spin"),
                ]
            },
            "substitutes": _array(
                {"type": "string", "minLength": 1},
                "wilds only: the regular symbols it stands for (default: every regular)",
            ),
            "expands": {
                "oneOf": [
                    {"enum": [True, False, "free_spins"]},
                    _obj(
                        {
                            "chance": {
                                "type": "array",
                                "items": {"type": "integer", "minimum": 0},
                                "minItems": 2,
                                "maxItems": 2,
                                "description": "[k, n]: k spins in n are drawn in the mode",
                            }
                        },
                        ("chance",),
                        "only in a mode each spin draws with this chance",
                    ),
                ],
                "description": 'wilds: fills its reel when it shows (true, or "free_spins" only,'
                " or in a drawn mode: {chance = [k, n]})",
            },
            "scatter": _bool("wilds: also a scatter, counted and paid anywhere (Book of Ra)"),
            "wild_in_free_spins": _bool("regular symbols: plays as a wild during free spins"),
            "sticky": _bool("wilds: stays where it landed until the free spins end"),
            "reels": {
                "type": "array",
                "items": {"type": "integer", "minimum": 1},
                "minItems": 1,
                "uniqueItems": True,
                "description": "scatter/bonus: the reels (1-based) it counts on (default all)",
            },
            "wilds_count": _bool("scatter/bonus: every wild cell counts as this symbol too"),
            "consecutive": _int(
                1,
                "scatter/bonus: counted only on the reels in a row from reel 1 that show it,"
                " and only where at least this many do",
            ),
            "window_multiplier": _int(
                2, "each cell showing it multiplies the spin's line, ways and scatter wins"
            ),
            "counts_as": _obj(
                {
                    "symbol": {"type": "string", "minLength": 1},
                    "times": _int(1, "how many of it one cell counts as"),
                },
                ("symbol", "times"),
            ),
            "full_reel_multiplier": {
                "oneOf": [
                    _int(2, "a reel showing only it multiplies the spin's wins by this"),
                    _drawn_table("value = weight, drawn for each reel showing only it"),
                ]
            },
            "paints": _obj(
                {
                    "reels": {
                        "type": "array",
                        "items": {"type": "integer", "minimum": 1},
                        "minItems": 1,
                        "uniqueItems": True,
                        "description": "the reels (1-based) where it paints",
                    },
                    "into": _str("the wild the block shows (default: the symbol itself)"),
                    "left": _int(0, "reels painted to its left"),
                    "right": _int(0, "reels painted to its right"),
                    "up": _int(0, "rows painted above it"),
                    "down": _int(0, "rows painted below it"),
                },
                ("reels",),
                "turns the block of cells around where it lands into a wild (not scatters)",
            ),
        },
        ("kind",),
    )


def _pay_schema() -> Schema:
    """A ``[[pays]]`` entry."""
    return _obj(
        {
            "combo": _array(
                {"type": "string", "minLength": 1},
                'tokens from reel 1: a symbol, a group or "ANY"',
            ),
            "pays": _int(0, "credits per credit of bet level"),
            "pays_by_level": _array(
                {"type": "integer", "minimum": 0},
                "credits per line at each bet level (a max-coin bonus)",
            ),
            "anywhere": _bool("lines: counts the symbol anywhere on the line (Double Diamond)"),
            "free_spins_multiplier": _bool("false: paid as is in free spins (IGT Cleopatra)"),
            "free_spins_pays": _int(0, "the entry's pays during free spins, instead of pays"),
            "bonus": BONUS_PLAY,
            "bonus_plays": BONUS_PLAYS,
        },
        ("combo",),
        oneOf=[{"required": ["pays"]}, {"required": ["pays_by_level"]}],
    )


def _machine_schema() -> Schema:
    """``[machine]``: the cabinet's identity."""
    return _obj(
        {
            "id": _str("model identifier shown on the cabinet"),
            "name": _str("commercial name"),
            "manufacturer": _str('default "unknown"'),
            "version": _str('default "1"'),
            "instruction_languages": _array(
                {"type": "string", "minLength": 1},
                'languages printed on the glass (default ["en"])',
            ),
            "handpay_limit": _money("wins at or above this are paid by the cashier"),
        },
        ("id", "name"),
    )


def _bet_schema() -> Schema:
    """``[bet]``: denomination, levels, lines or ways."""
    return _obj(
        {
            "denomination": _money("money per credit"),
            "currency": _str("ISO 4217 code"),
            "bet_levels": _array(
                {"type": "integer", "minimum": 1},
                "credits per line (lines) or per cost unit (ways), strictly increasing",
            ),
            "lines": _int(1, "lines games: lines played"),
            "ways": _int(1, "ways games: rows^reels"),
            "cost": _int(1, "ways games: credits per bet level"),
            "duplicate_lines": _str(
                'lines games: "allow" lets reels.paylines repeat a line (each copy pays; '
                'a warning names it); default "refuse"',
                ("refuse", "allow"),
            ),
        },
        ("denomination", "currency", "bet_levels"),
    )


def _symbols_schema() -> Schema:
    """``[symbols]``: every reel symbol by name."""
    return {
        "type": "object",
        "minProperties": 1,
        "maxProperties": 64,
        "additionalProperties": _symbol_schema(),
        "propertyNames": {"not": {"const": "ANY"}},
        "description": "every reel symbol by name",
    }


def _reels_schema() -> Schema:
    """``[reels]``: the window, strips, weights, paylines."""
    return _obj(
        {
            "rows": _int(1, "rows of the window"),
            "strips": STRIPS,
            "weights": WEIGHTS,
            "paylines": _array(
                _array({"type": "integer", "minimum": 0}),
                "lines games: one row per reel for each line, 0 = top",
            ),
            "evaluation": _str('default "lines"', ("lines", "ways", "cluster")),
            "heights": _array(
                _array(
                    _obj(
                        {"rows": _int(1, "rows shown"), "weight": _int(1, "relative weight")},
                        ("rows", "weight"),
                    )
                ),
                "ways games: per reel, the rows it shows per spin with their weights",
            ),
        },
        ("rows", "strips"),
    )


def _scatter_pays_schema() -> Schema:
    """``[[scatter_pays]]``."""
    return _array(
        _obj(
            {
                "symbol": _str(
                    "a scatter or bonus symbol, or a regular or wild symbol paid by its count"
                ),
                "count": _int(1, "at least this many anywhere"),
                "pays": _scatter_pay("x total bet"),
                "free_spins_pays": _scatter_pay("x total bet during free spins, instead of pays"),
                "bonus": BONUS_PLAY,
                "bonus_plays": BONUS_PLAYS,
            },
            ("symbol", "count", "pays"),
        ),
        min_items=0,
    )


def _free_spins_schema() -> Schema:
    """``[free_spins]``: trigger, spins, retriggers, options."""
    return _obj(
        {
            "trigger": TRIGGER,
            "spins": SPINS,
            "multiplier": {
                "oneOf": [
                    _int(1, "multiplies line, ways and scatter wins (default 1)"),
                    _drawn_table("value = weight, drawn for each free spin"),
                ]
            },
            "retrigger": {
                "enum": [True, False, "once"],
                "description": 'the trigger during the feature awards more spins ("once": '
                "one time)",
            },
            "max_spins": _int(1, "cap on the spins of one feature"),
            "retrigger_spins": {
                "oneOf": [
                    {
                        "type": "object",
                        "minProperties": 1,
                        "propertyNames": {"pattern": "^[0-9]+$"},
                        "additionalProperties": {"type": "integer", "minimum": 0},
                    },
                    {"type": "integer", "minimum": 1},
                ],
                "description": "spins a retrigger adds by count (default: spins); keys"
                " and awards may be 0: {0 = 1, 2 = 0} plays until a spin shows 2",
            },
            "strips": STRIPS,
            "weights": WEIGHTS,
            "options": _array(
                _obj(
                    {
                        "spins": SPINS,
                        "multiplier": _int(1, "this option's multiplier"),
                        "weight": _int(
                            1, "drawn by weight when the feature starts (all options or none)"
                        ),
                    },
                    ("spins",),
                ),
                "the player's choice when the feature starts, each certified alone; or,"
                " with weights, drawn by the machine",
            ),
            "expanding_symbol": {
                "type": "object",
                "minProperties": 1,
                "additionalProperties": {"type": "integer", "minimum": 1},
                "description": "Book of Ra: symbol = draw weight of the expanding symbol",
            },
            "retrigger_symbol": _str(
                "the symbol whose count retriggers during the feature (default: the"
                " trigger's); needs retrigger_spins"
            ),
            "multiplier_by_count": {
                "type": "object",
                "minProperties": 1,
                "propertyNames": {"pattern": "^[0-9]+$"},
                "additionalProperties": {"type": "integer", "minimum": 1},
                "description": "the feature's multiplier by its trigger count, like spins",
            },
            "big_symbol": _obj(
                {
                    "reels": {
                        "type": "array",
                        "items": {"type": "integer", "minimum": 1},
                        "minItems": 1,
                        "uniqueItems": True,
                        "description": "the consecutive reels (1-based) it covers",
                    },
                    "strip": _array(_str("a symbol"), "the strip the big symbol is drawn from"),
                    "weights": _array(_int(1, "stop weight"), "one weight per stop"),
                    "covers": {
                        "type": "object",
                        "minProperties": 1,
                        "additionalProperties": {"type": "integer", "minimum": 1},
                        "description": "symbol = how many of reels (from the first) it covers",
                    },
                    "columns": {
                        "type": "object",
                        "minProperties": 1,
                        "additionalProperties": _array(_str("a symbol")),
                        "description": "symbol = the cells (top row first) a covered reel shows",
                    },
                },
                ("reels", "strip"),
                "one symbol covering these reels' whole window in each free spin",
            ),
        },
        ("trigger",),
    )


BONUS_PLAY: Schema = {
    "description": "the entry also plays a bonus game: true for [bonus], or a [bonus_games] name",
    "oneOf": [{"type": "boolean"}, {"type": "string", "pattern": "^[A-Za-z][A-Za-z0-9_-]{0,39}$"}],
}
BONUS_PLAYS = _int(1, "the times the entry plays its bonus game (independent prizes)")
BONUS_PLAYS["maximum"] = 1000


def _bonus_games_schema() -> Schema:
    """``[bonus_games.NAME]``: bonus games that pay entries play by name."""
    game = _bonus_schema(named=True)
    return {
        "type": "object",
        "description": "named bonus games a [[pays]] or [[scatter_pays]] entry plays by name",
        "propertyNames": {"pattern": "^[A-Za-z][A-Za-z0-9_-]{0,39}$"},
        "additionalProperties": game,
    }


def _bonus_schema(named: bool = False) -> Schema:
    """``[bonus]``: a pick-a-prize or staged bonus game (``named``: one of ``[bonus_games]``)."""
    trigger: dict[str, Schema] = {} if named else {"trigger": TRIGGER}
    return _obj(
        {
            **trigger,
            "unit": _str("prizes x the total bet or x the line bet", ("total_bet", "line_bet")),
            "awards": _array(
                _obj(
                    {"pays": _int(0, "x total bet"), "weight": _int(1, "relative weight")},
                    ("pays", "weight"),
                )
            ),
            "stages": _array(BONUS_STAGE, "the bonus game's rules, played in order"),
        },
        (),
        "one of awards and stages; trigger unless a [[pays]] entry plays it",
        oneOf=[{"required": ["awards"]}, {"required": ["stages"]}],
    )


def _jackpots_schema() -> Schema:
    """``[[jackpots]]``: the machine's pools."""
    return _array(
        _obj(
            {
                "id": _str("unique among the machine's jackpots"),
                "kind": _str("", ("standalone", "linked")),
                "contribution": _money("fraction of coin-in added to the pool, in [0, 1)"),
                "reset": _money("money the pool restarts at after a hit"),
                "trigger": MACHINE_JACKPOT_TRIGGER,
                "cap": _money("pool cap; contributions above it go to overflow"),
                "overflow": OVERFLOW,
                "reserve_rate": _money("hidden fraction of coin-in funding the next reset"),
                "link": _str("linked jackpots: the id of its models/links group"),
            },
            ("id", "kind", "contribution", "reset"),  # trigger: unless hold and spin awards it
        ),
        min_items=0,
    )


def _rules_schema() -> Schema:
    """``[rules]``: rules of real games."""
    return _obj(
        {
            "wild_multiplier": _str(
                "lines: how wild multipliers combine", ("product", "max", "sum")
            ),
            "pure_wild_line": _str("lines: what a run of wilds pays", ("highest", "wild_award")),
            "direction": _str("lines: read left only or both ways", ("left", "both")),
            "both_ways": _str(
                "direction both: pay the left and right runs, or the better one", ("sum", "better")
            ),
            "line_pays": _str(
                "lines: the entry worth most, or the longest run met", ("best", "longest")
            ),
            "leading_wilds": _str(
                "lines: a wild of another kind ends a leading run of wilds", ("mixed", "one_kind")
            ),
            "scatter_unit": _str("scatter pays x", ("total_bet", "line_bet")),
            "exclusive_scatters": _array(
                {"type": "string", "minLength": 1}, "only the first that pays, pays", 2
            ),
            "win_cap": _int(1, "a spin's whole win is capped at this x total bet"),
            "spin_multiplier": _drawn_table(
                "value = weight: each paid spin draws a multiplier of its own line, ways and"
                " scatter wins"
            ),
        },
        description="rules of real games (SPEC 3.1a; docs/RULES.md)",
    )


def _full_window_pays_schema() -> Schema:
    """``[[full_window_pays]]``."""
    return _array(
        _obj(
            {
                "symbol": _str('a symbol, a group or "ANY" filling the whole window'),
                "multiplier": _int(
                    0, "multiplies the spin's line or ways wins (0 only with `jackpot`)"
                ),
                "reels": {
                    "oneOf": [
                        _int(2, "only reels 1 to this one must be filled"),
                        _array(
                            {"type": "integer", "minimum": 1},
                            "only these reels (1-based) must be filled",
                            2,
                        ),
                    ],
                    "description": "the reels judged (default: every reel)",
                },
                "jackpot": _str("the id of a [[jackpots]] pool the full window wins"),
                "wilds_count": {
                    "type": "boolean",
                    "description": "false: a wild cell counts only as itself (default true)",
                },
            },
            ("symbol", "multiplier"),
        ),
        min_items=0,
    )


def _hold_and_spin_schema() -> Schema:
    """``[hold_and_spin]``."""
    return _obj(
        {
            "trigger": TRIGGER,
            "respins": {
                **_int(1, "respins left; back to this whenever a coin locks"),
                "maximum": MAX_RESPINS,
            },
            "cell_probability": _money("chance an empty cell shows a coin on one respin"),
            "values": _array(
                _obj(
                    {
                        "weight": _int(1, "relative weight"),
                        "pays": _int(1, "x total bet"),
                        "jackpot": _str("a jackpot name (of `jackpots` or a pool id)"),
                    },
                    ("weight",),
                ),
                "each coin's value",
            ),
            "full_window": _str("jackpot awarded as well when every cell locks"),
            "jackpots": {
                "type": "object",
                "additionalProperties": {"type": "integer", "minimum": 1},
                "description": "fixed prizes x total bet by name",
            },
        },
        ("trigger", "respins", "cell_probability", "values"),
    )


def _cascade_schema() -> Schema:
    """``[cascade]``."""
    return _obj(
        {
            "refill": _str("where the new cells come from", ("strip", "random")),
            "multipliers": _array(
                {"type": "integer", "minimum": 1},
                "win multiplier of screen 1, 2, ...; the last repeats",
            ),
            "max_screens": {
                **_int(1, "longest sequence (a strip cascade's cycle is checked)"),
                "maximum": MAX_SCREENS,
            },
            "chain_pays": {
                "type": "object",
                "minProperties": 1,
                "propertyNames": {"pattern": "^[0-9]+$"},
                "additionalProperties": {"type": "integer", "minimum": 1},
                "description": "x total bet by a sequence's screens (its last included), "
                "the largest key at or below it: {8 = 5, 9 = 50}",
            },
            "trigger_vanishes": _bool(
                "the free-spin trigger's cells vanish as a win's do (the sequence goes on)"
            ),
        },
        ("refill",),
        description="winning symbols vanish and the rest fall (SPEC 3.1b)",
    )


def _cluster_pays_schema() -> Schema:
    """``[[cluster_pays]]``."""
    return _array(
        _obj(
            {
                "symbol": _str("the symbol of the group"),
                "size": _int(2, "the smallest group size this entry pays"),
                "pays": _int(0, "x total bet"),
            },
            ("symbol", "size", "pays"),
        ),
        'cluster games (reels.evaluation = "cluster"): pays by group size',
    )


def machine_schema() -> Schema:
    """``slotcert/machine@1`` (SPEC 3.1)."""
    props = {
        "schema": _schema_key("machine"),
        "machine": _machine_schema(),
        "bet": _bet_schema(),
        "symbols": _symbols_schema(),
        "groups": {
            "type": "object",
            "additionalProperties": SYMBOL_NAMES,
            "description": "named sets of symbols usable in pays",
        },
        "reels": _reels_schema(),
        "pays": _array(_pay_schema(), "line or ways pays", min_items=0),
        "scatter_pays": _scatter_pays_schema(),
        "free_spins": _free_spins_schema(),
        "bonus": _bonus_schema(),
        "bonus_games": _bonus_games_schema(),
        "jackpots": _jackpots_schema(),
        "rules": _rules_schema(),
        "full_window_pays": _full_window_pays_schema(),
        "hold_and_spin": _hold_and_spin_schema(),
        "cascade": _cascade_schema(),
        "cluster_pays": _cluster_pays_schema(),
    }
    return {
        **_header("machine", "slotcert machine model"),
        **_obj(props, ("schema", "machine", "bet", "symbols", "reels", "pays")),
    }


# -- jurisdiction ----------------------------------------------------------------------------


def jurisdiction_schema() -> Schema:
    """``slotcert/jurisdiction@1`` (SPEC 3.2)."""
    props = {
        "schema": _schema_key("jurisdiction"),
        "id": _str("short code, e.g. PT"),
        "name": _str("full name, with the regulation"),
        "min_rtp": _money('minimum return as a fraction, e.g. "0.80"'),
        "applies_to": _str(
            "the worst bet level governs, or the machine as a whole", ("each_bet_level", "machine")
        ),
        "jackpot_counts_toward_minimum": _bool("jackpot return counts toward min_rtp"),
        "confidence": _money("confidence of the simulation interval, in [0.5, 1)"),
        "min_award_odds": _int(0, "every award possible at least once in N games; 0 = off"),
        "required_meters": _array({"type": "string"}, "meters a dump must carry"),
        "display_languages": _array({"type": "string"}, "pay-glass languages"),
        "meter_digits": _int(4, "meter rollover modulus 10^digits"),
        "max_rtp_drop_per_level": _money("largest return drop allowed between bet levels"),
    }
    from certify.model.jurisdiction import _OPTIONAL, _REQUIRED

    return {
        **_header("jurisdiction", "slotcert jurisdiction"),
        **_obj(_keyed(props, _REQUIRED + _OPTIONAL), _REQUIRED),
    }


# -- link ------------------------------------------------------------------------------------


def link_schema() -> Schema:
    """``slotcert/link@1`` (SPEC 3.3): a superjackpot group."""
    member = _obj(
        {
            "machine_id": _str("the cabinet's floor id, unique in the group"),
            "model": _str("a machine model id, or a machine file path (relative to the link)"),
            "bet_level": _int(1, "the bet level the member plays"),
            "casino": _str("casino of the member"),
            "location": _str("room or area in the casino"),
            "spins_per_day": {
                "type": "number",
                "exclusiveMinimum": 0,
                "description": "play rate used by pool simulations",
            },
        },
        ("machine_id", "model", "bet_level", "casino"),
    )
    props = {
        "schema": _schema_key("link"),
        "id": _str("group id; machines' linked jackpots name it"),
        "name": _str("display name"),
        "currency": _str("ISO 4217 code"),
        "contribution": _money("fraction of coin-in added to the pool, in [0, 1)"),
        "reset": _money("money the pool restarts at after a hit"),
        "cap": _money("pool cap"),
        "overflow": OVERFLOW,
        "reserve_rate": _money("hidden fraction of coin-in funding the next reset"),
        "same_model": _bool("members must share model and stakes (default true)"),
        "trigger": JACKPOT_TRIGGER,
        "members": _array(member, "the machines of the group"),
    }
    from certify.model import links

    member = _obj(
        _keyed(member["properties"], links._MEMBER_REQUIRED + links._MEMBER_OPTIONAL),
        links._MEMBER_REQUIRED,
    )
    props["members"] = _array(member, "the machines of the group")
    return {
        **_header("link", "slotcert superjackpot group"),
        **_obj(_keyed(props, links._TOP_REQUIRED + links._TOP_OPTIONAL), links._TOP_REQUIRED),
    }


# -- table -----------------------------------------------------------------------------------

TABLE_SECTIONS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "roulette": (("wheel", "bets"), ("limits", "simulation")),
    "fantan": (("rules", "bets"), ("simulation",)),
    "three_card_poker": (("deck", "rules", "bets"), ("simulation", "capital")),
    "pai_kao": (("tiles", "rules", "bets"), ("simulation", "capital")),
}


def _table_bets() -> dict[str, Schema]:
    """A ``[[bets]]`` entry of each table game kind."""
    from certify.tables.layout import BET_TYPES

    numbers = _array({"type": "integer", "minimum": 0}, min_items=0)
    roulette_bet = _obj(
        {
            "name": _str("unique name of the bet"),
            "type": _str("", tuple(BET_TYPES)),
            "pays": _ratio('pays "35" to 1'),
            "numbers": numbers,
        },
        ("name", "type", "pays"),
    )
    fantan_bet = _obj(
        {
            "name": _str("unique name of the bet"),
            "type": _str("kind of bet, e.g. fan, nim, nga, kuoc"),
            "win": _array({"type": "integer", "minimum": 1, "maximum": 4}, "results it wins on"),
            "tie": _array(
                {"type": "integer", "minimum": 1, "maximum": 4}, "results it is a push on", 0
            ),
            "pays": _ratio('e.g. "3", "1/2"'),
        },
        ("name", "type", "win", "pays"),
    )
    duel_bet = _obj(
        {
            "name": _str("unique name of the bet"),
            "side": _str("who the bettor backs", ("player", "banker")),
            "pays": _ratio('e.g. "1"'),
        },
        ("name", "side", "pays"),
    )
    return {
        "roulette": roulette_bet,
        "fantan": fantan_bet,
        "three_card_poker": duel_bet,
        "pai_kao": duel_bet,
    }


def _table_sections() -> dict[str, Schema]:
    """The sections a table game file may have (which ones: TABLE_SECTIONS)."""
    from certify.tables.layout import BET_TYPES

    limit = _obj({"min": _money("table minimum"), "max": _money("table maximum")}, ("min", "max"))
    return {
        "wheel": _obj(
            {
                "sequence": _array({"type": "integer", "minimum": 0}, "pockets clockwise"),
                "red": _array({"type": "integer", "minimum": 1}, "the red numbers"),
            },
            ("sequence", "red"),
        ),
        "limits": _obj({k: limit for k in BET_TYPES}, description="min/max stake by bet type"),
        "rules": _obj(
            {
                "commission": _ratio("house share of every prize, in [0, 1)"),
                "results": _array({"type": "integer", "minimum": 1, "maximum": 4}),
                "banker_wins_zero": _bool("banker wins a zero without figures (default true)"),
                "banker_wins_equal": _bool("Pai Kao: banker wins equal hands (default true)"),
            },
            ("commission",),
        ),
        "deck": _obj(
            {
                "ranks": _array({"type": "string"}, "ascending"),
                "suits": _array({"type": "string"}, "ascending"),
                "figures": _array({"type": "string"}, "cards counting 0 points"),
                "seats": _int(2, "places dealt, the banker's included"),
            },
            ("ranks", "suits", "figures", "seats"),
        ),
        "tiles": _obj(
            {
                "faces": _array({"type": "string"}, "tile faces, ascending"),
                "copies": _int(2, "copies of each face"),
                "seats": _int(2, "places dealt, the banker's included"),
            },
            ("faces", "copies", "seats"),
        ),
        "simulation": _obj(
            {
                "rounds": _int(1, "Monte Carlo rounds"),
                "seed": _int(0, "seed"),
                "chunks": _int(1, "independent chunks"),
            }
        ),
        "capital": _obj(
            {
                "stakes": _array(_money(), "one stake per player seat"),
                "capitals": _array(_money(), "banker capitals studied"),
                "rounds": _int(1, "rounds per capital"),
                "seed": _int(0, "seed"),
            },
            ("stakes", "capitals"),
        ),
        "bets": {"type": "array", "minItems": 1, "description": "[[bets]]: see the game kinds"},
    }


def _table_kinds() -> list[Schema]:
    """Per game kind: its required and allowed sections, its bets and rules keys."""
    bet_of = _table_bets()
    rules_of = {  # (required, optional) keys of [rules] per game kind
        "fantan": (("commission",), ("results",)),
        "three_card_poker": (("commission", "banker_wins_zero"), ()),
        "pai_kao": (("commission", "banker_wins_zero"), ("banker_wins_equal",)),
    }
    per_kind = []
    for kind, (required, optional) in TABLE_SECTIONS.items():
        then: Schema = {
            "required": ["schema", "game", *required],
            "propertyNames": {"enum": ["schema", "game", *required, *optional]},
            "properties": {"bets": {"items": bet_of[kind]}},
        }
        if kind in rules_of:
            must, may = rules_of[kind]
            then["properties"]["rules"] = {
                "required": list(must),
                "propertyNames": {"enum": [*must, *may]},
            }
        per_kind.append(
            {
                "if": {
                    "properties": {"game": {"properties": {"kind": {"const": kind}}}},
                    "required": ["game"],
                },
                "then": then,
            }
        )
    return per_kind


def table_schema() -> Schema:
    """``slotcert/table@1`` (SPEC 9): roulette, Fantan, three-card poker, Pai Kao."""
    game = _obj(
        {
            "id": _str("game id"),
            "name": _str("game name"),
            "kind": _str("", tuple(TABLE_SECTIONS)),
            "source": _str("the regulation it implements"),
        },
        ("id", "name", "kind", "source"),
    )
    props = {"schema": _schema_key("table"), "game": game, **_table_sections()}
    return {
        **_header("table", "slotcert table game"),
        **_obj(props, ("schema", "game"), allOf=_table_kinds()),
    }


BUILDERS = {
    "machine": machine_schema,
    "jurisdiction": jurisdiction_schema,
    "link": link_schema,
    "table": table_schema,
}


def json_schema(kind: str) -> Schema:
    """The JSON Schema of file kind ``kind`` (one of :data:`KINDS`)."""
    try:
        return BUILDERS[kind]()
    except KeyError:
        raise ValueError(f"unknown model kind {kind!r}; one of {', '.join(KINDS)}") from None
