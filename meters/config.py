"""Settings of one reconciliation run, with their documented defaults."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from certify.errors import InputError
from meters.registry import BY_NAME, REQUIRED_DEFAULT


@dataclass(frozen=True)
class Config:
    """Tolerances and options of the reconciler (see docs/METERS.md).

    Parameters
    ----------
    digits : int
        Meter width for machines whose floor row has no ``digits``; meters
        roll over modulo ``10**digits``.
    period : str
        Reporting period, a pandas fixed frequency (``"D"``, ``"12h"``,
        ``"7D"``); an interval between two readings belongs to the period of
        its closing reading.
    confidence : float
        Confidence of the hold band; with ``familywise`` the band holds for
        the whole floor at once (Bonferroni over the floor's machines).
    required : tuple of str
        Meters every machine must report (missing -> ``missing_meter``) and
        keep moving (frozen while coin_in moves -> ``stuck_meter``).
    drop_pct, drop_abs : float
        Soft-count tolerance: the larger of ``drop_pct`` of the metered drop
        and ``drop_abs`` credits of the machine's denomination (in money:
        ``drop_abs * denomination``).
    gap_factor : float
        A reading interval longer than ``gap_factor`` times the machine's
        median interval is a ``time_gap`` (unless ``max_gap_s`` is set).
    max_gap_s : float or None
        Absolute time-gap limit in seconds, replacing the factor rule.
    stuck_min_games : int
        A period needs at least this many games (when games are metered) for
        a frozen meter to count as stuck.
    hold_min_games : int
        Machines with fewer games are not tested for hold deviation.
    familywise : bool
        Correct the hold band for the number of machines tested.

    """

    digits: int = 10
    period: str = "D"
    confidence: float = 0.99
    required: tuple[str, ...] = field(default=REQUIRED_DEFAULT)
    drop_pct: float = 0.02
    drop_abs: float = 100.0
    gap_factor: float = 1.5
    max_gap_s: float | None = None
    stuck_min_games: int = 50
    hold_min_games: int = 1000
    familywise: bool = True

    def __post_init__(self) -> None:
        if not 4 <= self.digits <= 15:
            raise InputError(f"digits={self.digits!r} must be in [4, 15]")
        if not 0.5 <= self.confidence < 1:
            raise InputError(f"confidence={self.confidence!r} must be in [0.5, 1)")
        period_ns(self.period)
        unknown = [m for m in self.required if m not in BY_NAME]
        if unknown:
            raise InputError(f"required meters {unknown!r} are not canonical meter names")


def from_jurisdiction(path: str | Path, **overrides: object) -> Config:
    """Build a Config with meter width, confidence and required meters of a jurisdiction.

    Parameters
    ----------
    path : str or Path
        A ``slotcert/jurisdiction@1`` file.
    **overrides
        Config fields that win over the jurisdiction (e.g. ``digits`` from
        the command line).

    """
    from certify.model import load_jurisdiction

    jur = load_jurisdiction(path)
    values: dict[str, object] = {
        "digits": jur.meter_digits,
        "confidence": float(jur.confidence),
        "required": tuple(jur.required_meters),
    }
    values.update({k: v for k, v in overrides.items() if v is not None})
    return Config(**values)  # type: ignore[arg-type]


def period_ns(freq: str) -> int:
    """Length of a fixed period (``"D"``, ``"12h"``, ``"7D"``) in nanoseconds."""
    try:
        return int(pd.tseries.frequencies.to_offset(freq).nanos)
    except ValueError:
        raise InputError(
            f"period={freq!r} is not a fixed pandas frequency such as 'D', '12h' or '7D'"
        ) from None
