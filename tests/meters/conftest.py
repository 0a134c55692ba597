"""Simulated floors shared by the meter tests (built once per session)."""

from __future__ import annotations

from pathlib import Path

import pytest

from meters.floor import load_counts, load_floor
from meters.simulate import simulate_floor

SMALL = {"n_machines": 60, "days": 21}


@pytest.fixture(scope="session")
def clean_sim():
    return simulate_floor(seed=11, **SMALL)


@pytest.fixture(scope="session")
def faulty_sim():
    return simulate_floor(seed=12, faults="all", **SMALL)


@pytest.fixture(scope="session")
def faulty_files(faulty_sim, tmp_path_factory):
    """The faulty floor written as canonical CSV, SAS Parquet and SAS JSONL."""
    root = tmp_path_factory.mktemp("faulty")
    out = {}
    for fmt, sas in (("csv", False), ("parquet", True), ("jsonl", True), ("csv", True)):
        key = f"{fmt}{'-sas' if sas else ''}"
        out[key] = faulty_sim.write(root / key, fmt, sas)
    return out


def load(paths):
    """Floor and counts of a written simulation."""
    return load_floor(paths["floor"]), load_counts(paths["counts"])


ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def repo() -> Path:
    """The repository root."""
    return ROOT
