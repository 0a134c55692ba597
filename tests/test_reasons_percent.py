"""Reasons everywhere, in percent (issue 29, item 3).

The console line, ``batch.json``, ``index.html`` and the report say why a
machine did not pass (level, return, minimum); returns a person reads are
percentages (``exact`` text output, warnings, verdict reasons) while the
JSON keeps fractions.
"""

from __future__ import annotations

import json
import re
from html import escape

import pytest
from testpaths import DATA, JURISDICTIONS, MACHINES

from certify.cli import main
from certify.percent import compared, pct, points
from certify.stats import level_verdict

PT = str(JURISDICTIONS / "pt.toml")


def test_percentages_and_digits_that_tell_figures_apart():
    """Hand values: 0.957285 is 95.7285%, so 95.73% at 2 digits; 0.79996 and 0.8 read
    80.00% both at 2 digits, 79.996% and 80.000% at 3 (the fewest that differ)."""
    assert pct(0.957285) == "95.73%" and pct(2.948052) == "294.81%"
    assert pct(0.957285, 4) == "95.7285%"
    assert points(0.0003) == "0.03 points"
    assert compared(0.7388, 0.8) == ("73.88%", "80.00%")
    assert compared(0.79996, 0.8) == ("79.996%", "80.000%")
    assert compared(0.8, 0.8) == ("80.00%", "80.00%")
    low, high, minimum = compared(0.79851, 0.80149, 0.8)
    assert (low, high, minimum) == ("79.85%", "80.15%", "80.00%")


def test_level_reasons_are_in_percent():
    """Exact: the figure against the minimum; simulation: the interval bound that decides.
    Hand interval: 0.85 +/- 2.5758 x 0.01 = [0.8242, 0.8758] at 99%."""
    fail = level_verdict(0.8, 0.99, 0.7388, 1.0, None, None, 0)
    assert (fail.verdict, fail.reason) == ("fail", "exact return 73.88% < minimum 80.00%")
    passed = level_verdict(0.8, 0.99, None, None, 0.85, 0.01, 10_000)
    assert passed.reason == "lower bound of the simulated return 82.42% >= minimum 80.00%"
    failed = level_verdict(0.8, 0.99, None, None, 0.70, 0.01, 10_000)
    assert failed.reason == "upper bound of the simulated return 72.58% < minimum 80.00%"
    open_ = level_verdict(0.8, 0.99, None, None, 0.801, 0.01, 10_000)
    assert open_.verdict == "inconclusive"
    assert open_.reason.startswith("interval [77.52%, 82.68%] contains the minimum 80.00%")
    assert not re.search(r"\b0\.\d{3,}", fail.reason + passed.reason + open_.reason)


def test_a_failing_machine_says_why_on_the_console_in_the_index_and_batch(tmp_path, capsys):
    out = tmp_path / "out"
    models = [str(MACHINES / "classic-3r-1.toml"), str(MACHINES / "lowball-3r-1.toml")]
    code = main(
        ["certify", *models, "--jurisdiction", PT, "--spins", "0", "--seed", "1"]
        + ["--out", str(out), "--lab", "Lab R"]
    )
    assert code == 1
    lines = capsys.readouterr().out.splitlines()
    cert = json.loads((out / "LOWBALL-3R-1.certificate.json").read_text())
    first = cert["bet_levels"][0]
    assert first["verdict"] == "fail" and isinstance(first["exact"]["rtp"], float)  # a fraction
    why = f"exact return {first['exact']['rtp'] * 100:.2f}% < minimum 80.00% at level 1"
    fail_line = next(line for line in lines if "LOWBALL-3R-1" in line)
    assert fail_line.split()[0] == "fail" and why in fail_line, fail_line
    pass_line = next(line for line in lines if "CLASSIC-3R-1" in line)
    assert "—" not in pass_line  # a pass needs no reason on the console
    assert cert["verdict_reason"].startswith(why)
    row = next(
        r
        for r in json.loads((out / "batch.json").read_text())["machines"]
        if r["machine_id"] == "LOWBALL-3R-1"
    )
    assert row["reason"].startswith(why)
    assert escape(why) in (out / "index.html").read_text()  # the page escapes "<"
    html = (out / "LOWBALL-3R-1.html").read_text()
    assert 'id="verdict-reason"' in html and escape(why) in html


def test_exact_prints_returns_in_percent_and_json_keeps_fractions(capsys):
    model = str(MACHINES / "classic-3r-1.toml")
    assert main(["exact", model, "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert main(["exact", model]) == 0
    text = capsys.readouterr().out.splitlines()
    for line, level in zip(text, doc["bet_levels"], strict=True):
        rtp = level["exact"]["rtp"]
        assert 0 < rtp < 1  # the JSON: a fraction
        assert f"rtp {rtp * 100:.8f}% (base " in line, line
        assert f"hit frequency {level['exact']['hit_frequency'] * 100:.4f}%" in line


def test_simulate_prints_percent(capsys):
    argv = ["simulate", str(DATA / "tiny_lines.toml"), "--spins", "2e4", "--seed", "3"]
    assert main([*argv, "--chunk-spins", "1e4", "-q"]) == 0
    line = capsys.readouterr().out.splitlines()[0]
    assert re.fullmatch(
        r"level 1: rtp \d+\.\d{4}% \+/- \d+\.\d{4} points \[\d+\.\d{4}%, \d+\.\d{4}%\] "
        r"over 20,000 spins",
        line,
    ), line


def test_return_above_100_is_a_percentage(tmp_path, capsys):
    """tests/reports/data/small.toml returns more than it takes (its certification warns)."""
    from pathlib import Path

    small = Path(__file__).parent / "reports" / "data" / "small.toml"
    main(["validate", str(small)])
    err = capsys.readouterr().err
    found = re.findall(r"return (\S+) is above 100%", err)
    assert found and all(re.fullmatch(r"\d+\.\d\d%", f) for f in found), err


def test_validate_help_says_100_percent(capsys):
    with pytest.raises(SystemExit):
        main(["validate", "--help"])
    text = capsys.readouterr().out
    assert "100%" in text and "100%%" not in text
