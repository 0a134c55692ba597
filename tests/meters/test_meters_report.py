"""The operator's report: floor summary and machines in money, findings by severity, filters.

Oracle of the money figures: sums over ``periods.csv`` (credits per period)
and ``floor.csv`` (denominations) computed here with pandas, independently of
:mod:`meters.operator_report` (which adds Decimal money per machine).
"""

from __future__ import annotations

import json
import re
from decimal import Decimal

import pandas as pd
import pytest

from certify.cli import main
from meters.codes import Code


def run(paths, out, *extra, counts=None):
    args = ["meters", "reconcile", str(paths["dump"]), "--floor", str(paths["floor"])]
    args += ["--counts", str(counts or paths["counts"]), "--out", str(out), *extra]
    return main(args)


@pytest.fixture(scope="module")
def reconciled(faulty_files, tmp_path_factory):
    """The faulty floor (every fault kind) reconciled once, in EUR."""
    paths = faulty_files["csv"]
    out = tmp_path_factory.mktemp("report") / "out"
    assert run(paths, out, "--currency", "EUR") == 1
    return paths, out


def cents(x: float) -> str:
    return f"{x:.2f}"


def test_floor_summary_equals_sums_over_periods_csv(reconciled):
    """Every floor figure of summary.json against pandas sums over periods.csv x denomination."""
    paths, out = reconciled
    floor = json.loads((out / "summary.json").read_text())["floor"]
    periods = pd.read_csv(out / "periods.csv")
    denom = pd.read_csv(paths["floor"]).set_index("machine_id")["denomination"]
    d = periods["machine_id"].map(denom)
    assert floor["currency"] == "EUR"
    assert floor["machines"] == periods["machine_id"].nunique()
    assert floor["games_played"] == int(periods["games_played"].sum())
    assert floor["coin_in"] == cents((periods["coin_in"] * d).sum())
    assert floor["coin_in"] == cents(periods["coin_in_money"].sum())  # the written money column
    assert floor["prizes_paid"] == cents((periods["prizes_paid"] * d).sum())
    assert floor["drop"] == cents((periods["coin_drop"] * d).sum())
    # hold only where both meters were read (as hold_money is)
    assert floor["hold"] == cents(periods["hold_money"].sum())
    weighted = ((1 - periods["theo_rtp"]) * periods["coin_in_money"]).sum()
    assert abs(Decimal(floor["theoretical_hold"]) - Decimal(weighted)) <= Decimal("0.005001")
    pct = 100 * weighted / periods["coin_in_money"].sum()
    assert abs(float(floor["theoretical_hold_pct"]) - pct) <= 0.00005 + 1e-9
    actual = 100 * periods["hold_money"].sum() / periods["coin_in_money"].sum()
    assert abs(float(floor["actual_hold_pct"]) - actual) <= 0.00005 + 1e-9
    # variance = actual - theoretical hold, rounded once (so within a cent of the rounded parts)
    parts = Decimal(floor["hold"]) - Decimal(floor["theoretical_hold"])
    assert abs(Decimal(floor["variance"]) - parts) <= Decimal("0.01")
    findings = pd.read_csv(out / "findings.csv", keep_default_na=False)
    per_code = findings[findings["machine_id"] != ""].groupby("code")["machine_id"].nunique()
    assert floor["machines_flagged_per_code"] == {
        c.value: int(per_code.get(c.value, 0)) for c in Code
    }
    assert sum(floor["machines_flagged_per_code"].values()) >= floor["machines_flagged"] > 0


def test_machines_csv_equals_sums_per_machine(reconciled):
    paths, out = reconciled
    machines = pd.read_csv(out / "machines.csv", dtype={"coin_in": str, "variance": str})
    periods = pd.read_csv(out / "periods.csv")
    denom = pd.read_csv(paths["floor"]).set_index("machine_id")["denomination"]
    per = periods.assign(d=periods["machine_id"].map(denom)).groupby("machine_id")
    coin_in = per.apply(lambda p: (p["coin_in"] * p["d"]).sum(min_count=1), include_groups=False)
    got = machines.set_index("machine_id")
    for mid, value in coin_in.dropna().items():
        assert got.loc[mid, "coin_in"] == cents(value), mid
        theo = per.get_group(mid)["theo_rtp"].iloc[0]
        hold = per.get_group(mid)["hold_money"].sum()
        variance = hold - (1 - theo) * value
        assert abs(Decimal(got.loc[mid, "variance"]) - Decimal(variance)) <= Decimal("0.0100001")
        assert got.loc[mid, "currency"] == "EUR"
    assert set(got.index) == set(periods["machine_id"])


def test_report_page_fits_a_laptop_and_shows_no_raw_floats(reconciled):
    _, out = reconciled
    html = (out / "report.html").read_text()
    assert '<meta name="viewport"' in html and "overflow-x:auto" in html
    assert html.count("<table") == html.count('<div class="scroll"><table')  # each table scrolls
    assert "<script" not in html and "http://" not in html and "https://" not in html
    assert not re.search(r"\d\.\d{7,}", html)  # no 1.5033333333333334
    assert "Floor summary" in html and " EUR<" in html


def finding_rows(html: str) -> list[tuple[str, str]]:
    """(severity, machine) of each finding row of report.html, in page order."""
    return re.findall(r'<tr class="row-(\w+)"><td>([^<]*)</td>', html)


def test_findings_by_severity_then_machine(reconciled):
    _, out = reconciled
    rows = finding_rows((out / "report.html").read_text())
    rank = {"error": 0, "warning": 1, "info": 2}
    keys = [(rank[s], m) for s, m in rows]
    assert keys == sorted(keys) and len(rows) == len(pd.read_csv(out / "findings.csv"))
    assert {s for s, _ in rows} == {"error", "warning", "info"}


def test_filters_change_the_page_not_findings_csv(reconciled, tmp_path):
    paths, out = reconciled
    machine = pd.read_csv(out / "findings.csv", keep_default_na=False)
    some = machine[machine["severity"] == "warning"]["machine_id"].iloc[0]
    assert run(paths, tmp_path, "--severity", "error", "--machine", f"{some},M00001") == 1
    rows = finding_rows((tmp_path / "report.html").read_text())
    assert all(s == "error" and m in (some, "M00001") for s, m in rows)
    assert (tmp_path / "findings.csv").read_bytes() == (out / "findings.csv").read_bytes()
    assert main(["meters", "report", str(tmp_path), "--code", "nope"]) == 2


def test_report_command_prints_the_tables(reconciled, capsys):
    _, out = reconciled
    capsys.readouterr()
    assert main(["meters", "report", str(out), "--severity", "warning"]) == 0
    text = capsys.readouterr().out
    floor = json.loads((out / "summary.json").read_text())["floor"]
    assert f"{Decimal(floor['coin_in']):,.2f} EUR" in text
    lines = text.split("findings (errors and warnings): ")[1].splitlines()[2:]
    severities = [line.split()[0] for line in lines if line.strip()]
    assert severities == sorted(severities, key=["error", "warning"].index)
    assert "info" not in severities and "error" in severities


def test_report_command_on_a_folder_that_is_not_one(tmp_path, capsys):
    assert main(["meters", "report", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "summary.json" in err and len(err.strip().splitlines()) == 1


def test_counts_in_credits_give_the_findings_of_counts_in_money(reconciled, tmp_path):
    """The same counts as credits (counted_drop) and as money (credits x denomination).

    The faulty floor's counts are rounded to whole credits, then written both
    ways: the findings (drop variances included) and the exit code agree.
    """
    paths, _ = reconciled
    counts = pd.read_csv(paths["counts"], dtype={"amount": str})
    denom = pd.read_csv(paths["floor"], dtype=str).set_index("machine_id")["denomination"]
    credits, money = [], []
    for mid, amount in zip(counts["machine_id"], counts["amount"], strict=True):
        d = Decimal(denom[mid]) if mid in denom.index else Decimal("0.01")  # off the floor: any
        whole = (Decimal(amount) / d).to_integral_value()
        credits.append(str(whole))
        money.append(str(whole * d))
    as_credits, as_money = tmp_path / "credits.csv", tmp_path / "money.csv"
    counts.drop(columns="amount").assign(counted_drop=credits).to_csv(as_credits, index=False)
    counts.assign(amount=money).to_csv(as_money, index=False)
    assert run(paths, tmp_path / "c", "--currency", "EUR", counts=as_credits) == 1
    assert run(paths, tmp_path / "m", "--currency", "EUR", counts=as_money) == 1
    a = pd.read_csv(tmp_path / "m" / "findings.csv", keep_default_na=False)
    b = pd.read_csv(tmp_path / "c" / "findings.csv", keep_default_na=False)
    key = ["machine_id", "code", "period_start", "period_end"]
    assert a[key].equals(b[key])
    drop = a["code"] == "drop_variance"
    assert drop.any()
    pd.testing.assert_series_equal(
        a.loc[drop, "observed"].astype(float), b.loc[drop, "observed"].astype(float)
    )
    ghost = b[b["code"] == "unknown_machine"]["message"]
    assert ghost.str.contains("credits counted").any()


@pytest.mark.parametrize(
    "head, row, message",
    [
        ("amount,counted_drop", "1,1", "not both"),
        ("count", "1", "missing column amount (counted money) or counted_drop"),
        ("counted_drop", "12.5", "line 2: unusable count"),
    ],
)
def test_bad_count_files_are_one_line_errors(tmp_path, capsys, head, row, message):
    floor = tmp_path / "floor.csv"
    floor.write_text(
        "machine_id,model,bet_level,denomination,jackpot_pools,theoretical_rtp,sigma\n"
        "A,,,0.05,,0.92,5\n"
    )
    dump = tmp_path / "d.csv"
    dump.write_text("machine_id,read_at,coin_drop\nA,2026-01-01T06:00:00Z,1\n")
    counts = tmp_path / "c.csv"
    counts.write_text(
        f"machine_id,period_start,period_end,{head}\n"
        f"A,2026-01-01T06:00:00Z,2026-01-02T06:00:00Z,{row}\n"
    )
    args = ["meters", "reconcile", str(dump), "--floor", str(floor), "--counts", str(counts)]
    assert main([*args, "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize(
    "column, flag, message",
    [
        ("", "eur", "ISO 4217"),
        ("EUR", "USD", "--currency=USD but the floor file gives EUR"),
        ("euro", None, "currency='euro' must be an ISO 4217 code"),
    ],
)
def test_currency_is_checked(tmp_path, capsys, column, flag, message):
    floor = tmp_path / "floor.csv"
    floor.write_text(
        "machine_id,model,bet_level,denomination,jackpot_pools,theoretical_rtp,sigma,currency\n"
        f"A,,,0.05,,0.92,5,{column}\n"
    )
    dump = tmp_path / "d.csv"
    dump.write_text("machine_id,read_at,coin_in\nA,2026-01-01T06:00:00Z,1\n")
    args = ["meters", "reconcile", str(dump), "--floor", str(floor), "--out", str(tmp_path / "o")]
    assert main([*args, *(["--currency", flag] if flag else [])]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


def test_machine_table_and_floor_summary_by_hand():
    """Two machines, figures by hand.

    A (0.05 a credit, return 0.92): coin in 600 + 400 = 1000 credits = 50.00,
    prizes 540 + 360 = 900 = 45.00, drop 150 = 7.50, hold 5.00 (10%),
    theoretical hold 8% = 4.00, variance +1.00. B (1.00 a credit, return
    0.95): coin in 200.00, prizes 210.00, drop 20.00, hold -10.00 (-5%),
    theoretical 5% = 10.00, variance -20.00. Floor: coin in 250.00, prizes
    255.00, drop 27.50, hold -5.00 (-2.0000%), theoretical hold 14.00 =
    (0.08 x 50 + 0.05 x 200) / 250 = 5.6000%, variance -19.00.
    """
    from meters.operator_report import floor_summary, machine_table

    periods = pd.DataFrame(
        {
            "machine_id": ["A", "A", "B"],
            "games_played": [10, 10, 5],
            "coin_in": [600, 400, 200],
            "prizes_paid": [540, 360, 210],
            "coin_drop": [100, 50, 20],
            "theo_rtp": [0.92, 0.92, 0.95],
        }
    )
    floor = pd.DataFrame(
        {"denomination": [0.05, 1.0], "currency": ["EUR", "EUR"]}, index=pd.Index(["A", "B"])
    )
    totals = pd.DataFrame({"machine_id": ["A", "B"], "z": [0.5, -1.25]})
    findings = pd.DataFrame({"machine_id": ["B"], "code": ["hold_deviation"]})
    m = machine_table(periods, floor, totals, findings).set_index("machine_id")
    assert m.loc["A", "coin_in"] == Decimal("50.00") and m.loc["A", "drop"] == Decimal("7.50")
    assert m.loc["A", "hold"] == Decimal("5.00") and m.loc["A", "actual_hold_pct"] == 10
    assert m.loc["A", "theoretical_hold_pct"] == 8 and m.loc["A", "variance"] == Decimal("1.00")
    assert m.loc["B", "variance"] == Decimal("-20.00") and m.loc["B", "findings"] == 1
    f = floor_summary(m.reset_index(), findings, "EUR")
    assert (f["coin_in"], f["prizes_paid"], f["drop"], f["hold"]) == (
        "250.00",
        "255.00",
        "27.50",
        "-5.00",
    )
    assert (f["theoretical_hold"], f["theoretical_hold_pct"], f["actual_hold_pct"]) == (
        "14.00",
        "5.6000",
        "-2.0000",
    )
    assert f["variance"] == "-19.00" and f["machines_flagged_per_code"]["hold_deviation"] == 1


@pytest.mark.parametrize(
    "code, meter, value, shown",
    [
        ("drop_variance", "coin_drop", 1.5033333333333334, "1.50 EUR"),
        ("drop_variance", "coin_drop", 1234.005, "1,234.00 EUR"),  # half to even
        ("hold_deviation", "prizes_paid", 0.86161012480225, "86.16%"),
        ("progressive_contribution", "progressive_contrib", 701.6, "701.60 credits (35.08 EUR)"),
        ("identity_games", "games_played", 1390.0, "1,390 games"),
        ("time_gap", "", 47.94638888888889, "47.95 h"),
        ("rollover", "coin_in", 9999989990.0, "9,999,989,990 credits"),
        ("unknown_machine", "", 15.0, "15"),
        ("stuck_meter", "coin_drop", float("nan"), ""),
    ],
)
def test_finding_values_are_shown_in_their_unit(code, meter, value, shown):
    """By hand: 701.6 credits x 0.05 = 35.08; 0.8616... = 86.16%."""
    from meters.operator_report import shown_value

    assert shown_value(code, meter, value, Decimal("0.05"), "EUR") == shown


def test_z_is_the_holds_as_the_columns_beside_it():
    """Hand calculation: coin in 1,000, prizes 900 over 100 games: return 90%, hold 10%;
    theoretical return 95% (hold 5%), sigma 2 per game, so the standard error of the
    hold over 100 games is 2 / sqrt(100) = 0.2 and z = (10% - 5%) / 0.2 = +0.25: positive
    because the machine kept more than certified (the hold columns' direction)."""
    from meters.checks import hold_columns

    per = pd.DataFrame({"coin_in": [1000.0], "prizes_paid": [900.0], "games_played": [100.0]})
    floor = pd.DataFrame({"theo_rtp": [0.95], "sigma": [2.0], "denomination": [1.0]})
    hold_columns(per, floor)
    assert per["hold"].iloc[0] == 100.0
    assert per["z"].iloc[0] == pytest.approx(0.25, abs=1e-12)


def test_money_messages_carry_the_currency():
    from meters.operator_report import shown_message

    text = "counted 5230.00 vs metered drop 0.00 (tolerance 50.00)"
    assert shown_message("drop_variance", text, "EUR") == (
        "counted 5,230.00 EUR vs metered drop 0.00 EUR (tolerance 50.00 EUR)"
    )
    assert shown_message("drop_variance", text, "") == text  # no currency known: as written
    reset = "meters went back (games_played 1140729511 -> 1296): RAM clear"
    assert shown_message("reset", reset, "EUR") == reset  # readings, not money
