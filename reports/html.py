"""Self-contained HTML reports: one per certified machine, and the batch index.

Everything is inline (CSS, plots as base64 PNG), nothing is fetched from the
network, and every value from a model or certificate is escaped by Jinja's
autoescape. Inputs are the certificate dict (SPEC section 6), the parsed
machine, and optional simulation traces for the plots.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from certify.model.fingerprint import fingerprint
from certify.model.schema import Machine
from certify.verdicts import DISPLAY_ORDER, Verdict
from reports import layout, plots
from reports.par import par_sections
from reports.paytable import pay_glass
from reports.templating import environment

VERDICTS = DISPLAY_ORDER
DASH = "—"
_SAFE_LINK = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*\.html$")


def render_machine_report(
    certificate: dict[str, Any],
    machine: Machine,
    convergence: Sequence[tuple[int, float, float, float]] | None = None,
    win_histogram: Sequence[tuple[float, int]] | None = None,
) -> str:
    """Render the HTML report of one certified machine.

    Parameters
    ----------
    certificate : dict
        The certificate (SPEC section 6): machine, jurisdiction, verdict,
        bet_levels, awards, findings.
    machine : Machine
        The parsed model the certificate is for (pay-glass, money values).
    convergence : sequence of (spins, rtp, ci_low, ci_high), optional
        Running simulation estimate for the convergence plot.
    win_histogram : sequence of (win x total bet, spins), optional
        Spins by win for the win-distribution plot.

    Returns
    -------
    str
        A complete HTML document.

    """
    jurisdiction = certificate.get("jurisdiction") or {}
    min_rtp = _float(jurisdiction.get("min_rtp"))
    levels = [_level_row(row, machine) for row in certificate.get("bet_levels") or []]
    findings = certificate.get("findings") or []
    identity = certificate.get("certificate") or {}
    draft = identity.get("draft") is True
    context = {
        "title": ("DRAFT " + DASH + " " if draft else "") + f"{machine.id} {DASH} {machine.name}",
        "draft": draft,
        "reason": certificate.get("verdict_reason") or "",
        "machine": machine,
        "cert": certificate,
        "verdict": _verdict(certificate.get("verdict")),
        "jurisdiction": jurisdiction,
        "min_rtp": _pct(min_rtp, 2),
        "counts": _counting(jurisdiction.get("jackpot_counts_toward_minimum")),
        "fingerprint": fingerprint(machine),
        "recorded": (certificate.get("machine") or {}).get("fingerprint"),
        "tool": certificate.get("tool") or {},
        "levels": levels,
        "awards": award_rows(certificate.get("awards") or [], jurisdiction),
        "findings": findings,
        "warnings": [f for f in findings if f.get("severity") in ("warning", "error")],
        "identity": identity,
        "signature": _signature(certificate),
        "exact_only": (certificate.get("simulation_plan") or {}).get("spins") == 0,
        "plots": _plots(levels, min_rtp, convergence, win_histogram),
        "simulations": _simulations(certificate, min_rtp, convergence, win_histogram),
        "losing_spins": _losing(win_histogram),
        "par_tables": _par_tables(certificate, machine, jurisdiction),
        "glasses": pay_glass(machine),
    }
    return environment().get_template("machine.html.j2").render(**context)


def render_batch_index(rows: list[dict[str, Any]], batch: dict[str, Any] | None = None) -> str:
    """Render the index of a batch (the rows of ``batch.json``).

    Parameters
    ----------
    rows : list of dict
        The ``machines`` rows of ``batch.json``: ``path``, ``machine_id``,
        ``verdict``, ``min_base_rtp``, ``min_total_rtp``, ``error``, ``files``
        (the first ``*.html`` of which is linked when it is a plain file name in
        the same folder, as is an ``html`` key).
    batch : dict, optional
        The rest of ``batch.json`` (jurisdiction, seed, spins, date, lab, tool,
        counts) for the header.

    Returns
    -------
    str
        A complete HTML document.

    """
    shown = [_batch_row(row) for row in rows]
    counts = Counter(r["verdict"] for r in shown)
    summary = [(v, counts[v]) for v in (*VERDICTS, Verdict.INVALID) if counts[v]]
    meta = batch or {}
    facts = [
        ("Jurisdiction", meta.get("jurisdiction_name") or meta.get("jurisdiction")),
        ("Minimum return", _pct(_float(meta.get("min_rtp")), 2) if "min_rtp" in meta else None),
        ("Mode", meta.get("mode")),
        ("Spins per level", _int(meta.get("spins")) if "spins" in meta else None),
        ("Seed", meta.get("seed")),
        ("Issued (UTC)", meta.get("issued_utc")),
        ("Lab", (meta.get("lab") or {}).get("name")),
        ("Tool", " ".join(str(x) for x in (meta.get("tool") or {}).values()) or None),
        ("Signed", None if "signed" not in meta else ("yes" if meta["signed"] else "no")),
    ]
    draft = meta.get("draft") is True
    return (
        environment()
        .get_template("batch.html.j2")
        .render(
            title="DRAFT " + DASH + " slotcert batch" if draft else "slotcert batch",
            draft=draft,
            rows=shown,
            summary=summary,
            total=len(shown),
            facts=[(k, v) for k, v in facts if v is not None],
        )
    )


def award_rows(awards: list[dict[str, Any]], jurisdiction: dict[str, Any]) -> list[dict]:
    """PAR-sheet tables, one per bet level: kind, combo, pays, probability, "1 in N", return.

    The contribution to return is the award's ``rtp_contribution`` (or
    ``contribution``) when the certificate gives it; it is not re-derived here,
    because the probability's unit is the certificate's to state. An award that
    is impossible or rarer than the jurisdiction's ``min_award_odds`` is flagged.

    Returns
    -------
    list of dict
        ``{"level": level or None, "rows": [...]}`` in the certificate's order.

    """
    limit = _float(jurisdiction.get("min_award_odds")) or 0.0
    groups: dict[Any, list[dict]] = {}
    for award in awards:
        groups.setdefault(award.get("level"), []).append(_award_row(award, limit))
    return [{"level": level, "rows": rows} for level, rows in groups.items()]


def _award_row(award: dict[str, Any], limit: float) -> dict[str, Any]:
    p = _float(award.get("probability"))
    one_in = _float(award.get("one_in")) or (1.0 / p if p else None)
    contribution = next(
        (
            _float(award[k])
            for k in ("rtp_contribution", "contribution")
            if award.get(k) is not None
        ),
        None,
    )
    never = p is not None and p <= 0
    return {
        "kind": str(award.get("kind") or ""),
        "combo": _combo(award.get("combo")),
        "pays": _pays(award.get("pays", award.get("pays_by_level"))),
        "probability": _sci(p),
        "one_in": "never" if never else _one_in(one_in),
        "contribution": _pct(contribution, 4),
        "flag": never or (limit > 0 and one_in is not None and one_in > limit),
    }


def _level_row(row: dict[str, Any], machine: Machine) -> dict[str, Any]:
    exact = row.get("exact") or {}
    sim = row.get("simulation") or {}
    ci = sim.get("ci") or [None, None]
    total_bet = row.get("total_bet")
    money = None
    if isinstance(total_bet, int | float) and not isinstance(total_bet, bool):
        money = machine.denomination * Decimal(str(total_bet))
    base = _float(exact.get("base_rtp", sim.get("base_rtp")))
    jackpot = _float(exact.get("jackpot_rtp", sim.get("jackpot_rtp")))
    return {
        "level": row.get("level", DASH),
        "total_bet": DASH if total_bet is None else total_bet,
        "money": DASH if money is None else f"{money:.2f} {machine.currency}",
        "exact_rtp": _pct(_float(exact.get("rtp")), 4),
        "base_rtp": _pct(base, 4),
        "jackpot_rtp": _pct(jackpot, 4),
        "hit_frequency": _pct(_float(exact.get("hit_frequency")), 2),
        "volatility": _num(_float(exact.get("volatility_index")), 3),
        "sim_rtp": _pct(_float(sim.get("rtp")), 3),
        "sim_ci": _interval(ci),
        "spins": _int(sim.get("spins")),
        "seed": sim.get("seed", DASH),
        "verdict": _verdict(row.get("verdict")),
        "reason": str(row.get("reason") or ""),
        "more_spins": _int(row.get("more_spins")) if row.get("more_spins") else "",
        "_bars": (
            str(row.get("level", "?")),
            base if base is not None else _float(exact.get("rtp", sim.get("rtp"))) or 0.0,
            jackpot or 0.0,
        ),
    }


_PCT_DIGITS = 4


def _cell(column: str, value: Any, percent: tuple[str, ...]) -> str:
    if value is None or value == "":
        return DASH
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float) and column in percent:
        return _pct(value, _PCT_DIGITS)
    if column.startswith("probability") and isinstance(value, float):
        return _sci(value)
    if column == "one_in" and isinstance(value, int | float):
        return _one_in(float(value))
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        return f"{value:.6g}"
    return str(value)


def _par_tables(
    certificate: dict[str, Any], machine: Machine, jurisdiction: dict[str, Any]
) -> list[dict[str, Any]]:
    """Every PAR section (:func:`reports.par.par_sections`) as rows of display strings."""
    limit = _float(jurisdiction.get("min_award_odds")) or 0.0
    out = []
    for section in par_sections(certificate, machine):
        if section.name in ("summary", "symbols"):  # the summary is the page's; counts: strips
            continue
        if section.name == "reels":
            out += layout.strip_tables(machine)
            continue
        if section.name == "levels":
            out.append(_transposed(section))
            continue
        rows = []
        for raw in section.rows:
            values = dict(zip(section.columns, raw, strict=False))
            flag = False
            if section.name.startswith("awards_") and values.get("kind") in (
                "line",
                "ways",
                "scatter",
            ):
                p = _float(values.get("probability"))
                one_in = _float(values.get("one_in"))
                flag = (p is not None and p <= 0) or bool(limit and one_in and one_in > limit)
            cells = [_cell(c, v, section.percent) for c, v in values.items()]
            if "one_in" in values and values["one_in"] is None and values.get("probability") == 0:
                cells[section.columns.index("one_in")] = "never"
            rows.append(
                {
                    "cells": cells,
                    "flag": flag,
                    "total": values.get("kind") == "total",
                }
            )
        out.append(
            {
                "name": section.name,
                "title": section.title,
                "columns": [c.replace("_", " ") for c in section.columns],
                "rows": rows,
                "numeric": [
                    any(
                        isinstance(r[i], int | float) and not isinstance(r[i], bool)
                        for r in section.rows
                    )
                    for i in range(len(section.columns))
                ],
            }
        )
    shown = [layout.merge_levels_within(t) for t in layout.merge_award_tables(out)]
    return [layout.folded(layout.without_empty_columns(t)) for t in shown]


def _transposed(section: Any) -> dict[str, Any]:
    """A table of figures per level, one column per level (26 figures do not fit across)."""
    levels = [f"level {row[0]}" for row in section.rows]
    rows = []
    for i, column in enumerate(section.columns[1:], start=1):
        values = [row[i] for row in section.rows]
        rows.append(
            {
                "cells": [column.replace("_", " ")]
                + [_cell(column, v, section.percent) for v in values],
                "flag": False,
                "total": False,
                "wrap": any(isinstance(v, str) and len(v) > 16 for v in values),  # a note
            }
        )
    return {
        "name": section.name,
        "title": section.title,
        "columns": ["figure", *levels],
        "rows": rows,
        "numeric": [False] + [True] * len(levels),
        "fold": False,  # the figures a reader looks for first: never folded
    }


def _signature(certificate: dict[str, Any]) -> str:
    block = certificate.get("signature")
    if not isinstance(block, dict):
        return "UNSIGNED: nothing vouches for this certificate's content"
    return f"signed ({block.get('algorithm', '?')}, key {block.get('public_key', '?')})"


def _simulations(
    certificate: dict[str, Any],
    min_rtp: float | None,
    convergence: Sequence | None,
    histogram: Sequence | None,
) -> list[dict[str, Any]]:
    """One convergence and one win-distribution plot per distinct simulated bet level.

    Levels whose pays scale with the bet share one simulation (its ``stream``):
    they are drawn once, labelled with every level they stand for. The traces
    come from the certificate (``simulation.convergence``: spins, rtp, std
    error after each chunk); a ``convergence`` argument stands in when the
    certificate has none.
    """
    conf = _float((certificate.get("jurisdiction") or {}).get("confidence")) or 0.99
    groups: dict[Any, list[dict[str, Any]]] = {}
    for lv in certificate.get("bet_levels") or []:
        sim = lv.get("simulation")
        if sim:
            groups.setdefault(sim.get("stream", lv.get("level")), []).append(lv)
    out: list[dict[str, Any]] = []
    for members in groups.values():
        first = members[0]
        sim, exact = first["simulation"], first.get("exact") or {}
        names = [str(m.get("level")) for m in members]
        label = f"bet level {names[0]}" + (
            f" (also stands for level{'s' if len(names) > 2 else ''} {', '.join(names[1:])}: "
            "pays scale with the bet)"
            if len(names) > 1
            else ""
        )
        rows = _trace_rows(sim.get("convergence"), conf) or (
            list(convergence or []) if not out else []
        )
        hist = _histogram(sim.get("win_histogram")) or (list(histogram or []) if not out else [])
        if not rows and not hist:
            continue
        out.append(
            {
                "label": label,
                "points": len(rows),
                "spins": _int(sim.get("spins")),
                "convergence": plots.convergence_plot(
                    rows, min_rtp, _float(exact.get("base_rtp")), f"Return convergence, {label}"
                )
                if rows
                else None,
                "wins": plots.win_distribution_plot(hist, f"Wins per spin, {label}")
                if hist
                else None,
                "losing": _losing(hist),
            }
        )
    if not out and (convergence or histogram):
        out.append(
            {
                "label": "simulation",
                "points": len(convergence or []),
                "spins": DASH,
                "convergence": plots.convergence_plot(convergence, min_rtp)
                if convergence
                else None,
                "wins": plots.win_distribution_plot(histogram) if histogram else None,
                "losing": _losing(histogram),
            }
        )
    return out


def _trace_rows(trace: Any, confidence: float) -> list[tuple[int, float, float, float]]:
    from certify.stats import z_value

    if not isinstance(trace, list):
        return []
    z = z_value(confidence)
    rows = []
    for point in trace:
        if isinstance(point, list | tuple) and len(point) == 3:
            n, rtp, se = (_float(x) for x in point)
            if n is not None and rtp is not None and se is not None:
                rows.append((int(n), rtp, rtp - z * se, rtp + z * se))
    return rows


def _histogram(bins: Any) -> list[tuple[float, int]]:
    if not isinstance(bins, list) or not bins:
        return []
    return [(0.0 if k == 0 else 2.0 ** (k - 11), int(n)) for k, n in enumerate(bins)]


def _counting(flag: Any) -> str:
    if flag is True:
        return "the total return (jackpot contributions count)"
    if flag is False:
        return "the base game alone (jackpots are on top of the minimum)"
    return DASH


def _plots(
    levels: list[dict],
    min_rtp: float | None,
    convergence: Sequence | None,
    histogram: Sequence | None,
) -> dict[str, str | None]:
    return {
        "convergence": plots.convergence_plot(convergence, min_rtp) if convergence else None,
        "wins": plots.win_distribution_plot(histogram) if histogram else None,
        "levels": plots.level_returns_plot([lv["_bars"] for lv in levels], min_rtp)
        if levels
        else None,
    }


def _losing(histogram: Sequence[tuple[float, int]] | None) -> int | None:
    if not histogram:
        return None
    return sum(int(c) for w, c in histogram if w <= 0)


def _batch_row(row: dict[str, Any]) -> dict[str, Any]:
    verdict = row.get("verdict") or (Verdict.INVALID if row.get("error") else DASH)
    return {
        "path": str(row.get("path", DASH)),
        "machine_id": str(row.get("machine_id") or row.get("id") or DASH),
        "certificate": str(row.get("certificate") or ""),
        "warnings": [str(w) for w in row.get("warnings") or []],
        "verdict": str(verdict),
        "reason": str(row.get("reason") or ""),
        "base": _pct(_float(row.get("min_base_rtp")), 3),
        "total": _pct(_float(row.get("min_total_rtp")), 3),
        "error": row.get("error") or "",
        "link": _report_link(row),
    }


def _report_link(row: dict[str, Any]) -> str | None:
    """Link the row's report: ``html`` or the first ``*.html`` of ``files``, plain names only."""
    files = row.get("files")
    for name in [row.get("html"), *(files if isinstance(files, list) else [])]:
        if isinstance(name, str) and name.endswith(".html"):
            return name if _SAFE_LINK.match(name) else None
    return None


def _verdict(value: Any) -> str:
    return value if value in VERDICTS else DASH if value is None else str(value)


def _float(value: Any) -> float | None:
    if isinstance(value, bool) or value is None:
        return None
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return number if math.isfinite(number) else None


def _pct(value: float | None, digits: int) -> str:
    return DASH if value is None else f"{value * 100:.{digits}f}%"


def _num(value: float | None, digits: int) -> str:
    return DASH if value is None else f"{value:,.{digits}f}"


def _int(value: Any) -> str:
    return f"{value:,}" if isinstance(value, int) and not isinstance(value, bool) else DASH


def _sci(value: float | None) -> str:
    return DASH if value is None else f"{value:.6g}"


def _one_in(value: float | None) -> str:
    return DASH if value is None else f"1 in {value:,.1f}"


def _interval(ci: Any) -> str:
    low, high = (_float(x) for x in (list(ci) + [None, None])[:2])
    return DASH if low is None or high is None else f"[{_pct(low, 3)}, {_pct(high, 3)}]"


def _combo(value: Any) -> str:
    if isinstance(value, list | tuple):
        return " ".join(str(v) for v in value)
    return DASH if value is None else str(value)


def _pays(value: Any) -> str:
    if isinstance(value, list | tuple):
        return " / ".join(str(v) for v in value)
    return DASH if value is None else str(value)
