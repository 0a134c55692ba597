"""Open an HTML report in headless Chromium: screenshot, images, console.

Usage::

    python -m reports.browser_check REPORT.html [--screenshot OUT.png] [--chromium PATH]
    python -m reports.browser_check out/ [MORE.html ...] --screenshots DIR [--height PX]

With ``--screenshots DIR`` every report named (a folder stands for the
``*.html`` files in it, the batch ``index.html`` included) is checked and its
screenshot written to ``DIR/<report name>.png``; ``--height`` sets the
window height in pixels (default 2000; a report's PAR tables and plots need
about 9000 to be seen whole).

Chromium is ``/usr/bin/chromium`` unless ``SLOTCERT_CHROMIUM`` names another.

Checks, each reported as one line; exit 0 when all pass, 1 otherwise, 2 when
Chromium or the report is missing:

1. every ``<img>`` has a ``data:image/png;base64`` source that decodes to a
   well-formed PNG (signature, chunk CRCs, IHDR first, IEND last);
2. the page, as written (its Content-Security-Policy included), renders to a
   screenshot and logs nothing to the console (a blocked resource, a script
   error or a CSP violation all log there);
3. in an instrumented copy, the browser itself reports every image
   ``complete`` with a non-zero natural size.
"""

from __future__ import annotations

import argparse
import os
import re
import struct
import subprocess
import sys
import tempfile
import zlib
from base64 import b64decode
from binascii import Error as B64Error
from html.parser import HTMLParser
from pathlib import Path

CHROMIUM = os.environ.get("SLOTCERT_CHROMIUM", "/usr/bin/chromium")
_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--hide-scrollbars",
    "--virtual-time-budget=5000",
)
HEIGHT = 2000
WIDTH = 1280
LAPTOP = 1366  # the width a report must fit without a horizontal scroll bar
_PNG_URI = "data:image/png;base64,"
_CONSOLE = re.compile(r":CONSOLE(?:[:(]\d+\)?)?\]|Refused to|Failed to load|Uncaught")
_PROBE = """<script>
window.addEventListener("load", function () {
  var imgs = Array.prototype.slice.call(document.images);
  var bad = imgs.filter(function (i) { return !(i.complete && i.naturalWidth > 0); });
  var out = document.createElement("pre");
  out.id = "slotcert-probe";
  out.textContent = "images=" + imgs.length + " broken=" + bad.length;
  document.body.appendChild(out);
});
</script>"""


class _Images(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.sources: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "img":
            self.sources.append(dict(attrs).get("src") or "")


def image_sources(html: str) -> list[str]:
    """Return the ``src`` of every ``<img>`` in ``html``, in order."""
    parser = _Images()
    parser.feed(html)
    return parser.sources


def png_problem(data: bytes) -> str | None:
    """Why ``data`` is not a well-formed PNG, or None when it is."""
    if not data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "no PNG signature"
    pos, names = 8, []
    while pos + 12 <= len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        name, body = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + length]
        if len(body) != length or pos + 12 + length > len(data):
            return f"chunk {name!r} truncated"
        (crc,) = struct.unpack(">I", data[pos + 8 + length : pos + 12 + length])
        if zlib.crc32(name + body) != crc:
            return f"chunk {name!r} has a bad CRC"
        names.append(name)
        pos += 12 + length
    if not names or names[0] != b"IHDR" or names[-1] != b"IEND" or pos != len(data):
        return "chunks out of order or trailing bytes"
    return None


def check_images(html: str) -> list[str]:
    """Problems with the report's images as written (empty list when all are fine)."""
    sources = image_sources(html)
    problems = []
    for i, src in enumerate(sources):
        if not src.startswith(_PNG_URI):
            problems.append(f"img {i}: source is not an embedded PNG: {src[:60]!r}")
            continue
        try:
            why = png_problem(b64decode(src[len(_PNG_URI) :], validate=True))
        except (B64Error, ValueError) as exc:
            why = f"bad base64: {exc}"
        if why:
            problems.append(f"img {i}: {why}")
    return problems


def run_chromium(
    chromium: str,
    page: Path,
    profile: Path,
    *extra: str,
    height: int = HEIGHT,
    width: int = WIDTH,
) -> tuple[str, str]:
    """Run headless Chromium on ``page`` in a ``width`` x ``height`` window: (stdout, stderr)."""
    cmd = [
        chromium,
        *_FLAGS,
        f"--window-size={width},{height}",
        f"--user-data-dir={profile}",
        "--enable-logging=stderr",
        "--v=0",
        *extra,
        page.resolve().as_uri(),
    ]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=120, check=False)
    return done.stdout, done.stderr


def check_in_browser(
    report: Path, screenshot: Path, chromium: str = CHROMIUM, height: int = HEIGHT
) -> list[str]:
    """Screenshot the report and check console and images in Chromium."""
    problems = []
    with tempfile.TemporaryDirectory(prefix="slotcert-chromium-") as tmp:
        _, err = run_chromium(
            chromium, report, Path(tmp) / "p1", f"--screenshot={screenshot}", height=height
        )
        problems += [
            f"console: {line.strip()}" for line in err.splitlines() if _CONSOLE.search(line)
        ]
        if not screenshot.is_file() or png_problem(screenshot.read_bytes()):
            problems.append(f"no valid screenshot written to {screenshot}")
        probe = Path(tmp) / "probe.html"
        probe.write_text(_instrumented(report.read_text(encoding="utf-8")), encoding="utf-8")
        dom, _ = run_chromium(chromium, probe, Path(tmp) / "p2", "--dump-dom")
    found = re.search(r"images=(\d+) broken=(\d+)", dom)
    if found is None:
        problems.append("the browser did not report on the images (probe missing)")
    elif found.group(2) != "0":
        problems.append(f"the browser shows {found.group(2)} of {found.group(1)} images broken")
    return problems


_WIDTH_PROBE = """<script>
window.addEventListener("load", function () {
  var page = document.documentElement;
  var boxes = Array.prototype.slice.call(document.querySelectorAll("div.wide, table, figure"));
  var over = boxes.filter(function (e) {
    return e.getBoundingClientRect().right > page.clientWidth + 1;
  });
  var out = document.createElement("pre");
  out.id = "slotcert-width";
  out.textContent = "scroll=" + page.scrollWidth + " client=" + page.clientWidth +
    " over=" + over.length + " height=" + page.scrollHeight;
  document.body.appendChild(out);
});
</script>"""


def page_fit(report: Path, width: int = LAPTOP, chromium: str = CHROMIUM) -> dict[str, int]:
    """How ``report`` lays out in a ``width`` px wide window, measured by Chromium.

    Returns
    -------
    dict
        ``scroll`` and ``client``: the page's scroll width and its visible
        width (a horizontal scroll bar when ``scroll > client``); ``over``: how
        many tables, table boxes and figures reach past the visible width;
        ``height``: the page's height in px.

    Raises
    ------
    RuntimeError
        When the browser did not report (the probe missing from its DOM).

    """
    html = _instrumented(report.read_text(encoding="utf-8"), _WIDTH_PROBE)
    with tempfile.TemporaryDirectory(prefix="slotcert-chromium-") as tmp:
        probe = Path(tmp) / "width.html"
        probe.write_text(html, encoding="utf-8")
        dom, err = run_chromium(chromium, probe, Path(tmp) / "p", "--dump-dom", width=width)
    found = re.search(r"scroll=(\d+) client=(\d+) over=(\d+) height=(\d+)", dom)
    if found is None:
        raise RuntimeError(f"{report}: the browser did not measure the page: {err[-300:]}")
    return dict(zip(("scroll", "client", "over", "height"), map(int, found.groups()), strict=True))


def _instrumented(html: str, probe: str = _PROBE) -> str:
    """Return the report without its CSP, with a load-time ``probe`` (default: the images)."""
    html = re.sub(r"<meta http-equiv=\"Content-Security-Policy\"[^>]*>", "", html)
    return html.replace("</body>", probe + "\n</body>", 1)


def reports_named(paths: list[Path]) -> list[Path]:
    """The reports to check: files as given, the ``*.html`` files of folders, sorted."""
    out: list[Path] = []
    for path in paths:
        out += sorted(path.glob("*.html")) if path.is_dir() else [path]
    return out


def main(argv: list[str] | None = None) -> int:
    """Command line: check reports, print one line per problem and one per report."""
    parser = argparse.ArgumentParser(prog="python -m reports.browser_check")
    parser.add_argument("report", type=Path, nargs="+", help="HTML reports or folders of them")
    shots = parser.add_mutually_exclusive_group()
    shots.add_argument("--screenshot", type=Path, default=None, help="PNG of a single report")
    shots.add_argument(
        "--screenshots", type=Path, default=None, metavar="DIR", help="DIR/<report>.png each"
    )
    parser.add_argument("--height", type=int, default=HEIGHT, help="window height in pixels")
    parser.add_argument("--chromium", default=CHROMIUM)
    args = parser.parse_args(argv)
    reports = reports_named(args.report)
    if args.screenshot is not None and len(reports) != 1:
        parser.error("--screenshot names one file: use --screenshots DIR for several reports")
    for needed in (*reports, Path(args.chromium)):
        if not needed.is_file():
            print(f"browser_check: missing {needed}", file=sys.stderr)
            return 2
    if not reports:
        print("browser_check: no HTML report found", file=sys.stderr)
        return 2
    if args.screenshots is not None:
        args.screenshots.mkdir(parents=True, exist_ok=True)
    failed = 0
    for report in reports:
        if args.screenshots is not None:
            shot = args.screenshots / (report.stem + ".png")
        else:
            shot = args.screenshot or report.with_suffix(".png")
        text = report.read_text(encoding="utf-8")
        problems = check_images(text)
        problems += check_in_browser(report, shot, args.chromium, args.height)
        for line in problems:
            print(f"browser_check: {report}: {line}")
        print(
            f"browser_check: {report}: {'FAIL' if problems else 'ok'} "
            f"({len(image_sources(text))} images, screenshot {shot})"
        )
        failed += bool(problems)
    return 1 if failed else 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
