"""``slotcert exact TABLE --json`` and ``slotcert validate`` on table files."""

import json

import pytest
from tables_support import FANTAN, FRENCH, PAIKAO, POKER, TABLES, write_variant

from certify.cli import main


@pytest.mark.parametrize("path", [FRENCH, FANTAN, POKER, PAIKAO], ids=lambda p: p.stem)
def test_exact_json_prints_the_spec_table_form(capsys, path):
    assert main(["exact", str(path), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert {"id", "name", "kind", "source"} <= set(report["game"])
    assert report["bets"]
    for row in report["bets"]:
        assert {"bet", "rtp", "house_edge", "win", "push", "lose"} <= set(row)
        assert abs(row["win"] + row["push"] + row["lose"] - 1) < 1e-12
        assert abs(row["rtp"] + row["house_edge"] - 1) < 1e-12


def test_shipped_tables_validate(capsys):
    assert main(["validate", str(TABLES)]) == 0
    assert capsys.readouterr().out.count(": valid") == 5


def test_invalid_table_exits_2_with_one_line_per_problem(capsys, tmp_path):
    path = write_variant(
        tmp_path,
        FRENCH,
        ("numbers = [17, 20]", "numbers = [5, 9]"),
        ('rua = {min = "5", max = "150"}', 'rua = {min = "5", max = "100"}'),
    )
    assert main(["exact", str(path), "--json"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert (
        f"slotcert: {path}: bets[4].numbers: [5, 9] is not a cavalo on the layout "
        "(a cavalo is two adjacent numbers, or 0 with 1, 2 or 3)" in err
    )
    assert (
        f'slotcert: {path}: limits.rua: max "100" / min "5" = 20; Portaria 1441/95 X.27 '
        "requires 30" in err
    )


def test_module_entry_point_simulate_and_capital(capsys):
    from certify.tables.__main__ import main as tables_main

    assert tables_main(["simulate", str(FANTAN), "--rounds", "20000", "--seed", "5"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["rounds"] == 20000 and report["seed"] == 5
    assert all(
        row["counts"]["lose"] + row["counts"]["push"] + row["counts"]["win"] == 20000
        for row in report["bets"]
    )
    assert tables_main(["capital", str(PAIKAO), "--rounds", "1000"]) == 0
    assert json.loads(capsys.readouterr().out)["rows"]
    assert tables_main(["capital", str(FANTAN)]) == 2
    assert "no [capital] section" in capsys.readouterr().err
