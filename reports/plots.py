"""Report plots as base64 PNG data URIs (matplotlib Agg, no pyplot, no network).

Each function takes plain numbers and returns ``"data:image/png;base64,..."``.
Figures are built on :class:`matplotlib.figure.Figure` with an Agg canvas, so
no global pyplot state or GUI backend is touched, and the PNG carries no
software/date metadata: the same inputs give the same bytes on one install.
"""

from __future__ import annotations

import base64
import io
from collections.abc import Sequence

from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.ticker import PercentFormatter

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
    fig = Figure(figsize=_SIZE, layout="constrained")
    return fig, fig.add_subplot()


def convergence_plot(
    rows: Sequence[tuple[int, float, float, float]],
    min_rtp: float | None,
    exact_rtp: float | None = None,
) -> str:
    """Plot the simulated return against spins, with its interval and the minimum.

    Parameters
    ----------
    rows : sequence of (spins, rtp, ci_low, ci_high)
        The running estimate after each chunk, returns as fractions of the bet.
    min_rtp : float or None
        The jurisdiction minimum, drawn as a horizontal line.
    exact_rtp : float or None
        The exact return, drawn dashed when known.

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
    ax.plot(spins, [r[1] for r in rows], color=_STYLE["base"], label="simulated return")
    if exact_rtp is not None:
        ax.axhline(exact_rtp, color="black", linestyle="--", linewidth=1, label="exact return")
    if min_rtp is not None:
        ax.axhline(min_rtp, color=_STYLE["min"], linewidth=1.5, label="minimum")
    if spins and min(spins) > 0 and max(spins) >= 10 * min(spins):
        ax.set_xscale("log")
    ax.set_xlabel("spins")
    ax.set_ylabel("return to player")
    ax.yaxis.set_major_formatter(PercentFormatter(1.0))
    ax.legend(loc="best", fontsize="small")
    return data_uri(fig)


def win_distribution_plot(histogram: Sequence[tuple[float, int]]) -> str:
    """Plot spins by win (multiples of the total bet), both axes logarithmic.

    Parameters
    ----------
    histogram : sequence of (win, count)
        ``win`` in multiples of the total bet; rows with ``win <= 0`` or
        ``count <= 0`` cannot be shown on log axes and are left out (the
        report states the losing-spin count in words).

    """
    fig, ax = _figure()
    shown = sorted((w, c) for w, c in histogram if w > 0 and c > 0)
    if shown:
        wins, counts = zip(*shown, strict=True)
        ax.vlines(wins, 0.8, counts, color=_STYLE["base"], linewidth=2)
        ax.plot(wins, counts, "o", color=_STYLE["base"], markersize=3)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_ylim(bottom=0.8)
    ax.set_xlabel("win (x total bet)")
    ax.set_ylabel("spins")
    return data_uri(fig)


def level_returns_plot(levels: Sequence[tuple[str, float, float]], min_rtp: float | None) -> str:
    """Plot base and jackpot return stacked per bet level, with the minimum line.

    Parameters
    ----------
    levels : sequence of (label, base_rtp, jackpot_rtp)
        One bar per bet level, returns as fractions of the bet.
    min_rtp : float or None
        The jurisdiction minimum.

    """
    fig, ax = _figure()
    labels = [lv[0] for lv in levels]
    base = [lv[1] for lv in levels]
    ax.bar(labels, base, color=_STYLE["base"], label="base game")
    ax.bar(labels, [lv[2] for lv in levels], bottom=base, color=_STYLE["jackpot"], label="jackpot")
    if min_rtp is not None:
        ax.axhline(min_rtp, color=_STYLE["min"], linewidth=1.5, label="minimum")
    top = max([b + j for _, b, j in levels] + [min_rtp or 0.0, 1.0])
    ax.set_ylim(0, top * 1.05)
    ax.set_xlabel("bet level (credits per line or per cost unit)")
    ax.set_ylabel("return to player")
    ax.yaxis.set_major_formatter(PercentFormatter(1.0))
    ax.legend(loc="lower right", fontsize="small")
    return data_uri(fig)
