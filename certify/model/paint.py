"""``paints``: a symbol that turns a block of cells around where it lands into a wild.

CT Interactive's Cherry Crown and Money Pipe (a wild on reel 1 turns reels 1-3,
from its row down, wild), Chilli Bomb (a chilli on reel 3 turns the 3x3 block
around it wild). The block crosses reels, so the reels are no longer
independent; the engine plays the game as one reel set per *signature* of the
painting reels (the rows where a painting symbol shows), each an ordinary set
of independent reels (``certify/engine/paint.py``). This module reads the key,
checks it against the rest of the machine and gives the signatures.
"""

from __future__ import annotations

from typing import Any

from certify.codes import Code
from certify.model.features import reel_numbers, window_rule_conflicts
from certify.model.reader import Reader, join
from certify.model.schema import Paint, Symbol

MAX_PARTS = 64  # reel sets one phase may split into (each is enumerated and tabled)
_OFFSETS = ("left", "right", "up", "down")


def read_paint(rd: Reader, raw: Any, where: str, name: str) -> Paint | None:
    """``paints = {reels = [1], right = 2, down = 2, into = "W"}`` of symbol ``name``."""
    at = join(where, "paints")
    t = rd.table(raw, at, ("reels",), (*_OFFSETS, "into"))
    reels = reel_numbers(rd, t.get("reels"), join(at, "reels"))
    if not reels:
        return None
    into = t.get("into", name)
    if not isinstance(into, str):
        rd.error(join(at, "into"), "must be a symbol name", Code.TYPE)
        return None
    offsets = {key: rd.integer(t, key, at, 0, default=0) for key in _OFFSETS}
    if any(v is None for v in offsets.values()):
        return None
    return Paint(reels, into, **{k: int(v or 0) for k, v in offsets.items()})


def painters(symbols: tuple[Symbol, ...] | list[Symbol]) -> dict[int, frozenset[str]]:
    """0-based painting reel -> the symbols that paint there."""
    out: dict[int, set[str]] = {}
    for s in symbols:
        if s.paints is not None:
            for r in s.paints.reels:
                out.setdefault(r - 1, set()).add(s.name)
    return {r: frozenset(names) for r, names in sorted(out.items())}


def signature(column: tuple[str, ...] | list[str], names: frozenset[str]) -> tuple[str, ...]:
    """The painting symbol each row of a landed column shows ("" where none)."""
    return tuple(name if name in names else "" for name in column)


def reel_signatures(
    strip: tuple[str, ...], rows: int, names: frozenset[str]
) -> list[tuple[str, ...]]:
    """The signature of every stop of a strip (the column seen from that stop down)."""
    n = len(strip)
    return [signature([strip[(s + y) % n] for y in range(rows)], names) for s in range(n)]


def phase_signatures(
    symbols: tuple[Symbol, ...], strips: tuple[tuple[str, ...], ...], rows: int
) -> list[tuple[int, list[tuple[str, ...]]]]:
    """Per painting reel (0-based): the distinct signatures its stops show, in order."""
    return [
        (r, sorted(set(reel_signatures(strips[r], rows, names))))
        for r, names in painters(symbols).items()
        if r < len(strips)
    ]


def part_count(symbols: tuple[Symbol, ...], strips: tuple[tuple[str, ...], ...], rows: int) -> int:
    """Reel sets one phase splits into: the product of the painting reels' signatures."""
    n = 1
    for _, sigs in phase_signatures(symbols, strips, rows):
        n *= len(sigs)
    return n


def block_cells(p: Paint, reel: int, row: int, n_reels: int, rows: int) -> list[tuple[int, int]]:
    """The (reel, row) cells a symbol at (``reel``, ``row``) paints, clipped to the window."""
    return [
        (c, z)
        for c in range(max(0, reel - p.left), min(n_reels - 1, reel + p.right) + 1)
        for z in range(max(0, row - p.up), min(rows - 1, row + p.down) + 1)
    ]


def check_paints(rd: Reader, symbols: dict[str, Symbol], machine_keys: dict[str, Any]) -> None:
    """Located errors for a ``paints`` key the game cannot play.

    ``machine_keys``: ``strips``, ``rows``, ``free_strips``, and the features
    present (``heights``, ``cascade``, ``clusters``, ``hold``, ``full_window``,
    ``expanding_symbol``, ``counted``: the symbols a scatter pay or trigger counts).
    """
    painting = [s for s in symbols.values() if s.paints is not None]
    if not painting:
        return
    n_reels = len(machine_keys["strips"])
    for s in painting:
        _check_one(rd, s, symbols, n_reels, machine_keys["counted"])
    _check_combinations(rd, painting[0], symbols, machine_keys)
    for key in ("strips", "free_strips"):
        strips = machine_keys.get(key)
        if strips and part_count(tuple(symbols.values()), strips, machine_keys["rows"]) > MAX_PARTS:
            rd.error(
                join(join("symbols", painting[0].name), "paints"),
                f"the painting reels show more than {MAX_PARTS} combinations of rows "
                f"({'free spins' if key == 'free_strips' else 'base game'}): one reel set "
                "each is more than the engine builds",
                Code.RANGE,
            )


def _check_one(
    rd: Reader, s: Symbol, symbols: dict[str, Symbol], n_reels: int, counted: set[str]
) -> None:
    assert s.paints is not None
    at = join(join("symbols", s.name), "paints")
    bad = [r for r in s.paints.reels if r > n_reels]
    if bad:
        rd.error(join(at, "reels"), f"reel {bad[0]} is beyond the {n_reels} reels", Code.RANGE)
    into = symbols.get(s.paints.into)
    if into is None:
        rd.error(join(at, "into"), f"{s.paints.into!r} is not a symbol", Code.UNKNOWN_SYMBOL)
    elif into.kind != "wild":
        rd.error(join(at, "into"), f"{into.name!r} is {into.kind}, not a wild", Code.NOT_WILD)
    elif into.name in counted or into.scatter or into.multipliers:
        rd.error(
            join(at, "into"),
            f"{into.name!r} is counted as a scatter or draws multipliers: painted cells would "
            "count or draw too, which this version does not play",
            Code.UNSUPPORTED,
        )
    if s.kind in ("scatter", "bonus"):
        rd.error(at, f"a {s.kind} symbol cannot paint (scatter cells are kept)", Code.BAD_KIND)


def _check_combinations(
    rd: Reader, s: Symbol, symbols: dict[str, Symbol], keys: dict[str, Any]
) -> None:
    at = join(join("symbols", s.name), "paints")
    conflicts = window_rule_conflicts(symbols, keys)
    if keys.get("big_symbol") is not None:
        conflicts.append("free_spins.big_symbol")
    for what in conflicts:
        rd.error(at, f"painting blocks is not played with {what}", Code.UNSUPPORTED)
