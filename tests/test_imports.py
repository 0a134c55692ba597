"""The packages' import structure: no cycle between modules, no import fallbacks.

The graph is read from the sources with :mod:`ast`, imports inside functions
included: module ``a`` -> module ``b`` when ``a`` imports ``b`` or a name from
it (``from certify.model import files`` -> ``certify.model.files``; ``from
certify.model import load_machine`` -> the package ``certify.model``). A
package's ``__init__`` is the module of the package's name.
"""

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("certify", "reports", "meters", "slotcert")

KNOWN_CYCLES: set[frozenset[str]] = set()  # none: every cycle is an error
KNOWN_FALLBACKS: set[str] = set()  # none: no import fallback inside the packages


def _modules() -> dict[str, Path]:
    out = {}
    for pkg in PACKAGES:
        for path in sorted((ROOT / pkg).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            out[".".join(parts)] = path
    return out


MODULES = _modules()


def _known(name: str) -> str | None:
    """The package module ``name`` is or lies in (``certify.x.y.z`` -> ``certify.x.y``)."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def _targets(module: str, node: ast.Import | ast.ImportFrom, is_package: bool) -> list[str]:
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    else:
        if node.level:
            base = module.split(".") if is_package else module.split(".")[:-1]
            base = base[: len(base) - node.level + 1]
            prefix = ".".join(base + ([node.module] if node.module else []))
        else:
            prefix = node.module or ""
        names = [
            f"{prefix}.{a.name}" if f"{prefix}.{a.name}" in MODULES else prefix for a in node.names
        ]
    return [t for t in (_known(n) for n in names) if t and t != module]


def import_graph() -> dict[str, set[str]]:
    """Module -> the package modules it imports, anywhere in its source."""
    graph: dict[str, set[str]] = {}
    for module, path in MODULES.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        edges: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import | ast.ImportFrom):
                edges.update(_targets(module, node, path.name == "__init__.py"))
        graph[module] = edges
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10 * len(graph)))
    try:
        for v in sorted(graph):
            if v not in index:
                visit(v)
    finally:
        sys.setrecursionlimit(limit)
    return found


def test_the_graph_sees_function_level_imports():
    """Imports inside functions are edges of the graph (the loader imports kinds there)."""
    graph = import_graph()
    assert "certify.kinds" in graph["certify.model.loader"]
    assert "meters.block" in graph["meters.parallel"]


def test_cycle_finder_on_a_hand_made_graph():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert cycles(graph) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_cycle_between_modules():
    found = [c for c in cycles(import_graph()) if frozenset(c) not in KNOWN_CYCLES]
    assert found == [], "import cycles: " + "; ".join(" <-> ".join(c) for c in found)


def _fallbacks(path: Path) -> list[int]:
    """Lines of ``except ImportError`` / ``except ModuleNotFoundError`` handlers."""
    lines = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ExceptHandler) and node.type is not None:
            caught = node.type.elts if isinstance(node.type, ast.Tuple) else [node.type]
            names = {c.id for c in caught if isinstance(c, ast.Name)}
            if names & {"ImportError", "ModuleNotFoundError"}:
                lines.append(node.lineno)
    return lines


def test_no_import_fallbacks_inside_the_packages():
    found = [
        f"{rel}:{line}"
        for path in MODULES.values()
        if (rel := path.relative_to(ROOT).as_posix()) not in KNOWN_FALLBACKS
        for line in _fallbacks(path)
    ]
    assert found == [], "import a declared dependency plainly: " + ", ".join(found)


def test_a_broken_plugin_module_is_a_real_error(monkeypatch):
    """``reports.certify_cmd`` failing to import used to turn into ``invalid choice:
    'certify'``; now the ImportError itself reaches the caller."""
    import reports
    from certify.cli import build_parser

    for name in ("reports.cli", "reports.certify_cmd"):
        monkeypatch.delitem(sys.modules, name, raising=False)
        monkeypatch.delattr(reports, name.rpartition(".")[2], raising=False)
    monkeypatch.setitem(sys.modules, "reports.certify_cmd", None)  # makes its import fail
    with pytest.raises(ImportError, match="certify_cmd"):
        build_parser(["certify", "--help"])
