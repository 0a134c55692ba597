"""An award only the free spins pay can occur: certification judges its odds, not "never".

IGT Rich Girl's emerald lines, Novomatic Columbus's ship lines and Dragon's Deep's
dragon-and-vikings lines are shown by the free spins' own reels or pays only; the
base game's cycle never shows them. Certification failed those real games as
advertising awards that "can never occur"; their odds are now the free spins'
(occurrences per paid spin, the PAR's free-spin rows), while an award neither
phase can show still fails (tests/test_verdicts.py and the wilds-only entries).
"""

from __future__ import annotations

from pathlib import Path

import pytest

import slotcert

ROOT = Path(__file__).resolve().parents[2]
PT = ROOT / "models" / "jurisdictions" / "pt.toml"
REAL = ROOT / "tests" / "data" / "real"


@pytest.mark.parametrize(
    "name", ["igt_rich_girl.toml", "novomatic_columbus.toml", "novomatic_dragons_deep.toml"]
)
def test_free_spin_only_awards_are_judged_by_their_odds(name):
    batch = slotcert.certify(REAL / name, PT, 0, 1)
    (result,) = batch.machines
    cert = result.certification
    assert cert is not None
    codes = {f.code for f in cert.findings}
    assert "impossible_award" not in codes
    assert cert.verdict == "pass"


def test_an_award_no_phase_shows_still_fails():
    """The wilds-only entry a substituted entry always outpays (base and free spins
    alike) is still impossible (tests/data/rules/retrigger_spins.toml)."""
    batch = slotcert.certify(ROOT / "tests" / "data" / "rules" / "retrigger_spins.toml", PT, 0, 1)
    cert = batch.machines[0].certification
    assert cert is not None
    assert "impossible_award" in {f.code for f in cert.findings}
