"""Model machines on the floor are played by the slot engine (when it is installed)."""

import importlib.util

import pytest

from meters.floor import load_counts, load_floor
from meters.reconcile import reconcile
from meters.simulate import engine, simulate_floor

HAS_ENGINE = (
    importlib.util.find_spec("certify.engine") is not None
    and importlib.util.find_spec("certify.exact") is not None
)


@pytest.mark.slow  # the first engine call compiles its numba kernels (~30 s cold)
@pytest.mark.skipif(
    not HAS_ENGINE,
    reason="certify.engine / certify.exact are not importable "
    "yet: model machines fall back to their PAR figures",
)
def test_model_machine_played_by_the_engine_reconciles_clean(tmp_path, repo):
    assert engine() is not None
    model = repo / "models" / "machines" / "classic-3r-1.toml"
    sim = simulate_floor(12, 10, seed=4, models=[(str(model), 1)])
    paths = sim.write(tmp_path, "csv")
    floor = load_floor(paths["floor"])
    row = floor.loc["E00001"]
    from certify.exact import theory
    from certify.model import load_machine

    rtp, sigma = theory(load_machine(model), 0)
    assert row["theo_rtp"] == pytest.approx(rtp, rel=1e-9)
    assert row["sigma"] == pytest.approx(sigma, rel=1e-9)
    result = reconcile([str(paths["dump"])], floor, load_counts(paths["counts"]))
    assert result.findings.empty, result.findings.to_string()
    machine = result.totals.set_index("machine_id").loc["E00001"]
    assert machine["games_played"] > 5000 and abs(machine["z"]) < 4


def test_model_machines_fall_back_to_par_without_the_engine(tmp_path, repo, monkeypatch):
    import meters.simulate as simulate

    monkeypatch.setattr(simulate, "engine", lambda: None)
    model = repo / "models" / "machines" / "classic-3r-1.toml"
    sim = simulate_floor(12, 10, seed=4, models=[(str(model), 1)])
    row = sim.floor.set_index("machine_id").loc["E00001"]
    assert row["model"] == str(model) and float(row["theoretical_rtp"]) > 0
