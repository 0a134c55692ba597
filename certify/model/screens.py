"""Screen games (SPEC 3.1b): the ``[cascade]`` block and ``[[cluster_pays]]``.

A cascade ("avalanche", "tumble") makes one paid spin a sequence of screens:
the cells of every paying line run (or cluster) and of every paying scatter
vanish, the symbols above fall, the gap refills (``refill = "strip"``: from
the stops above the window on the same strip; ``"random"``: each new cell
drawn from the reel's stops by weight), and the new screen is evaluated
again, its wins multiplied by the screen's multiplier.

A cluster game (``evaluation = "cluster"``) pays groups of equal symbols
touching by an edge by their size.

The readers record located problems through a
:class:`~certify.model.reader.Reader` instead of raising, like the rest of
the loader. :func:`certify.exact.screens.check_cascade_cycle` finds the longest sequence of the full
cycle of a ``refill = "strip"`` cascade, so the loader can refuse one that can
exceed ``max_screens``.
"""

from __future__ import annotations

from typing import Any

from certify.codes import Code
from certify.errors import Problem
from certify.features import SCREENS, play_path
from certify.model.reader import Reader, join
from certify.model.schema import DEFAULT_MAX_SCREENS, Cascade, ClusterPay, Symbol

REFILLS = ("strip", "random")
_CASCADE_OPTIONAL = ("multipliers", "max_screens", "chain_pays", "trigger_vanishes")
_CLUSTER_KINDS = ("regular", "wild", "blank")


def read_cascade(rd: Reader, raw: Any, where: str = "cascade") -> Cascade | None:
    """Read and check a ``[cascade]`` table.

    Parameters
    ----------
    rd : Reader
        Collects the located problems (nothing is raised here).
    raw : Any
        The parsed TOML value, or None when the machine has no cascade.
    where : str
        Key path of the block, for the messages.

    Returns
    -------
    Cascade or None
        None when ``raw`` is None or not a table (an error is recorded). After
        recorded problems the result holds placeholders: the caller raises
        through ``rd.raise_if_errors()`` before using it.

    """
    if raw is None:
        return None
    t = rd.table(raw, where, ("refill",), _CASCADE_OPTIONAL)
    if not isinstance(raw, dict):
        return None
    refill = rd.string(t, "refill", where, REFILLS) or "strip"
    multipliers: list[int] = []
    at = join(where, "multipliers")
    for i, value in enumerate(rd.array(t, "multipliers", where, default=[1]) or []):
        multipliers.append(rd.check_int(value, join(at, i), 1) or 1)
    max_screens = rd.integer(t, "max_screens", where, 1, default=DEFAULT_MAX_SCREENS)
    max_screens = max_screens or DEFAULT_MAX_SCREENS
    chain = _chain_pays(rd, t.get("chain_pays"), join(where, "chain_pays"), max_screens)
    vanish = rd.boolean(t, "trigger_vanishes", where, False)
    return Cascade(refill, tuple(multipliers) or (1,), max_screens, chain, vanish)


def _chain_pays(rd: Reader, raw: Any, at: str, max_screens: int) -> tuple[tuple[int, int], ...]:
    """``chain_pays = {8 = 5, 9 = 50}``: a sequence's length (in screens) to its pay."""
    if raw is None:
        return ()
    if not isinstance(raw, dict) or not raw:
        rd.error(at, "must be a table of screens = pays, such as {8 = 5, 9 = 50}", Code.TYPE)
        return ()
    out = []
    for key, value in raw.items():
        here = join(at, key)
        if not (key.isascii() and key.isdigit()) or int(key) < 2:
            rd.error(here, f"key must be a length of 2 screens or more, got {key!r}", Code.TYPE)
            continue
        if int(key) > max_screens:
            rd.error(
                here,
                f"a sequence of {key} screens never plays: cascade.max_screens is {max_screens}",
                Code.RANGE,
            )
            continue
        out.append((int(key), rd.check_int(value, here, 1) or 1))
    return tuple(sorted(out))


def read_cluster_pays(
    rd: Reader,
    raw: Any,
    symbols: dict[str, Symbol],
    where: str = "cluster_pays",
    cells: int | None = None,
) -> tuple[ClusterPay, ...]:
    """Read and check the ``[[cluster_pays]]`` array.

    Parameters
    ----------
    rd : Reader
        Collects the located problems.
    raw : Any
        The parsed TOML value (None: no cluster pays).
    symbols : dict of str to Symbol
        The machine's symbols: an entry must name one of kind regular, wild
        or blank.
    where : str
        Key path of the array.
    cells : int, optional
        Cells of the window (rows x reels): a larger size can never pay (a
        warning).

    Returns
    -------
    tuple of ClusterPay
        In file order.

    """
    if raw is None:
        return ()
    if not isinstance(raw, list) or not raw:
        rd.error(where, "must be a non-empty array of tables", Code.TYPE)
        return ()
    out: list[ClusterPay] = []
    seen: set[tuple[str, int]] = set()
    for i, spec in enumerate(raw):
        at = join(where, i)
        t = rd.table(spec, at, ("symbol", "size", "pays"))
        if not isinstance(spec, dict):
            continue
        name = rd.string(t, "symbol", at)
        if name is not None and name not in symbols:
            rd.error(join(at, "symbol"), f'unknown symbol "{name}"', Code.UNKNOWN_SYMBOL)
        elif name is not None and symbols[name].kind not in _CLUSTER_KINDS:
            rd.error(
                join(at, "symbol"),
                f"{name!r} is {symbols[name].kind}; a cluster pays regular, wild or blank symbols",
                Code.BAD_KIND,
            )
        size = rd.integer(t, "size", at, 2) or 2
        pays = rd.integer(t, "pays", at, 1) or 1
        if cells is not None and size > cells:
            rd.warn(
                join(at, "size"),
                f"a group of {size} can never show in a window of {cells} cells",
                Code.IMPOSSIBLE_PAY,
            )
        key = (name or "", size)
        if name is not None and key in seen:
            rd.error(at, f"a second entry for {size} x {name!r}", Code.DUPLICATE)
        seen.add(key)
        out.append(ClusterPay(name or "", size, pays))
    return tuple(out)


def cascade_of(machine: Any) -> Any:
    """The machine's ``Cascade`` or None (read by name: set by the loader)."""
    return getattr(machine, "cascade", None)


def random_refill(machine: Any) -> bool:
    """Whether the machine cascades with ``refill = "random"`` (played by a chain, not a cycle)."""
    cascade = cascade_of(machine)
    return cascade is not None and cascade.refill == "random"


def cluster_pays_of(machine: Any) -> tuple:
    """The machine's ``ClusterPay`` entries (empty for a lines or ways game)."""
    return tuple(getattr(machine, "cluster_pays", ()) or ())


def sticky_symbol(machine: Any) -> str | None:
    """The machine's sticky wild (SPEC 3.1a ``sticky``), or None."""
    return next((s.name for s in machine.symbols if getattr(s, "sticky", False)), None)


def is_screen_game(machine: Any) -> bool:
    """Whether a machine plays through the screen kernels (the registry's play path).

    A cascade, cluster pays, or a sticky wild (their features declare the
    screen path in :mod:`certify.features`): a window is kept from screen to
    screen, so they are played on the screen kernels' cell grid.
    """
    return play_path(machine) == SCREENS


def screen_problems(machine: Any, file: str = "") -> list[Problem]:
    """Located errors for what the screen kernels do not play (empty: supported).

    Window transforms (variable heights, expanding, sticky and free-spin
    wilds, the drawn expanding symbol) and hold and spin are refused in
    cascade and cluster games, full-window pays in cluster games (a cascade
    multiplies each screen's line or ways wins by its full window); so are, with a cascade,
    ``rules.direction = "both"`` and ``anywhere`` pays: their vanishing cells
    are not defined by a run from reel 1. A sticky-wild game (a screen game
    of one screen per spin) refuses heights, full-window pays, hold and spin,
    and the drawn expanding symbol.
    """
    where = file or machine.source or machine.id
    out: list[Problem] = []
    if not is_screen_game(machine):
        return out
    if cascade_of(machine) is None and machine.evaluation != "cluster":
        return _sticky_problems(machine, where)
    window_rules = [
        ("reels.heights", machine.heights is not None),
        ("full_window_pays", bool(machine.full_window_pays) and cascade_of(machine) is None),
        ("hold_and_spin", machine.hold_and_spin is not None),
        (
            "free_spins.expanding_symbol",
            bool(machine.free_spins and machine.free_spins.expanding_symbol),
        ),
    ]
    for s in machine.symbols:
        for key in ("expands", "wild_in_free_spins", "sticky"):
            window_rules.append((f"symbols.{s.name}.{key}", bool(getattr(s, key))))
    for key, used in window_rules:
        if used:
            out.append(
                Problem(where, key, "not supported in a cascade or cluster game", Code.UNSUPPORTED)
            )
    if cascade_of(machine) is not None:
        if machine.rules.direction != "left":
            out.append(
                Problem(
                    where,
                    "rules.direction",
                    f'"{machine.rules.direction}" with a cascade is not supported',
                    Code.UNSUPPORTED,
                )
            )
        for e in machine.pays:
            if e.anywhere:
                out.append(
                    Problem(
                        where,
                        f"pays[{e.index}].anywhere",
                        "an anywhere pay with a cascade is not supported",
                        Code.UNSUPPORTED,
                    )
                )
    return out


def _sticky_problems(machine: Any, where: str) -> list[Problem]:
    """What a game with a sticky wild (and no cascade or clusters) may not combine it with."""
    fs = machine.free_spins
    used = [
        ("reels.heights", machine.heights is not None),
        ("full_window_pays", bool(machine.full_window_pays)),
        ("hold_and_spin", machine.hold_and_spin is not None),
        ("free_spins.expanding_symbol", bool(fs and fs.expanding_symbol)),
    ]
    return [
        Problem(where, key, "not supported with a sticky wild", "unsupported")
        for key, on in used
        if on
    ]
