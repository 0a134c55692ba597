"""Model files: TOML parsed once into frozen, typed objects."""

from certify.model.jurisdiction import Jurisdiction, load_jurisdiction
from certify.model.loader import load_machine, read_toml, schema_of
from certify.model.schema import (
    Bonus,
    BonusAward,
    FreeSpins,
    Jackpot,
    Machine,
    PayEntry,
    ScatterPay,
    Symbol,
    Trigger,
)

__all__ = [
    "Bonus",
    "BonusAward",
    "FreeSpins",
    "Jackpot",
    "Jurisdiction",
    "Machine",
    "PayEntry",
    "ScatterPay",
    "Symbol",
    "Trigger",
    "load_jurisdiction",
    "load_machine",
    "read_toml",
    "schema_of",
]
