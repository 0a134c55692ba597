"""Frozen, typed table games: what a ``slotcert/table@1`` file declares.

The loaders in :mod:`certify.tables.loader` and the game modules build these
objects once; exact calculation, Monte Carlo and reports never see raw TOML.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction

from certify.errors import Problem
from certify.kinds import TABLE

TABLE_SCHEMA = TABLE.schema
KINDS = ("roulette", "fantan", "three_card_poker", "pai_kao")


@dataclass(frozen=True)
class Game:
    """Identity of a table game and the regulation it implements."""

    id: str
    name: str
    kind: str
    source: str


@dataclass(frozen=True)
class Bet:
    """One bet: it wins on ``win`` outcomes, is a push on ``tie`` outcomes.

    For roulette and Fantan the outcomes are numbers; for the banked card and
    tile games ``side`` names who the bettor backs (``player`` or ``banker``)
    and the outcome sets are empty.
    """

    name: str
    type: str
    pays: Fraction
    win: tuple[int, ...] = ()
    tie: tuple[int, ...] = ()
    side: str = ""


@dataclass(frozen=True)
class Limit:
    """Minimum and maximum stake of one bet type."""

    type: str
    min: Decimal
    max: Decimal


@dataclass(frozen=True)
class Simulation:
    """Settings of the Monte Carlo cross-check (seeded, chunked)."""

    rounds: int = 1_000_000
    seed: int = 1
    chunks: int = 16


@dataclass(frozen=True)
class Capital:
    """Banker capital study: stakes per player seat and capitals to try."""

    stakes: tuple[Decimal, ...]
    capitals: tuple[Decimal, ...]
    rounds: int = 200_000
    seed: int = 1


@dataclass(frozen=True)
class Table:
    """A parsed, validated table game.

    Attributes
    ----------
    game : Game
        Identity and source.
    bets : tuple of Bet
        The bets evaluated by the exact calculator, in file order.
    commission : Fraction
        Share of every prize kept by the house (0 for roulette).
    outcomes : tuple of int
        Roulette: the wheel sequence; Fantan: the possible results (1-4).
    red : tuple of int
        Roulette: the red numbers.
    limits : tuple of Limit
        Roulette stake limits per bet type (may be empty).
    seats : int
        Card and tile games: places dealt, the banker's included.
    deck : tuple of str
        Card and tile games: the ranks in ascending order of value.
    suits : tuple of str
        Three-card poker: the suits in ascending order of value.
    copies : int
        Pai Kao: tiles of each value (2 in the seed's 20-tile set).
    banker_wins_zero : bool
        Banker takes zero-vs-zero (without figures in three-card poker).
    banker_wins_equal : bool
        Pai Kao: banker takes hands of equal face value.
    simulation : Simulation
        Monte Carlo settings.
    capital : Capital or None
        Banker capital study settings.
    warnings : tuple of Problem
        Warning-level findings of validation.

    """

    game: Game
    bets: tuple[Bet, ...]
    commission: Fraction = Fraction(0)
    outcomes: tuple[int, ...] = ()
    red: tuple[int, ...] = ()
    limits: tuple[Limit, ...] = ()
    seats: int = 0
    deck: tuple[str, ...] = ()
    suits: tuple[str, ...] = ()
    copies: int = 0
    banker_wins_zero: bool = True
    banker_wins_equal: bool = True
    simulation: Simulation = field(default_factory=Simulation)
    capital: Capital | None = None
    warnings: tuple[Problem, ...] = ()
