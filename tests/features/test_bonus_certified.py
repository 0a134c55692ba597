"""Games whose bonus is played by pays are certified end to end (certificate, PAR, report).

Two defects the figures' tests did not see, found certifying the real games:
a bonus started only by lines (no ``[bonus] trigger``) made the certificate's
bonus row read a trigger that is not there (an internal error: Megajack
Champagne, NetEnt Diamond Dogs, Slotopol), and the exact award probability of
an exclusive scatter that pays 0 but plays the bonus was 0, so certification
failed Playtech Golden Tour's golfers as awards that "can never occur" (the
kernels take the first exclusive entry that pays or plays, as the exact walks do).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import slotcert

ROOT = Path(__file__).resolve().parents[2]
PT = ROOT / "models" / "jurisdictions" / "pt.toml"
MODELS = [
    ROOT / "tests" / "data" / "rules" / "named_bonus_games.toml",
    ROOT / "tests" / "data" / "real" / "megajack_champagne.toml",
    ROOT / "tests" / "data" / "real" / "megajack_slotopol.toml",
    ROOT / "tests" / "data" / "real" / "playtech_golden_tour.toml",
]


@pytest.mark.parametrize("model", MODELS, ids=lambda p: p.name)
def test_certified_with_its_bonus_rows(model, tmp_path):
    batch = slotcert.certify(model, PT, 0, 1)
    (result,) = batch.machines
    assert result.error is None
    files = slotcert.write_certificates(batch, tmp_path, html=False)
    cert = next(p for p in files if p.name.endswith(".certificate.json"))
    data = json.loads(cert.read_text())
    assert "impossible_award" not in json.dumps(data.get("findings", []))
    level = data["bet_levels"][0]
    awards = [a for a in data["awards"] if a["level"] == level["level"]]
    bonus = [a for a in awards if a["section"] == "bonus" and a["kind"] == "bonus"]
    assert len(bonus) == 1 and bonus[0]["combo"]  # the pay that starts it, named
    assert bonus[0]["rtp_contribution"] == pytest.approx(level["exact"]["bonus_rtp"], rel=1e-12)
    # the rows add up to the certified return (base game and jackpots)
    total = sum(a["rtp_contribution"] for a in awards)
    assert total == pytest.approx(level["exact"]["rtp"], rel=1e-9)
