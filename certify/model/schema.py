"""Frozen dataclasses a machine file is parsed into.

The engine, the exact calculator and the reports only ever see these objects,
never raw TOML dictionaries.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

SYMBOL_KINDS = ("regular", "wild", "scatter", "bonus", "blank")
ANY = "ANY"


@dataclass(frozen=True)
class Symbol:
    """A reel symbol.

    ``substitutes`` is only meaningful for wilds: the regular symbols it stands
    for (the loader fills in "every regular symbol" when the file omits it).
    """

    name: str
    kind: str
    multiplier: int = 1
    substitutes: tuple[str, ...] = ()


@dataclass(frozen=True)
class PayEntry:
    """One line or ways pay: tokens from reel 1, and credits per credit of level."""

    index: int
    combo: tuple[str, ...]
    pays: int | None = None
    pays_by_level: tuple[int, ...] | None = None

    def credits(self, level_index: int, level: int) -> int:
        """Credits this entry pays on one line (or one way) at a bet level."""
        if self.pays_by_level is not None:
            return self.pays_by_level[level_index]
        assert self.pays is not None
        return self.pays * level


@dataclass(frozen=True)
class ScatterPay:
    """``count`` or more of ``symbol`` anywhere pays ``pays`` x total bet."""

    symbol: str
    count: int
    pays: int


@dataclass(frozen=True)
class Trigger:
    """A feature trigger: at least ``count`` of ``symbol`` anywhere in the window."""

    symbol: str
    count: int


@dataclass(frozen=True)
class FreeSpins:
    """Free-spins feature; ``spins`` maps trigger count to spins awarded."""

    trigger: Trigger
    spins: tuple[tuple[int, int], ...]
    multiplier: int = 1
    retrigger: bool = False
    max_spins: int | None = None
    strips: tuple[tuple[str, ...], ...] | None = None
    weights: tuple[tuple[int, ...], ...] | None = None

    def spins_for(self, count: int) -> int:
        """Spins awarded for ``count`` trigger symbols (largest key <= count)."""
        awarded = 0
        for key, spins in self.spins:
            if key <= count:
                awarded = spins
        return awarded


@dataclass(frozen=True)
class BonusAward:
    """One award of a pick/wheel bonus: ``pays`` x total bet with a weight."""

    pays: int
    weight: int


@dataclass(frozen=True)
class Bonus:
    """A pick/wheel bonus triggered by a symbol count."""

    trigger: Trigger
    awards: tuple[BonusAward, ...]


@dataclass(frozen=True)
class Jackpot:
    """A standalone or linked (superjackpot) pool declared by a machine."""

    id: str
    kind: str
    contribution: Decimal
    reset: Decimal
    cap: Decimal | None = None
    overflow: str = "reserve"
    reserve_rate: Decimal = Decimal(0)
    trigger_combo: tuple[str, ...] | None = None
    min_bet_level: int | None = None
    mystery: Decimal | None = None
    link: str | None = None


@dataclass(frozen=True)
class Machine:
    """A parsed, validated machine model."""

    id: str
    name: str
    manufacturer: str
    version: str
    instruction_languages: tuple[str, ...]
    denomination: Decimal
    currency: str
    bet_levels: tuple[int, ...]
    symbols: tuple[Symbol, ...]
    groups: tuple[tuple[str, tuple[str, ...]], ...]
    rows: int
    strips: tuple[tuple[str, ...], ...]
    weights: tuple[tuple[int, ...], ...] | None
    evaluation: str
    pays: tuple[PayEntry, ...]
    lines: int | None = None
    paylines: tuple[tuple[int, ...], ...] = ()
    ways: int | None = None
    cost: int | None = None
    scatter_pays: tuple[ScatterPay, ...] = ()
    free_spins: FreeSpins | None = None
    bonus: Bonus | None = None
    jackpots: tuple[Jackpot, ...] = ()
    handpay_limit: Decimal | None = None
    source: str = field(default="", compare=False)

    @property
    def reels(self) -> int:
        """Number of reels."""
        return len(self.strips)

    @property
    def bet_unit(self) -> int:
        """Credits wagered per credit of bet level (lines, or ways cost)."""
        return self.lines if self.evaluation == "lines" else self.cost  # type: ignore[return-value]

    def total_bet(self, level: int) -> int:
        """Total credits wagered per spin at a bet level."""
        return self.bet_unit * level

    def symbol(self, name: str) -> Symbol:
        """The symbol called ``name``."""
        for sym in self.symbols:
            if sym.name == name:
                return sym
        raise KeyError(name)

    def group(self, name: str) -> tuple[str, ...] | None:
        """Members of group ``name``, or None if there is no such group."""
        for key, members in self.groups:
            if key == name:
                return members
        return None
