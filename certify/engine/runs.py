"""``consecutive = n``: a scatter counted only on the reels in a row from reel 1 that show it.

Novomatic's Jaguar Moon starts its free spins only where reels 1, 2 and 3 each
show a (stacked) scatter, and then counts every scatter cell on them. Whether a
reel's cells count depends on the reels before it, so a phase (base game, free
spins) is split into parts (:class:`certify.engine.paint.Parts`) by which of
the leading reels show the symbol: each such reel keeps the weights of the
stops that show it (or of those that do not), and the symbol's count row is
zeroed past the part's run from reel 1 (everywhere where the run is shorter
than ``n``). Each part is an ordinary set of independent reels, the parts'
cycles add up to the phase's, and the exact calculator sums them; the
simulation draws the part by its weight, then the stops within it. A stop row's
part is the sum of ``Parts.offset`` over the reels (one bit per split reel), so
the outcome replay finds it from the stops.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections.abc import Callable

import numpy as np

from certify.engine.paint import Parts, ReelSet
from certify.model.schema import Machine

MAX_SPLIT_REELS = 6  # 2^6 parts per phase at most (as many as painted reel sets)


def consecutive_symbol(machine: Machine) -> str | None:
    """The symbol counted on consecutive reels from reel 1, or None."""
    return next((s.name for s in machine.symbols if s.consecutive), None)


def split_runs(
    machine: Machine,
    reels: ReelSet,
    counted: list[str],
    reweighted: Callable[[ReelSet, np.ndarray, np.ndarray], ReelSet],
) -> Parts | None:
    """The parts of one phase by which leading reels show the consecutive symbol.

    None where the symbol is not counted (nothing to split). Only the reels up
    to the first whose strip never shows it are split, and of those only the
    ones whose stops may show it or not.
    """
    name = consecutive_symbol(machine)
    if name is None or name not in counted:
        return None
    c = counted.index(name)
    least = machine.symbol(name).consecutive
    shows = reels.counted[c] > 0  # (reels, stops) as landed
    split, always = _split_reels(reels, shows)
    offset = np.zeros(reels.weight.shape, dtype=np.int64)
    for bit, r in enumerate(split):
        offset[r] = np.where(shows[r], 1 << (len(split) - 1 - bit), 0)
    sets = []
    for pattern in itertools.product((False, True), repeat=len(split)):
        present = dict(zip(split, pattern, strict=True)) | dict.fromkeys(always, True)
        weight = reels.weight.copy()
        for r, seen in zip(split, pattern, strict=True):
            weight[r] = np.where(shows[r] == seen, weight[r], 0)
        part = reweighted(reels, reels.window, weight)
        sets.append(_counted_on_run(part, c, _run(present, reels.length.shape[0]), least))
    weights = [math.prod(int(s.total_weight[r]) for r in split) for s in sets]
    g = math.gcd(*weights)
    return Parts(tuple(sets), np.array([w // g for w in weights], dtype=np.int64), offset)


def _split_reels(reels: ReelSet, shows: np.ndarray) -> tuple[list[int], list[int]]:
    """(reels that may show the symbol or not, reels that always show it), from reel 1.

    Both stop at the first reel whose strip never shows it (the run ends there).
    """
    split, always = [], []
    for r in range(reels.length.shape[0]):
        n = int(reels.length[r])
        weighted = reels.weight[r, :n] > 0
        seen = shows[r, :n] & weighted
        if not seen.any():
            break
        if seen.sum() == weighted.sum():
            always.append(r)
        else:
            split.append(r)
    if len(split) > MAX_SPLIT_REELS:
        raise ValueError(f"{len(split)} reels to split (at most {MAX_SPLIT_REELS})")
    return split, always


def _run(present: dict[int, bool], n_reels: int) -> int:
    """Reels in a row from reel 1 that show the symbol."""
    run = 0
    while run < n_reels and present.get(run, False):
        run += 1
    return run


def _counted_on_run(reels: ReelSet, c: int, run: int, least: int) -> ReelSet:
    """``reels`` counting symbol ``c`` on the first ``run`` reels only (none below ``least``)."""
    counted = reels.counted.copy()
    counted[c, run if run >= least else 0 :] = 0
    return dataclasses.replace(reels, counted=counted)


def refusals(machine: Machine, screens: bool) -> list[tuple[str, str]]:
    """(key, what) of the combinations with ``consecutive`` this engine does not play."""
    names = [s.name for s in machine.symbols if s.consecutive]
    if not names:
        return []
    key = f"symbols.{names[0]}.consecutive"
    what = "a symbol counted on consecutive reels"
    out = []
    if len(names) > 1:
        out.append((f"symbols.{names[1]}.consecutive", f"more than one {what}"))
    fs = machine.free_spins
    others = {
        "a screen game (cascade, cluster, sticky, hold)": screens,
        "symbols that paint blocks (paints)": any(s.paints for s in machine.symbols),
        "wilds that expand by chance": any(s.expands_chance for s in machine.symbols),
        "window or full-reel multipliers": any(
            s.window_multiplier > 1 or s.full_reel_multipliers for s in machine.symbols
        ),
        "[[full_window_pays]]": bool(machine.full_window_pays),
        "free_spins.big_symbol": fs is not None and fs.big_symbol is not None,
        "free_spins.expanding_symbol": fs is not None and bool(fs.expanding_symbol),
        "free_spins.retrigger_symbol": fs is not None and fs.retrigger_symbol is not None,
    }
    out += [(key, f"{what} with {other}") for other, refused in others.items() if refused]
    return out
