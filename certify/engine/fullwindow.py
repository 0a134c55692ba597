"""Full-window pays (SPEC 3.1a ``[[full_window_pays]]``) as per-column bit masks.

A window is full of a symbol when *every* cell shows it or a wild that
substitutes for it, so the test is a conjunction over the reels: each column
(as the lines evaluate it, after expanding wilds and wilds in free spins) gets
a bit mask of the *targets* it passes, and a spin's window is full of a target
when the bit survives the AND of its columns' masks. An entry with ``reels``
(the first k reels, or any set of reels, filled: SPEC 3.1a) is the same test
with the other columns passing its targets at every stop: a table transform,
the kernels and the exact enumeration of full windows are unchanged.

Targets: one per ``symbol`` entry (the symbol, or a wild substituting for it),
one per group entry (a member, members may mix, or a wild substituting for a
member), and for ``ANY`` one per non-wild symbol plus "every cell a wild".
Cells a shorter reel does not show (variable heights) are not part of the
window: they pass every target. The multiplier of a window is the largest
among the targets it is full of (``full_window_multiplier`` in the kernels).
"""

from __future__ import annotations

import dataclasses

import numpy as np

from certify.errors import ModelError, Problem
from certify.model.schema import ANY, Machine, Symbol

MAX_TARGETS = 64  # one bit each in a uint64 mask


Target = tuple[str, frozenset[str] | None, int, bool, tuple[int, ...], bool]


def full_window_targets(machine: Machine) -> list[Target]:
    """(label, symbols a cell may show, multiplier, any wild counts, reels, wilds) of each target.

    ``reels``: the reels (1-based) the target is judged on (an entry's ``reels``
    key; every reel when unset); the other columns pass it.
    ``wilds``: the entry's ``wilds_count`` (False: a wild cell counts only as
    itself, so only a window of the wild itself is full of it).

    ``None`` as the symbols is the "every cell a wild" target of ``ANY``. A
    wild cell passes a target whose symbols it substitutes for, or any target
    of ``ANY`` (see :func:`cell_passes`).
    """
    groups = dict(machine.groups)
    out: list[Target] = []
    for entry in machine.full_window_pays:
        k = entry.reels or tuple(range(1, machine.reels + 1))
        mult, wilds = entry.multiplier, entry.wilds_count
        if entry.symbol == ANY:
            for s in machine.symbols:
                if s.kind != "wild":
                    out.append((f"ANY:{s.name}", frozenset({s.name}), mult, True, k, wilds))
            if wilds:
                out.append(("ANY:wild", None, mult, True, k, wilds))
            else:  # each wild fills a window of its own
                for s in machine.symbols:
                    if s.kind == "wild":
                        out.append((f"ANY:{s.name}", frozenset({s.name}), mult, True, k, wilds))
        elif entry.symbol in groups:
            out.append((entry.symbol, frozenset(groups[entry.symbol]), mult, False, k, wilds))
        else:
            out.append((entry.symbol, frozenset({entry.symbol}), mult, False, k, wilds))
    return out


def target_owners(machine: Machine) -> list[int]:
    """The ``[[full_window_pays]]`` entry of each target, in target order (ANY owns several)."""
    return [
        i
        for i, entry in enumerate(machine.full_window_pays)
        for _ in full_window_targets(dataclasses.replace(machine, full_window_pays=(entry,)))
    ]


def cell_passes(
    sym: Symbol, target: frozenset[str] | None, any_wild: bool = False, wilds: bool = True
) -> bool:
    """Whether one cell showing ``sym`` (as evaluated) keeps a window full of ``target``.

    ``wilds`` False: a wild stands only for itself (the entry's ``wilds_count``).
    """
    if sym.kind == "blank" and sym.plays == sym.name:  # a cell the reel does not show
        return True
    landed = sym.plays or sym.name
    if not wilds:
        return target is not None and landed in target
    if target is None or (any_wild and sym.kind == "wild"):
        return sym.kind == "wild"
    if landed in target:
        return True
    return sym.kind == "wild" and any(name in target for name in sym.substitutes)


def column_masks(
    window: np.ndarray, symbols: tuple[Symbol, ...], targets: list[Target]
) -> np.ndarray:
    """(reels, stops) uint64: bit ``t`` set when the column at that stop passes target ``t``."""
    per_symbol = np.zeros(len(symbols), dtype=np.uint64)
    for i, sym in enumerate(symbols):
        bits = 0
        for t, (_, target, _, any_wild, _, wilds) in enumerate(targets):
            if cell_passes(sym, target, any_wild, wilds):
                bits |= 1 << t
        per_symbol[i] = np.uint64(bits)
    masks = np.full(window.shape[:2], np.uint64((1 << len(targets)) - 1), dtype=np.uint64)
    for row in range(window.shape[2]):
        masks &= per_symbol[window[:, :, row]]
    for t, (*_, judged, _) in enumerate(targets):  # columns off the target's reels pass it
        for r in range(window.shape[0]):
            if r + 1 not in judged:
                masks[r, :] |= np.uint64(1 << t)
    return masks


def full_window_arrays(
    machine: Machine, play_symbols: tuple[Symbol, ...], windows: list[np.ndarray]
) -> dict:
    """The ``GameTables`` fields of a game's full-window pays (empty dict: none).

    ``windows`` are the evaluated windows of the reel sets, in ``reel_sets``
    order; ``play_symbols`` the symbols as the engine plays them (ids index it).
    """
    targets = full_window_targets(machine)
    if not targets:
        return {}
    if len(targets) > MAX_TARGETS:
        raise ModelError(
            [
                Problem(
                    machine.source or machine.id,
                    "full_window_pays",
                    f"{len(targets)} full-window targets (ANY counts one per symbol);"
                    f" at most {MAX_TARGETS}",
                    "engine_limit",
                )
            ]
        )
    per_set = [column_masks(w, play_symbols, targets) for w in windows]
    reels = max(m.shape[0] for m in per_set)
    stops = max(m.shape[1] for m in per_set)
    mask = np.zeros((len(per_set), reels, stops), dtype=np.uint64)
    for i, m in enumerate(per_set):
        mask[i, : m.shape[0], : m.shape[1]] = m
    return {
        "full_window_mask": mask,
        "full_window_mult": np.array([t[2] for t in targets], dtype=np.int64),
    }
