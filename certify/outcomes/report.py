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
    "source", "line", "machine_id", "game", "screen", "phase", "kind", "stops", "expected", "paid", "message",
]  # fmt: skip


def write_outputs(result: Any, out: Path) -> list[Path]:
    """Write the four files into ``out`` (created when missing); return their paths."""
    import pandas as pd

    out.mkdir(parents=True, exist_ok=True)
    write_text(out / "outcomes.json", json.dumps(result.to_dict(), indent=2, allow_nan=False) + "\n")
    mism = pd.DataFrame(result.mismatches, columns=MISMATCH_COLUMNS)
    quar = pd.DataFrame(result.quarantine, columns=["source", "line", "reason"])
    for frame, name in ((mism, "mismatches.csv"), (quar, "quarantine.csv")):
        buf = io.StringIO()
        neutral_frame(frame).to_csv(buf, index=False)
        write_text(out / name, buf.getvalue())
    write_text(out / "report.html", render_html(result))
    return [out / n for n in ("outcomes.json", "mismatches.csv", "quarantine.csv", "report.html")]


TEMPLATE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Outcome verification: {{ r.model_id }}</title>
<style>body{font-family:sans-serif;margin:2em;max-width:72em}table{border-collapse:collapse;margin:1em 0}
td,th{border:1px solid #ccc;padding:2px 6px;text-align:right}th{background:#eee}
.fail{color:#b00;font-weight:bold}.pass{color:#070}svg{margin:0.5em 1em 0.5em 0}</style></head><body>
<h1>Outcome verification: {{ r.model_id }}</h1>
<p>Verdict: <span class="{{ r.verdict }}">{{ r.verdict | upper }}</span> at family-wise alpha {{ r.alpha }}
(Holm). Rows in {{ r.rows_in }}: verified {{ r.verified }}, quarantined {{ r.quarantined }}
{%- if r.skipped_level %}, of other levels {{ r.skipped_level }}{% endif %}.
Findings {{ r.mismatch_count }}; games cut off by the end of a log {{ r.truncated }}.</p>
{% if r.not_replayed %}<h2>Not replayed</h2><table><tr><th>screens</th><th>why</th></tr>
{% for why, n in r.not_replayed.items() %}<tr><td>{{ n }}</td><td style="text-align:left">{{ why }}</td></tr>{% endfor %}
</table>{% endif %}
<h2>Tests</h2><table><tr><th>test</th><th>kind</th><th>reel set</th><th>reel</th><th>statistic</th><th>df</th>
<th>p-value</th><th>Holm</th><th>verdict</th></tr>
{% for t in r.tests %}<tr><td style="text-align:left">{{ t.name }}</td><td>{{ t.kind }}</td><td>{{ t.reel_set or "" }}</td>
<td>{{ t.reel or "" }}</td><td>{{ fmt(t.statistic) }}</td><td>{{ fmt(t.df) }}</td><td>{{ fmt(t.p_value) }}</td>
<td>{{ fmt(t.p_holm) }}</td><td class="{{ t.verdict }}">{{ t.verdict }}</td></tr>{% endfor %}</table>
<h2>The family's p-values</h2><p>{{ hist | safe }}</p><p>Kolmogorov-Smirnov against uniform:
D = {{ fmt(r.uniformity.statistic) }}, p = {{ fmt(r.uniformity.p_value) }} (reported, not judged).</p>
<h2>Return</h2><table><tr><th>level</th><th>games</th><th>return</th><th>exact</th><th>99% band</th></tr>
{% for x in r.returns %}<tr><td>{{ x.level }}</td><td>{{ x.games }}</td><td>{{ fmt(x.rtp) }}</td>
<td>{{ fmt(x.exact_rtp) }}</td><td>{{ fmt(x.rtp_low) }} .. {{ fmt(x.rtp_high) }}</td></tr>{% endfor %}</table>
<h2>Stops: observed vs expected</h2>{% for s in stops %}<h3>{{ s.name }} reel {{ s.reel }}</h3>{{ s.svg | safe }}{% endfor %}
{% if r.mismatches %}<h2>Findings (first {{ r.mismatches[:200] | length }})</h2><table>
<tr>{% for c in cols %}<th>{{ c }}</th>{% endfor %}</tr>
{% for m in r.mismatches[:200] %}<tr>{% for c in cols %}<td>{{ m[c] }}</td>{% endfor %}</tr>{% endfor %}</table>{% endif %}
{% if r.quarantine %}<h2>Quarantined (first {{ r.quarantine[:200] | length }})</h2><table>
<tr><th>source</th><th>line</th><th>reason</th></tr>
{% for q in r.quarantine[:200] %}<tr><td>{{ q[0] }}</td><td>{{ q[1] }}</td><td>{{ q[2] }}</td></tr>{% endfor %}</table>{% endif %}
</body></html>
"""


def _fmt(x: Any) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return ""
    if isinstance(x, float):
        return f"{x:.6g}"
    return str(x)


def _bars(values: list[float], overlay: list[float] | None = None, width: int = 480, height: int = 90) -> str:
    """An inline SVG bar chart (numbers only: nothing from a log reaches it as text)."""
    n = max(len(values), 1)
    top = max(max(values, default=0.0), max(overlay or [0.0])) or 1.0
    w = width / n
    parts = [f'<svg width="{width}" height="{height}" role="img">']
    for i, v in enumerate(values):
        h = height * float(v) / top
        parts.append(f'<rect x="{i * w:.2f}" y="{height - h:.2f}" width="{max(w - 1, 0.5):.2f}" height="{h:.2f}" fill="#58a"/>')
    if overlay:
        pts = " ".join(f"{(i + 0.5) * w:.2f},{height - height * float(v) / top:.2f}" for i, v in enumerate(overlay))
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
            stops.append({"name": name, "reel": r + 1, "svg": _bars(counts, [total * w / wsum for w in weights])})
    return env.from_string(TEMPLATE).render(r=result, fmt=_fmt, hist=hist, stops=stops, cols=MISMATCH_COLUMNS)
