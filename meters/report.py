"""Write a reconciliation's outputs: CSV tables, summary.json and report.html."""

from __future__ import annotations

import base64
import contextlib
import io
import json
import multiprocessing
from concurrent.futures import Future, ProcessPoolExecutor
from pathlib import Path

import jinja2
import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.csv as pacsv

from certify import __version__
from certify.outputs import atomic_path, neutral_frame, write_text
from meters.codes import SEVERITY, Code
from meters.config import Config
from meters.reconcile import Result

SUMMARY_SCHEMA = "slotcert/meters-summary@1"
HTML_FINDINGS_LIMIT = 500


def summary(result: Result, cfg: Config, inputs: dict) -> dict:
    """Build the content of summary.json (deterministic key order).

    Parameters
    ----------
    result : Result
        The reconciliation.
    cfg : Config
        Settings used, recorded for reproducibility.
    inputs : dict
        Paths of the dumps, floor and counts as given.

    """
    codes = result.findings["code"].value_counts()
    severity = result.findings["severity"].value_counts()
    quarantine = result.quarantine["code"].value_counts()
    return {
        "schema": SUMMARY_SCHEMA,
        "tool": {"name": "slotcert", "version": __version__},
        "inputs": inputs,
        "rows_in": result.rows_in,
        "rows_reconciled": result.rows_reconciled,
        "rows_quarantined": result.rows_quarantined,
        "rows_balanced": result.rows_in == result.rows_reconciled + result.rows_quarantined,
        "machines_with_findings": int(result.findings["machine_id"].nunique()),
        "machines_reconciled": len(result.totals),
        "machines_without_readings": len(result.extra.get("machines_without_readings", [])),
        "machines_without_readings_ids": list(result.extra.get("machines_without_readings", []))[
            :50
        ],
        "counts_not_compared": result.counts_unmatched,
        "findings": {c.value: int(codes.get(c.value, 0)) for c in Code},
        "severity": {s: int(severity.get(s, 0)) for s in ("error", "warning", "info")},
        "quarantine": {
            c.value: int(quarantine.get(c.value, 0))
            for c in Code
            if c.value in ("duplicate_row", "out_of_order", "malformed_row", "unknown_machine")
        },
        "hold_z_critical": round(float(result.z_critical), 6),
        "config": {
            "digits": cfg.digits,
            "period": cfg.period,
            "confidence": cfg.confidence,
            "required": list(cfg.required),
            "drop_pct": cfg.drop_pct,
            "drop_abs": cfg.drop_abs,
            "gap_factor": cfg.gap_factor,
            "max_gap_s": cfg.max_gap_s,
            "stuck_min_games": cfg.stuck_min_games,
            "hold_min_games": cfg.hold_min_games,
            "familywise": cfg.familywise,
        },
    }


def write_outputs(
    result: Result, out: str | Path, cfg: Config, inputs: dict, drawer: ChartDrawer | None = None
) -> dict:
    """Write findings.csv, periods.csv, quarantine.csv, summary.json, report.html.

    ``drawer`` is a :class:`ChartDrawer` started earlier (one is started here
    otherwise); the charts are drawn in it while the tables are written.

    Returns
    -------
    dict
        The summary written to summary.json.

    """
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    with contextlib.ExitStack() as stack:
        drawer = drawer or stack.enter_context(ChartDrawer())
        drawer.draw(result, cfg.confidence)
        with atomic_path(out / "findings.csv") as tmp:
            neutral_frame(result.findings).to_csv(tmp, index=False)
        write_csv(result.periods, out / "periods.csv")
        with atomic_path(out / "quarantine.csv") as tmp:
            neutral_frame(result.quarantine).to_csv(tmp, index=False)
        info = summary(result, cfg, inputs)
        write_text(out / "summary.json", json.dumps(info, indent=2) + "\n")
        page = html(result, info, drawer.result())
    write_text(out / "report.html", page)
    return info


def charts(
    totals: pd.DataFrame, periods: pd.DataFrame, zc: float, confidence: float
) -> tuple[str, str]:
    """The funnel plot and the hold chart of a reconciliation, as base64 PNG."""
    return funnel_plot(totals, zc, confidence), hold_chart(periods, totals, zc)


def _chart_input(result: Result, confidence: float) -> tuple:
    """What :func:`charts` reads: the totals and the periods of the charted machines only."""
    periods, top = result.periods, _top(result.totals)
    return (
        result.totals,
        periods[periods["machine_id"].isin(top["machine_id"])],
        result.z_critical,
        confidence,
    )


def _import_matplotlib() -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot  # noqa: F401


class ChartDrawer:
    """Draw the report's charts in a forked process while the caller goes on.

    Importing matplotlib (about 0.4 s) and laying out the charts (about
    0.8 s) is pure Python. The child is forked when the drawer is created and
    imports matplotlib at once, so a drawer made before the inputs are read
    does that on the core left idle; :meth:`draw` then sends it the totals
    and the charted machines' periods, and it draws while this process
    writes the tables. Without fork, the charts are drawn here when asked for.
    """

    def __init__(self) -> None:
        self.pool: ProcessPoolExecutor | None = None
        self.args: tuple | None = None
        self.future: Future | None = None
        if "fork" in multiprocessing.get_all_start_methods():
            self.pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("fork"))
            self.pool.submit(_import_matplotlib)

    def draw(self, result: Result, confidence: float) -> None:
        """Start drawing the charts of ``result``."""
        self.args = _chart_input(result, confidence)
        if self.pool is not None:
            self.future = self.pool.submit(charts, *self.args)

    def result(self) -> tuple[str, str]:
        """The funnel plot and the hold chart (waits for the child, or draws them here)."""
        if self.future is not None:
            return self.future.result()
        if self.args is None:
            raise RuntimeError("ChartDrawer.result() before draw()")
        return charts(*self.args)

    def close(self) -> None:
        """Stop the child process."""
        if self.pool is not None:
            self.pool.shutdown(cancel_futures=True)
            self.pool = None

    def __enter__(self) -> ChartDrawer:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def write_csv(frame: pd.DataFrame, path: Path) -> None:
    """Write a (large) table as CSV with Arrow's writer (NaN and NA as empty).

    Text cells are neutralised against formula injection and the file is
    written atomically (:mod:`certify.outputs`).
    """
    table = pa.Table.from_pandas(neutral_frame(frame), preserve_index=False)
    with atomic_path(path) as tmp:
        pacsv.write_csv(table, tmp, write_options=pacsv.WriteOptions(quoting_style="needed"))


def _png(fig) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=90, metadata={"Software": None})
    return base64.b64encode(buf.getvalue()).decode("ascii")


def funnel_plot(totals: pd.DataFrame, zc: float, confidence: float) -> str:
    """Funnel plot: (actual - theo) / sigma against games, with the bands; base64 PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from certify.stats import normal_quantile

    fig, ax = plt.subplots(figsize=(8, 4.5))
    t = totals.dropna(subset=["z", "games_played"])
    t = t[t["games_played"] > 0]
    games = t["games_played"].to_numpy(dtype=float)
    y = (t["actual"] - t["theo"]).to_numpy(dtype=float) / t["sigma"].to_numpy(dtype=float)
    flagged = np.abs(t["z"].to_numpy(dtype=float)) > zc
    ax.scatter(games[~flagged], y[~flagged], s=10, color="#3a6ea5", label="machine")
    ax.scatter(games[flagged], y[flagged], s=24, color="#c0392b", label="outside band")
    if len(games):
        g = np.geomspace(max(games.min() * 0.8, 1), games.max() * 1.2, 200)
        z1 = normal_quantile(1 - (1 - confidence) / 2)
        for z, style, name in (
            (zc, "-", f"floor band (|z| = {zc:.2f})"),
            (z1, "--", f"per machine {confidence:.0%} (|z| = {z1:.2f})"),
        ):
            ax.plot(g, z / np.sqrt(g), "k" + style, lw=1, label=name)
            ax.plot(g, -z / np.sqrt(g), "k" + style, lw=1)
        ax.set_xscale("log")
    ax.axhline(0, color="grey", lw=0.5)
    ax.set_xlabel("games played")
    ax.set_ylabel("(actual - theoretical return) / sigma")
    ax.set_title("Actual vs certified return (funnel plot)")
    ax.legend(fontsize=8, loc="upper right")
    fig.subplots_adjust(left=0.115, right=0.98, bottom=0.12, top=0.93)  # no tight_layout pass
    text = _png(fig)
    plt.close(fig)
    return text


def _top(totals: pd.DataFrame, n: int = 12) -> pd.DataFrame:
    """The ``n`` machines with the largest |z| (ties by machine id)."""
    top = totals.dropna(subset=["z"]).assign(a=lambda d: d["z"].abs())
    return top.sort_values(["a", "machine_id"], ascending=[False, True]).head(n)


def hold_chart(periods: pd.DataFrame, totals: pd.DataFrame, zc: float, n: int = 12) -> str:
    """Cumulative hold % over time for the machines with the largest |z|; base64 PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    top = _top(totals, n)
    cols = 4
    rows = max(1, -(-len(top) // cols))
    fig, axes = plt.subplots(rows, cols, figsize=(11, 2.3 * rows), squeeze=False)
    for ax in axes.ravel():
        ax.set_visible(False)
    shown = periods[periods["machine_id"].isin(top["machine_id"])]  # one pass, not n
    for ax, (_, m) in zip(axes.ravel(), top.iterrows(), strict=False):
        p = shown[shown["machine_id"] == m["machine_id"]]
        cin = p["coin_in"].fillna(0).cumsum().to_numpy(dtype=float)
        hold = p["hold"].fillna(0).cumsum().to_numpy(dtype=float)
        with np.errstate(invalid="ignore", divide="ignore"):
            pct = np.where(cin > 0, 100 * hold / cin, np.nan)
        ax.set_visible(True)
        ax.plot(np.arange(len(pct)), pct, color="#c0392b" if abs(m["z"]) > zc else "#3a6ea5")
        ax.axhline(100 * (1 - m["theo"]), color="k", lw=0.8, ls="--")
        ax.set_title(f"{m['machine_id']}  z={m['z']:+.1f}", fontsize=8)
        ax.set_xlabel("period", fontsize=7)
        ax.tick_params(labelsize=7)
    fig.suptitle("Cumulative hold % by period (dashed: theoretical hold)", fontsize=9)
    # fixed margins in inches: tight_layout would lay out every tick label once more
    height = 2.3 * rows
    fig.subplots_adjust(
        left=0.05,
        right=0.99,
        wspace=0.25,
        bottom=0.45 / height,
        top=1 - 0.6 / height,
        hspace=0.85 / 2.3 * 1.2,
    )
    text = _png(fig)
    plt.close(fig)
    return text


_TEMPLATE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>slotcert meter reconciliation</title>
<style>
body{font-family:sans-serif;margin:2em;color:#222} table{border-collapse:collapse;font-size:12px}
td,th{border:1px solid #ccc;padding:2px 6px;text-align:left} th{background:#eee}
.error{color:#c0392b;font-weight:bold} .warning{color:#b9770e} .info{color:#555}
</style></head><body>
<h1>Meter reconciliation</h1>
<p>slotcert {{ s.tool.version }} &middot; dumps: {{ s.inputs.dumps|join(", ") }}
&middot; floor: {{ s.inputs.floor }}{% if s.inputs.counts %} &middot; soft count:
{{ s.inputs.counts }}{% endif %}</p>
<h2>Rows</h2>
<table><tr><th>in</th><th>reconciled</th><th>quarantined</th><th>balanced</th></tr>
<tr><td>{{ s.rows_in }}</td><td>{{ s.rows_reconciled }}</td><td>{{ s.rows_quarantined }}</td>
<td>{{ "yes" if s.rows_balanced else "NO" }}</td></tr></table>
<h2>Findings by code</h2>
<table><tr><th>code</th><th>severity</th><th>count</th></tr>
{% for code, n in s.findings.items() %}<tr><td>{{ code }}</td>
<td class="{{ sev[code] }}">{{ sev[code] }}</td><td>{{ n }}</td></tr>
{% endfor %}</table>
<h2>Actual vs certified return</h2>
<p>Band: |z| &le; {{ "%.2f"|format(s.hold_z_critical) }} (confidence {{ s.config.confidence }}
{%- if s.config.familywise %}, for the whole floor{% endif %}).</p>
<img alt="funnel plot" src="data:image/png;base64,{{ funnel }}">
<img alt="hold by machine" src="data:image/png;base64,{{ hold }}">
<h2>Findings{% if shown < total %} (first {{ shown }} of {{ total }}; all in findings.csv)
{% endif %}</h2>
<table><tr>{% for c in columns %}<th>{{ c }}</th>{% endfor %}</tr>
{% for row in rows %}<tr>{% for c in columns %}
<td{% if c == "severity" %} class="{{ row[c] }}"{% endif %}>{{ row[c] }}</td>{% endfor %}</tr>
{% endfor %}</table>
</body></html>
"""


def html(result: Result, info: dict, plots: tuple[str, str] | None = None) -> str:
    """Render the self-contained HTML report (autoescaped; plots embedded as PNG).

    ``plots`` are the funnel plot and the hold chart from :func:`charts`
    (drawn here when not given).
    """
    funnel, hold = plots or charts(*_chart_input(result, info["config"]["confidence"]))
    env = jinja2.Environment(autoescape=True, undefined=jinja2.StrictUndefined)
    shown = result.findings.head(HTML_FINDINGS_LIMIT).astype(object)
    shown = shown.where(shown.notna(), "")
    return env.from_string(_TEMPLATE).render(
        s=info,
        sev={c.value: SEVERITY[c] for c in Code},
        funnel=funnel,
        hold=hold,
        columns=list(shown.columns),
        rows=shown.to_dict("records"),
        shown=len(shown),
        total=len(result.findings),
    )
