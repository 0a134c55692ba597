"""Issue 29 item 4: ``validate``, ``exact``, ``simulate`` and ``certify`` agree on every model.

One decision (:mod:`certify.admission`) says whether a model can be played;
every path calls it, so a model one path refuses (exit 2, ``invalid``), every
path refuses, and one that ``validate`` accepts, every path runs. Checked on
every machine of ``tests/data`` and ``models/`` and on the two cases of the
issue: a wild x2 game with a ``W W W W W`` pay (``certify`` fails it with
``impossible_award``: ``validate`` says so too and names the key that fixes
it) and a strip cascade longer than its ``max_screens`` (refused by all four).
"""

from __future__ import annotations

from pathlib import Path

import pytest

import slotcert
from certify.cli import main
from certify.model.files import kind_of

ROOT = Path(__file__).resolve().parents[2]
JURISDICTION = ROOT / "models" / "jurisdictions" / "nv.toml"
MACHINES = sorted(
    p
    for folder in (ROOT / "tests" / "data", ROOT / "models" / "machines")
    for p in folder.rglob("*.toml")
    if kind_of(p)[0] == "machine"
)

# below the default: a screen game above it is refused its exact figures by exact and certify
# alike (not an invalid model), and the test does not spend minutes on a 1e9-start cycle
BUDGET_S = 30


def verdicts(path: Path, capsys) -> dict[str, bool]:
    """Whether each path refuses ``path`` (exit 2, or ``invalid`` from certify)."""
    out = {}
    for name, argv in (
        ("validate", ["validate", str(path)]),
        ("exact", ["exact", str(path), "--budget", str(BUDGET_S)]),
        ("simulate", ["simulate", str(path), "--spins", "2000", "--seed", "1"]),
    ):
        code = main(["-q", *argv])
        err = capsys.readouterr().err
        assert code in (0, 2) and "internal error" not in err, (name, code, err)
        out[name] = code == 2
    batch = slotcert.certify(path, JURISDICTION, spins=0, seed=1, exact_budget_s=BUDGET_S)
    out["certify"] = batch.machines[0].verdict == "invalid"
    return out


@pytest.mark.parametrize("path", MACHINES, ids=lambda p: p.name)
def test_the_four_paths_agree_on_every_model(path, capsys):
    got = verdicts(path, capsys)
    assert len(set(got.values())) == 1, got


def test_a_wild_line_no_spin_pays_is_found_by_validate_with_its_fix(tmp_path, capsys):
    """The reference game (wild x2, product rule) with ``W W W W W`` paying 5,000: five
    wilds pay ``7 7 7 7 7`` x 2^5 = 32,000 instead, so no spin pays the wild entry."""
    text = (ROOT / "models" / "machines" / "ref-5x3-20.toml").read_text(encoding="utf-8")
    seven = '[[pays]]\ncombo = ["7", "7", "7", "7", "7"]'
    path = tmp_path / "wild5.toml"
    path.write_text(
        text.replace(seven, '[[pays]]\ncombo = ["W", "W", "W", "W", "W"]\npays = 5000\n\n' + seven)
    )
    assert main(["validate", str(path)]) == 0  # it can be played: certification fails it
    captured = capsys.readouterr()
    assert "pays[0].combo" in captured.err and "impossible_award" in captured.err
    assert 'pure_wild_line = "wild_award"' in captured.err
    assert "certification fails it (impossible_award)" in captured.out
    cert = slotcert.certify(path, JURISDICTION, spins=0, seed=1).machines[0]
    assert cert.verdict == "fail"
    found = [f for f in cert.certification.findings if f.code == "impossible_award"]
    assert found and all('pure_wild_line = "wild_award"' in f.message for f in found)
    # the exact calculator agrees: the wild entry's probability is 0
    awards = slotcert.exact(path).to_dict()["bet_levels"][0]["exact"]["awards"]
    assert [a["probability"] for a in awards if a["combo"] == ["W"] * 5] == [0.0]
    fixed = tmp_path / "fixed.toml"
    fixed.write_text(path.read_text() + '\n[rules]\npure_wild_line = "wild_award"\n')
    assert main(["validate", str(fixed)]) == 0
    assert "impossible_award" not in capsys.readouterr().err


def test_a_strip_cascade_validate_refuses_is_refused_by_every_path(tmp_path, capsys):
    text = (ROOT / "models" / "machines" / "cascade-5x3-10.toml").read_text(encoding="utf-8")
    path = tmp_path / "short.toml"
    path.write_text(text.replace("max_screens = 50", "max_screens = 1"))
    got = verdicts(path, capsys)
    assert got == {"validate": True, "exact": True, "simulate": True, "certify": True}
