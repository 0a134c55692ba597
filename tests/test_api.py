"""docs/API.md's example runs as written; the API's results agree with the command line."""

from __future__ import annotations

import json
import re

import pytest
from testpaths import DATA, ROOT

import slotcert
from certify.cli import main

DOC = ROOT / "docs" / "API.md"


def _blocks() -> list[str]:
    return re.findall(r"^```python\n(.*?)^```", DOC.read_text(encoding="utf-8"), re.M | re.S)


def test_the_api_doc_runs(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)  # the example must not depend on the repository folder
    blocks = _blocks()
    assert len(blocks) >= 8
    namespace: dict = {"__name__": "__api_doc__"}
    for i, block in enumerate(blocks):
        try:
            exec(compile(block, f"docs/API.md[python block {i}]", "exec"), namespace)
        except Exception as exc:  # noqa: BLE001 - name the block that failed
            pytest.fail(f"python block {i} of docs/API.md raised {exc!r}:\n{block}")
    out = capsys.readouterr().out
    assert "is a jurisdiction file (slotcert/jurisdiction@1), expected a machine" in out
    assert "unknown key 'max_bet'" in out


def test_readme_example_is_api_doc_style():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "import slotcert" in readme and "docs/API.md" in readme


def test_simulate_matches_the_command_line(capsys):
    args = ["simulate", str(DATA / "tiny_lines.toml"), "--spins", "30000", "--seed", "4"]
    assert main([*args, "--json"]) == 0
    cli = json.loads(capsys.readouterr().out)
    api = slotcert.simulate(DATA / "tiny_lines.toml", spins=30_000, seed=4).to_dict()
    assert api == cli


def test_exact_matches_the_command_line(capsys):
    assert main(["exact", str(DATA / "tiny_lines.toml"), "--json"]) == 0
    cli = json.loads(capsys.readouterr().out)
    assert slotcert.exact(str(DATA / "tiny_lines.toml")).to_dict() == cli


def test_load_dispatches_on_the_schema():
    from certify.model import Jurisdiction, Machine

    assert isinstance(slotcert.load(ROOT / "models" / "machines" / "classic-3r-1.toml"), Machine)
    assert isinstance(slotcert.load(ROOT / "models" / "jurisdictions" / "nj.toml"), Jurisdiction)
    assert type(slotcert.load(ROOT / "models" / "links" / "atlantico.toml")).__name__ == "Link"
    assert type(slotcert.load(ROOT / "models" / "tables" / "fantan.toml")).__name__ == "Table"


def test_certify_reports_a_bad_file_and_goes_on(tmp_path):
    (tmp_path / "a.toml").write_text((DATA / "tiny_lines.toml").read_text())
    (tmp_path / "b.toml").write_text("schema = 'slotcert/machine@1'\n[machine\n")
    batch = slotcert.certify(tmp_path, ROOT / "models" / "jurisdictions" / "pt.toml", 1000, 1)
    assert [m.verdict for m in batch] == ["fail", "invalid"]
    assert batch.machines[1].error.startswith("1 problem:")
    assert batch.exit_code == 2
    frame = batch.to_frame()
    assert list(frame.verdict) == ["fail", "invalid"]


def test_simulate_refuses_bad_arguments():
    with pytest.raises(slotcert.UsageError):
        slotcert.simulate(DATA / "tiny_lines.toml", spins=0, seed=1)
    with pytest.raises(slotcert.UsageError):
        slotcert.simulate(DATA / "tiny_lines.toml", spins=10, seed=1, level=9)


def test_the_wheel_carries_the_example_models_and_the_slotcert_package():
    import tomllib

    from certify.examples import example_files

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    setuptools = project["tool"]["setuptools"]
    assert "_models/*/*.toml" in setuptools["package-data"]["certify"]
    assert "slotcert*" in setuptools["packages"]["find"]["include"]
    assert (ROOT / "certify" / "_models").resolve() == (ROOT / "models").resolve()
    shipped = sorted(
        p.relative_to(ROOT / "models").as_posix() for p in ROOT.glob("models/*/*.toml")
    )
    assert sorted(name for name, _ in example_files()) == shipped


def test_certify_and_write_certificates_match_the_command_line(tmp_path, capsys):
    """API parity (issue 29): lab and signing options, the workbook, batch.json, index.html;
    the signed certificate verifies with the public key as the CLI's does."""
    from certify.errors import InputError

    pt = ROOT / "models" / "jurisdictions" / "pt.toml"
    model = ROOT / "models" / "machines" / "classic-3r-1.toml"
    assert main(["keygen", str(tmp_path / "k")]) == 0
    capsys.readouterr()
    key, pub = tmp_path / "k" / "slotcert-signing.key", tmp_path / "k" / "slotcert-signing.pub"
    batch = slotcert.certify(model, pt, 0, 1, lab="Lab API", sign_key=key)
    assert batch.draft is False and batch.lab == {"name": "Lab API"}
    files = slotcert.write_certificates(batch, tmp_path / "out")
    names = sorted(p.name for p in files)
    assert names == sorted(
        [
            "CLASSIC-3R-1.certificate.json",
            "CLASSIC-3R-1.par.csv",
            "CLASSIC-3R-1.par-features.csv",
            "CLASSIC-3R-1.par.xlsx",
            "CLASSIC-3R-1.html",
            "batch.json",
            "index.html",
        ]
    )
    assert all(p.is_file() for p in files)
    cert = tmp_path / "out" / "CLASSIC-3R-1.certificate.json"
    data = json.loads(cert.read_text())
    assert data["certificate"]["lab"] == {"name": "Lab API"}
    assert data["certificate"]["draft"] is False and "signature" in data
    assert main(["verify", str(cert), str(model), "--public-key", str(pub)]) == 0
    assert "signature valid" in capsys.readouterr().out
    row = json.loads((tmp_path / "out" / "batch.json").read_text())["machines"][0]
    assert row["verdict"] == "pass" and row["reason"] == batch.machines[0].reason
    draft = slotcert.certify(model, pt, 0, 1)
    assert draft.draft is True
    slotcert.write_certificates(draft, tmp_path / "draft", html=False)
    ident = json.loads((tmp_path / "draft" / "CLASSIC-3R-1.certificate.json").read_text())
    assert ident["certificate"]["draft"] is True and "signature" not in ident
    with pytest.raises(InputError, match="cannot read signing key"):
        slotcert.certify(model, pt, 0, 1, sign_key=tmp_path / "missing.key")
    with pytest.raises(InputError, match="no such lab config"):
        slotcert.certify(model, pt, 0, 1, lab_config=tmp_path / "missing.toml")


def test_awards_frame_contributions_add_up_to_the_cycles_return():
    """Two methods: the rows' rtp_contribution come from the per-reel decomposition
    (certify.exact.contributions), base_rtp from the exact full cycle / state merging;
    per level they agree to 1e-12 (free-spin and bonus triggers carry their feature)."""
    for name in ("ref-5x3-20", "ways-243", "classic-3r-1"):
        result = slotcert.exact(ROOT / "models" / "machines" / f"{name}.toml")
        frame = result.awards_frame()
        assert "rtp_contribution" in frame.columns
        for level in result.data["bet_levels"]:
            rows = frame[frame.level == level["level"]]
            total = rows.rtp_contribution.sum()
            assert abs(total - level["exact"]["base_rtp"]) <= 1e-12, (name, level["level"])
