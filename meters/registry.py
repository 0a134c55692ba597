"""The one registry of meters: canonical names, SAS meter codes, units.

Every reader, check and writer goes through this module to name a meter, so a
dump may use canonical names (``coin_in``), SAS meter codes (``0000``,
``sas_0000``) or a mix of both.

All money meters are counted in **credits of the machine's denomination**;
:func:`to_money` and :func:`to_credits` convert with the denomination of the
floor file. Game counters are in games.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import ROUND_HALF_EVEN, Decimal

import numpy as np


@dataclass(frozen=True)
class Meter:
    """One meter a machine keeps.

    Parameters
    ----------
    name : str
        Canonical name used everywhere in slotcert.
    sas : str or None
        SAS meter code (4 hex digits) or None when SAS has no such meter.
    unit : str
        ``"credits"`` (money, in credits of the denomination) or ``"games"``.
    description : str
        What the meter counts.
    reconciled : bool
        False for meters that are read and carried but not checked.

    """

    name: str
    sas: str | None
    unit: str
    description: str
    reconciled: bool = True


METERS: tuple[Meter, ...] = (
    Meter("coin_in", "0000", "credits", "total credits wagered"),
    Meter("coin_out", "0001", "credits", "credits won and paid by the machine"),
    Meter("jackpot_handpaid", "0002", "credits", "jackpots paid by an attendant (hand pay)"),
    Meter(
        "prizes_paid",
        None,
        "credits",
        "all prizes paid; coin_out + jackpot_handpaid when not read directly",
    ),
    Meter("coin_drop", "0024", "credits", "total drop: coins to the drop box plus bills"),
    Meter("physical_coin_in", "0008", "credits", "credits from the coin acceptor"),
    Meter("coins_to_drop", "000A", "credits", "credits from coins diverted to the drop box"),
    Meter("coins_to_hopper", None, "credits", "credits from coins diverted to the hopper"),
    Meter("games_played", "0005", "games", "games played"),
    Meter("games_won", "0006", "games", "games with a win"),
    Meter("games_lost", "0007", "games", "games without a win"),
    Meter("bills_in", "000B", "credits", "credits from bills accepted"),
    Meter(
        "progressive_contrib", None, "credits", "credits contributed to the machine's jackpot pools"
    ),
    Meter("progressive_paid", None, "credits", "jackpot pool wins paid"),
    Meter(
        "handpaid_cancelled_credits",
        "0003",
        "credits",
        "hand-paid cancelled credits",
        reconciled=False,
    ),
    Meter("cancelled_credits", "0004", "credits", "cancelled credits", reconciled=False),
    Meter(
        "machine_paid_progressive",
        "001D",
        "credits",
        "machine-paid progressive wins",
        reconciled=False,
    ),
    Meter(
        "attendant_paid_progressive",
        "0020",
        "credits",
        "attendant-paid progressive wins",
        reconciled=False,
    ),
    Meter(
        "weighted_theoretical_payback",
        "007F",
        "credits",
        "weighted theoretical payback",
        reconciled=False,
    ),
)

BY_NAME: dict[str, Meter] = {m.name: m for m in METERS}
BY_SAS: dict[str, Meter] = {m.sas: m for m in METERS if m.sas is not None}
NAMES: tuple[str, ...] = tuple(m.name for m in METERS)
REQUIRED_DEFAULT: tuple[str, ...] = ("coin_in", "prizes_paid", "coin_drop")
KEY_COLUMNS: tuple[str, ...] = ("machine_id", "read_at")

_SAS_RE = re.compile(r"^(?:sas[ _:-]?)?(?:0x)?([0-9a-f]{4})$", re.IGNORECASE)


def canonical(column: str) -> str | None:
    """Return the canonical meter name of a dump column, or None.

    Parameters
    ----------
    column : str
        A column header: a canonical name (``coin_in``) or a SAS code
        (``0000``, ``sas_0000``, ``SAS:0000``, ``0x0000``).

    Returns
    -------
    str or None
        The canonical name.

    """
    text = str(column).strip()
    if text.lower() in BY_NAME:
        return text.lower()
    match = _SAS_RE.match(text)
    if match:
        meter = BY_SAS.get(match.group(1).upper())
        return meter.name if meter else None
    return None


def sas_header(name: str) -> str:
    """Return the column header a SAS-coded dump uses for a canonical meter.

    Meters without a SAS code keep their canonical name.
    """
    meter = BY_NAME[name]
    return meter.sas if meter.sas is not None else meter.name


def to_money(credits: np.ndarray | float, denomination: np.ndarray | float) -> np.ndarray:
    """Convert credits to money: ``credits x denomination``.

    Parameters
    ----------
    credits : array_like
        Meter values or deltas in credits.
    denomination : array_like
        Money per credit, broadcast against ``credits``.

    Returns
    -------
    numpy.ndarray
        Money, rounded to 1e-6 to keep float noise out of the outputs.

    """
    return np.round(np.asarray(credits, dtype=float) * np.asarray(denomination, dtype=float), 6)


def to_credits(money: Decimal | str, denomination: Decimal | str) -> int:
    """Convert a money amount to whole credits (half-even), exactly in decimal.

    Parameters
    ----------
    money : Decimal or str
        Money amount, e.g. ``"12.35"``.
    denomination : Decimal or str
        Money per credit, e.g. ``"0.05"``.

    """
    value = Decimal(str(money)) / Decimal(str(denomination))
    return int(value.quantize(Decimal(1), rounding=ROUND_HALF_EVEN))
