"""``slotcert meters reconcile`` and ``simulate``: exit codes and outputs."""

import json

import pandas as pd
import pytest

from certify.cli import main
from meters.codes import FINDING_COLUMNS, QUARANTINE_COLUMNS, Code


def reconcile_args(paths, out, *extra):
    return [
        "meters",
        "reconcile",
        str(paths["dump"]),
        "--floor",
        str(paths["floor"]),
        "--counts",
        str(paths["counts"]),
        "--out",
        str(out),
        *extra,
    ]


def test_clean_floor_exits_0_and_writes_every_output(clean_sim, tmp_path, capsys):
    paths = clean_sim.write(tmp_path / "in", "csv")
    assert main(reconcile_args(paths, tmp_path / "out")) == 0
    out = tmp_path / "out"
    summary = json.loads((out / "summary.json").read_text())
    assert summary["rows_in"] == summary["rows_reconciled"] + summary["rows_quarantined"]
    assert summary["rows_balanced"] is True
    assert set(summary["findings"]) == {c.value for c in Code}
    assert list(pd.read_csv(out / "findings.csv").columns) == list(FINDING_COLUMNS)
    assert list(pd.read_csv(out / "quarantine.csv").columns) == list(QUARANTINE_COLUMNS)
    periods = pd.read_csv(out / "periods.csv")
    assert {"machine_id", "period_start", "period_end", "hold", "return", "z"} <= set(periods)
    html = (out / "report.html").read_text()
    assert html.count("data:image/png;base64,") == 2
    assert "<script" not in html and "http://" not in html and "https://" not in html
    assert "reconciled" in capsys.readouterr().out


def test_error_findings_exit_1_and_outputs_are_reproducible(faulty_files, tmp_path):
    paths = faulty_files["csv"]
    assert main(reconcile_args(paths, tmp_path / "a")) == 1
    assert main(reconcile_args(paths, tmp_path / "b")) == 1
    for name in ("findings.csv", "periods.csv", "quarantine.csv", "summary.json", "report.html"):
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()
    q = pd.read_csv(tmp_path / "a" / "quarantine.csv", keep_default_na=False)
    assert (q["original"] != "").all()
    assert q["source_file"].eq(str(paths["dump"])).all()


def test_html_escapes_machine_ids(tmp_path):
    floor = tmp_path / "floor.csv"
    floor.write_text(
        "machine_id,model,bet_level,denomination,jackpot_pools,theoretical_rtp,"
        "sigma\nA,,,0.05,,0.92,5\n"
    )
    dump = tmp_path / "d.csv"
    dump.write_text("machine_id,read_at,coin_in\n<script>x</script>,2026-01-01T06:00:00Z,1\n")
    assert (
        main(
            ["meters", "reconcile", str(dump), "--floor", str(floor), "--out", str(tmp_path / "o")]
        )
        == 1
    )
    html = (tmp_path / "o" / "report.html").read_text()
    assert "<script>x</script>" not in html and "&lt;script&gt;" in html


@pytest.mark.parametrize(
    "setup, message",
    [
        ("missing_dump", "no such file"),
        ("bad_floor", "denomination"),
        ("bad_column", "coin_inn"),
        ("bad_period", "period"),
    ],
)
def test_bad_input_exits_2_with_one_line(tmp_path, capsys, setup, message):
    floor = tmp_path / "floor.csv"
    floor.write_text(
        "machine_id,model,bet_level,denomination,jackpot_pools,theoretical_rtp,"
        "sigma\nA,,,0.05,,0.92,5\n"
    )
    dump = tmp_path / "d.csv"
    dump.write_text("machine_id,read_at,coin_in\nA,2026-01-01T06:00:00Z,1\n")
    args = ["meters", "reconcile", str(dump), "--floor", str(floor), "--out", str(tmp_path)]
    if setup == "missing_dump":
        args[2] = str(tmp_path / "nope.csv")
    elif setup == "bad_floor":
        floor.write_text("machine_id,denomination,theoretical_rtp,sigma\nA,abc,0.9,5\n")
    elif setup == "bad_column":
        dump.write_text("machine_id,read_at,coin_inn\nA,2026-01-01T06:00:00Z,1\n")
    else:
        args += ["--period", "M"]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_simulate_command_writes_a_floor(tmp_path, capsys):
    out = tmp_path / "sim"
    assert (
        main(
            [
                "meters",
                "simulate",
                "--machines",
                "20",
                "--days",
                "12",
                "--faults",
                "reset,time_gap",
                "--format",
                "jsonl",
                "--sas",
                "--out",
                str(out),
            ]
        )
        == 0
    )
    assert (out / "dump.jsonl").exists() and (out / "injected.csv").exists()
    injected = pd.read_csv(out / "injected.csv")
    assert set(injected["kind"]) >= {"reset", "time_gap"}
    assert main(["meters", "simulate", "--faults", "nonsense", "--out", str(out)]) == 2


def test_floor_machines_without_readings_are_counted(clean_sim, tmp_path):
    paths = clean_sim.write(tmp_path / "in", "csv")
    rows = pd.read_csv(paths["dump"], dtype=str, keep_default_na=False)
    rows[rows["machine_id"] != "M00003"].to_csv(paths["dump"], index=False)
    assert main(reconcile_args(paths, tmp_path / "out")) == 0
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert summary["machines_without_readings"] == 1
    assert summary["machines_without_readings_ids"] == ["M00003"]


def test_report_charts_drawn_in_a_child_equal_those_drawn_here(faulty_files, tmp_path, monkeypatch):
    """The charts' forked drawer changes nothing: same report.html without fork."""
    paths = faulty_files["csv"]
    assert main(reconcile_args(paths, tmp_path / "a")) == 1
    import meters.report

    monkeypatch.setattr(meters.report.multiprocessing, "get_all_start_methods", lambda: ["spawn"])
    assert main(reconcile_args(paths, tmp_path / "b")) == 1
    assert (tmp_path / "a" / "report.html").read_bytes() == (
        tmp_path / "b" / "report.html"
    ).read_bytes()
