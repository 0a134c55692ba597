"""Frozen dataclasses a machine file is parsed into.

The engine, the exact calculator and the reports only ever see these objects,
never raw TOML dictionaries.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from decimal import Decimal
from fractions import Fraction

SYMBOL_KINDS = ("regular", "wild", "scatter", "bonus", "blank")
ANY = "ANY"


@dataclass(frozen=True)
class Paint:
    """A symbol that turns a block of cells around where it lands into a wild.

    Where the symbol shows on one of ``reels`` (1-based), the cells from
    ``left`` reels to its left to ``right`` reels to its right and from ``up``
    rows above to ``down`` rows below (clipped to the window) show ``into``
    instead, except cells showing a scatter or bonus symbol (SPEC 3.1a).
    """

    reels: tuple[int, ...]
    into: str
    left: int = 0
    right: int = 0
    up: int = 0
    down: int = 0


@dataclass(frozen=True)
class BigSymbol:
    """One big symbol covering consecutive reels' whole window in the free spins.

    Each free spin draws one stop of ``strip`` (by ``weights``, 1 per stop when
    None) and every cell of ``reels`` (1-based, consecutive) shows its symbol:
    AGT Valkyrie's and Play'n GO Fire Joker's 3x3 symbol on reels 2-4.
    ``covers``: symbol -> how many of ``reels`` (from the first) it covers, where
    fewer than all (the others spin their strips); ``columns``: symbol -> the
    cells each covered reel shows, where not the symbol on every row (Novomatic
    Fairy Queen's light: one on the middle row).
    """

    reels: tuple[int, ...]
    strip: tuple[str, ...]
    weights: tuple[int, ...] | None = None
    covers: tuple[tuple[str, int], ...] = ()
    columns: tuple[tuple[str, tuple[str, ...]], ...] = ()

    def cover(self, name: str) -> int:
        """How many reels (from the first of ``reels``) symbol ``name`` covers."""
        return dict(self.covers).get(name, len(self.reels))

    def column(self, name: str, rows: int) -> tuple[str, ...]:
        """The cells a reel that symbol ``name`` covers shows, top row first."""
        return dict(self.columns).get(name, (name,) * rows)

    @property
    def always_covered(self) -> tuple[int, ...]:
        """The reels (1-based) every symbol of the strip covers."""
        return self.reels[: min(self.cover(name) for name in self.strip)]


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
    expands: str = ""  # "always" | "free_spins": a wild that fills its reel (SPEC 3.1a)
    # ``expands = {chance = [k, n]}``: it fills its reel in a spin drawn with chance k/n
    expands_chance: tuple[int, int] | None = None
    scatter: bool = False  # a wild that is also a scatter (Book of Ra)
    wild_in_free_spins: bool = False  # a regular symbol that plays as a wild in free spins
    sticky: bool = False  # a wild that stays where it landed during free spins
    multipliers: tuple[tuple[int, int], ...] = ()  # wild: (value, weight) drawn per reel and spin
    reels: tuple[int, ...] = ()  # scatter/bonus: the reels (1-based) it counts on; () every reel
    wilds_count: bool = False  # scatter/bonus: every wild cell counts as this symbol too
    plays: str = ""  # engine-only virtual symbols: the symbol this one stands for
    window_multiplier: int = 1  # each cell showing it (as landed) multiplies the spin's wins
    # a reel showing only it (as landed) multiplies the spin's wins by a value drawn
    # for that reel: (value, weight); () none
    full_reel_multipliers: tuple[tuple[int, int], ...] = ()
    # scatter/bonus: each cell showing it counts as this many of another symbol
    # (a double scatter counting 2): (symbol, times), or None
    counts_as: tuple[str, int] | None = None
    paints: Paint | None = None  # turns a block of cells around it into a wild
    # scatter/bonus: counted only on the reels in a row from reel 1 that show it, and
    # only where at least this many do (0: counted on every reel)
    consecutive: int = 0


@dataclass(frozen=True)
class PayEntry:
    """One line or ways pay: tokens from reel 1, and credits per credit of level."""

    index: int
    combo: tuple[str, ...]
    pays: int | None = None
    pays_by_level: tuple[int, ...] | None = None
    anywhere: bool = False  # counts of the symbol anywhere on the line, not a run from reel 1
    free_spins_multiplier: bool = True  # False: paid as is in free spins
    free_spins_pays: int | None = None  # the entry's pays during free spins (None: ``pays``)
    bonus: bool = False  # a line paying it plays a bonus game too
    bonus_game: str = ""  # the [bonus_games] entry it plays ("": the [bonus] game)
    bonus_plays: int = 1  # the times it plays it (independent prizes)

    def credits(self, level_index: int, level: int) -> int:
        """Credits this entry pays on one line (or one way) at a bet level."""
        if self.pays_by_level is not None:
            return self.pays_by_level[level_index]
        assert self.pays is not None
        return self.pays * level

    def free_credits(self, level_index: int, level: int) -> int:
        """Credits it pays in free spins, before the feature's multiplier."""
        if self.free_spins_pays is None:
            return self.credits(level_index, level)
        return self.free_spins_pays * level


def pay_text(value: int | Fraction) -> str:
    """A pay as the file writes it: ``10``, or a fraction of the bet as a decimal (``0.5``)."""
    if isinstance(value, int) or value.denominator == 1:
        return str(int(value))
    return str(Decimal(value.numerator) / Decimal(value.denominator))


@dataclass(frozen=True)
class ScatterPay:
    """``count`` or more of ``symbol`` anywhere pays ``pays`` x total bet.

    ``free_spins_pays``: what it pays during free spins instead (None: ``pays``).
    A pay may be a fraction of the bet (a decimal string in the file, ``"0.5"``);
    the reader checks that it is whole credits at every level.
    """

    symbol: str
    count: int
    pays: int | Fraction
    free_spins_pays: int | Fraction | None = None
    bonus: bool = False  # paying, it plays a bonus game too (Playtech Golden Tour)
    bonus_game: str = ""  # the [bonus_games] entry it plays ("": the [bonus] game)
    bonus_plays: int = 1  # the times it plays it (independent prizes)

    @property
    def free_pays(self) -> int | Fraction:
        """Its pays (x total bet) during free spins, before the feature's multiplier."""
        return self.pays if self.free_spins_pays is None else self.free_spins_pays

    def credits(self, bet: int, free: bool = False) -> int:
        """Credits it pays where a pay of 1 is ``bet`` credits (in free spins: ``free``)."""
        return int((self.free_pays if free else self.pays) * bet)


@dataclass(frozen=True)
class Trigger:
    """A feature trigger: at least ``count`` of ``symbol`` anywhere in the window."""

    symbol: str
    count: int


@dataclass(frozen=True)
class FreeSpinOption:
    """One option of the free spins (``[[free_spins.options]]``).

    Without ``weight`` the player chooses it; with a ``weight`` (every option
    then has one) the machine draws it by weight when the feature starts.
    """

    spins: tuple[tuple[int, int], ...]
    multiplier: int = 1
    weight: int | None = None


@dataclass(frozen=True)
class FreeSpins:
    """Free-spins feature; ``spins`` maps trigger count to spins awarded.

    ``retrigger_once``: the feature can be extended one time only
    (``retrigger = "once"``). ``options``: the player's choice of
    (spins, multiplier) when the feature starts; each is certified alone
    (:meth:`Machine.option_variants`). ``retrigger_spins``: what a retrigger
    adds by count, where it differs from the trigger's award (empty: ``spins``).
    """

    trigger: Trigger
    spins: tuple[tuple[int, int], ...]
    multiplier: int = 1
    retrigger: bool = False
    max_spins: int | None = None
    strips: tuple[tuple[str, ...], ...] | None = None
    weights: tuple[tuple[int, ...], ...] | None = None
    retrigger_once: bool = False
    options: tuple[FreeSpinOption, ...] = ()
    expanding_symbol: tuple[tuple[str, int], ...] = ()  # Book of Ra: (symbol, draw weight)
    retrigger_spins: tuple[tuple[int, int], ...] = ()
    multipliers: tuple[tuple[int, int], ...] = ()  # (value, weight): drawn for each free spin
    big_symbol: BigSymbol | None = None  # one symbol covering several reels' window
    # the symbol whose count retriggers during the feature (None: the trigger's)
    retrigger_symbol: str | None = None
    # (count, multiplier): the feature's multiplier by its trigger count, as ``spins``
    multiplier_by_count: tuple[tuple[int, int], ...] = ()

    @property
    def retriggered_by(self) -> str:
        """The symbol a retrigger counts: ``retrigger_symbol``, else the trigger's."""
        return self.retrigger_symbol or self.trigger.symbol

    @property
    def largest_multiplier(self) -> int:
        """The largest multiplier a free spin can have."""
        values = [v for v, _ in self.multipliers] + [m for _, m in self.multiplier_by_count]
        return max(values, default=self.multiplier)

    def multiplier_at(self, count: int) -> int:
        """The feature's multiplier when ``count`` symbols start it.

        The ``multiplier_by_count`` entry of the largest count at or below it, as
        ``spins``; the fixed ``multiplier`` where the table is not set.
        """
        met = [m for k, m in self.multiplier_by_count if k <= count]
        return met[-1] if met else self.multiplier

    def played_strips(self, strips: tuple, weights: tuple | None) -> tuple[tuple, tuple | None]:
        """The strips and weights the feature stops: its own or the base game's.

        ``strips``, ``weights``: the base game's. With a big symbol, its strip on the
        first reel it covers and one stop on each other that every symbol covers
        (``certify/engine/big.py`` fills their window); a reel only some symbols
        cover spins its own strip (hidden where covered).
        """
        played = list(self.strips if self.strips is not None else strips)
        stops = self.weights if self.strips is not None else weights
        big = self.big_symbol
        if big is None:
            return tuple(played), stops
        per_reel = list(stops) if stops is not None else None
        if per_reel is None and big.weights is not None:
            per_reel = [(1,) * len(strip) for strip in played]
        for i, r in enumerate(big.always_covered):
            played[r - 1] = big.strip if i == 0 else big.strip[:1]
            if per_reel is not None:
                per_reel[r - 1] = (big.weights or (1,) * len(big.strip)) if i == 0 else (1,)
        return tuple(played), tuple(per_reel) if per_reel is not None else None

    @property
    def own_reels(self) -> bool:
        """The feature stops reels of its own (its strips, or a big symbol's)."""
        return self.strips is not None or self.big_symbol is not None

    def spins_for(self, count: int) -> int:
        """Spins awarded for ``count`` trigger symbols (largest key <= count)."""
        return _award(self.spins, count)

    @property
    def options_drawn(self) -> bool:
        """The options are drawn by weight when the feature starts (not chosen)."""
        return bool(self.options) and all(o.weight is not None for o in self.options)

    def retrigger_for(self, count: int) -> int:
        """Spins a retrigger with ``count`` symbols adds (0 below the table's counts).

        ``retrigger_spins`` may start below the trigger's count (2 scatters
        retrigger where 3 trigger); the trigger's own table starts at its count.
        """
        if not self.retrigger:
            return 0
        if self.retrigger_spins:
            return _award(self.retrigger_spins, count)
        return _award(self.spins, count) if count >= self.trigger.count else 0


def _award(table: tuple[tuple[int, int], ...], count: int) -> int:
    """The award of the largest key of ``table`` at or below ``count`` (0 if none)."""
    awarded = 0
    for key, spins in table:
        if key <= count:
            awarded = spins
    return awarded


@dataclass(frozen=True)
class BonusAward:
    """One award of a pick/wheel bonus: ``pays`` x total bet with a weight."""

    pays: int
    weight: int


@dataclass(frozen=True)
class PickStage:
    """A pick game: hidden prizes revealed one by one (without replacement).

    ``prizes`` holds each hidden item's pay, ``None`` for a stop; ``picks``
    the picks made (``None``: until a stop, or until none is left); the first
    ``safe`` picks never reveal a stop; where every pick of at least two shows
    the same prize, their sum is multiplied by ``match_multiplier``.
    """

    prizes: tuple[int | None, ...]
    picks: int | None = None
    safe: int = 0
    match_multiplier: int = 1
    kind: str = "pick"


@dataclass(frozen=True)
class WheelSegment:
    """One segment of a wheel: its pay, the extra spins it gives, its weight."""

    pays: int
    again: int
    weight: int


@dataclass(frozen=True)
class WheelStage:
    """A wheel spun ``spins`` times; ``again`` segments add spins, ``max_spins`` in all."""

    segments: tuple[WheelSegment, ...]
    spins: int = 1
    max_spins: int | None = None
    kind: str = "wheel"


@dataclass(frozen=True)
class MultiplierStage:
    """A multiplier drawn by weight for the whole bonus prize: (multiplier, weight) pairs."""

    values: tuple[tuple[int, int], ...]
    kind: str = "multiplier"


@dataclass(frozen=True)
class LadderStage:
    """A ladder of rising prizes ("collect or lose").

    The game starts on the bottom rung, holding its prize; each step climbs a
    rung, collects (ends with the rung's prize) or loses (ends with 0) by the
    weights; the top rung ends it with its prize.
    """

    rungs: tuple[int, ...]
    climb: int
    collect: int
    lose: int = 0
    kind: str = "ladder"


BonusStage = PickStage | WheelStage | MultiplierStage | LadderStage
BONUS_UNITS = ("total_bet", "line_bet")


@dataclass(frozen=True)
class Bonus:
    """A bonus triggered by a symbol count: one award drawn by weight.

    ``awards`` is the prize distribution the engines and the exact calculator
    play. A file gives it directly, or gives the bonus game's ``stages`` (pick,
    wheel, multiplier), whose exact prize distribution the loader compiles into
    ``awards`` (:mod:`certify.model.bonusgame`). ``unit``: prizes are x the
    total bet, or x the bet on one line (``"line_bet"``).
    """

    trigger: Trigger | None  # None: only lines start it (``[[pays]] bonus = true``)
    awards: tuple[BonusAward, ...]
    unit: str = "total_bet"
    stages: tuple[BonusStage, ...] = ()


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
    keep_pay: bool = False  # a combo trigger: the line pays its fixed pay as well as the pool


@dataclass(frozen=True)
class FullWindowPay:
    """The whole window shows one symbol (wilds counting as it): line wins x ``multiplier``.

    ``reels``: only these reels (1-based, sorted) must be filled (None: every reel);
    ``reels = k`` in the file reads as reels 1 to k.
    ``jackpot``: the id of a ``[[jackpots]]`` pool the window wins (the first
    listed entry with a pool that the window fills); ``multiplier`` may then
    be 0 (the window pays its pool instead of its lines: Novomatic Ultra Sevens).
    """

    symbol: str  # a symbol, a group or ANY
    multiplier: int
    reels: tuple[int, ...] | None = None
    jackpot: str | None = None
    wilds_count: bool = True  # False: a wild cell counts only as itself (Novomatic's Filled)


WILD_MULTIPLIER_RULES = ("product", "max", "sum")
PURE_WILD_LINE_RULES = ("highest", "wild_award")
DIRECTIONS = ("left", "both")
BOTH_WAYS_RULES = ("sum", "better")
LINE_PAYS_RULES = ("best", "longest")
LEADING_WILDS_RULES = ("mixed", "one_kind")
SCATTER_UNITS = ("total_bet", "line_bet")


@dataclass(frozen=True)
class Rules:
    """The small rules of real games (SPEC 3.1a ``[rules]``); defaults are SPEC 3.1.

    Attributes
    ----------
    wild_multiplier : how the multipliers of the wilds in a line win combine
        ("product", "max": the largest once, "sum").
    pure_wild_line : "highest", or "wild_award": a run of wilds only pays the
        wilds' own entry, never a substituted one.
    direction : "left", or "both": each line is also read from the last reel.
    scatter_unit : scatter pays x "total_bet", or x "line_bet" (credits per
        line or per cost unit of the level).
    exclusive_scatters : of these scatter symbols only the first that pays, pays.
    win_cap : a spin's whole win (features included) is capped at this
        multiple of the total bet (None: no cap).
    both_ways : with ``direction = "both"``, a line pays its left and right
        runs ("sum") or only the better of them ("better").
    line_pays : a line pays the entry worth most ("best"), or its longest met
        run ("longest", ties by worth) even where a shorter entry pays more.
    leading_wilds : "mixed", or "one_kind": a line's leading run of wilds is of
        one wild; a wild of another kind in it ends the line there (it pays what
        the run read so far completes: CT Viking's Fun's free spins).
    spin_multipliers : (value, weight) pairs: each paid spin draws one value by
        weight, which multiplies its line, ways and scatter wins (not bonus
        awards, not the free spins it starts); empty: none.

    """

    wild_multiplier: str = "product"
    pure_wild_line: str = "highest"
    direction: str = "left"
    scatter_unit: str = "total_bet"
    exclusive_scatters: tuple[str, ...] = ()
    win_cap: int | None = None
    both_ways: str = "sum"
    line_pays: str = "best"
    leading_wilds: str = "mixed"
    spin_multipliers: tuple[tuple[int, int], ...] = ()


DEFAULT_MAX_SCREENS = 50
"""Screens of one cascade sequence at most, where ``[cascade] max_screens`` is not set."""


@dataclass(frozen=True)
class HoldValue:
    """One value a locked coin can carry.

    Parameters
    ----------
    weight : int
        Relative weight of this value among ``HoldAndSpin.values`` (>= 1).
    pays : int or None
        Multiple of the total bet paid, or None for a jackpot value.
    jackpot : str or None
        Name of the jackpot paid (a key of ``HoldAndSpin.jackpots`` or the id
        of one of the machine's ``[[jackpots]]`` pools), or None.

    """

    weight: int
    pays: int | None
    jackpot: str | None


@dataclass(frozen=True)
class HoldAndSpin:
    """A hold-and-spin feature (cash-on-reels respins).

    Parameters
    ----------
    trigger : Trigger
        At least ``count`` of the coin ``symbol`` (kind ``"bonus"``) anywhere
        in the window start the feature; those coins are locked and count.
    respins : int
        Respins left at the start and after every respin that locks a coin.
    cell_probability : Fraction
        Exact chance that an empty cell shows a coin on one respin, in (0, 1).
    values : tuple of HoldValue
        The weighted values each locked coin draws, independently.
    full_window : str or None
        Jackpot awarded as well when every cell is locked.
    jackpots : tuple of (str, int)
        Fixed prizes, x total bet, by name (file order). A name that is the id
        of a machine ``[[jackpots]]`` pool pays that progressive pool instead.

    """

    trigger: Trigger
    respins: int
    cell_probability: Fraction
    values: tuple[HoldValue, ...]
    full_window: str | None
    jackpots: tuple[tuple[str, int], ...]

    def jackpot_names(self) -> tuple[str, ...]:
        """Every jackpot the feature can award: the table's, then others named."""
        names = [name for name, _ in self.jackpots]
        named = [v.jackpot for v in self.values] + [self.full_window]
        for name in named:
            if name is not None and name not in names:
                names.append(name)
        return tuple(names)


@dataclass(frozen=True)
class Cascade:
    """A cascade: winning cells vanish, the rest fall, the gap refills.

    Parameters
    ----------
    refill : str
        ``"strip"`` (the stops above the window on the same strip: the whole
        sequence is fixed by the stops) or ``"random"`` (each new cell drawn
        independently from the reel's stops by weight).
    multipliers : tuple of int
        Win multiplier of the 1st, 2nd, ... screen; the last one repeats.
    max_screens : int
        Screens of one sequence at most (the first screen included).
    chain_pays : tuple of (int, int)
        (screens, pays): a sequence of that many screens or more (its last
        screen, without wins, counted) pays the entry of the largest key at or
        below its length, x total bet (CT Win Feast: 8 screens pay 5, 9 or
        more 50). Keys from 2: a spin whose first screen pays nothing has no
        chain.
    trigger_vanishes : bool
        The free-spin trigger's cells vanish as a win's do, on every screen
        showing at least the trigger's count (base game and free spins), and
        the sequence goes on (NetEnt Gonzo's Quest as slotopol plays it).

    """

    refill: str
    multipliers: tuple[int, ...] = (1,)
    max_screens: int = DEFAULT_MAX_SCREENS
    chain_pays: tuple[tuple[int, int], ...] = ()
    trigger_vanishes: bool = False

    def multiplier(self, screen: int) -> int:
        """Multiplier of screen ``screen`` (0: the first screen)."""
        return self.multipliers[min(screen, len(self.multipliers) - 1)]

    def chain_pay(self, screens: int) -> int:
        """What a sequence of ``screens`` screens pays, x total bet (0: nothing)."""
        return _award(self.chain_pays, screens)


@dataclass(frozen=True)
class ClusterPay:
    """A group of at least ``size`` cells of ``symbol`` pays ``pays`` x total bet."""

    symbol: str
    size: int
    pays: int


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
    duplicate_lines: str = "refuse"  # "allow": a repeated payline pays each copy (SPEC 3.1)
    scatter_pays: tuple[ScatterPay, ...] = ()
    free_spins: FreeSpins | None = None
    bonus: Bonus | None = None
    bonus_games: tuple[tuple[str, Bonus], ...] = ()  # named games pay entries play
    jackpots: tuple[Jackpot, ...] = ()
    handpay_limit: Decimal | None = None
    rules: Rules = Rules()
    option_label: str | None = None  # set on the variants of a game with free-spin options
    full_window_pays: tuple[FullWindowPay, ...] = ()
    heights: tuple[tuple[tuple[int, int], ...], ...] | None = None  # per reel: (rows, weight)
    hold_and_spin: HoldAndSpin | None = None  # SPEC 3.1b
    cascade: Cascade | None = None  # SPEC 3.1b
    cluster_pays: tuple[ClusterPay, ...] = ()
    source: str = field(default="", compare=False)

    @property
    def reels(self) -> int:
        """Number of reels."""
        return len(self.strips)

    @property
    def bet_unit(self) -> int:
        """Credits wagered per credit of bet level (lines, or ways cost)."""
        return self.lines if self.evaluation == "lines" else self.cost  # type: ignore[return-value]

    @property
    def line_bonus_entries(self) -> tuple[int, ...]:
        """Pay entries whose lines also play the bonus game (``bonus = true``)."""
        return tuple(e.index for e in self.pays if e.bonus)

    @property
    def scatter_bonus_entries(self) -> tuple[int, ...]:
        """Scatter pay entries that also play the bonus game when they pay (``bonus = true``)."""
        return tuple(i for i, sp in enumerate(self.scatter_pays) if sp.bonus)

    def free_spins_show(self, combo: tuple[str, ...]) -> bool:
        """Whether the free spins' reels can show ``combo`` from reel 1 (False without them).

        A line bonus whose combo they show plays in the free spins too.
        """
        if self.free_spins is None:
            return False
        strips = self.free_spins.played_strips(self.strips, self.weights)[0]
        shown = [set(strip) for strip in strips]
        big = self.free_spins.big_symbol
        if big is not None:  # what the big symbols' cells show
            for name in big.strip:
                for r in big.reels[: big.cover(name)]:
                    shown[r - 1].update(big.column(name, self.rows))
        return all(token in shown[r] for r, token in enumerate(combo))

    @property
    def pays_play_bonus(self) -> bool:
        """Whether some line or scatter pay entry plays the bonus game (the kernels' marks)."""
        return bool(self.line_bonus_entries or self.scatter_bonus_entries)

    @property
    def bonus_laws(self) -> tuple[tuple[str, Bonus], ...]:
        """The bonus games pay entries may play, in the kernels' order.

        ``[bonus]`` (named "") first where the file has one, then ``[bonus_games]`` as written.
        """
        first = (("", self.bonus),) if self.bonus is not None else ()
        return first + self.bonus_games

    def bonus_law(self, name: str) -> int:
        """The index in :attr:`bonus_laws` of the game named ``name`` ("": ``[bonus]``)."""
        return [n for n, _ in self.bonus_laws].index(name)

    def law_bet(self, law: int, level: int) -> int:
        """Credits a prize of 1 of bonus law ``law`` pays at a bet level (its ``unit``)."""
        unit = self.bonus_laws[law][1].unit
        return level if unit == "line_bet" else self.total_bet(level)

    @property
    def bonus_combo(self) -> tuple[str, ...]:
        """The bonus trigger as a combo (its symbol ``count`` times); () if only lines start it."""
        t = self.bonus.trigger if self.bonus is not None else None
        return (t.symbol,) * t.count if t is not None else ()

    def bonus_bet(self, level: int) -> int:
        """Credits a bonus prize of 1 pays at a bet level (total bet, or the line bet)."""
        unit = self.bonus.unit if self.bonus is not None else "total_bet"
        return level if unit == "line_bet" else self.total_bet(level)

    def scatter_bet(self, level: int) -> int:
        """Credits a scatter pay of 1 pays at a bet level (total bet, or the line bet)."""
        return level if self.rules.scatter_unit == "line_bet" else self.total_bet(level)

    def option_variants(self) -> list[Machine]:
        """The machine once per free-spin option the player may choose (itself if none).

        Each variant plays one option's spins and multiplier, so each is
        certified as its own return; the worst governs the verdict.
        """
        fs = self.free_spins
        if fs is None or not fs.options or fs.options_drawn:
            return [self]
        return self.option_machines()

    def option_machines(self) -> list[Machine]:
        """The machine once per free-spin option, each playing that option alone.

        Drawn options (``weight``) are one game, the mixture of these by weight.
        """
        fs = self.free_spins
        assert fs is not None and fs.options
        out = []
        for i, option in enumerate(fs.options):
            free = replace(fs, spins=option.spins, multiplier=option.multiplier, options=())
            label = f"option {i + 1}"
            out.append(replace(self, free_spins=free, option_label=label))
        return out

    def total_bet(self, level: int) -> int:
        """Total credits wagered per spin at a bet level."""
        return self.bet_unit * level

    def counts_on(self, name: str, reel: int, column: tuple[str, ...]) -> int:
        """Cells of a landed ``column`` of reel ``reel`` (0-based) that count as ``name``.

        A scatter or bonus symbol counts only on its ``reels`` (every reel when
        empty), with ``wilds_count`` every wild cell counts as it too, and a symbol
        whose ``counts_as`` names it counts that many times.
        """
        sym = self.symbol(name)
        if sym.reels and reel + 1 not in sym.reels:
            return 0
        wilds = {s.name for s in self.symbols if s.kind == "wild"} if sym.wilds_count else set()
        times = {
            s.name: s.counts_as[1] for s in self.symbols if s.counts_as and s.counts_as[0] == name
        }
        return sum(1 for cell in column if cell == name or cell in wilds) + sum(
            times.get(cell, 0) for cell in column
        )

    @property
    def max_count(self) -> int:
        """The largest count of a symbol in the window: every cell, a double counting 2."""
        times = max((s.counts_as[1] for s in self.symbols if s.counts_as), default=1)
        return self.rows * self.reels * max(times, 1)

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
