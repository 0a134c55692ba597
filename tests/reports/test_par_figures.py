"""PAR figures beside the return: return ranges after n games, wins against the bet,
the per-feature sections in the workbook, the HTML report and ``par-features.csv``."""

from __future__ import annotations

import math

import pandas as pd
import pytest
from testpaths import DATA, JURISDICTIONS, MACHINES
from twins import lines as twin

from certify.batch import certify_machine
from certify.model import load_jurisdiction, load_machine
from certify.stats import z_value
from reports.certificate import build_certificate
from reports.html import render_machine_report
from reports.par import par_sections
from reports.parcsv import write_par_features_csv
from reports.parfigures import _histogram_rows
from reports.parxlsx import write_par_xlsx

PT = load_jurisdiction(JURISDICTIONS / "pt.toml")


def _data(path, spins=0, seed=1):
    machine = load_machine(path)
    return machine, build_certificate(certify_machine(machine, PT, spins, seed))


def test_return_ranges_from_the_brute_force_variance():
    """tiny_lines: the twin's full cycle gives the variance of one game per unit wagered;
    the range after n games is rtp +/- z sigma / sqrt(n) at the jurisdiction's confidence."""
    machine, data = _data(DATA / "tiny_lines.toml")
    section = next(s for s in par_sections(data, machine) if s.name == "return_ranges")
    z = z_value(float(PT.confidence))
    for li, lv in enumerate(data["bet_levels"]):
        tb = lv["total_bet"]
        total = s1 = s2 = 0
        for stops, w in twin.cycle(machine, machine.strips, machine.weights):
            value, _ = twin.spin_value(machine, twin.window(machine.strips, stops, 1), li)
            total, s1, s2 = total + w, s1 + w * value, s2 + w * value * value
        mean = s1 / total / tb
        sigma = math.sqrt(s2 / total / tb**2 - mean**2)
        rows = [r for r in section.rows if r[0] == lv["level"]]
        assert [r[1] for r in rows] == [10**k for k in range(3, 9)]
        for r in rows:
            half = z * sigma / math.sqrt(r[1])
            assert r[5] == pytest.approx(half, rel=1e-12)
            assert r[3] == pytest.approx(mean - half, rel=1e-12, abs=1e-12)
            assert r[4] == pytest.approx(mean + half, rel=1e-12)


def test_simulated_win_probabilities_bracket_the_exact_ones():
    """The cascade game's exact thresholds (every combination played) lie inside the
    simulation's intervals read from its doubling bins (a win below the bet: bins 1-10
    exactly; at least 10x: between the bins' >= 16x and >= 8x)."""
    _, data = _data(MACHINES / "cascade-5x3-10.toml", spins=1 << 20, seed=3)
    lv = data["bet_levels"][0]
    exact = {r["event"]: r["probability"] for r in lv["exact"]["win_probabilities"]}
    assert exact["win > 0 and < bet"] > 0.2 and exact["win >= 10x bet"] > 0.01
    simulated = {r[1]: r for r in _histogram_rows(lv, 0.999)}
    for event in ("win > 0 and < bet", "win >= 10x bet", "win >= 100x bet"):
        low, high = simulated[event][4], simulated[event][5]
        assert low <= exact[event] <= high, (event, low, exact[event], high)
    assert simulated["win > 0 and < bet"][2] == pytest.approx(exact["win > 0 and < bet"], abs=0.005)


def test_feature_sections_reach_every_output(tmp_path):
    """The hold-and-spin tables are sheets of the workbook, sections of the HTML report and
    rows of par-features.csv, with the same figures."""
    machine, data = _data(MACHINES / "hold-5x3-20.toml")
    write_par_xlsx(data, machine, tmp_path / "par.xlsx")
    sheets = pd.read_excel(tmp_path / "par.xlsx", sheet_name=None, header=1)
    write_par_features_csv(data, tmp_path / "features.csv")
    csv = pd.read_csv(tmp_path / "features.csv")
    html = render_machine_report(data, machine)
    for name in ("hold_coins", "hold_prizes", "return_ranges"):
        assert name in sheets
        assert f'id="par-{name}"' in html
        assert (csv.section == name).sum() == len(sheets[name])
    coins = csv[csv.section == "hold_coins"]
    pd.testing.assert_series_equal(
        coins.rtp_contribution.reset_index(drop=True),
        sheets["hold_coins"].rtp_contribution,
        check_names=False,
        rtol=1e-15,
    )
    grand = sheets["hold_prizes"].set_index("prize").loc["GRAND"]
    pools = {p["pool"]: p["rtp"] for p in data["bet_levels"][0]["par"]["jackpots"]}
    assert grand.rtp_contribution.iloc[0] == pytest.approx(pools["GRAND"], rel=1e-15)
