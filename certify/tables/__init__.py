"""Table games of the seeds: roulette, Fantan, three-card poker, Mahjong Pai Kao.

Declared in ``models/tables/*.toml`` (schema ``slotcert/table@1``), validated
on load, evaluated exactly and cross-checked by a seeded numba Monte Carlo.
"""

from certify.tables.exact import BetResult, exact_results
from certify.tables.loader import load_table
from certify.tables.report import exact_report, table_report
from certify.tables.schema import Bet, Capital, Game, Limit, Simulation, Table

__all__ = [
    "Bet",
    "BetResult",
    "Capital",
    "Game",
    "Limit",
    "Simulation",
    "Table",
    "exact_report",
    "exact_results",
    "load_table",
    "table_report",
]
