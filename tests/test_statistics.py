"""The one statistics module: its normal quantile, and no second one in the packages."""

import ast
from pathlib import Path

import pytest
from scipy.special import ndtri

from certify.stats import interval, normal_quantile, z_value

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("certify", "reports", "meters", "slotcert")
HOME = ROOT / "certify" / "stats.py"


@pytest.mark.parametrize(
    ("p", "published"),
    [(0.95, 1.645), (0.975, 1.960), (0.995, 2.576), (0.9995, 3.291)],
)
def test_quantile_matches_published_critical_values(p, published):
    """NIST/SEMATECH e-Handbook of Statistical Methods, 1.3.6.7.1 (critical values of the
    normal distribution, three decimals)."""
    assert round(normal_quantile(p), 3) == published


@pytest.mark.parametrize("p", [1e-12, 1e-6, 0.001, 0.02425, 0.1, 0.5, 0.7, 0.97575, 0.999999])
def test_quantile_matches_an_independent_implementation(p):
    """Second method: Cephes' ``ndtri`` (scipy.special), a different algorithm than the
    standard library's AS 241; agreement to 1e-13 relative (both double precision)."""
    assert normal_quantile(p) == pytest.approx(float(ndtri(p)), rel=1e-13, abs=1e-15)


def test_interval_is_mean_plus_minus_z_standard_errors():
    """Hand calculation: 99% -> z = 2.5758 (NIST table), so 1 +/- 0.025758 for se 0.01."""
    low, high = interval(1.0, 0.01, 0.99)
    assert round(z_value(0.99), 4) == 2.5758
    assert (round(low, 6), round(high, 6)) == (0.974242, 1.025758)


def _quantile_uses(path: Path) -> list[str]:
    """Places in a module that compute a normal quantile themselves."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = {"NormalDist", "ndtri", "erfinv", "inv_cdf", "ppf", "norm"}
    hits = []
    for node in ast.walk(tree):
        name = (
            node.attr
            if isinstance(node, ast.Attribute)
            else node.id
            if isinstance(node, ast.Name)
            else None
        )
        if isinstance(node, ast.alias):
            name = node.name.rpartition(".")[2]
        if name in names:
            hits.append(f"{path.relative_to(ROOT)}:{getattr(node, 'lineno', '?')}: {name}")
    return hits


def test_no_other_module_computes_a_normal_quantile():
    hits = [
        hit
        for pkg in PACKAGES
        for path in sorted((ROOT / pkg).rglob("*.py"))
        if path != HOME
        for hit in _quantile_uses(path)
    ]
    assert hits == [], "use certify.stats.normal_quantile / z_value:\n" + "\n".join(hits)
