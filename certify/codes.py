"""Every validation and finding code, once: its severity, where it arises, what it means.

Codes are stable (they are written to ``slotcert validate --json``, the
certificate's findings and the tables' reports). A :class:`Code` member *is*
its string (``Code.RANGE == "range"``, the same in JSON and messages).
``Reader.error`` / ``warn`` take a ``Code`` (mypy refuses a bare string);
``Problem`` and ``Finding`` keep a ``str``, and the test
``tests/test_codes.py`` reads every code the sources pass to a problem or a
finding and fails on one not registered here, and checks ``docs/CODES.md``
against :func:`markdown_table`. The meter reconciler's finding codes are
registered the same way in ``meters/codes.py``.
"""

from __future__ import annotations

from enum import StrEnum

ERROR, WARNING, EITHER = "error", "warning", "error or warning"
MODEL, ENGINE, VALIDATE, FINDING, TABLE, REPORT = (
    "model file",
    "engine bounds",
    "validate",
    "certification finding",
    "table game",
    "report",
)
SCOPES = (MODEL, ENGINE, VALIDATE, FINDING, TABLE, REPORT)


class Code(StrEnum):
    """A validation or finding code, with its ``severity``, ``scope`` and ``meaning``."""

    severity: str
    scope: str
    meaning: str

    def __new__(cls, value: str, severity: str, scope: str, meaning: str) -> Code:
        """Make the member ``value`` carrying its registry columns."""
        member = str.__new__(cls, value)
        member._value_ = value
        member.severity = severity
        member.scope = scope
        member.meaning = meaning
        return member

    INVALID = (
        "invalid",
        ERROR,
        MODEL,
        "a problem given no more specific code (the default of Problem)",
    )
    TOML = ("toml", ERROR, MODEL, "the file is not valid TOML or not UTF-8 text")
    MISSING_FILE = (
        "missing_file",
        ERROR,
        MODEL,
        "no such file, or a folder where a file is expected",
    )
    SCHEMA = ("schema", ERROR, MODEL, "the `schema` key names another kind or version of file")
    TYPE = ("type", ERROR, MODEL, "a value has the wrong type (a table, array, string, integer...)")
    MISSING_KEY = ("missing_key", ERROR, MODEL, "a required key is absent")
    UNKNOWN_KEY = ("unknown_key", ERROR, MODEL, "a key the file kind does not define")
    RANGE = ("range", ERROR, MODEL, "a number outside its allowed range")
    CHOICE = ("choice", ERROR, MODEL, "a string that is not one of the allowed choices")
    NOT_DECIMAL = (
        "not_decimal",
        ERROR,
        MODEL,
        "money or a ratio not written as a decimal (or fraction) string",
    )
    ORDER = ("order", ERROR, MODEL, "values that must be strictly increasing are not")
    RESERVED = (
        "reserved",
        ERROR,
        MODEL,
        "a reserved name, or a group name that clashes with a symbol",
    )
    DUPLICATE = ("duplicate", ERROR, MODEL, "an entry listed twice")
    UNSUPPORTED = (
        "unsupported",
        ERROR,
        MODEL,
        "a combination of features the engine does not play",
    )
    RULE_NOT_APPLICABLE = (
        "rule_not_applicable",
        ERROR,
        MODEL,
        "a rule or key that does not apply to this game's evaluation",
    )
    UNKNOWN_SYMBOL = (
        "unknown_symbol",
        ERROR,
        MODEL,
        "a symbol name that is not declared in [symbols]",
    )
    BAD_KIND = ("bad_kind", ERROR, MODEL, "a symbol of the wrong kind for where it is used")
    NOT_WILD = ("not_wild", ERROR, MODEL, "a wild-only key on a symbol that is not wild")
    BAD_SUBSTITUTE = (
        "bad_substitute",
        ERROR,
        MODEL,
        "a wild substitutes a symbol that is not a regular one",
    )
    EMPTY_STRIP = ("empty_strip", ERROR, MODEL, "a reel strip without stops")
    REEL_COUNT = (
        "reel_count",
        ERROR,
        MODEL,
        "too few reels, or reel sets of different reel counts",
    )
    RAGGED = (
        "ragged",
        ERROR,
        MODEL,
        "weights that do not match the strips (one per reel, one per stop)",
    )
    WEIGHT_OVERFLOW = (
        "weight_overflow",
        ERROR,
        MODEL,
        "weights whose total the engine cannot draw exactly (2^32 - 1)",
    )
    PAYLINE_COUNT = ("payline_count", ERROR, MODEL, "the number of paylines differs from bet.lines")
    PAYLINE_LENGTH = ("payline_length", ERROR, MODEL, "a payline without one row per reel")
    PAYLINE_RANGE = ("payline_range", ERROR, MODEL, "a payline row outside the window")
    PAYLINE_DUPLICATE = (
        "payline_duplicate",
        EITHER,
        MODEL,
        'two identical paylines (a warning under bet.duplicate_lines = "allow": each copy pays)',
    )
    WAYS_COUNT = ("ways_count", ERROR, MODEL, "bet.ways differs from rows^reels")
    WAYS_PAYLINES = ("ways_paylines", ERROR, MODEL, "paylines declared for a ways or cluster game")
    COMBO_TOO_LONG = ("combo_too_long", ERROR, MODEL, "a pay combo longer than the machine's reels")
    ANYWHERE_COMBO = (
        "anywhere_combo",
        ERROR,
        MODEL,
        "an anywhere pay that is not one symbol or group repeated",
    )
    PAY_VALUE = (
        "pay_value",
        ERROR,
        MODEL,
        "a pay entry without exactly one of `pays` / `pays_by_level` (or the wrong count),"
        " or a scatter pay that is not whole credits at some bet level",
    )
    PAY_DUPLICATE = ("pay_duplicate", ERROR, MODEL, "two pay entries for the same combo")
    IMPOSSIBLE_COMBO = (
        "impossible_combo",
        WARNING,
        MODEL,
        "a pay combo that can never occur on the strips",
    )
    IMPOSSIBLE_PAY = (
        "impossible_pay",
        WARNING,
        MODEL,
        "a cluster or scatter pay that can never show in the window",
    )
    OPTIONS_CONFLICT = (
        "options_conflict",
        ERROR,
        MODEL,
        "free-spin options set inconsistently (a shared multiplier, or weights on some only)",
    )
    SPINS_MISSING = (
        "spins_missing",
        ERROR,
        MODEL,
        "a free-spin trigger count without a number of spins",
    )
    HOLD_VALUE = (
        "hold_value",
        ERROR,
        MODEL,
        "a hold-and-spin value without exactly one of `pays` / `jackpot`",
    )
    UNKNOWN_JACKPOT = (
        "unknown_jackpot",
        ERROR,
        MODEL,
        "a jackpot id that is not declared in [[jackpots]]",
    )
    JACKPOT_TRIGGER = (
        "jackpot_trigger",
        ERROR,
        MODEL,
        "a jackpot trigger without exactly one of `combo` / `mystery`, or a combo not paid",
    )
    JACKPOT_DUPLICATE = ("jackpot_duplicate", ERROR, MODEL, "two jackpots with the same id")
    JACKPOT_LINK = ("jackpot_link", ERROR, MODEL, "a standalone jackpot that names a link")
    CAP_BELOW_RESET = ("cap_below_reset", ERROR, MODEL, "a link's cap below its reset")
    CONTRIBUTION_TOTAL = (
        "contribution_total",
        ERROR,
        MODEL,
        "a member's contributions add up to more than its coin-in",
    )
    CURRENCY = ("currency", ERROR, MODEL, "a member plays in another currency than its group")
    DIFFERENT_MODEL = (
        "different_model",
        ERROR,
        MODEL,
        "a `same_model` group member that is another model",
    )
    DIFFERENT_STAKE = (
        "different_stake",
        ERROR,
        MODEL,
        "a `same_model` group member at another stake",
    )
    DUPLICATE_MEMBER = ("duplicate_member", ERROR, MODEL, "a machine listed twice in a group")
    UNKNOWN_MEMBER = (
        "unknown_member",
        ERROR,
        MODEL,
        "a group member with no machine file or model id",
    )
    MEMBER_INVALID = (
        "member_invalid",
        ERROR,
        MODEL,
        "a group member whose machine file is invalid",
    )
    LINK_UNDECLARED = (
        "link_undeclared",
        ERROR,
        MODEL,
        "a member declares no jackpot for the group's link",
    )
    LINK_MISMATCH = (
        "link_mismatch",
        ERROR,
        MODEL,
        "a member's jackpot differs from the group's (reset, cap, rates...)",
    )
    IMPOSSIBLE_TRIGGER = (
        "impossible_trigger",
        ERROR,
        MODEL,
        "a jackpot trigger that can never occur",
    )
    INT64 = ("int64", ERROR, ENGINE, "an integer of the model does not fit 64 bits")
    ENGINE_LIMIT = (
        "engine_limit",
        ERROR,
        ENGINE,
        "beyond a bound the engine relies on (window, counted symbols, weights, bet)",
    )
    WIN_OVERFLOW = (
        "win_overflow",
        ERROR,
        ENGINE,
        "one spin's largest win, times a chunk of spins, overflows the engine's sums",
    )
    ENDLESS_FEATURE = (
        "endless_feature",
        ERROR,
        ENGINE,
        "free spins that retrigger on average one or more new spins",
    )
    FEATURE_TOO_LONG = (
        "feature_too_long",
        ERROR,
        ENGINE,
        "one feature can last longer than the engine plays",
    )
    EXACT_INFEASIBLE = (
        "exact_infeasible",
        WARNING,
        ENGINE,
        "the exact calculator refuses the game; the verdict rests on simulation",
    )
    CASCADE_TOO_LONG = (
        "cascade_too_long",
        ERROR,
        ENGINE,
        "a strip cascade's cycle exceeds its max_screens",
    )
    NEVER_PAID = (
        "never_paid",
        WARNING,
        VALIDATE,
        "a pay entry no spin makes the line's highest (found by `validate`)",
    )
    RTP_ABOVE_100 = (
        "rtp_above_100",
        WARNING,
        FINDING,
        "a level returns more than 100% of the amounts played",
    )
    EXACT_ONLY = (
        "exact_only",
        WARNING,
        FINDING,
        "certified exactly with --spins 0: the engine's agreement is unchecked",
    )
    EXACT_MISMATCH = (
        "exact_mismatch",
        ERROR,
        FINDING,
        "the full cycle and the per-reel decomposition disagree",
    )
    IMPOSSIBLE_AWARD = (
        "impossible_award",
        EITHER,
        FINDING,
        "an advertised award can never occur, in the base game nor in the free spins (a"
        " certification error; `validate` warns of the wilds-only entries a substituted entry"
        " always outpays, naming `pure_wild_line`)",
    )
    AWARD_TOO_RARE = (
        "award_too_rare",
        ERROR,
        FINDING,
        "an advertised award is rarer than the jurisdiction allows (one only the free spins"
        " show: by its occurrences per paid spin there)",
    )
    RTP_DROP = (
        "rtp_drop",
        ERROR,
        FINDING,
        "the return drops between bet levels by more than the jurisdiction allows",
    )
    BAD_SHAPE = (
        "bad_shape",
        ERROR,
        TABLE,
        "a bet's numbers are not the shape its type names on the layout",
    )
    COLOUR = (
        "colour",
        ERROR,
        TABLE,
        "the wheel's colours break the seed (0 has none, 18 red and 18 black)",
    )
    COLOUR_ALTERNATION = (
        "colour_alternation",
        WARNING,
        TABLE,
        "neighbouring pockets of the wheel share a colour",
    )
    NOT_PERMUTATION = (
        "not_permutation",
        ERROR,
        TABLE,
        "the wheel sequence is not each number once",
    )
    LIMIT_RATIO = ("limit_ratio", ERROR, TABLE, "table limits that break the seed's max/min ratio")
    NO_RATIO = (
        "no_ratio",
        WARNING,
        TABLE,
        "a bet type the seed sets no max/min ratio for (not checked)",
    )
    PAYS_DIFFER = ("pays_differ", WARNING, TABLE, "a pay that differs from the seed's")
    DUPLICATE_NAME = ("duplicate_name", ERROR, TABLE, "two bets with the same name")
    FANTAN_RESULTS = (
        "fantan_results",
        ERROR,
        TABLE,
        "Fan-Tan results other than the remainders 1-4",
    )
    DECK = ("deck", ERROR, TABLE, "a card deck other than the seed's (ranks, suits, figures)")
    TILES = (
        "tiles",
        EITHER,
        TABLE,
        "a Pai Kao tile set other than the seed's (faces; copies: a warning)",
    )
    RANK_ORDER = ("rank_order", WARNING, TABLE, "card ranks in another order than the seed's annex")
    SEATS = ("seats", WARNING, TABLE, "another number of seats than the seed deals to")
    STAKES = ("stakes", ERROR, TABLE, "a [capital] study without one stake per player seat")
    NO_TRANSLATION = (
        "no_translation",
        ERROR,
        REPORT,
        "no pay-glass translation for the language asked",
    )
    I18N = (
        "i18n",
        ERROR,
        REPORT,
        "a pay-glass translation file that does not match the Portuguese reference",
    )


BY_CODE: dict[str, Code] = {str(c): c for c in Code}


def is_code(text: str) -> bool:
    """True when ``text`` is a registered code."""
    return text in BY_CODE


def allows(code: str, severity: str) -> bool:
    """True when ``code`` is registered and may be reported at ``severity``."""
    if not is_code(code):
        return False
    registered = BY_CODE[code].severity
    return registered == EITHER or registered == severity


def markdown_table() -> str:
    """The table of ``docs/CODES.md``: one row per code, grouped by scope."""
    lines = ["| code | severity | scope | meaning |", "|---|---|---|---|"]
    for scope in SCOPES:
        for code in sorted((c for c in Code if c.scope == scope), key=str):
            lines.append(f"| `{code}` | {code.severity} | {scope} | {code.meaning} |")
    return "\n".join(lines) + "\n"
