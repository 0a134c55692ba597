"""Paths of shipped and test models, importable from any test folder."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data"
MACHINES = ROOT / "models" / "machines"
JURISDICTIONS = ROOT / "models" / "jurisdictions"
