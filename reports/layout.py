"""How the HTML report lays its tables out: strips side by side, repeats merged, long ones folded.

:mod:`reports.html` turns the PAR sections into tables of display strings;
this module reshapes them for a person reading the page at 1366 px:

* the reel strips as one table per reel set, one column per reel (a stop per
  row, the weight beside a weighted stop), with each reel's symbol counts
  under it, instead of one row per stop of every reel;
* award tables of several bet levels that differ only in the pays (which
  scale with the bet) shown once, the pays of every level in one cell;
* tables longer than :data:`FOLD_ROWS` rows folded in ``<details>`` with a
  summary line, so the page starts with what a reader needs first.

The CSV and the workbook keep every table as it is.
"""

from __future__ import annotations

from typing import Any

from certify.model.schema import Machine

FOLD_ROWS = 12  # a table with more rows is folded (<details>), its summary line shown
_AWARD_PREFIX = "awards_level_"


def strip_tables(machine: Machine) -> list[dict[str, Any]]:
    """The reel strips, one table per reel set: a column per reel, a stop per row.

    A weighted stop reads ``SYM ×w``. The rows under the stops count each
    symbol per reel (stops, and weight where the strips are weighted), so a
    reader can check the counts against the strips on the same page.
    """
    sets = [("base game", machine.strips, machine.weights)]
    fs = machine.free_spins
    if fs is not None and fs.own_reels:
        sets.append((_free_set_name(fs), *fs.played_strips(machine.strips, machine.weights)))
    return [_strip_table(name, strips, weights, machine) for name, strips, weights in sets]


def _free_set_name(fs: Any) -> str:
    """The free spins set's name, with the reels a big symbol covers (its strip on the first)."""
    big = fs.big_symbol
    if big is None:
        return "free spins"
    covered = ", ".join(str(r) for r in big.reels)
    return f"free spins (reels {covered}: one big symbol, drawn from reel {big.reels[0]})"


def _strip_table(name: str, strips: Any, weights: Any, machine: Machine) -> dict[str, Any]:
    reels = len(strips)
    longest = max(len(s) for s in strips)
    rows = []
    for stop in range(longest):
        cells = [str(stop)]
        for r, strip in enumerate(strips):
            if stop >= len(strip):
                cells.append("")
            elif weights:
                cells.append(f"{strip[stop]} ×{weights[r][stop]}")
            else:
                cells.append(str(strip[stop]))
        rows.append({"cells": cells, "flag": False, "total": False})
    counted = "stops and weight" if weights else "stops"
    for sym in machine.symbols:
        stops = [sum(1 for x in strip if x == sym.name) for strip in strips]
        if not any(stops):
            continue
        rows.append(_count_row(f"{sym.name} (stops)" if weights else sym.name, stops))
        if weights:
            weight = [
                sum(weights[r][s] for s, x in enumerate(strip) if x == sym.name)
                for r, strip in enumerate(strips)
            ]
            rows.append(_count_row(f"{sym.name} (weight)", weight))
    rows.append(_count_row("all (stops)", [len(s) for s in strips], total=True))
    if weights:
        rows.append(_count_row("all (weight)", [sum(w) for w in weights], total=True))
    lengths = ", ".join(str(len(s)) for s in strips)
    return {
        "name": f"strips-{name.replace(' ', '-')}",
        "title": f"Reel strips, {name}: one column per reel, {counted} per symbol below",
        "columns": ["stop", *(f"reel {r + 1}" for r in range(reels))],
        "rows": rows,
        "numeric": [True] * (reels + 1),
        "summary": f"{reels} reels of {lengths} stops; symbol counts at the end",
        "fold": True,
    }


def _count_row(label: str, values: list[int], total: bool = False) -> dict[str, Any]:
    return {"cells": [label, *(f"{v:,}" for v in values)], "flag": False, "total": total}


def merge_award_tables(tables: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Award tables of bet levels that differ only in their pays, shown once.

    Two levels' tables merge when every row agrees in every column but
    ``level`` and ``pays`` (so probabilities and contributions are the same:
    the pays scale with the bet); the merged table's ``level`` cell lists the
    levels and its ``pays`` cell their pays, ``1,000 / 2,000 / 5,000``.
    """
    out: list[dict[str, Any]] = []
    groups: list[list[dict[str, Any]]] = []
    for table in tables:
        if not table["name"].startswith(_AWARD_PREFIX):
            out.append(table)
            continue
        for group in groups:
            if _same_but_pays(group[0], table):
                group.append(table)
                break
        else:
            groups.append([table])
            out.append(table)  # the group's place: its first level's
    merged = {id(g[0]): _merged(g) for g in groups if len(g) > 1}
    return [merged.get(id(t), t) for t in out]


def _key(table: dict[str, Any], row: dict[str, Any]) -> tuple:
    cols = table["columns"]
    return tuple(c for name, c in zip(cols, row["cells"], strict=False) if name not in _VARY)


_VARY = ("level", "pays")


def _same_but_pays(a: dict[str, Any], b: dict[str, Any]) -> bool:
    if a["columns"] != b["columns"] or len(a["rows"]) != len(b["rows"]):
        return False
    return all(_key(a, x) == _key(b, y) for x, y in zip(a["rows"], b["rows"], strict=True))


def _merged(group: list[dict[str, Any]]) -> dict[str, Any]:
    first = group[0]
    cols = first["columns"]
    levels = [t["name"].removeprefix(_AWARD_PREFIX) for t in group]
    rows = []
    for i, row in enumerate(first["rows"]):
        cells = list(row["cells"])
        for j, name in enumerate(cols):
            if name == "level":
                cells[j] = ", ".join(levels)
            elif name == "pays":
                values = [t["rows"][i]["cells"][j] for t in group]
                cells[j] = values[0] if len(set(values)) == 1 else " / ".join(values)
        rows.append({**row, "cells": cells})
    return {
        **first,
        "name": f"{_AWARD_PREFIX}{'_'.join(levels)}",
        "title": f"Awards at bet levels {', '.join(levels)} (the same table: pays scale with "
        f"the bet; pays per level {' / '.join(levels)})",
        "rows": rows,
    }


def merge_levels_within(table: dict[str, Any]) -> dict[str, Any]:
    """A table with a ``level`` column whose levels' rows differ only in ``pays``, shown once.

    The rows are grouped by their ``level`` cell (in order); when every
    level's block agrees with the first in every column but ``level`` and
    ``pays``, one block stands for all, as :func:`merge_award_tables` does.
    """
    cols = table["columns"]
    if "level" not in cols:
        return table
    at = cols.index("level")
    blocks: dict[str, list[dict[str, Any]]] = {}
    for row in table["rows"]:
        blocks.setdefault(row["cells"][at], []).append(row)
    if len(blocks) < 2:
        return table
    parts = [
        {**table, "name": f"{_AWARD_PREFIX}{level}", "rows": rows} for level, rows in blocks.items()
    ]
    if not all(_same_but_pays(parts[0], other) for other in parts[1:]):
        return table
    merged = _merged(parts)
    return {
        **table,
        "rows": merged["rows"],
        "title": f"{table['title']}, the same at bet levels "
        f"{', '.join(blocks)} (pays per level {' / '.join(blocks)})",
    }


def without_empty_columns(table: dict[str, Any]) -> dict[str, Any]:
    """The table without the columns no row fills (every cell ``—`` or blank).

    An exact-only PAR table has no confidence bounds: two columns of dashes
    that would push a 1366 px page into a horizontal scroll.
    """
    rows = table["rows"]
    if not rows:
        return table
    keep = [
        i
        for i in range(len(table["columns"]))
        if any(str(r["cells"][i]).strip() not in ("", "—") for r in rows if i < len(r["cells"]))
    ]
    if len(keep) == len(table["columns"]):
        return table
    return {
        **table,
        "columns": [table["columns"][i] for i in keep],
        "numeric": [table["numeric"][i] for i in keep],
        "rows": [{**r, "cells": [r["cells"][i] for i in keep]} for r in rows],
    }


def folded(table: dict[str, Any]) -> dict[str, Any]:
    """The table with ``fold`` (more than :data:`FOLD_ROWS` rows) and a ``summary`` line."""
    n = len(table["rows"])
    fold = table.get("fold", n > FOLD_ROWS)
    summary = table.get("summary") or _summary(table)
    return {**table, "fold": fold, "summary": summary}


def _summary(table: dict[str, Any]) -> str:
    n = len(table["rows"])
    text = f"{n} row{'s' if n != 1 else ''}"
    totals = [r for r in table["rows"] if r.get("total")]
    if totals and table["name"].startswith(_AWARD_PREFIX):
        cols = table["columns"]
        row = totals[-1]["cells"]
        if "certified rtp" in cols:
            text += f"; certified return {row[cols.index('certified rtp')]}"
    return text
