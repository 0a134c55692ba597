"""PDF of an HTML report, printed by headless Chromium when it is installed.

The HTML report is self-contained (images embedded, no network), so printing
it needs nothing but the browser. Without Chromium, ``--pdf`` is a usage error
that says how to get it, never a silent skip.
"""

from __future__ import annotations

import re
import shutil
import tempfile
from pathlib import Path

from certify.errors import UsageError
from certify.outputs import write_bytes
from reports.browser_check import CHROMIUM, run_chromium


def find_chromium() -> str:
    """Path of the Chromium binary, or a UsageError saying how to install one."""
    found = shutil.which(CHROMIUM) or shutil.which("chromium")
    if found is None:
        raise UsageError(
            "--pdf needs Chromium: install it (apt-get install chromium) or "
            "point SLOTCERT_CHROMIUM at a Chromium binary"
        )
    return found


def printable(html: str) -> str:
    """The report as printed: every folded table (``<details>``) open, so the PDF has it all."""
    return re.sub(r"<details(?![^>]*\bopen\b)", "<details open", html)


def write_pdf(html: Path, pdf: Path, chromium: str | None = None) -> None:
    """Print ``html`` to ``pdf``: A4, every table unfolded, no browser header or footer.

    The page size is the report's ``@page`` rule (A4); the signature block
    ends the document.
    """
    browser = chromium or find_chromium()
    with tempfile.TemporaryDirectory(prefix="slotcert-pdf-") as tmp:
        printed = Path(tmp) / "print.pdf"  # never a path through a symlink in --out
        page = Path(tmp) / "print.html"
        page.write_text(printable(html.read_text(encoding="utf-8")), encoding="utf-8")
        run_chromium(
            browser,
            page,
            Path(tmp) / "profile",
            f"--print-to-pdf={printed}",
            "--no-pdf-header-footer",
        )
        data = printed.read_bytes() if printed.is_file() else b""
    if not data.startswith(b"%PDF"):
        raise UsageError(f"{pdf}: Chromium did not write a PDF")
    write_bytes(pdf, data)
