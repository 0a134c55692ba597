"""Paths of the shipped tables and seed data used by the table tests."""

from pathlib import Path

TABLES = Path(__file__).resolve().parents[2] / "models" / "tables"
FRENCH = TABLES / "roulette-french.toml"
AMERICAN = TABLES / "roulette-american-single-zero.toml"
FANTAN = TABLES / "fantan.toml"
POKER = TABLES / "three-card-poker.toml"
PAIKAO = TABLES / "pai-kao.toml"

# Portaria 1441/95 IX.2 "numeração francesa", exactly as printed in the seed.
IX_FRENCH_AS_PRINTED = [0, 32, 15, 19, 4, 21, 2, 25, 17, 34, 6, 27, 13, 36, 11, 30, 8, 23, 10,
                        5, 24, 6, 33, 1, 20, 14, 31, 9, 22, 18, 29, 7, 28, 12, 35, 3, 26]


