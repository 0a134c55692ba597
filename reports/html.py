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
from reports import plots
from reports.paytable import pay_glass
from reports.templating import environment

VERDICTS = ("pass", "fail", "inconclusive", "error")
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
    context = {
        "title": f"{machine.id} {DASH} {machine.name}",
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
        "findings": certificate.get("findings") or [],
        "plots": _plots(levels, min_rtp, convergence, win_histogram),
        "losing_spins": _losing(win_histogram),
        "glasses": pay_glass(machine),
    }
    return environment().get_template("machine.html.j2").render(**context)


def render_batch_index(rows: list[dict[str, Any]]) -> str:
    """Render the index of a batch (the rows of ``batch.json``).

    Parameters
    ----------
    rows : list of dict
        The ``machines`` rows of ``batch.json``: ``path``, ``machine_id``,
        ``verdict``, ``min_base_rtp``, ``min_total_rtp``, ``error``, ``files``
        (the first ``*.html`` of which is linked when it is a plain file name in
        the same folder, as is an ``html`` key).

    Returns
    -------
    str
        A complete HTML document.

    """
    shown = [_batch_row(row) for row in rows]
    counts = Counter(r["verdict"] for r in shown)
    summary = [(v, counts[v]) for v in (*VERDICTS, "invalid") if counts[v]]
    return (
        environment()
        .get_template("batch.html.j2")
        .render(title="slotcert batch", rows=shown, summary=summary, total=len(shown))
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
    verdict = row.get("verdict") or ("invalid" if row.get("error") else DASH)
    return {
        "path": str(row.get("path", DASH)),
        "machine_id": str(row.get("machine_id") or row.get("id") or DASH),
        "verdict": str(verdict),
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
