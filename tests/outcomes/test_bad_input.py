"""Bad input: every row verified or quarantined, located reasons, one clear error (exit 2)."""

from __future__ import annotations

import csv
import json

import pytest
from testpaths import DATA, MACHINES

from certify.cli import main
from certify.errors import InputError
from certify.outcomes.record import record_outcomes
from certify.outcomes.verify import verify_outcomes

TINY = str(DATA / "tiny_lines.toml")


def _rows(path):
    with open(path, newline="") as fh:
        return list(csv.reader(fh))


def test_quarantine_counts_add_up(tmp_path, tiny):
    """Seven broken rows in a 200-game log: each quarantined with its own line and reason;
    rows in = verified + quarantined; the good rows still pass."""
    log = tmp_path / "log.csv"
    record_outcomes(tiny, 200, 5, log)
    rows = _rows(log)
    header, body = rows[0], rows[1:]
    col = {name: i for i, name in enumerate(header)}
    bad = [list(body[0]) for _ in range(6)]
    for i, r in enumerate(bad):
        r[col["game"]] = str(999_990 + i)  # games of their own, after the log's
    bad[0][col["win"]] = "ten"
    bad[1][col["phase"]] = "bonus-round"
    bad[2][col["stop_2"]] = "4"  # strips of 4 stops: 0 .. 3
    bad[3][col["level"]] = "7"
    bad[4][col["game"]] = ""
    bad[5] = bad[5][:4]  # too few fields
    text = "\n".join(",".join(r) for r in [header, *body, *bad]) + "\n\n"
    log.write_text(text)
    out = tmp_path / "out"
    result = verify_outcomes(log, tiny, out=out)
    assert result.rows_in == len(body) + 7  # the six rows and the empty last line
    assert result.verified + result.quarantined == result.rows_in
    assert result.quarantined == 7
    lines = {line: reason for _, line, reason in result.quarantine}
    first_bad = len(body) + 2  # header on line 1
    assert "win 'ten' is not an integer" in lines[first_bad]
    assert "phase 'bonus-round'" in lines[first_bad + 1]
    assert "stop_2 = 4 is beyond strip 2" in lines[first_bad + 2]
    assert "level 7 is not a bet level" in lines[first_bad + 3]
    assert "game is empty" in lines[first_bad + 4]
    assert "expected" in lines[first_bad + 5] and "fields" in lines[first_bad + 5]
    assert first_bad + 6 in lines  # the empty line
    assert result.verdict == "pass"
    quarantine_csv = _rows(out / "quarantine.csv")
    assert len(quarantine_csv) == 8 and quarantine_csv[0] == ["source", "line", "reason"]
    doc = json.loads((out / "outcomes.json").read_text())
    assert doc["schema"] == "slotcert/outcomes@1" and doc["quarantined"] == 7


def test_duplicate_rows_and_games_quarantined(tmp_path, tiny):
    """A row repeated (same machine, game, phase, step, screen, stops) and a whole game
    seen again later: the later copies are quarantined, nothing else."""
    log = tmp_path / "log.csv"
    record_outcomes(tiny, 50, 6, log)
    rows = _rows(log)
    rows.insert(3, rows[2])  # a duplicate right after its original
    again = list(rows[10])
    stop = rows[0].index("stop_1")
    again[stop] = str((int(again[stop]) + 1) % 4)  # not the same row, but its game again
    rows.append(again)
    log.write_text("\n".join(",".join(r) for r in rows) + "\n")
    result = verify_outcomes(log, tiny)
    assert result.quarantined == 2
    reasons = sorted(r for _, _, r in result.quarantine)
    assert "duplicate" in reasons[0] and "already seen" in reasons[1]
    assert result.verdict == "pass"


def test_log_of_another_model_is_one_error(tmp_path, tiny, capsys):
    """A 3-reel log checked against a 5-reel model, and a log whose stops run beyond the
    model's strips: exit 2, one line, no traceback."""
    log = tmp_path / "tiny.csv"
    record_outcomes(tiny, 100, 1, log)
    code = main(
        [
            "outcomes",
            "verify",
            str(log),
            "--model",
            str(MACHINES / "ref-5x3-20.toml"),
            "--out",
            str(tmp_path / "o"),
        ]
    )
    err = capsys.readouterr().err
    assert code == 2
    assert "3 stop columns but the model has 5 reels" in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1
    classic = tmp_path / "classic.csv"
    record_outcomes(MACHINES / "classic-3r-1.toml", 300, 1, classic)
    with pytest.raises(InputError, match="beyond the strips of TINY-3X1"):
        verify_outcomes(classic, tiny)
    code = main(["outcomes", "verify", str(classic), "--model", TINY, "--out", str(tmp_path / "o")])
    err = capsys.readouterr().err
    assert code == 2 and "a log of another model?" in err and len(err.strip().splitlines()) == 1


def test_missing_column_is_exit_2(tmp_path, tiny, capsys):
    """A header without ``win``: exit 2 naming the column."""
    log = tmp_path / "log.csv"
    record_outcomes(tiny, 20, 1, log)
    rows = _rows(log)
    i = rows[0].index("win")
    log.write_text("\n".join(",".join(r[:i] + r[i + 1 :]) for r in rows) + "\n")
    code = main(["outcomes", "verify", str(log), "--model", TINY, "--out", str(tmp_path / "o")])
    err = capsys.readouterr().err
    assert code == 2 and "lacks the column(s) win" in err and "Traceback" not in err


def test_formats_agree(tmp_path, small):
    """The same play as CSV, JSON lines and Parquet: the same counts and figures."""
    results = []
    for ext in ("csv", "jsonl", "parquet"):
        log = tmp_path / f"log.{ext}"
        record_outcomes(small, 400, 2, log)
        results.append(verify_outcomes(log, small, piece_rows=97))  # pieces cut inside games
    first = results[0]
    for r in results[1:]:
        assert (r.rows_in, r.verified, r.mismatch_count) == (
            first.rows_in,
            first.verified,
            first.mismatch_count,
        )
        assert [t["p_value"] for t in r.tests] == [t["p_value"] for t in first.tests]
    whole = verify_outcomes(tmp_path / "log.csv", small)
    assert [t["p_value"] for t in whole.tests] == [t["p_value"] for t in first.tests]


def test_cli_exit_codes(tmp_path, capsys):
    """0 for a faultless log, 1 for a wrong pay, 2 for usage errors."""
    good, bad = tmp_path / "good.parquet", tmp_path / "bad.parquet"
    model = str(DATA / "small_features.toml")
    assert (
        main(["outcomes", "record", model, "--spins", "300", "--seed", "1", "--out", str(good)])
        == 0
    )
    assert (
        main(
            [
                "outcomes",
                "record",
                model,
                "--spins",
                "300",
                "--seed",
                "1",
                "--out",
                str(bad),
                "--fault",
                "pay",
            ]
        )
        == 0
    )
    assert (
        main(["outcomes", "verify", str(good), "--model", model, "--out", str(tmp_path / "a")]) == 0
    )
    assert (
        main(["outcomes", "verify", str(bad), "--model", model, "--out", str(tmp_path / "b")]) == 1
    )
    mism = _rows(tmp_path / "b" / "mismatches.csv")
    assert mism[0] == [
        "source",
        "line",
        "machine_id",
        "game",
        "screen",
        "phase",
        "kind",
        "stops",
        "expected",
        "paid",
        "message",
    ]
    assert all(r[6] == "payout" and int(r[9]) > int(r[8]) for r in mism[1:])
    with pytest.raises(SystemExit) as exc:
        main(
            [
                "outcomes",
                "record",
                model,
                "--spins",
                "10",
                "--seed",
                "1",
                "--out",
                str(good),
                "--fault",
                "nope",
            ]
        )
    assert exc.value.code == 2
    assert (
        main(
            [
                "outcomes",
                "verify",
                str(good),
                "--model",
                model,
                "--out",
                str(tmp_path / "c"),
                "--level",
                "2",
            ]
        )
        == 2
    )
    assert "Traceback" not in capsys.readouterr().err


def test_report_escapes_what_a_log_says(tmp_path, tiny):
    """A machine id that is HTML or a spreadsheet formula: escaped in report.html,
    neutralised in mismatches.csv (certify/outputs.py's rule)."""
    log = tmp_path / "log.csv"
    record_outcomes(tiny, 20, 1, log)
    rows = _rows(log)
    col = {name: i for i, name in enumerate(rows[0])}
    rows[1][col["machine_id"]] = "<script>alert(1)</script>"
    rows[1][col["win"]] = str(int(rows[1][col["win"]]) + 1)
    rows[2][col["machine_id"]] = "=HYPERLINK(1)"
    rows[2][col["win"]] = str(int(rows[2][col["win"]]) + 1)
    with open(log, "w", newline="") as fh:
        csv.writer(fh).writerows(rows)
    out = tmp_path / "out"
    result = verify_outcomes(log, tiny, out=out)
    assert result.mismatch_count == 2
    html = (out / "report.html").read_text()
    assert "<script>alert" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    ids = [r[2] for r in _rows(out / "mismatches.csv")[1:]]
    assert "'=HYPERLINK(1)" in ids


def test_a_fifo_log_is_refused_without_blocking(tmp_path, capsys):
    """A named pipe given as the log (nothing ever writes to it) is one located error, exit 2:
    the log is checked to be a regular file before any reader opens it (issue 31 item 11)."""
    import os

    fifo = tmp_path / "log.csv"
    os.mkfifo(fifo)
    code = main(["outcomes", "verify", str(fifo), "--model", TINY, "--out", str(tmp_path / "o")])
    assert code == 2
    err = capsys.readouterr().err
    assert "log.csv" in err and "not a log file" in err
    assert "fifo" in err.lower() or "pipe" in err.lower()
