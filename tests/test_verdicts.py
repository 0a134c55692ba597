"""The verdicts are defined once (certify/verdicts.py) and used from there."""

import ast
from pathlib import Path

from certify.verdicts import DISPLAY_ORDER, EXIT_STATUS, SEVERITY_ORDER, Verdict, worst

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("certify", "reports", "meters", "slotcert")
HOME = ROOT / "certify" / "verdicts.py"


def test_worst_follows_spec_4_order():
    """SPEC 4: error > fail > inconclusive > pass; no level at all is an error."""
    assert worst(["pass", "inconclusive"]) == "inconclusive"
    assert worst(["inconclusive", "fail", "pass"]) == "fail"
    assert worst(["fail", "error"]) == "error"
    assert worst([]) == "error"
    assert SEVERITY_ORDER == ("pass", "inconclusive", "fail", "error")


def test_display_order_and_exit_codes():
    """What the batch index and the summary line have always shown; exit 0 only on pass."""
    assert DISPLAY_ORDER == ("pass", "fail", "inconclusive", "error")
    assert EXIT_STATUS == {"pass": 0, "inconclusive": 1, "fail": 1, "error": 1}
    assert f"{Verdict.INVALID:>8}" == " invalid"


def test_no_other_module_spells_a_verdict():
    """A verdict name as a string literal (docstrings aside) lives in certify/verdicts.py only;
    ``inconclusive`` and ``invalid`` as a verdict are the tell-tale ones."""
    hits = []
    for pkg in PACKAGES:
        for path in sorted((ROOT / pkg).rglob("*.py")):
            if path == HOME:
                continue
            tree = ast.parse(path.read_text(encoding="utf-8"))
            docstrings = {
                id(node.body[0].value)
                for node in ast.walk(tree)
                if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef)
                and node.body
                and isinstance(node.body[0], ast.Expr)
            }
            for node in ast.walk(tree):
                if (
                    isinstance(node, ast.Constant)
                    and node.value == "inconclusive"
                    and id(node) not in docstrings
                ):
                    hits.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert hits == []
