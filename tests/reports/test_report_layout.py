"""The report page a person reads (issue 29, item 6): summary first, long tables folded,
reel strips side by side, one award table for levels that differ only in pays, a page
that fits 1366 px without a horizontal scroll bar (Chromium), DRAFT without a lab, an A4
print with the signature block.

The Chromium tests skip where ``/usr/bin/chromium`` is absent (``apt-get install
chromium``). With ``SLOTCERT_SCREENSHOTS=DIR`` they also leave their screenshots there,
to be looked at.
"""

from __future__ import annotations

import os
import re
import shutil
from datetime import UTC, datetime
from pathlib import Path

import pytest
from testpaths import DATA, JURISDICTIONS, MACHINES

from certify.batch import certify_machine
from certify.model import load_jurisdiction, load_machine
from reports import browser_check, layout
from reports.browser_check import LAPTOP, page_fit, png_problem, run_chromium
from reports.certificate import build_certificate
from reports.html import render_machine_report
from reports.signing import identity

needs_chromium = pytest.mark.skipif(
    not Path(browser_check.CHROMIUM).exists(), reason=f"{browser_check.CHROMIUM} is not installed"
)
ISSUED = datetime(2026, 12, 1, 12, 0, 0, tzinfo=UTC)
SPINS = 1 << 20  # one chunk per level: plots drawn, seconds to run


def _report(path: Path, lab: dict | None = None, spins: int = SPINS) -> tuple[dict, str]:
    machine = load_machine(path)
    cert = certify_machine(machine, load_jurisdiction(JURISDICTIONS / "pt.toml"), spins, 1)
    data = build_certificate(cert)
    data["certificate"] = identity(data, lab or {}, ISSUED)
    return data, render_machine_report(data, machine)


def test_strips_side_by_side_with_hand_counted_symbols():
    """tests/data/tiny_lines.toml: reels A B W S / A B W S / A A B W. By hand: A is 1, 1, 2
    stops on the three reels; B, W 1 each; S 1, 1, 0 (left out where absent); 4 stops each."""
    (table,) = layout.strip_tables(load_machine(DATA / "tiny_lines.toml"))
    assert table["columns"] == ["stop", "reel 1", "reel 2", "reel 3"]
    cells = [r["cells"] for r in table["rows"]]
    assert cells[:4] == [
        ["0", "A", "A", "A"],
        ["1", "B", "B", "A"],
        ["2", "W", "W", "B"],
        ["3", "S", "S", "W"],
    ]
    counts = {c[0]: c[1:] for c in cells[4:]}
    assert counts == {
        "A": ["1", "1", "2"],
        "B": ["1", "1", "1"],
        "W": ["1", "1", "1"],
        "S": ["1", "1", "0"],
        "all (stops)": ["4", "4", "4"],
    }
    assert table["fold"] is True


def _awards(name: str, level: str, pays: list[str], probability: str) -> dict:
    columns = ["level", "kind", "combo", "pays", "probability", "rtp contribution"]
    rows = [
        {"cells": [level, "line", f"A x{i}", p, probability, "1.0000%"], "flag": False}
        for i, p in enumerate(pays)
    ]
    return {"name": name, "title": name, "columns": columns, "rows": rows, "numeric": []}


def test_award_tables_that_differ_only_in_pays_are_shown_once():
    one = _awards("awards_level_1", "1", ["10", "20"], "0.1")
    two = _awards("awards_level_2", "2", ["20", "40"], "0.1")
    other = _awards("awards_level_5", "5", ["50", "100"], "0.2")  # another probability
    merged = layout.merge_award_tables([one, two, other])
    assert [t["name"] for t in merged] == ["awards_level_1_2", "awards_level_5"]
    assert [r["cells"][0] for r in merged[0]["rows"]] == ["1, 2", "1, 2"]
    assert [r["cells"][3] for r in merged[0]["rows"]] == ["10 / 20", "20 / 40"]
    assert merged[1] is other


def test_long_tables_fold_short_ones_do_not():
    short = _awards("awards_level_1", "1", ["1"] * layout.FOLD_ROWS, "0.1")
    long = _awards("awards_level_1", "1", ["1"] * (layout.FOLD_ROWS + 1), "0.1")
    assert layout.folded(short)["fold"] is False
    assert layout.folded(long)["fold"] is True
    assert layout.folded(long)["summary"] == f"{layout.FOLD_ROWS + 1} rows"


def test_reference_report_is_compact_and_draft_without_a_lab():
    data, html = _report(MACHINES / "ref-5x3-20.toml", spins=0)
    assert data["certificate"]["draft"] is True
    assert data["certificate"]["title"].startswith("DRAFT certificate of REF-5X3-20")
    assert data["certificate"]["number"].startswith("DRAFT-PT-")
    assert re.search(r"<title>DRAFT — REF-5X3-20", html) and 'id="draft"' in html
    # the summary comes before every table; the award table of levels 1, 2 and 5 once
    assert html.index('id="summary"') < html.index("<table")
    assert html.count("Awards at bet level") == 1 and "Awards at bet levels 1, 2, 5" in html
    assert "1,000 / 2,000 / 5,000" in html  # 7 7 7 7 7 at levels 1, 2, 5 (pays x line bet)
    assert html.count("<details") >= 3  # the long tables are folded
    assert 'id="signature-block"' in html and "Approved by" in html
    labelled = _report(MACHINES / "ref-5x3-20.toml", {"name": "Lab Q"}, spins=0)
    assert labelled[0]["certificate"]["draft"] is False
    assert "DRAFT" not in labelled[1].split("</title>")[0]


def _check_fits(tmp_path: Path, path: Path, name: str) -> dict[str, int]:
    page = tmp_path / f"{name}.html"
    page.write_text(_report(path, {"name": "Lab Q"})[1], encoding="utf-8")
    fit = page_fit(page, LAPTOP)
    shot = tmp_path / f"{name}-1366.png"
    with_profile = tmp_path / f"profile-{name}"
    run_chromium(
        browser_check.CHROMIUM,
        page,
        with_profile,
        f"--screenshot={shot}",
        width=LAPTOP,
        height=2400,
    )
    assert png_problem(shot.read_bytes()) is None
    keep = os.environ.get("SLOTCERT_SCREENSHOTS")
    if keep:
        Path(keep).mkdir(parents=True, exist_ok=True)
        shutil.copy(shot, Path(keep) / shot.name)
    return fit


@needs_chromium
@pytest.mark.parametrize(
    ("model", "name"),
    [("ref-5x3-20.toml", "REF-5X3-20"), ("hold-5x3-20.toml", "HOLD-5X3-20")],
)
def test_report_fits_1366_px_without_horizontal_scroll(tmp_path, model, name):
    """Chromium lays the report out in a 1366 px window: the page is no wider than the
    window and no table or figure reaches past it. (Before: REF was 1,623 px wide.)"""
    fit = _check_fits(tmp_path, MACHINES / model, name)
    assert fit["scroll"] <= fit["client"] == LAPTOP, fit
    assert fit["over"] == 0, fit
    assert fit["height"] < 12_000, fit  # was 33,000 px for REF


@needs_chromium
def test_the_width_check_can_fail(tmp_path):
    """A page with a 3000 px table scrolls sideways: page_fit sees it."""
    page = tmp_path / "wide.html"
    page.write_text(
        "<!DOCTYPE html><html><body><table><tr><td style='white-space:nowrap'>"
        + "x" * 600
        + "</td></tr></table></body></html>",
        encoding="utf-8",
    )
    fit = page_fit(page, LAPTOP)
    assert fit["scroll"] > fit["client"] and fit["over"] >= 1, fit


def test_columns_no_row_fills_are_dropped():
    """An exact-only PAR table has dashes for its confidence bounds: those columns go,
    a column with one figure stays (the total row's certified return)."""
    table = _awards("awards_level_1", "1", ["10", "20"], "0.1")
    table["columns"] += ["certified rtp", "ci low"]
    table["numeric"] = [False] * len(table["columns"])
    for r in table["rows"]:
        r["cells"] += ["—", "—"]
    table["rows"][-1]["cells"][-2] = "95.0%"
    out = layout.without_empty_columns(table)
    assert out["columns"][-1] == "certified rtp" and "ci low" not in out["columns"]
    assert [len(r["cells"]) for r in out["rows"]] == [len(out["columns"])] * 2
    assert layout.without_empty_columns(out) is out
