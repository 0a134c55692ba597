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
