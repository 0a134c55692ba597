"""Shared fixtures: the small test machine and a certificate for it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from certify.model import load_machine
from certify.model.fingerprint import canonical_form, fingerprint

DATA = Path(__file__).parent / "data"
SMALL = DATA / "small.toml"


@pytest.fixture(scope="session")
def small_machine():
    return load_machine(SMALL)


@pytest.fixture(scope="session")
def small_text() -> str:
    return SMALL.read_text(encoding="utf-8")


def _certificate(machine) -> dict:
    """A minimal certificate (SPEC section 6) for verify: fingerprint + canonical form."""
    return {
        "schema": "slotcert/certificate@1",
        "tool": {"name": "slotcert", "version": "test"},
        "machine": {
            "id": machine.id,
            "name": machine.name,
            "fingerprint": fingerprint(machine),
            "canonical": canonical_form(machine),
        },
    }


@pytest.fixture()
def small_certificate(tmp_path, small_machine) -> Path:
    path = tmp_path / "small.certificate.json"
    path.write_text(json.dumps(_certificate(small_machine), indent=2), encoding="utf-8")
    return path


@pytest.fixture()
def report_inputs(small_machine):
    """Fixed certificate, convergence trace and win histogram for the small machine."""
    cert = _certificate(small_machine)
    del cert["machine"]["canonical"]
    cert.update(
        {
            "jurisdiction": {
                "id": "PT",
                "name": "Portugal - Portaria 1441/95",
                "min_rtp": 0.8,
                "confidence": 0.99,
                "min_award_odds": 100000000,
                "jackpot_counts_toward_minimum": False,
            },
            "verdict": "pass",
            "bet_levels": [
                {
                    "level": level,
                    "total_bet": 5 * level,
                    "exact": {
                        "rtp": 0.93 + 0.001 * level,
                        "base_rtp": 0.92,
                        "jackpot_rtp": 0.01 + 0.001 * level,
                        "hit_frequency": 0.21,
                        "variance": 12.5,
                        "volatility_index": 9.1,
                    },
                    "simulation": {
                        "spins": 1_000_000,
                        "seed": 7,
                        "rtp": 0.931,
                        "std_error": 0.002,
                        "ci": [0.926, 0.936],
                    },
                    "verdict": "pass",
                    "reason": "exact >= minimum; simulation agrees",
                    "more_spins": None,
                }
                for level in (1, 2, 5)
            ],
            "awards": [
                {
                    "level": 1,
                    "kind": "line",
                    "combo": ["W", "W", "W"],
                    "pays": 500,
                    "probability": 1.2e-5,
                    "one_in": 83333.3,
                    "rtp_contribution": 0.006,
                },
                {
                    "level": 1,
                    "kind": "line",
                    "combo": ["A", "A", "A"],
                    "pays": 50,
                    "probability": 0.0,
                    "one_in": None,
                    "rtp_contribution": 0.0,
                },
                {
                    "level": 1,
                    "kind": "bonus",
                    "combo": ["BN", "BN", "BN"],
                    "pays": 0,
                    "probability": 0.004,
                    "one_in": 250.0,
                    "rtp_contribution": None,
                },
                {
                    "level": 5,
                    "kind": "line",
                    "combo": ["CH", "CH", "CH"],
                    "pays": 1000,
                    "probability": 1e-9,
                    "one_in": 1e9,
                    "rtp_contribution": 0.0000008,
                },
            ],
            "findings": [
                {
                    "severity": "warning",
                    "code": "rare_award",
                    "message": "CH CH CH is rarer than 1 in 100,000,000",
                }
            ],
        }
    )
    convergence = [
        (n, 0.93 + 0.05 / n**0.5, 0.93 - 1 / n**0.5, 0.93 + 1 / n**0.5)
        for n in (1_000, 10_000, 100_000, 1_000_000)
    ]
    histogram = [
        (0.0, 700_000),
        (0.2, 100_000),
        (1.0, 50_000),
        (3.0, 20_000),
        (10.0, 2_000),
        (100.0, 30),
        (500.0, 2),
    ]
    return cert, convergence, histogram
