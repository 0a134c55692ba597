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
from meters.block import Result
from meters.codes import SEVERITY, Code
from meters.config import Config
from meters.operator_report import (
    SEVERITY_ORDER,
    View,
    decimal,
    floor_summary,
    machine_table,
    machines_csv,
    money,
    pct,
    shown_message,
    shown_value,
)

SUMMARY_SCHEMA = "slotcert/meters-summary@1"
HTML_FINDINGS_LIMIT = 500
HTML_MACHINES_LIMIT = 500


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
    result: Result,
    out: str | Path,
    cfg: Config,
    inputs: dict,
    drawer: ChartDrawer | None = None,
    floor: pd.DataFrame | None = None,
    view: View | None = None,
) -> dict:
    """Write findings.csv, periods.csv, quarantine.csv, machines.csv, summary.json, report.html.

    ``drawer`` is a :class:`ChartDrawer` started earlier (one is started here
    otherwise); the charts are drawn in it while the tables are written.
    ``floor`` (the floor frame) gives the denominations and currency of the
    money tables; without it they are left out. ``view`` filters the
    findings shown in report.html (:class:`~meters.operator_report.View`).

    Returns
    -------
    dict
        The summary written to summary.json.

    """
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    view = view or View()
    with contextlib.ExitStack() as stack:
        drawer = drawer or stack.enter_context(ChartDrawer())
        drawer.draw(result, cfg.confidence)
        with atomic_path(out / "findings.csv") as tmp:
            neutral_frame(result.findings).to_csv(tmp, index=False)
        write_csv(result.periods, out / "periods.csv")
        with atomic_path(out / "quarantine.csv") as tmp:
            neutral_frame(result.quarantine).to_csv(tmp, index=False)
        info = summary(result, cfg, inputs)
        machines = None
        if floor is not None:
            machines = machine_table(
                result.periods, floor, result.totals, result.findings, view.currency
            )
            write_csv(machines_csv(machines), out / "machines.csv")
            info["floor"] = floor_summary(machines, result.findings, view.currency)
        write_text(out / "summary.json", json.dumps(info, indent=2) + "\n")
        page = html(result, info, drawer.result(), view, machines, floor)
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
    """Funnel plot: (actual - theoretical hold) / sigma against games, with the bands; base64 PNG.

    The hold's deviation is the return's with the sign turned: the same
    quantity as the z of the machine table beside it.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from certify.stats import normal_quantile

    fig, ax = plt.subplots(figsize=(8, 4.5))
    t = totals.dropna(subset=["z", "games_played"])
    t = t[t["games_played"] > 0]
    games = t["games_played"].to_numpy(dtype=float)
    y = (t["theo"] - t["actual"]).to_numpy(dtype=float) / t["sigma"].to_numpy(dtype=float)
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
    ax.set_ylabel("(actual - theoretical hold) / sigma")
    ax.set_title("Actual vs theoretical hold (funnel plot)")
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
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>slotcert meter reconciliation</title>
<style>
*{box-sizing:border-box}
body{font-family:sans-serif;margin:1em auto;padding:0 1em;max-width:1400px;color:#222;
line-height:1.35}
h1{font-size:1.5em} h2{font-size:1.2em;margin-top:1.4em}
.scroll{overflow-x:auto;max-width:100%;margin:0 0 1em 0}
table{border-collapse:collapse;font-size:12px}
td,th{border:1px solid #ccc;padding:2px 6px;text-align:left;vertical-align:top}
th{background:#eee;position:sticky;top:0}
.num{text-align:right;white-space:nowrap;font-variant-numeric:tabular-nums}
.msg{min-width:18em;max-width:42em;overflow-wrap:anywhere}
.src{max-width:24em;overflow-wrap:anywhere;font-size:11px;color:#555}
details summary{cursor:pointer;color:#3a6ea5}
@media (max-width:1280px){.when{white-space:normal;min-width:7em}.msg{min-width:14em}
.num{white-space:normal}}
.when{white-space:nowrap}
.error{color:#c0392b;font-weight:bold} .warning{color:#b9770e} .info{color:#555}
img{max-width:100%;height:auto}
.summary td:first-child{font-weight:bold}
.filter{margin:.5em 0} .filter label{margin-right:1em}
#show-error:checked~.scroll tr.row-warning,#show-error:checked~.scroll tr.row-info,
#show-warning:checked~.scroll tr.row-info{display:none}
</style></head><body>
<h1>Meter reconciliation</h1>
<p>slotcert {{ s.tool.version }} &middot; dumps: {{ s.inputs.dumps|join(", ") }}
&middot; floor: {{ s.inputs.floor }}{% if s.inputs.counts %} &middot; soft count:
{{ s.inputs.counts }}{% endif %}{% if currency %} &middot; currency: {{ currency }}{% endif %}</p>
{% if f %}<h2>Floor summary</h2>
<div class="scroll"><table class="summary">
<tr><td>machines reconciled</td><td class="num">{{ f.machines }}</td></tr>
<tr><td>games played</td><td class="num">{{ "{:,}".format(f.games_played) }}</td></tr>
<tr><td>coin in</td><td class="num">{{ m(f.coin_in) }}</td></tr>
<tr><td>prizes paid</td><td class="num">{{ m(f.prizes_paid) }}</td></tr>
<tr><td>drop (metered)</td><td class="num">{{ m(f.drop) }}</td></tr>
<tr><td>actual hold</td><td class="num">{{ m(f.hold) }} ({{ p(f.actual_hold_pct) }})</td></tr>
<tr><td>theoretical hold (coin-in weighted)</td>
<td class="num">{{ m(f.theoretical_hold) }} ({{ p(f.theoretical_hold_pct) }})</td></tr>
<tr><td>variance (actual - theoretical hold)</td><td class="num">{{ m(f.variance) }}</td></tr>
<tr><td>machines with findings</td><td class="num">{{ f.machines_flagged }}</td></tr>
</table></div>{% endif %}
<h2>Rows</h2>
<div class="scroll"><table><tr><th>in</th><th>reconciled</th><th>quarantined</th><th>balanced</th>
</tr><tr><td class="num">{{ s.rows_in }}</td><td class="num">{{ s.rows_reconciled }}</td>
<td class="num">{{ s.rows_quarantined }}</td><td>{{ "yes" if s.rows_balanced else "NO" }}</td>
</tr></table></div>
<h2>Findings by code</h2>
<div class="scroll"><table><tr><th>code</th><th>severity</th><th class="num">findings</th>
{% if f %}<th class="num">machines</th>{% endif %}</tr>
{% for code, n in codes %}<tr><td>{{ code }}</td>
<td class="{{ sev[code] }}">{{ sev[code] }}</td><td class="num">{{ n }}</td>
{% if f %}<td class="num">{{ f.machines_flagged_per_code[code] }}</td>{% endif %}</tr>
{% endfor %}</table></div>
<h2>Actual vs certified return</h2>
<p>Band: |z| &le; {{ "%.2f"|format(s.hold_z_critical) }} (confidence {{ s.config.confidence }}
{%- if s.config.familywise %}, for the whole floor{% endif %}).</p>
<img alt="funnel plot" src="data:image/png;base64,{{ funnel }}">
<img alt="hold by machine" src="data:image/png;base64,{{ hold }}">
{% if machines is not none %}<h2>Machines{% if machines_shown < machines_total %}
(first {{ machines_shown }} of {{ machines_total }}; all in machines.csv){% endif %}</h2>
<div class="scroll"><table><tr><th>machine</th><th class="num">games</th>
<th class="num">coin in</th><th class="num">prizes paid</th><th class="num">drop</th>
<th class="num">actual hold</th><th class="num">theoretical hold</th><th class="num">z</th>
<th class="num">variance</th><th class="num">findings</th></tr>
{% for r in machines %}<tr><td>{{ r.machine_id }}</td><td class="num">{{ r.games }}</td>
<td class="num">{{ r.coin_in }}</td><td class="num">{{ r.prizes_paid }}</td>
<td class="num">{{ r.drop }}</td><td class="num">{{ r.actual }}</td>
<td class="num">{{ r.theo }}</td><td class="num">{{ r.z }}</td>
<td class="num">{{ r.variance }}</td><td class="num">{{ r.findings }}</td></tr>
{% endfor %}</table></div>{% endif %}
<h2>Findings{% if filters %} ({{ filters }}){% endif %}{% if shown < total %}
(first {{ shown }} of {{ total }}; all in findings.csv){% endif %}</h2>
<p>By severity, then machine.</p>
<section>
<div class="filter">Show:
<input type="radio" name="severity" id="show-all" checked><label for="show-all">all</label>
<input type="radio" name="severity" id="show-error"><label for="show-error">errors</label>
<input type="radio" name="severity" id="show-warning"><label for="show-warning">errors and
warnings</label></div>
<div class="scroll"><table><tr><th>machine</th><th>severity</th><th>code</th><th>message</th>
<th class="num">expected</th><th class="num">observed</th><th>from</th><th>to</th><th>meter</th>
<th>source rows</th></tr>
{% for r in rows %}<tr class="row-{{ r.severity }}"><td>{{ r.machine_id }}</td>
<td class="{{ r.severity }}">{{ r.severity }}</td><td>{{ r.code }}</td>
<td class="msg">{{ r.message }}</td><td class="num">{{ r.expected }}</td>
<td class="num">{{ r.observed }}</td><td class="when">{{ r.period_start }}</td>
<td class="when">{{ r.period_end }}</td><td>{{ r.meter }}</td>
<td class="src">{{ r.src[0] if r.src }}
{%- if r.src|length > 1 %}<details><summary>{{ r.src|length - 1 }} more</summary>
{{ r.src[1:]|join("<br>"|safe) }}</details>{% endif %}</td></tr>
{% endfor %}</table></div>
</section>
</body></html>
"""


def html(
    result: Result,
    info: dict,
    plots: tuple[str, str] | None = None,
    view: View | None = None,
    machines: pd.DataFrame | None = None,
    floor: pd.DataFrame | None = None,
) -> str:
    """Render the self-contained HTML report (autoescaped; plots embedded as PNG; no script).

    ``plots`` are the funnel plot and the hold chart from :func:`charts`
    (drawn here when not given). Findings are shown by severity then machine,
    filtered by ``view``; the page's severity filter is pure CSS. Money is
    shown to the cent in the floor's currency.
    """
    funnel, hold = plots or charts(*_chart_input(result, info["config"]["confidence"]))
    view = view or View()
    env = jinja2.Environment(autoescape=True, undefined=jinja2.StrictUndefined)
    chosen = view.findings(result.findings)
    shown = chosen.head(HTML_FINDINGS_LIMIT)
    picked = None if machines is None else view.machine_rows(machines)
    return env.from_string(_TEMPLATE).render(
        s=info,
        f=info.get("floor"),
        currency=view.currency,
        m=lambda text: money(decimal(text), view.currency),
        p=lambda text: pct(decimal(text)),
        sev={c.value: SEVERITY[c] for c in Code},
        codes=sorted(
            info["findings"].items(), key=lambda kv: (SEVERITY_ORDER.index(SEVERITY[Code(kv[0])]),)
        ),
        funnel=funnel,
        hold=hold,
        machines=None if picked is None else _machine_cells(picked.head(HTML_MACHINES_LIMIT), view),
        machines_shown=0 if picked is None else min(len(picked), HTML_MACHINES_LIMIT),
        machines_total=0 if picked is None else len(picked),
        rows=_finding_cells(shown, floor, view.currency),
        shown=len(shown),
        total=len(chosen),
        filters=view.describe(),
    )


def _machine_cells(machines: pd.DataFrame, view: View) -> list[dict[str, object]]:
    """Per-machine rows as display text (money to the cent, % to two places)."""
    cur = view.currency
    return [
        {
            "machine_id": r.machine_id,
            "games": "" if r.games_played is None else f"{r.games_played:,}",
            "coin_in": money(r.coin_in, cur),
            "prizes_paid": money(r.prizes_paid, cur),
            "drop": money(r.drop, cur),
            "actual": pct(r.actual_hold_pct),
            "theo": pct(r.theoretical_hold_pct),
            "z": "" if r.z is None or np.isnan(r.z) else f"{r.z:+.2f}",
            "variance": money(r.variance, cur),
            "findings": r.findings,
        }
        for r in machines.itertuples(index=False)
    ]


def _finding_cells(
    findings: pd.DataFrame, floor: pd.DataFrame | None, currency: str
) -> list[dict[str, object]]:
    """Findings as display text: expected and observed in their unit (:func:`shown_value`)."""
    frame = findings.astype(object).where(findings.notna(), "")
    denoms = {} if floor is None else floor["denomination"].to_dict()
    out = []
    for r in frame.to_dict("records"):
        denom = decimal(denoms.get(r["machine_id"])) if r["machine_id"] in denoms else None
        for key in ("expected", "observed"):
            r[key] = shown_value(str(r["code"]), str(r["meter"]), r[key], denom, currency)
        r["message"] = shown_message(str(r["code"]), str(r["message"]), currency)
        r["src"] = [x for x in str(r["source_rows"]).split(";") if x]
        out.append(r)
    return out
