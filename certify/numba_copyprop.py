"""numba's copy propagation with the same results in a fraction of the time.

numba's ``ir_utils.copy_propagate`` (run by every ``simplify`` of a
parallel kernel, twice per compile by the parfor passes) snapshots its
whole state with ``copy.deepcopy`` after every pass of its fixed point to
see whether the pass changed it, and ``init_copy_propagate_data``
recomputes a block's assigned names once per copy of the whole function. On
the simulation kernel (thousands of blocks and copies after inlining) the
two took about 60% of a 55 s compile (cProfile, 2026-12-02). Here a pass
notes whether it changed a block's out set, and the copies a block kills
are found through an index from a name to the copies that mention it.
Same equations, same results: checked against numba's own functions on
real compiles in ``tests/test_numba_copyprop.py``.

:func:`install` puts these in place of numba's for the versions whose
functions have the signatures written here; any other numba keeps its own.
"""

from __future__ import annotations

import inspect
from collections import defaultdict
from collections.abc import Callable
from typing import Any

from numba.core import ir_utils

_ORIGINAL: dict[str, Callable[..., Any]] = {
    "copy_propagate": ir_utils.copy_propagate,
    "init_copy_propagate_data": ir_utils.init_copy_propagate_data,
}
_SIGNATURES = {
    "copy_propagate": "(blocks, typemap)",
    "init_copy_propagate_data": "(blocks, entry, typemap)",
}


def init_copy_propagate_data(blocks: dict, entry: int, typemap: dict) -> tuple:
    """Numba's ``init_copy_propagate_data``: (gen, all, kill, in, out) copies per block."""
    gen_copies, extra_kill = ir_utils.get_block_copies(blocks, typemap)
    all_copies: set = set()
    for pairs in gen_copies.values():
        all_copies |= pairs
    mentioning = defaultdict(set)  # variable name -> the copies it is a side of
    for lhs, rhs in all_copies:
        mentioning[lhs].add((lhs, rhs))
        mentioning[rhs].add((lhs, rhs))
    kill_copies = {}
    for label, gen_set in gen_copies.items():
        killed: set = set()
        for name in extra_kill[label]:
            killed |= mentioning.get(name, set())
        reassigned: set = set()
        for lhs, _ in gen_set:
            reassigned |= mentioning.get(lhs, set())
        kill_copies[label] = killed | (reassigned - gen_set)
    in_copies = {label: all_copies.copy() for label in blocks.keys()}
    in_copies[entry] = set()
    out_copies = {}
    for label in blocks.keys():
        out_copies[label] = gen_copies[label] | (in_copies[label] - kill_copies[label])
    out_copies[entry] = gen_copies[entry]
    return gen_copies, all_copies, kill_copies, in_copies, out_copies


def copy_propagate(blocks: dict, typemap: dict) -> tuple[dict, dict]:
    """Numba's ``copy_propagate``: (in, out) copies per block, by fixed-point iteration.

    The same passes in the same order as numba's; a pass that changes no
    block's out set ends it, where numba compares a deep copy of every set
    with the one before.
    """
    cfg = ir_utils.compute_cfg_from_blocks(blocks)
    entry = cfg.entry_point()
    gen_copies, _, kill_copies, in_copies, out_copies = init_copy_propagate_data(
        blocks, entry, typemap
    )
    changed = True
    while changed:
        changed = False
        for label in blocks.keys():
            if label == entry:
                continue
            predecs = [i for i, _d in cfg.predecessors(label)]
            in_copies[label] = out_copies[predecs[0]].copy()
            for p in predecs:
                in_copies[label] &= out_copies[p]
            out = gen_copies[label] | (in_copies[label] - kill_copies[label])
            changed = changed or out != out_copies[label]
            out_copies[label] = out
    return in_copies, out_copies


def installable() -> bool:
    """Whether this numba's functions are the ones these replace (by signature)."""
    return all(
        str(inspect.signature(_ORIGINAL[name])) == signature
        for name, signature in _SIGNATURES.items()
    )


def install() -> bool:
    """Use these in numba's place (its modules that imported them by name too); True if done.

    The copy propagation installed first forwards built records' fields
    (:func:`certify.numba_records.forward_record_fields`).
    """
    if not installable():
        return False
    from numba.parfors import parfor

    from certify.numba_records import forwarding

    propagate = forwarding(copy_propagate)  # records' fields read as their sources first
    ir_utils.copy_propagate = propagate
    ir_utils.init_copy_propagate_data = init_copy_propagate_data
    if getattr(parfor, "copy_propagate", None) is _ORIGINAL["copy_propagate"]:
        parfor.copy_propagate = propagate
    return True
