"""The meters package: no import cycle, no import fallback, bounded quarantine reads."""

from __future__ import annotations

import ast
import json

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
from testpaths import ROOT

from meters import readers

PACKAGE = ROOT / "meters"


def imports_of(path) -> set[str]:
    """Modules of the package a file imports, at the top or inside functions."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("meters"):
            if node.module == "meters":
                out.update(f"meters.{a.name}" for a in node.names)
            else:
                out.add(node.module)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name.startswith("meters."))
    return out


def test_no_import_cycle_in_the_meters_package():
    """Depth-first search over every import of the package (function-level ones included)."""
    graph = {f"meters.{p.stem}": imports_of(p) for p in PACKAGE.glob("*.py")}
    state: dict[str, int] = {}

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph.get(node, ())):
            assert state.get(nxt) != 1, "import cycle: " + " -> ".join([*path, node, nxt])
            if nxt not in state:
                visit(nxt, [*path, node])
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node, [])
    assert "meters.reconcile" not in graph["meters.parallel"]
    assert "meters.reconcile" not in graph["meters.block"]


def test_no_import_fallback_in_the_meters_package():
    for path in PACKAGE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ExceptHandler) and node.type is not None:
                names = {n.id for n in ast.walk(node.type) if isinstance(n, ast.Name)}
                assert not names & {"ImportError", "ModuleNotFoundError"}, path.name


def test_quarantined_parquet_rows_read_only_their_row_groups(tmp_path, monkeypatch):
    """Oracle: the rows taken from the whole table, as the reader did before."""
    n = 1000
    table = pa.table(
        {
            "machine_id": [f"M{i % 7}" for i in range(n)],
            "read_at": pa.array(np.arange(n) * 10**9, pa.timestamp("ns", "UTC")),
            "coin_in": pa.array(np.arange(n) * 3, pa.int64()),
        }
    )
    path = tmp_path / "dump.parquet"
    pq.write_table(table, path, row_group_size=64)
    lines = np.array([1, 64, 65, 500, 999, 1000, 500])
    expected = {
        int(i): json.dumps(r, default=str)
        for i, r in zip(
            sorted(set(lines)),
            table.take(pa.array(sorted(set(lines - 1)))).to_pylist(),
            strict=True,
        )
    }
    decoded: list[int] = []
    real = pq.ParquetFile.read_row_group

    def spy(self, i, *args, **kwargs):
        decoded.append(i)
        return real(self, i, *args, **kwargs)

    monkeypatch.setattr(pq, "read_table", lambda *a, **k: (_ for _ in ()).throw(AssertionError))
    monkeypatch.setattr(pq.ParquetFile, "read_row_group", spy)
    assert readers.original_rows(str(path), lines) == expected
    # rows 1 | 64 | 65 | 500 | 999, 1000 are in row groups 0, 0, 1, 7, 15 (64 rows a group)
    assert sorted(decoded) == [0, 1, 7, 15]
