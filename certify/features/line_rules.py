"""The line rules of real games, played in the line automaton (engine/dfa.py)."""

from certify.features.base import FULL_CYCLE, STATE_DP, Feature

KEYS = (
    "rules.pure_wild_line",
    "rules.direction",
    "rules.both_ways",
    "rules.line_pays",
    "rules.leading_wilds",
    "pays[].anywhere",
    "bet.duplicate_lines",
)


def used(m) -> bool:
    """Any line rule away from its default, an ``anywhere`` entry or a repeated line."""
    r = m.rules
    return (
        (r.pure_wild_line, r.direction, r.both_ways, r.line_pays, r.leading_wilds)
        != ("highest", "left", "sum", "best", "mixed")
        or any(e.anywhere for e in m.pays)
        or len(set(m.paylines)) < len(m.paylines)
    )


FEATURE = Feature(
    name="line_rules",
    title="what a line pays: wild runs, both ways, the longest run, anywhere on the line",
    keys=KEYS,
    used=used,
    exact=(FULL_CYCLE, STATE_DP),
    glass=(
        "rule_wild_award",
        "rule_both_ways",
        "rule_both_ways_better",
        "rule_line_pays_longest",
        "rule_leading_wilds_one_kind",
        "anywhere_rule",
        "payline_repeat",
    ),
    examples=("tests/data/rules/ref_max_both.toml", "tests/data/real/ct_vikings_fun.toml"),
)
