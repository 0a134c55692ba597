"""Report plots as base64 PNG data URIs (matplotlib Agg, no pyplot, no network).

Each function takes plain numbers and returns ``"data:image/png;base64,..."``.
Figures are built on :class:`matplotlib.figure.Figure` with an Agg canvas, so
no global pyplot state or GUI backend is touched, and the PNG carries no
software/date metadata: the same inputs give the same bytes on one install.
"""

from __future__ import annotations

import base64
import io
import math
from collections.abc import Sequence

from matplotlib.axes import Axes
from matplotlib.axis import Axis
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter, NullLocator, PercentFormatter

_SIZE = (7.5, 3.6)
_DPI = 100
_STYLE = {"base": "#4477aa", "jackpot": "#ccbb44", "min": "#cc3311", "band": "#88ccee"}


def data_uri(fig: Figure) -> str:
    """Render ``fig`` to a PNG data URI (no metadata, fixed DPI)."""
    FigureCanvasAgg(fig)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=_DPI, metadata={"Software": None})
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode("ascii")


def _figure() -> tuple[Figure, Axes]:
    fig = Figure(figsize=_SIZE)
    fig.subplots_adjust(left=0.11, right=0.98, bottom=0.15, top=0.9)
    return fig, fig.add_subplot()


def _plain_log_ticks(axis: Axis) -> None:
    """Label a log axis at its decades in plain text, without minor ticks.

    The default labels are typeset as mathtext (10 to a power) and every
    decade carries eight minor ticks: together about half of a log plot's
    drawing time. Plain labels (``0.1``, ``100``, ``10⁶``) read as well.
    """
    axis.set_major_formatter(FuncFormatter(_decade_label))
    axis.set_minor_locator(NullLocator())


_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def _decade_label(value: float, _pos: object = None) -> str:
    """``0.01`` to ``10000`` written out; other powers of ten as ``10⁵``, ``10⁻³``."""
    if value <= 0:
        return ""
    if 1e-2 <= value < 1e5:
        return f"{value:g}"
    exponent = round(math.log10(value))
    if math.isclose(value, 10.0**exponent):
        return "10" + str(exponent).translate(_SUPERSCRIPT)
    return f"{value:.3g}"


def convergence_plot(
    rows: Sequence[tuple[int, float, float, float]],
    min_rtp: float | None,
    exact_rtp: float | None = None,
    label: str | None = None,
) -> str:
    """Plot the simulated return against spins, with its interval, the exact return and the minimum.

    Parameters
    ----------
    rows : sequence of (spins, rtp, ci_low, ci_high)
        The running estimate after each chunk, returns as fractions of the bet.
    min_rtp : float or None
        The jurisdiction minimum, drawn as a horizontal line.
    exact_rtp : float or None
        The exact return, drawn dashed when known.
    label : str or None
        What was simulated (``"bet level 1 (also 2, 5)"``), the plot's title.

    """
    fig, ax = _figure()
    spins = [r[0] for r in rows]
    ax.fill_between(
        spins,
        [r[2] for r in rows],
        [r[3] for r in rows],
        color=_STYLE["band"],
        alpha=0.5,
        linewidth=0,
        label="confidence interval",
    )
    marker = "o" if len(rows) <= 40 else None
    ax.plot(
        spins,
        [r[1] for r in rows],
        color=_STYLE["base"],
        marker=marker,
        markersize=3,
        label=f"simulated return ({len(rows)} points)",
    )
    if exact_rtp is not None:
        ax.axhline(exact_rtp, color="black", linestyle="--", linewidth=1, label="exact return")
    if min_rtp is not None:
        ax.axhline(min_rtp, color=_STYLE["min"], linewidth=1.5, label="minimum")
    if spins and min(spins) > 0 and max(spins) >= 10 * min(spins):
        ax.set_xscale("log")
        _plain_log_ticks(ax.xaxis)
    # keep the last interval, the exact return and the minimum readable: the first
    # points' wide intervals must not flatten the rest
    if rows:
        tail = rows[len(rows) // 4 :]
        marks = [v for r in tail for v in (r[1], r[2], r[3])]
        marks += [v for v in (exact_rtp, min_rtp) if v is not None]
        low, high = min(marks), max(marks)
        pad = max((high - low) * 0.15, 1e-4)
        ax.set_ylim(low - pad, high + pad)
    ax.set_xlabel("spins")
    ax.set_ylabel("return to player")
    if label:
        ax.set_title(label, fontsize="medium")
    ax.yaxis.set_major_formatter(PercentFormatter(1.0))
    ax.legend(loc="best", fontsize="small")
    return data_uri(fig)


def win_distribution_plot(histogram: Sequence[tuple[float, int]], label: str | None = None) -> str:
    """Plot spins by win (multiples of the total bet), both axes logarithmic.

    Parameters
    ----------
    histogram : sequence of (win, count)
        ``win`` in multiples of the total bet (the lower edge of its bin);
        rows with ``win <= 0`` or ``count <= 0`` cannot be shown on log axes
        and are left out (the report states the losing-spin count in words).
    label : str or None
        The plot's title (which level was simulated).

    """
    fig, ax = _figure()
    shown = sorted((w, c) for w, c in histogram if w > 0 and c > 0)
    if shown:
        wins, counts = zip(*shown, strict=True)
        ax.vlines(wins, 0.8, counts, color=_STYLE["base"], linewidth=2, label="spins in bin")
        ax.plot(wins, counts, "o", color=_STYLE["base"], markersize=3)
        ax.set_xscale("log")
        ax.set_yscale("log")
        _plain_log_ticks(ax.xaxis)
        _plain_log_ticks(ax.yaxis)
        ax.set_ylim(bottom=0.8)
        ax.legend(loc="upper right", fontsize="small")
    ax.set_xlabel("win, x total bet (bins double: lower edge shown)")
    ax.set_ylabel("spins (log scale)")
    ax.set_title(label or "Distribution of wins per spin (features included)", fontsize="medium")
    return data_uri(fig)


def level_returns_plot(levels: Sequence[tuple[str, float, float]], min_rtp: float | None) -> str:
    """Plot base and jackpot return stacked per bet level, with the minimum line.

    The axis starts just below the lowest of the minimum and the returns, so
    the margin of each level over the minimum is visible (a 0-100% axis
    flattens 80% vs 95.7% into two similar bars); each bar is labelled with
    its return and its margin over the minimum in percentage points.

    Parameters
    ----------
    levels : sequence of (label, base_rtp, jackpot_rtp)
        One bar per bet level, returns as fractions of the bet.
    min_rtp : float or None
        The jurisdiction minimum.

    """
    fig, ax = _figure()
    labels = [f"level {lv[0]}" for lv in levels]
    base = [lv[1] for lv in levels]
    totals = [b + j for _, b, j in levels]
    marks = totals + base + ([min_rtp] if min_rtp is not None else [])
    low, high = min(marks), max(marks)
    span = max(high - low, 0.01)
    bottom = max(0.0, low - 0.6 * span)
    ax.bar(
        labels, [b - bottom for b in base], bottom=bottom, color=_STYLE["base"], label="base game"
    )
    ax.bar(labels, [lv[2] for lv in levels], bottom=base, color=_STYLE["jackpot"], label="jackpot")
    if min_rtp is not None:
        ax.axhline(min_rtp, color=_STYLE["min"], linewidth=1.5, label=f"minimum {min_rtp:.2%}")
    for x, total in enumerate(totals):
        text = f"{total:.2%}"
        if min_rtp is not None:
            text += f"\n{(total - min_rtp) * 100:+.2f} pts"
        ax.annotate(text, (x, total), ha="center", va="bottom", fontsize="small")
    ax.set_ylim(bottom, high + 0.35 * span)
    ax.set_xlabel("bet level (credits per line or per cost unit)")
    ax.set_ylabel("return to player (axis from %.0f%%)" % (bottom * 100))
    ax.yaxis.set_major_formatter(PercentFormatter(1.0))
    ax.legend(loc="lower right", fontsize="small")
    return data_uri(fig)
