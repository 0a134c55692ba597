"""``certify --pdf``: a PDF of each report where Chromium exists, a clear error where not."""

from __future__ import annotations

import json

import pytest
from testpaths import DATA, JURISDICTIONS

from certify.cli import main
from reports import pdf

ARGS = [
    "certify",
    str(DATA / "tiny_lines.toml"),
    "--jurisdiction",
    str(JURISDICTIONS / "pt.toml"),
    "--spins",
    "2000",
    "--seed",
    "1",
]


def test_pdf_written_when_chromium_is_installed(tmp_path):
    try:
        pdf.find_chromium()
    except Exception:
        pytest.skip("Chromium is not installed here")
    main([*ARGS, "--out", str(tmp_path), "--pdf"])
    assert (tmp_path / "TINY-3X1.pdf").read_bytes().startswith(b"%PDF")
    rows = json.loads((tmp_path / "batch.json").read_text())["machines"]
    assert "TINY-3X1.pdf" in rows[0]["files"]


def test_pdf_without_chromium_is_a_usage_error(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(pdf, "CHROMIUM", "/nonexistent/chromium")
    monkeypatch.setattr(pdf.shutil, "which", lambda name: None)
    assert main([*ARGS, "--out", str(tmp_path), "--pdf"]) == 2
    err = capsys.readouterr().err
    assert "--pdf needs Chromium" in err and "Traceback" not in err


def test_printable_opens_every_folded_table():
    html = '<details><summary>a</summary>x</details><details open class="t">y</details>'
    assert pdf.printable(html) == (
        '<details open><summary>a</summary>x</details><details open class="t">y</details>'
    )


def test_pdf_is_a4_with_the_signature_block(tmp_path):
    """A4 is 210 x 297 mm = 595.28 x 841.89 pt (ISO 216; 1 pt = 1/72 in = 0.3528 mm):
    every page's MediaBox is that size to within a point (Chromium rounds to 1/96 in)."""
    import re

    try:
        pdf.find_chromium()
    except Exception:
        pytest.skip("Chromium is not installed here")
    main([*ARGS, "--out", str(tmp_path), "--pdf", "--lab", "Lab P"])
    html = (tmp_path / "TINY-3X1.html").read_text()
    assert 'id="signature-block"' in html and "Approved by" in html
    data = (tmp_path / "TINY-3X1.pdf").read_bytes()
    boxes = re.findall(rb"/MediaBox\s*\[\s*0\s+0\s+([\d.]+)\s+([\d.]+)\s*\]", data)
    assert boxes, "no page size in the PDF"
    for width, height in boxes:
        assert abs(float(width) - 595.28) < 1 and abs(float(height) - 841.89) < 1, boxes
