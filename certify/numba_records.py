"""Record fields read as the variables they were built from: records at no cost per spin.

A kernel that builds a ``NamedTuple`` record (``t = SpinTables(head, ...)``)
and hands it to inlined helpers reads its fields with ``getattr``; numba
lowers each such read of an array field as a new reference (an atomic
increment and decrement of the array's count) that its reference-count
pruning rarely removes when the read sits in a loop. On the simulation's
spin loop that made records 2x slower than plain arrays (issue 27). Numba's
own copy propagation already turns the helpers' parameters into the caller's
variables; this pass, run just before it on the same blocks, rewrites
``x = getattr(t, "f")`` into the copy ``x = a`` where ``t`` was built as
``Record(..., a, ...)``, so copy propagation then reads ``a`` itself.

The rewrite is made only where it is sure to read the same value: ``t``, the
variables it is copied through and ``a`` each have one definition, the
record is built by a call of its own class with positional arguments, ``x``
and ``a`` have the same type, and no path from ``a``'s definition reaches
the read without passing the record's construction (and each copy of it, in
order): a record built in a loop from values defined outside it, or from
values defined just before it in the loop, qualifies; a record that outlives
a redefinition of its field's source does not. Checked on real compiles in
``tests/test_numba_records.py``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from numba.core import ir, ir_utils, types

Position = tuple[int, int]  # (block label, statement index)
NESTED = -1  # the label standing for "inside a nested parfor": never forwarded from or to


def _definitions(blocks: dict) -> dict[str, list[tuple[Position, ir.Assign]]]:
    """Variable name -> every assignment of it, with its position (top-level statements)."""
    defs: dict[str, list[tuple[Position, ir.Assign]]] = {}
    for label, block in blocks.items():
        for i, stmt in enumerate(block.body):
            if isinstance(stmt, ir.Assign):
                defs.setdefault(stmt.target.name, []).append(((label, i), stmt))
            nested = getattr(stmt, "loop_body", None)  # a parfor: its assignments count too
            if isinstance(nested, dict):
                inner = _definitions({**nested, NESTED: stmt.init_block})
                for name, found in inner.items():
                    defs.setdefault(name, []).extend(((NESTED, NESTED), s) for _, s in found)
    return defs


def reaches(successors: dict, start: Position, target: Position, wall: Position) -> bool:
    """Whether some path from just after ``start`` reaches ``target`` before ``wall``."""

    def scan(label: int, begin: int) -> bool | None:
        """True: target met; False: wall met first; None: ran off the block's end."""
        hits = [p for p in (target, wall) if p[0] == label and p[1] >= begin]
        if not hits:
            return None
        first = min(hits, key=lambda p: p[1])
        return first == target

    seen: set[int] = set()
    first = scan(start[0], start[1] + 1)
    if first is not None:
        return first
    todo = list(successors[start[0]])
    while todo:
        label = todo.pop()
        if label in seen:
            continue
        seen.add(label)
        met = scan(label, 0)
        if met is None:
            todo.extend(successors[label])
        elif met:
            return True
    return False


def _record_source(
    name: str, defs: dict, typemap: dict
) -> tuple[list[Position], list[ir.Var]] | None:
    """The construction of record variable ``name``: (positions along its copies, its arguments).

    Positions run from the construction to the last copy (the variable read).
    """
    chain: list[Position] = []
    while True:
        found = defs.get(name, [])
        if len(found) != 1 or found[0][0][0] == NESTED:
            return None
        position, stmt = found[0]
        chain.append(position)
        value = stmt.value
        if isinstance(value, ir.Var):
            name = value.name
            continue
        if not (isinstance(value, ir.Expr) and value.op == "call"):
            return None
        if value.kws or value.vararg is not None:
            return None
        func = defs.get(value.func.name, [])
        if (
            len(func) != 1
            or func[0][0][0] == NESTED
            or not isinstance(func[0][1].value, (ir.Global, ir.FreeVar))
        ):
            return None
        cls = func[0][1].value.value
        record = typemap.get(stmt.target.name)
        if not isinstance(record, types.BaseNamedTuple) or record.instance_class is not cls:
            return None
        if len(value.args) != len(record.fields):
            return None
        chain.reverse()
        return chain, list(value.args)


def forward_record_fields(blocks: dict, typemap: dict) -> int:
    """Rewrite reads of a built record's fields into copies of their sources; the count made."""
    defs = _definitions(blocks)
    cfg = ir_utils.compute_cfg_from_blocks(blocks)
    successors = {label: [s for s, _ in cfg.successors(label)] for label in blocks}
    made = 0
    for label, block in blocks.items():
        for i, stmt in enumerate(block.body):
            value = stmt.value if isinstance(stmt, ir.Assign) else None
            if not (isinstance(value, ir.Expr) and value.op == "getattr"):
                continue
            record = typemap.get(value.value.name)
            if not isinstance(record, types.BaseNamedTuple) or value.attr not in record.fields:
                continue
            source = _record_source(value.value.name, defs, typemap)
            if source is None:
                continue
            chain, args = source
            arg = args[record.fields.index(value.attr)]
            found = defs.get(arg.name, [])
            if len(found) != 1 or found[0][0][0] == NESTED:
                continue
            if typemap.get(arg.name) != typemap.get(stmt.target.name):
                continue
            links = [found[0][0], *chain]
            read = (label, i)
            if any(
                reaches(successors, before, read, after)
                for before, after in zip(links, links[1:], strict=False)
            ):
                continue
            stmt.value = ir.Var(arg.scope, arg.name, value.loc)
            made += 1
    return made


def forwarding(propagate: Callable[..., Any]) -> Callable[..., Any]:
    """``propagate`` (a copy propagation) run after :func:`forward_record_fields` on its blocks."""

    @functools.wraps(propagate)
    def copy_propagate(blocks: dict, typemap: dict) -> Any:
        forward_record_fields(blocks, typemap)
        return propagate(blocks, typemap)

    return copy_propagate
