"""Jurisdiction files (``slotcert/jurisdiction@1``): the rules a verdict applies."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path

from certify.codes import Code
from certify.kinds import JURISDICTION
from certify.model.loader import read_toml
from certify.model.reader import Reader, join

JURISDICTION_SCHEMA = JURISDICTION.schema
_REQUIRED = ("schema", "id", "name", "min_rtp")
_OPTIONAL = (
    "applies_to",
    "jackpot_counts_toward_minimum",
    "confidence",
    "min_award_odds",
    "required_meters",
    "display_languages",
    "meter_digits",
    "max_rtp_drop_per_level",
)


@dataclass(frozen=True)
class Jurisdiction:
    """Minimum return and the other rules certification applies."""

    id: str
    name: str
    min_rtp: Decimal
    applies_to: str = "each_bet_level"
    jackpot_counts_toward_minimum: bool = False
    confidence: Decimal = Decimal("0.99")
    min_award_odds: int = 0
    required_meters: tuple[str, ...] = ("coin_in", "prizes_paid", "coin_drop")
    display_languages: tuple[str, ...] = ("pt",)
    meter_digits: int = 10
    max_rtp_drop_per_level: Decimal | None = None


def load_jurisdiction(path: str | Path) -> Jurisdiction:
    """Load and validate a jurisdiction file."""
    file = str(path)
    data = read_toml(path)
    rd = Reader(file)
    rd.table(data, "", _REQUIRED, _OPTIONAL)
    if data.get("schema", JURISDICTION_SCHEMA) != JURISDICTION_SCHEMA:
        rd.error(
            "schema", f"must be {JURISDICTION_SCHEMA!r}, got {data.get('schema')!r}", Code.SCHEMA
        )
    min_rtp = rd.money(data, "min_rtp", "") or Decimal(0)
    if min_rtp > 1:
        rd.error("min_rtp", f'must be a fraction in [0, 1], got "{min_rtp}"', Code.RANGE)
    confidence = rd.money(data, "confidence", "", default="0.99") or Decimal("0.99")
    if not Decimal("0.5") <= confidence < 1:
        rd.error("confidence", f'must be in [0.5, 1), got "{confidence}"', Code.RANGE)
    lists = {}
    for key, default in (
        ("required_meters", ["coin_in", "prizes_paid", "coin_drop"]),
        ("display_languages", ["pt"]),
    ):
        values = rd.array(data, key, "", default=default) or []
        for i, v in enumerate(values):
            if not isinstance(v, str):
                rd.error(join(key, i), f"must be a string, got {v!r}", Code.TYPE)
        lists[key] = tuple(str(v) for v in values)
    result = Jurisdiction(
        id=rd.string(data, "id", "") or "",
        name=rd.string(data, "name", "") or "",
        min_rtp=min_rtp,
        applies_to=rd.string(
            data, "applies_to", "", ("each_bet_level", "machine"), default="each_bet_level"
        )
        or "each_bet_level",
        jackpot_counts_toward_minimum=rd.boolean(data, "jackpot_counts_toward_minimum", "", False),
        confidence=confidence,
        min_award_odds=rd.integer(data, "min_award_odds", "", 0, default=0) or 0,
        meter_digits=rd.integer(data, "meter_digits", "", 4, default=10) or 10,
        max_rtp_drop_per_level=rd.money(data, "max_rtp_drop_per_level", "", default=None),
        **lists,
    )
    rd.raise_if_errors()
    return result
