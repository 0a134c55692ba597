"""Paths of the shipped tables and seed data used by the table tests."""

from pathlib import Path

TABLES = Path(__file__).resolve().parents[2] / "models" / "tables"
FRENCH = TABLES / "roulette-french.toml"
AMERICAN = TABLES / "roulette-american-single-zero.toml"
FANTAN = TABLES / "fantan.toml"
POKER = TABLES / "three-card-poker.toml"
PAIKAO = TABLES / "pai-kao.toml"

# Portaria 1441/95 IX.2 "numeração francesa", exactly as printed in the seed.
IX_FRENCH_AS_PRINTED = [
    0,
    32,
    15,
    19,
    4,
    21,
    2,
    25,
    17,
    34,
    6,
    27,
    13,
    36,
    11,
    30,
    8,
    23,
    10,
    5,
    24,
    6,
    33,
    1,
    20,
    14,
    31,
    9,
    22,
    18,
    29,
    7,
    28,
    12,
    35,
    3,
    26,
]


def write_variant(
    tmp_path: Path, source: Path, *edits: tuple[str, str], name: str = "x.toml"
) -> Path:
    """Write a copy of a shipped table with text replacements; return its path."""
    text = source.read_text(encoding="utf-8")
    for old, new in edits:
        assert old in text, old
        text = text.replace(old, new, 1)
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path
