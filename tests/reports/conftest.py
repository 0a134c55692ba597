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
        "machine": {"id": machine.id, "name": machine.name,
                    "fingerprint": fingerprint(machine), "canonical": canonical_form(machine)},
    }


@pytest.fixture()
def small_certificate(tmp_path, small_machine) -> Path:
    path = tmp_path / "small.certificate.json"
    path.write_text(json.dumps(_certificate(small_machine), indent=2), encoding="utf-8")
    return path
