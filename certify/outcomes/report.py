"""The output files of ``slotcert outcomes verify``, written atomically (certify/outputs.py).

``result`` is a :class:`certify.outcomes.verify.OutcomeResult` (not imported here:
``verify`` imports this module).

``outcomes.json`` (the result's document), ``mismatches.csv``, ``quarantine.csv``
(text cells neutralised against formula injection) and ``report.html`` (jinja2
with autoescape: every value from a log is escaped; the plots are inline SVG).
"""

from __future__ import annotations

import io
import json
import math
from pathlib import Path
from typing import Any

from certify.outputs import neutral_frame, write_text

MISMATCH_COLUMNS = [
    "source",
    "line",
    "machine_id",
    "game",
    "screen",
    "phase",
    "kind",
    "stops",
    "expected",
    "paid",
    "message",
]


def write_outputs(result: Any, out: Path) -> list[Path]:
    """Write the four files into ``out`` (created when missing); return their paths."""
    import pandas as pd

    out.mkdir(parents=True, exist_ok=True)
    write_text(
        out / "outcomes.json", json.dumps(result.to_dict(), indent=2, allow_nan=False) + "\n"
    )
    mism = pd.DataFrame(result.mismatches, columns=MISMATCH_COLUMNS)
    quar = pd.DataFrame(result.quarantine, columns=["source", "line", "reason"])
    for frame, name in ((mism, "mismatches.csv"), (quar, "quarantine.csv")):
        buf = io.StringIO()
        neutral_frame(frame).to_csv(buf, index=False)
        write_text(out / name, buf.getvalue())
    write_text(out / "report.html", render_html(result))
    return [out / n for n in ("outcomes.json", "mismatches.csv", "quarantine.csv", "report.html")]


TEMPLATE = Path(__file__).with_name("report.html.j2")  # jinja2, autoescaped


def _fmt(x: Any) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return ""
    if isinstance(x, float):
        return f"{x:.6g}"
    return str(x)


def _bars(
    values: list[float], overlay: list[float] | None = None, width: int = 480, height: int = 90
) -> str:
    """An inline SVG bar chart (numbers only: nothing from a log reaches it as text)."""
    n = max(len(values), 1)
    top = max(max(values, default=0.0), max(overlay or [0.0])) or 1.0
    w = width / n
    parts = [f'<svg width="{width}" height="{height}" role="img">']
    for i, v in enumerate(values):
        h = height * float(v) / top
        parts.append(
            f'<rect x="{i * w:.2f}" y="{height - h:.2f}" width="{max(w - 1, 0.5):.2f}" '
            f'height="{h:.2f}" fill="#58a"/>'
        )
    if overlay:
        pts = " ".join(
            f"{(i + 0.5) * w:.2f},{height - height * float(v) / top:.2f}"
            for i, v in enumerate(overlay)
        )
        parts.append(f'<polyline points="{pts}" fill="none" stroke="#c33" stroke-width="1.5"/>')
    parts.append("</svg>")
    return "".join(parts)


def render_html(result: Any) -> str:
    """The HTML report (jinja2, autoescape on)."""
    import jinja2
    import numpy as np

    env = jinja2.Environment(autoescape=True, undefined=jinja2.StrictUndefined)
    ps = [t["p_value"] for t in result.tests if t.get("p_value") is not None]
    hist = _bars(np.histogram(ps, bins=10, range=(0, 1))[0].tolist()) if ps else ""
    stops = []
    for name, data in result.stops.items():
        for r, (counts, weights) in enumerate(zip(data["counts"], data["weights"])):
            total = sum(counts)
            if total == 0:
                continue
            wsum = sum(weights)
            stops.append(
                {
                    "name": name,
                    "reel": r + 1,
                    "svg": _bars(counts, [total * w / wsum for w in weights]),
                }
            )
    return env.from_string(TEMPLATE.read_text(encoding="utf-8")).render(
        r=result, fmt=_fmt, hist=hist, stops=stops, cols=MISMATCH_COLUMNS
    )
