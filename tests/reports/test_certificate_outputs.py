"""What `slotcert certify` writes: PAR CSV and workbook that add up, signatures, identity,
exact-only runs, the batch summary; golden certificate JSON, PAR CSV and HTML."""

from __future__ import annotations

import json
import math
import os
import re
from datetime import UTC, datetime
from pathlib import Path

import pandas as pd
import pytest
from testpaths import DATA, JURISDICTIONS, MACHINES

from certify.batch import PerChunk, certify_machine
from certify.cli import main
from certify.engine import compile_machine, simulate
from certify.model import load_jurisdiction, load_machine
from reports.certificate import build_certificate
from reports.html import render_machine_report
from reports.parcsv import write_par_csv
from reports.parxlsx import write_par_xlsx
from reports.signing import identity

PT = str(JURISDICTIONS / "pt.toml")
GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "reports"
UPDATE = os.environ.get("SLOTCERT_UPDATE_GOLDEN") == "1"
SMALL = Path(__file__).parent / "data" / "small.toml"
EVERY_MODEL = sorted(
    [
        *MACHINES.glob("*.toml"),
        *DATA.glob("*.toml"),
        *(DATA / "published").glob("*.toml"),
        *(DATA / "rules").glob("*.toml"),
    ]
)
ISSUED = datetime(2026, 12, 1, 12, 0, 0, tzinfo=UTC)
LAB = {"name": "Laboratório de Ensaio", "id": "LE", "accreditation": "IPAC L0000"}


def _certificate(path, spins=0, seed=1):
    machine = load_machine(path)
    cert = certify_machine(machine, load_jurisdiction(PT), spins, seed)
    data = build_certificate(cert)
    data["certificate"] = identity(data, LAB, ISSUED)
    return machine, cert, data


SIMULATION_ONLY = {"cluster-7x7.toml": 1 << 20}  # no exact return: its rows are the simulation's
RE_ADDABLE = ("line", "ways", "line_pair", "scatter")


@pytest.mark.parametrize("path", EVERY_MODEL, ids=lambda p: p.name)
def test_par_rows_sum_to_the_certified_return(tmp_path, path):
    """CSV per level, every shipped and test model, feature games included: the sum of
    rtp_contribution == the certified return (base + jackpots; a simulation-only game:
    the simulated return its verdict rests on), to 1e-12; every line, ways and scatter
    row re-adds by hand (pays x multiplier x probability / total bet); no row shows a
    probability of 0 beside a contribution that is not 0."""
    machine, _, data = _certificate(path, spins=SIMULATION_ONLY.get(path.name, 0))
    csv = tmp_path / "par.csv"
    write_par_csv(data, csv)
    df = pd.read_csv(csv)
    assert len(df) > 0
    sums = df.groupby("level").rtp_contribution.sum()
    totals = df[df.kind == "total"].set_index("level")
    bets = {lv["level"]: lv["total_bet"] for lv in data["bet_levels"]}
    for lv in data["bet_levels"]:
        if path.name in SIMULATION_ONLY:
            certified = lv["simulation"]["rtp"]
            assert (df[df.level == lv["level"]].source.iloc[:-1] == "simulation").all()
        else:
            certified = lv["exact"]["rtp"]
            assert lv["par"]["total_rtp"] == certified
        assert abs(sums[lv["level"]] - certified) <= 1e-12 * max(1.0, certified)
        assert totals.loc[lv["level"], "certified_rtp"] == certified
        assert abs(totals.loc[lv["level"], "cumulative_rtp"] - certified) <= 1e-12 * max(
            1.0, certified
        )
    rows = df[df.kind != "total"]
    # no feature row without its figure (the "—" of the old sheet)
    assert rows.rtp_contribution.notna().all()
    assert not ((rows.probability == 0) & (rows.rtp_contribution != 0)).any()
    for r in rows[rows.kind.isin(RE_ADDABLE) & rows.pays.notna()].itertuples():
        mult = 1.0 if pd.isna(r.multiplier) else r.multiplier
        by_hand = r.pays * mult * r.probability / bets[r.level]
        assert abs(by_hand - r.rtp_contribution) <= 1e-12 * max(1.0, abs(r.rtp_contribution)), r


def test_reference_game_par_is_the_certified_9573():
    _, _, data = _certificate(MACHINES / "ref-5x3-20.toml")
    for lv in data["bet_levels"]:
        rows = [a for a in data["awards"] if a["level"] == lv["level"]]
        assert math.isclose(
            sum(a["rtp_contribution"] for a in rows), 0.9572853161907438, rel_tol=0, abs_tol=1e-12
        )
        kinds = {a["kind"] for a in rows}
        assert {"line", "scatter", "free_spins", "bonus"} <= kinds


def test_workbook_reads_back_as_the_csv(tmp_path):
    machine, _, data = _certificate(MACHINES / "jackpot-5x3.toml")
    write_par_csv(data, tmp_path / "par.csv")
    write_par_xlsx(data, machine, tmp_path / "par.xlsx")
    csv = pd.read_csv(tmp_path / "par.csv")
    sheets = pd.read_excel(tmp_path / "par.xlsx", sheet_name=None, header=1)
    awards = pd.concat(
        [sheets[f"awards_level_{lv}"] for lv in machine.bet_levels], ignore_index=True
    )
    assert list(awards.columns) == list(csv.columns)
    for column in (
        "level",
        "pays",
        "probability",
        "one_in",
        "rtp_contribution",
        "cumulative_rtp",
        "certified_rtp",
    ):
        # openpyxl stores 16 significant digits (Excel shows 15): equal to 1e-15
        pd.testing.assert_series_equal(
            awards[column], csv[column], check_dtype=False, rtol=1e-15, atol=0
        )
    for name in ("summary", "levels", "paytable", "free_spins", "bonus", "reels", "symbols"):
        assert name in sheets
    levels = sheets["levels"]
    assert levels["standard_deviation"].notna().all()
    assert levels["volatility_index"].notna().all()
    # numbers are numbers, with percentage formats on returns
    from openpyxl import load_workbook

    book = load_workbook(tmp_path / "par.xlsx")
    sheet = book["awards_level_1"]
    header = [c.value for c in sheet[2]]
    cell = sheet.cell(row=3, column=header.index("rtp_contribution") + 1)
    assert isinstance(cell.value, float) and cell.number_format.endswith("%")
    reels = sheets["reels"]
    assert len(reels) == sum(len(s) for s in machine.strips) + sum(
        len(s) for s in (machine.free_spins.strips or ())
    )


def _run_certify(tmp_path, *extra, models=None, spins="0"):
    out = tmp_path / "out"
    code = main(
        [
            "certify",
            *(models or [str(SMALL)]),
            "--jurisdiction",
            PT,
            "--spins",
            spins,
            "--seed",
            "3",
            "--out",
            str(out),
            *extra,
        ]
    )
    return code, out


def test_signed_certificate_verifies_and_edits_are_named(tmp_path, capsys):
    assert main(["keygen", str(tmp_path / "keys")]) == 0
    keygen_out = capsys.readouterr()
    private = tmp_path / "keys" / "slotcert-signing.key"
    public = tmp_path / "keys" / "slotcert-signing.pub"
    assert oct(private.stat().st_mode & 0o777) == "0o600"
    code, out = _run_certify(tmp_path, "--sign-key", str(private), "--lab", "Lab X", "--no-html")
    console = capsys.readouterr()
    cert_path = out / "TEST-3X3-5.certificate.json"
    pem = private.read_text()
    body = pem.splitlines()[1]
    for text in (
        cert_path.read_text(),
        (out / "batch.json").read_text(),
        console.out,
        console.err,
        keygen_out.out,
        keygen_out.err,
    ):
        assert body not in text  # the private key never leaves its file
    data = json.loads(cert_path.read_text())
    assert data["signature"]["algorithm"] == "Ed25519"
    assert data["certificate"]["lab"]["name"] == "Lab X"

    assert main(["verify", str(cert_path), str(SMALL), "--public-key", str(public)]) == 0
    assert "signature valid" in capsys.readouterr().out

    # one edited byte: a digit of the level-1 exact return
    text = cert_path.read_text()
    rtp = repr(data["bet_levels"][0]["exact"]["rtp"])
    edited_digit = "1" if rtp[3] != "1" else "2"
    edited = text.replace(f'"rtp": {rtp}', f'"rtp": {rtp[:3]}{edited_digit}{rtp[4:]}', 1)
    assert sum(a != b for a, b in zip(text, edited, strict=True)) == 1
    bad = tmp_path / "edited.certificate.json"
    bad.write_text(edited)
    assert main(["verify", str(bad), "--public-key", str(public)]) == 1
    report = capsys.readouterr().out
    assert "ALTERED" in report
    assert "bet_levels[0].exact.rtp: changed" in report

    # another lab's key
    assert main(["keygen", str(tmp_path / "other")]) == 0
    capsys.readouterr()
    other = tmp_path / "other" / "slotcert-signing.pub"
    assert main(["verify", str(cert_path), "--public-key", str(other)]) == 1
    assert "not by the given public key" in capsys.readouterr().out
    # keygen never overwrites a key
    assert main(["keygen", str(tmp_path / "keys")]) == 2


def test_unsigned_certificate_says_so(tmp_path, capsys):
    """Unsigned: ``verify`` exits 1 (the model unchanged) unless ``--allow-unsigned``."""
    code, out = _run_certify(tmp_path, "--no-html")
    capsys.readouterr()
    cert_path = out / "TEST-3X3-5.certificate.json"
    assert main(["verify", str(cert_path), str(SMALL)]) == 1
    text = capsys.readouterr().out
    assert "UNSIGNED" in text and "--allow-unsigned" in text
    assert "unchanged since certification" in text  # the model check still ran and says so
    assert main(["verify", str(cert_path)]) == 1  # no model: the signature alone decides
    capsys.readouterr()
    assert main(["verify", str(cert_path), str(SMALL), "--allow-unsigned"]) == 0
    assert "UNSIGNED" in capsys.readouterr().out
    assert main(["keygen", str(tmp_path / "k")]) == 0
    capsys.readouterr()
    pub = tmp_path / "k" / "slotcert-signing.pub"
    assert main(["verify", str(cert_path), "--public-key", str(pub)]) == 1
    assert "UNSIGNED" in capsys.readouterr().out


def test_without_a_lab_everything_says_draft(tmp_path, capsys):
    """No --lab or --lab-config: the certificate, its number and title, batch.json, the
    report and the index say DRAFT; the console says so; verify names it."""
    _, out = _run_certify(tmp_path)
    err = capsys.readouterr().err
    assert "no --lab or --lab-config: the certificates are DRAFTS" in err
    ident = json.loads((out / "TEST-3X3-5.certificate.json").read_text())["certificate"]
    assert ident["draft"] is True and ident["title"].startswith("DRAFT certificate")
    assert ident["number"].startswith("DRAFT-PT-")
    batch = json.loads((out / "batch.json").read_text())
    assert batch["draft"] is True
    assert (out / "TEST-3X3-5.html").read_text().startswith("<!DOCTYPE html>")
    assert "<title>DRAFT" in (out / "TEST-3X3-5.html").read_text()
    assert "<title>DRAFT" in (out / "index.html").read_text()
    main(["verify", str(out / "TEST-3X3-5.certificate.json"), "--allow-unsigned"])
    assert "DRAFT" in capsys.readouterr().out
    _, named = _run_certify(tmp_path / "lab", "--lab", "Lab D", "--no-html")
    ident = json.loads((named / "TEST-3X3-5.certificate.json").read_text())["certificate"]
    assert ident["draft"] is False and not ident["number"].startswith("DRAFT")
    assert json.loads((named / "batch.json").read_text())["draft"] is False


def test_exact_only_run_is_stated_everywhere(tmp_path, capsys):
    code, out = _run_certify(tmp_path)
    console = capsys.readouterr()
    data = json.loads((out / "TEST-3X3-5.certificate.json").read_text())
    assert data["simulation_plan"]["mode"] == "exact-only"
    assert any(f["code"] == "exact_only" for f in data["findings"])
    html = (out / "TEST-3X3-5.html").read_text()
    assert 'id="exact-only"' in html and "exact_only" in html
    assert "exact-only certification" in console.err
    # the return above 100% is a warning on the console, in the report and in the index
    assert "rtp_above_100" in console.out
    assert 'id="warnings"' in html and "rtp_above_100" in html
    assert "rtp_above_100" in (out / "index.html").read_text()
    assert console.out.strip().splitlines()[-1] == f"1 machine: 1 fail — {out / 'index.html'}"


def test_batch_summary_and_metadata(tmp_path, capsys):
    models = [str(MACHINES / "classic-3r-1.toml"), str(MACHINES / "lowball-3r-1.toml")]
    code, out = _run_certify(tmp_path, "--lab", "Lab Y", models=models, spins="0")
    assert code == 1
    last = capsys.readouterr().out.strip().splitlines()[-1]
    assert last == f"2 machines: 1 pass, 1 fail — {out / 'index.html'}"
    batch = json.loads((out / "batch.json").read_text())
    for key in ("jurisdiction", "seed", "spins", "issued_utc", "tool", "counts", "lab"):
        assert key in batch
    assert batch["counts"] == {"pass": 1, "fail": 1}
    index = (out / "index.html").read_text()
    for text in ("PT", "Lab Y", batch["issued_utc"], batch["tool"]["version"], "Seed"):
        assert text in index


def test_convergence_has_a_point_per_chunk_and_the_same_figures():
    """PerChunk only splits what simulate reports: the result is bit-identical."""
    machine = load_machine(SMALL)
    tables = compile_machine(machine)
    spins = 5 * (1 << 20)
    plain = simulate(tables, 0, spins, 9)
    points = []
    split = simulate(
        tables, 0, spins, 9, progress=lambda r: points.append(r.spins), runner=PerChunk()
    )
    assert split.total_win == plain.total_win and split.sum_sq == plain.sum_sq
    assert (split.histogram == plain.histogram).all()
    assert points == [(i + 1) << 20 for i in range(5)]


# --- golden files -------------------------------------------------------------------------

_FLOAT = re.compile(r"-?\d+\.\d+(?:e[-+]?\d+)?")


def _stable(text: str) -> str:
    """Floats to 10 significant digits: the last bits may differ between platforms."""
    return _FLOAT.sub(lambda m: f"{float(m.group()):.10g}", text)


def _golden(name: str, text: str) -> None:
    path = GOLDEN / name
    if UPDATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8"), (
        f"{path} differs; rerun with SLOTCERT_UPDATE_GOLDEN=1 if intended"
    )


@pytest.fixture(scope="module")
def small_certified():
    machine, cert, data = _certificate(SMALL, spins=2 * (1 << 20), seed=11)
    data.pop("run")
    data["machine"]["source"] = "tests/reports/data/small.toml"  # not this checkout's path
    data["tool"]["version"] = "VERSION"
    data["certificate"]["tool_version"] = "VERSION"
    return machine, data


def test_certificate_json_golden(small_certified):
    _, data = small_certified
    _golden("small.certificate.json", _stable(json.dumps(data, indent=1, sort_keys=True)) + "\n")


def test_par_csv_golden(tmp_path, small_certified):
    _, data = small_certified
    write_par_csv(data, tmp_path / "par.csv")
    _golden("small.par.csv", _stable((tmp_path / "par.csv").read_text()))


def test_certified_report_golden(small_certified):
    machine, data = small_certified
    html = render_machine_report(data, machine)
    masked = re.sub(r"data:image/png;base64,[A-Za-z0-9+/=]+", "data:image/png;base64,MASKED", html)
    _golden("small_certified.html", _stable(masked))


def test_lab_config_file(tmp_path, capsys):
    lab = tmp_path / "lab.toml"
    lab.write_text(
        'schema = "slotcert/lab@1"\nname = "Laboratório Nacional"\nid = "LN-01"\n'
        'accreditation = "IPAC L0123"\n',
        encoding="utf-8",
    )
    code, out = _run_certify(
        tmp_path,
        "--lab-config",
        str(lab),
        "--no-html",
        models=[str(MACHINES / "classic-3r-1.toml")],
    )
    data = json.loads((out / "CLASSIC-3R-1.certificate.json").read_text())
    ident = data["certificate"]
    assert ident["lab"] == {
        "name": "Laboratório Nacional",
        "id": "LN-01",
        "accreditation": "IPAC L0123",
    }
    assert ident["number"].startswith("LN01-PT-")
    assert ident["model_fingerprint"] == data["machine"]["fingerprint"]
    assert ident["jurisdiction"] == "PT" and ident["tool_version"] == data["tool"]["version"]
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", ident["issued_utc"])
    lab.write_text('name = "X"\nphone = "1"\n', encoding="utf-8")
    assert _run_certify(tmp_path, "--lab-config", str(lab), "--no-html")[0] == 2
    assert "phone: unknown key" in capsys.readouterr().err


def test_signed_certificate_without_a_key_names_its_signer(tmp_path, capsys):
    assert main(["keygen", str(tmp_path / "k")]) == 0
    capsys.readouterr()
    key = tmp_path / "k" / "slotcert-signing.key"
    _, out = _run_certify(
        tmp_path, "--sign-key", str(key), "--no-html", models=[str(MACHINES / "classic-3r-1.toml")]
    )
    capsys.readouterr()
    cert = out / "CLASSIC-3R-1.certificate.json"
    assert main(["verify", str(cert)]) == 0
    text = capsys.readouterr().out
    assert "signed by key sha256:" in text and "--public-key" in text
    # an edited signature block does not verify
    data = json.loads(cert.read_text())
    data["signature"]["digests"]["verdict"] = "0" * 16
    cert.write_text(json.dumps(data))
    pub = tmp_path / "k" / "slotcert-signing.pub"
    assert main(["verify", str(cert), "--public-key", str(pub)]) == 1
    assert "signature block was altered" in capsys.readouterr().out


def test_convergence_points_inside_a_chunk_are_the_runs_own_prefixes():
    """The kernel records a chunk's win after each 1/16 of its spins. A run of just those
    first m spins is chunk 0 of the same stream, so its total win must equal the point:
    a second, independent way to the same figure."""
    from certify.batch import _simulate_level

    tables = compile_machine(load_machine(SMALL))
    spins = 1 << 16
    _, _, conv, _ = _simulate_level(tables, 0, spins, 9, 0.99, None)
    assert len(conv) == 16
    tb = tables.levels[0].total_bet
    for m, rtp, low, high in conv[:-1]:
        prefix = simulate(tables, 0, m, 9, stream=0)
        assert prefix.total_win == round(rtp * m * tb)
        assert low < rtp < high
    assert [p[0] for p in conv] == [spins * (k + 1) // 16 for k in range(16)]
