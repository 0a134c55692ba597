"""Stable finding codes, their severities and the columns of each output."""

from __future__ import annotations

from enum import StrEnum


class Code(StrEnum):
    """Finding codes of the meter reconciler (stable: written to findings.csv)."""

    RESET = "reset"
    ROLLOVER = "rollover"
    DUPLICATE_ROW = "duplicate_row"
    OUT_OF_ORDER = "out_of_order"
    MALFORMED_ROW = "malformed_row"
    UNKNOWN_MACHINE = "unknown_machine"
    MISSING_METER = "missing_meter"
    STUCK_METER = "stuck_meter"
    IDENTITY_GAMES = "identity_games"
    IDENTITY_COINS = "identity_coins"
    IDENTITY_PRIZES = "identity_prizes"
    DROP_VARIANCE = "drop_variance"
    HOLD_DEVIATION = "hold_deviation"
    PROGRESSIVE_CONTRIBUTION = "progressive_contribution"
    TIME_GAP = "time_gap"


INFO, WARNING, ERROR = "info", "warning", "error"

SEVERITY: dict[Code, str] = {
    Code.RESET: WARNING,
    Code.ROLLOVER: INFO,
    Code.DUPLICATE_ROW: WARNING,
    Code.OUT_OF_ORDER: WARNING,
    Code.MALFORMED_ROW: ERROR,
    Code.UNKNOWN_MACHINE: ERROR,
    Code.MISSING_METER: ERROR,
    Code.STUCK_METER: ERROR,
    Code.IDENTITY_GAMES: ERROR,
    Code.IDENTITY_COINS: ERROR,
    Code.IDENTITY_PRIZES: ERROR,
    Code.DROP_VARIANCE: ERROR,
    Code.HOLD_DEVIATION: ERROR,
    Code.PROGRESSIVE_CONTRIBUTION: ERROR,
    Code.TIME_GAP: WARNING,
}

QUARANTINE_CODES = (Code.DUPLICATE_ROW, Code.OUT_OF_ORDER, Code.MALFORMED_ROW, Code.UNKNOWN_MACHINE)

FINDING_COLUMNS = (
    "machine_id",
    "period_start",
    "period_end",
    "code",
    "severity",
    "meter",
    "expected",
    "observed",
    "message",
    "source_rows",
)
QUARANTINE_COLUMNS = (
    "source_file",
    "source_line",
    "machine_id",
    "read_at",
    "code",
    "reason",
    "original",
)
