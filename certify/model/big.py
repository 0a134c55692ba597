"""``[free_spins] big_symbol``: one symbol covering consecutive reels' whole window.

AGT Valkyrie and Play'n GO Fire Joker play their free spins with reels 2-4 as
one 3x3 symbol, drawn from a strip of its own (slotopol's ``SpinBig``). The
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
    t = rd.table(raw, at, ("reels", "strip"), ("weights",))
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
    return BigSymbol(reels, tuple(str(s) for s in strip), weights)


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
    for i, name in enumerate(big.strip):
        s = symbols.get(name)
        if s is None:
            continue
        if s.kind in ("scatter", "bonus") or name in keys["counted"] or s.scatter:
            rd.error(
                join(join(at, "strip"), i),
                f"{name!r} is counted by a scatter pay or trigger: a big symbol would count on "
                "every cell it covers, which this version does not play",
                Code.UNSUPPORTED,
            )
            return
    conflicts = window_rule_conflicts(symbols, keys)
    if any(s.paints is not None for s in symbols.values()):
        conflicts.append("paints")
    for what in conflicts:
        rd.error(at, f"a big symbol is not played with {what}", Code.UNSUPPORTED)
