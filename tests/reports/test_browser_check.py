"""The report opens in headless Chromium with its images and no console output."""

from __future__ import annotations

import base64
from pathlib import Path

import pytest

from reports import browser_check
from reports.browser_check import check_images, png_problem
from reports.html import render_machine_report
from reports.plots import level_returns_plot

needs_chromium = pytest.mark.skipif(
    not Path(browser_check.CHROMIUM).exists(), reason=f"{browser_check.CHROMIUM} is not installed"
)


def test_png_checks_catch_corruption():
    uri = level_returns_plot([("1", 0.9, 0.01)], 0.8)
    data = base64.b64decode(uri.split(",", 1)[1])
    assert png_problem(data) is None
    broken = data[:40] + bytes([data[40] ^ 0xFF]) + data[41:]
    assert "CRC" in png_problem(broken)
    assert png_problem(data[:-5]) is not None
    assert png_problem(b"GIF89a") == "no PNG signature"
    html = (
        f'<img src="{uri}"><img src="https://example.com/x.png">'
        '<img src="data:image/png;base64,AAAA">'
    )
    problems = check_images(html)
    assert len(problems) == 2
    assert "not an embedded PNG" in problems[0] and "img 2" in problems[1]


@needs_chromium
def test_report_in_headless_chromium(tmp_path, small_machine, report_inputs, capsys):
    cert, convergence, histogram = report_inputs
    page = tmp_path / "report.html"
    page.write_text(
        render_machine_report(cert, small_machine, convergence, histogram), encoding="utf-8"
    )
    shot = tmp_path / "report.png"
    assert browser_check.main([str(page), "--screenshot", str(shot)]) == 0, capsys.readouterr().out
    assert png_problem(shot.read_bytes()) is None


@needs_chromium
def test_chromium_check_reports_blocked_content(tmp_path):
    page = tmp_path / "bad.html"
    page.write_text(
        '<!DOCTYPE html><html><head><meta http-equiv="Content-Security-Policy" '
        "content=\"default-src 'none'\"></head><body>"
        '<img src="missing.png"><script>nosuch()</script>'
        "</body></html>",
        encoding="utf-8",
    )
    problems = browser_check.check_in_browser(page, tmp_path / "bad.png")
    assert any(p.startswith("console:") for p in problems)
    assert any("1 of 1 images broken" in p for p in problems)


@needs_chromium
def test_screenshots_of_a_folder(tmp_path, small_machine, report_inputs, capsys):
    cert, convergence, histogram = report_inputs
    folder = tmp_path / "out"
    folder.mkdir()
    html = render_machine_report(cert, small_machine, convergence, histogram)
    for name in ("A.html", "B.html"):
        (folder / name).write_text(html, encoding="utf-8")
    shots = tmp_path / "shots"
    code = browser_check.main([str(folder), "--screenshots", str(shots), "--height", "3000"])
    assert code == 0, capsys.readouterr().out
    assert sorted(p.name for p in shots.iterdir()) == ["A.png", "B.png"]
    assert all(png_problem(p.read_bytes()) is None for p in shots.iterdir())


def test_screenshot_names_one_report(tmp_path, capsys):
    with pytest.raises(SystemExit):
        browser_check.main([str(tmp_path), str(tmp_path), "--screenshot", "x.png"])
