"""The HTML reports: self-contained, escaped, deterministic (golden files)."""

from __future__ import annotations

import dataclasses
import os
import re
from pathlib import Path

import pytest

from reports.browser_check import check_images, image_sources
from reports.html import render_batch_index, render_machine_report

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "reports"
UPDATE = os.environ.get("SLOTCERT_UPDATE_GOLDEN") == "1"
_IMAGE = re.compile(r"data:image/png;base64,[A-Za-z0-9+/=]+")
EVIL = "<script>alert(1)</script>"


def _masked(html: str) -> str:
    return _IMAGE.sub("data:image/png;base64,MASKED", html)


def _golden(name: str, text: str) -> None:
    path = GOLDEN / name
    if UPDATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    expected = path.read_text(encoding="utf-8")
    assert text == expected, f"{path} differs; rerun with SLOTCERT_UPDATE_GOLDEN=1 if intended"


@pytest.fixture()
def report(small_machine, report_inputs) -> str:
    cert, convergence, histogram = report_inputs
    return render_machine_report(cert, small_machine, convergence, histogram)


def test_machine_report_golden(report):
    _golden("small_machine.html", _masked(report))


def test_batch_index_golden():
    rows = [
        {
            "path": "models/machines/small.toml",
            "machine_id": "TEST-3X3-5",
            "verdict": "pass",
            "min_base_rtp": 0.92,
            "min_total_rtp": 0.931,
            "error": None,
            "files": ["TEST-3X3-5.certificate.json", "TEST-3X3-5.par.csv", "TEST-3X3-5.html"],
        },
        {
            "path": "models/machines/low.toml",
            "machine_id": "LOW-1",
            "verdict": "inconclusive",
            "min_base_rtp": 0.7999,
            "min_total_rtp": None,
            "error": None,
            "files": ["LOW-1.certificate.json", "LOW-1.par.csv"],
            "certificate": "LE-PT-20261201T120000Z-0123456789AB",
            "warnings": ["warning: rtp_above_100: level 1: return 1.02 is above 100%"],
        },
        {
            "path": "models/machines/broken.toml",
            "machine_id": None,
            "verdict": "invalid",
            "min_base_rtp": None,
            "min_total_rtp": None,
            "files": [],
            "error": '1 problem(s): broken.toml: reels.strips[0][1]: unknown symbol "Z"',
        },
    ]
    batch = {
        "jurisdiction": "PT",
        "jurisdiction_name": "Portugal - Portaria 1441/95",
        "min_rtp": 0.8,
        "mode": "exact and simulation",
        "spins": 10_000_000,
        "seed": 1,
        "issued_utc": "2026-12-01T12:00:00Z",
        "lab": {"name": "Laboratório de Ensaio"},
        "tool": {"name": "slotcert", "version": "0.1.0"},
        "signed": False,
    }
    _golden("batch_index.html", render_batch_index(rows, batch))


def test_report_is_self_contained(report):
    sources = image_sources(report)
    assert len(sources) == 3
    assert check_images(report) == []
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:|//)""", report)
    assert "<script" not in report
    assert 'http-equiv="Content-Security-Policy"' in report


def test_plots_are_deterministic(small_machine, report_inputs, report):
    cert, convergence, histogram = report_inputs
    again = render_machine_report(cert, small_machine, convergence, histogram)
    assert again == report


def test_report_has_each_part(report):
    for anchor in (
        'id="summary"',
        'id="levels"',
        'id="par"',
        'id="simulation"',
        'id="pay-glass"',
        'id="glass-pt"',
        'id="glass-en"',
    ):
        assert anchor in report
    assert "1 in 83,333.3" in report and "never" in report
    assert "fingerprint-mismatch" not in report
    assert "700,000 spins won nothing" in report


def test_report_without_traces(small_machine, report_inputs):
    cert, _, _ = report_inputs
    html = render_machine_report(cert, small_machine, None, None)
    assert len(image_sources(html)) == 1
    assert "No convergence trace was recorded." in html


def test_mismatched_model_is_flagged(small_machine, report_inputs):
    cert, _, _ = report_inputs
    other = dataclasses.replace(small_machine, version="3")
    assert 'id="fingerprint-mismatch"' in render_machine_report(cert, other)


def test_machine_name_is_escaped(small_machine, report_inputs):
    cert, _, _ = report_inputs
    evil = dataclasses.replace(small_machine, name=EVIL, manufacturer=EVIL)
    cert["findings"][0]["message"] = EVIL
    cert["machine"]["name"] = EVIL
    html = render_machine_report(cert, evil)
    assert EVIL not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html


def test_batch_index_escapes_and_links_only_plain_names():
    html = render_batch_index(
        [
            {"path": EVIL, "machine_id": EVIL, "verdict": "pass", "html": "javascript:alert(1)"},
            {"path": "a.toml", "machine_id": "A", "verdict": "pass", "files": ["../../etc/a.html"]},
            {
                "path": "b.toml",
                "machine_id": "B",
                "verdict": "fail",
                "files": ["B.par.csv", "B.html"],
            },
        ]
    )
    assert EVIL not in html
    assert "javascript:" not in html and "../../etc" not in html
    assert '<a href="B.html">B</a>' in html
