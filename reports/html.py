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


def render_machine_report(certificate: dict[str, Any], machine: Machine,
                          convergence: Sequence[tuple[int, float, float, float]] | None = None,
                          win_histogram: Sequence[tuple[float, int]] | None = None) -> str:
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
        One per model file: ``path``, ``machine_id``, ``verdict``, ``returns``
        (a number, a list of per-level dicts or a dict), ``error`` and,
        optionally, ``html`` (the report's file name, linked when it is a plain
        ``*.html`` name in the same folder).

    Returns
    -------
    str
        A complete HTML document.
    """
    shown = [_batch_row(row) for row in rows]
    counts = Counter(r["verdict"] for r in shown)
    summary = [(v, counts[v]) for v in (*VERDICTS, "invalid") if counts[v]]
    return environment().get_template("batch.html.j2").render(
        title="slotcert batch", rows=shown, summary=summary, total=len(shown))


def award_rows(awards: list[dict[str, Any]], jurisdiction: dict[str, Any]) -> list[dict]:
    """PAR-sheet rows: combo, pays, probability, "1 in N", contribution to return.

    ``contribution`` is taken from the award (``contribution`` or ``rtp``) when
    the certificate gives it; it is not re-derived here, because the
    probability's unit (per line or per spin) is the certificate's to state.
    An award that is impossible or rarer than ``min_award_odds`` is flagged.
    """
    limit = _float(jurisdiction.get("min_award_odds")) or 0.0
    out = []
    for award in awards:
        p = _float(award.get("probability"))
        one_in = _float(award.get("one_in")) or (1.0 / p if p else None)
        contribution = _float(award.get("contribution", award.get("rtp")))
        rare = p is not None and (p <= 0 or (limit > 0 and (one_in or math.inf) > limit))
        out.append({
            "combo": _combo(award.get("combo")),
            "pays": _pays(award.get("pays", award.get("pays_by_level"))),
            "probability": _sci(p),
            "one_in": "never" if p is not None and p <= 0 else _one_in(one_in),
            "contribution": _pct(contribution, 4),
            "flag": rare,
        })
    return out


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
        "level": row.get("level", DASH), "total_bet": DASH if total_bet is None else total_bet,
        "money": DASH if money is None else f"{money:.2f} {machine.currency}",
        "exact_rtp": _pct(_float(exact.get("rtp")), 4), "base_rtp": _pct(base, 4),
        "jackpot_rtp": _pct(jackpot, 4),
        "hit_frequency": _pct(_float(exact.get("hit_frequency")), 2),
        "volatility": _num(_float(exact.get("volatility_index")), 3),
        "sim_rtp": _pct(_float(sim.get("rtp")), 3),
        "sim_ci": _interval(ci), "spins": _int(sim.get("spins")), "seed": sim.get("seed", DASH),
        "verdict": _verdict(row.get("verdict")),
        "_bars": (str(row.get("level", "?")),
                  base if base is not None else _float(exact.get("rtp", sim.get("rtp"))) or 0.0,
                  jackpot or 0.0),
    }


def _plots(levels: list[dict], min_rtp: float | None, convergence: Sequence | None,
           histogram: Sequence | None) -> dict[str, str | None]:
    return {
        "convergence": plots.convergence_plot(convergence, min_rtp) if convergence else None,
        "wins": plots.win_distribution_plot(histogram) if histogram else None,
        "levels": plots.level_returns_plot([lv["_bars"] for lv in levels], min_rtp)
        if levels else None,
    }


def _losing(histogram: Sequence[tuple[float, int]] | None) -> int | None:
    if not histogram:
        return None
    return sum(int(c) for w, c in histogram if w <= 0)


def _batch_row(row: dict[str, Any]) -> dict[str, Any]:
    link = row.get("html")
    verdict = row.get("verdict") or ("invalid" if row.get("error") else DASH)
    return {
        "path": str(row.get("path", DASH)),
        "machine_id": str(row.get("machine_id") or row.get("id") or DASH),
        "verdict": verdict if verdict in (*VERDICTS, "invalid") else str(verdict),
        "returns": _returns_text(row.get("returns")),
        "error": row.get("error") or "",
        "link": link if isinstance(link, str) and _SAFE_LINK.match(link) else None,
    }


def _returns_text(value: Any) -> str:
    if value is None:
        return DASH
    if isinstance(value, int | float) and not isinstance(value, bool):
        return _pct(float(value), 3)
    if isinstance(value, dict):
        return "; ".join(f"{k}: {_returns_text(v)}" for k, v in value.items())
    if isinstance(value, list):
        return "; ".join(_level_return(v) for v in value)
    return str(value)


def _level_return(item: Any) -> str:
    if not isinstance(item, dict):
        return _returns_text(item)
    figures = [f"{k} {_pct(_float(item[k]), 3)}" for k in ("rtp", "base_rtp", "jackpot_rtp")
               if _float(item.get(k)) is not None]
    return f"level {item.get('level', '?')}: " + (", ".join(figures) or DASH)


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
