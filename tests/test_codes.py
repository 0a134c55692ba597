"""Every validation and finding code the sources use is registered (certify/codes.py).

The sources are read with :mod:`ast`: the code argument of every
``Reader.error`` / ``warn`` call (third), ``Problem(...)`` (fourth or
``code=``), ``Finding(...)`` (second) and the string default of any parameter
named ``code``. A literal (or a ``Code.X`` member) must be registered with the
severity it is reported at; anything else must be a forwarded ``code``
parameter or a problem's ``.code``.
"""

import ast
from pathlib import Path

import pytest

from certify.codes import BY_CODE, ERROR, WARNING, Code, allows, markdown_table
from certify.errors import ModelError, Problem
from certify.tables import load_table

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("certify", "reports", "slotcert")
DOC = ROOT / "docs" / "CODES.md"


def _literal(node: ast.expr | None) -> str | None:
    """The code a node names: a string literal or ``Code.MEMBER``; None otherwise."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        if node.value.id == "Code" and node.attr in Code.__members__:
            return str(Code[node.attr])
    return None


def _forwarded(node: ast.expr) -> bool:
    """A code passed on: a parameter called ``code`` or some problem's ``.code``."""
    return (isinstance(node, ast.Name) and node.id == "code") or (
        isinstance(node, ast.Attribute) and node.attr == "code"
    )


def _call_code(node: ast.Call) -> tuple[ast.expr | None, str | None]:
    """(code argument, severity) of a problem- or finding-making call, else (None, None)."""
    func = node.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
    kw = {k.arg: k.value for k in node.keywords}
    if name in ("error", "warn") and isinstance(func, ast.Attribute):
        code = node.args[2] if len(node.args) >= 3 else kw.get("code")
        return code, ERROR if name == "error" else WARNING
    if name == "Problem":
        code = node.args[3] if len(node.args) >= 4 else kw.get("code")
        sev = node.args[4] if len(node.args) >= 5 else kw.get("severity")
        return code, ERROR if sev is None else _literal(sev)
    if name == "Finding" and len(node.args) >= 2:
        return node.args[1], _literal(node.args[0])
    return None, None


def code_uses() -> list[tuple[str, str | None, str | None]]:
    """(where, code or None when not a literal, severity) for every code the sources pass."""
    uses = []
    for pkg in PACKAGES:
        for path in sorted((ROOT / pkg).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Call):
                    code, severity = _call_code(node)
                    if code is not None and not _forwarded(code):
                        uses.append((f"{rel}:{node.lineno}", _literal(code), severity))
                elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                    args = node.args.args + node.args.kwonlyargs
                    defaults = [None] * (len(node.args.args) - len(node.args.defaults))
                    defaults += node.args.defaults + node.args.kw_defaults
                    for arg, default in zip(args, defaults):
                        if arg.arg == "code" and default is not None:
                            uses.append((f"{rel}:{node.lineno}", _literal(default), None))
    return uses


def test_the_scan_finds_the_call_sites():
    """Sanity of the scan: about 200 uses (issue 12 counted 127 in an older tree) and
    codes known to be used at named places."""
    uses = code_uses()
    assert len(uses) > 150
    found = {code for _, code, _ in uses}
    assert {"unknown_symbol", "engine_limit", "rtp_drop", "no_translation", "tiles"} <= found


def test_every_code_used_is_registered_with_its_severity():
    bad = []
    for where, code, severity in code_uses():
        if code is None:
            bad.append(f"{where}: a code that is neither a literal nor a forwarded `code`")
        elif severity is None and code not in BY_CODE:
            bad.append(f"{where}: {code!r} is not in certify/codes.py")
        elif severity is not None and not allows(code, severity):
            bad.append(f"{where}: {code!r} as {severity} is not in certify/codes.py")
    assert bad == [], "\n".join(bad)


def test_every_registered_code_is_used():
    used = {code for _, code, _ in code_uses()} | {Problem("f", "", "m").code}
    assert sorted(set(BY_CODE) - used) == []


def test_the_default_problem_code_is_registered():
    assert Problem("f", "", "m").code == Code.INVALID


def test_codes_are_strings_as_written():
    """A member is its string: JSON and messages show the same text as before."""
    assert Code.UNKNOWN_SYMBOL == "unknown_symbol"
    assert f"{Code.RTP_DROP}" == "rtp_drop"
    assert all(c.severity in (ERROR, WARNING, "error or warning") and c.meaning for c in Code)


def test_codes_doc_is_the_registry_table():
    """docs/CODES.md holds the table generated from the registry, verbatim
    (regenerate: ``python -c "from certify.codes import markdown_table as t; print(t())"``)."""
    assert markdown_table() in DOC.read_text(encoding="utf-8")


def test_a_wrong_tile_or_rank_list_carries_its_registered_code(tmp_path):
    """The name-list check of the duel games once passed its key path as the code; the
    codes are the section's (``tiles``, ``deck``), located at the list."""
    models = ROOT / "models" / "tables"
    cases = [
        ("pai-kao.toml", '"9", "white"]', '"white", "9"]', "tiles.faces", "tiles"),
        ("three-card-poker.toml", '"Q", "K"]', '"Q", "Q"]', "deck.ranks", "deck"),
    ]
    for name, old, new, where, code in cases:
        path = tmp_path / name
        path.write_text((models / name).read_text(encoding="utf-8").replace(old, new, 1))
        with pytest.raises(ModelError) as caught:
            load_table(path)
        found = [(p.path, p.code) for p in caught.value.problems]
        assert (where, code) in found, found
