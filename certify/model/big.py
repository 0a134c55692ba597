"""``[free_spins] big_symbol``: one symbol covering consecutive reels' whole window.

AGT Valkyrie and Play'n GO Fire Joker play their free spins with reels 2-4 as
one 3x3 symbol, drawn from a strip of its own (slotopol's ``SpinBig``).
Novomatic Fairy Queen's free spins draw a symbol that fills reels 1-2 or 1-3
(by symbol: ``covers``), its light one cell per reel (``columns``). The
covered reels are linked, so the engine plays the feature as one reel set per
big symbol (``certify/engine/big.py``), each an ordinary set of independent
reels. This module reads the key and checks it against the rest of the machine.
"""

from __future__ import annotations

from typing import Any

from certify.codes import Code
from certify.model.features import reel_numbers, window_rule_conflicts
from certify.model.reader import Reader, join
from certify.model.schema import BigSymbol, Symbol


def read_big_symbol(
    rd: Reader, raw: Any, where: str, symbols: dict[str, Symbol], n_reels: int
) -> BigSymbol | None:
    """``big_symbol = {reels = [2, 3, 4], strip = [...], weights = [...]}`` under ``where``."""
    at = join(where, "big_symbol")
    t = rd.table(raw, at, ("reels", "strip"), ("weights", "covers", "columns"))
    reels = reel_numbers(rd, t.get("reels"), join(at, "reels"), n_reels)
    if reels and list(reels) != list(range(reels[0], reels[-1] + 1)):
        rd.error(join(at, "reels"), "must be consecutive reels", Code.RANGE)
    strip = rd.array(t, "strip", at) or []
    for i, name in enumerate(strip):
        if not isinstance(name, str) or name not in symbols:
            rd.error(join(join(at, "strip"), i), f'unknown symbol "{name}"', Code.UNKNOWN_SYMBOL)
    weights = None
    raw_weights = rd.array(t, "weights", at, default=None)
    if raw_weights is not None:
        if len(raw_weights) != len(strip):
            rd.error(
                join(at, "weights"),
                f"needs one weight per stop of the strip ({len(strip)}), got {len(raw_weights)}",
                Code.RAGGED,
            )
        weights = tuple(
            rd.check_int(w, join(join(at, "weights"), i), 1) or 1 for i, w in enumerate(raw_weights)
        )
    if not reels or not strip:
        return None
    on_strip = {str(s) for s in strip}
    covers = _covers(rd, t.get("covers"), join(at, "covers"), on_strip, len(reels))
    columns = _columns(rd, t.get("columns"), join(at, "columns"), on_strip, symbols)
    return BigSymbol(reels, tuple(str(s) for s in strip), weights, covers, columns)


def _by_strip_symbol(rd: Reader, raw: Any, at: str, on_strip: set[str]) -> dict[str, Any]:
    """A table keyed by symbols of the big strip (empty when absent)."""
    if raw is None:
        return {}
    if not isinstance(raw, dict) or not raw:
        rd.error(at, "must be a non-empty table of symbol = value", Code.TYPE)
        return {}
    for name in raw:
        if name not in on_strip:
            rd.error(join(at, name), f"{name!r} is not on the big strip", Code.UNKNOWN_SYMBOL)
    return {name: v for name, v in raw.items() if name in on_strip}


def _covers(
    rd: Reader, raw: Any, at: str, on_strip: set[str], n_reels: int
) -> tuple[tuple[str, int], ...]:
    """``covers = {NINE = 2}``: a symbol covering only the first reels of ``reels``."""
    out = []
    for name, n in sorted(_by_strip_symbol(rd, raw, at, on_strip).items()):
        value = rd.check_int(n, join(at, name), 1)
        if value is not None and value > n_reels:
            rd.error(join(at, name), f"covers at most the {n_reels} reels listed", Code.RANGE)
        elif value is not None and value < n_reels:  # all of them: as if not listed
            out.append((name, value))
    return tuple(out)


def _columns(
    rd: Reader, raw: Any, at: str, on_strip: set[str], symbols: dict[str, Symbol]
) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """``columns = {LIGHT = ["_", "LIGHT", "_"]}``: the cells a covered reel shows."""
    out = []
    for name, cells in sorted(_by_strip_symbol(rd, raw, at, on_strip).items()):
        if not isinstance(cells, list) or not cells:
            rd.error(join(at, name), "must be a non-empty array of symbols", Code.TYPE)
            continue
        bad = [i for i, c in enumerate(cells) if not isinstance(c, str) or c not in symbols]
        for i in bad:
            rd.error(join(join(at, name), i), f'unknown symbol "{cells[i]}"', Code.UNKNOWN_SYMBOL)
        if not bad:
            out.append((name, tuple(cells)))
    return tuple(out)


def check_big_symbol(
    rd: Reader, big: BigSymbol | None, symbols: dict[str, Symbol], keys: dict[str, Any]
) -> None:
    """Located errors for a big symbol the game cannot play.

    ``keys``: the features present, as :func:`certify.model.paint.check_paints`
    takes them (``counted``: the symbols a scatter pay or trigger counts).
    """
    if big is None:
        return
    at = join("free_spins", "big_symbol")
    columns = dict(big.columns)
    for name, cells in big.columns:
        if len(cells) != keys["rows"]:
            rd.error(
                join(join(at, "columns"), name),
                f"needs one cell per row ({keys['rows']}), got {len(cells)}",
                Code.RAGGED,
            )
    for i, name in enumerate(big.strip):
        s = symbols.get(name)
        if s is None or name in columns:
            continue
        if s.kind in ("scatter", "bonus") or name in keys["counted"] or s.scatter:
            rd.error(
                join(join(at, "strip"), i),
                f"{name!r} is counted by a scatter pay or trigger: a big symbol covering every "
                "cell is not played; give the cells it shows in big_symbol.columns",
                Code.UNSUPPORTED,
            )
            return
    conflicts = window_rule_conflicts(symbols, keys)
    if any(s.paints is not None for s in symbols.values()):
        conflicts.append("paints")
    for what in conflicts:
        rd.error(at, f"a big symbol is not played with {what}", Code.UNSUPPORTED)
