"""PAR figures beside the return, and the per-feature tables, as PAR sections.

* ``return_ranges``: the range the return of ``n`` games falls in at the
  jurisdiction's confidence, ``rtp +/- z sigma / sqrt(n)`` for ``n`` = 1e3 ..
  1e8, from the exact standard deviation per game (the paytable's, jackpots
  aside); a game with no exact figures uses the simulation's, marked so.
* ``win_probabilities``: a win smaller than the bet ("losses disguised as
  wins"), at least 10x, 100x, 1000x the bet, per paid spin: exact where every
  stop combination was evaluated (:mod:`certify.exact.maxwin`), else from the
  simulation's win histogram (doubling bins of the total bet: a win below the
  bet is resolved exactly by the bins; ``>= 10x`` lies between the bins'
  ``>= 16x`` and ``>= 8x``, and so on), with its interval.
* the per-feature tables of :mod:`certify.exact.parfeatures` (hold and spin,
  expanding symbol, cascades, full windows), one section each with a level
  column.

Everything is read from the certificate, so the HTML report, the workbook
and ``<id>.par-features.csv`` show the same figures.
"""

from __future__ import annotations

import math
from typing import Any

from certify.stats import z_value
from reports.sections import Section

GAMES = tuple(10**k for k in range(3, 9))
THRESHOLDS = (10, 100, 1000)
HIST_UNIT_BIN = 11  # bin k >= 1 holds wins in [2^(k-11), 2^(k-10)) x total bet


def figure_sections(certificate: dict[str, Any]) -> list[Section]:
    """The return ranges and the win probabilities of every level."""
    sections = [_return_ranges(certificate), _win_probabilities(certificate)]
    return [s for s in sections if s.rows]


def _return_ranges(certificate: dict[str, Any]) -> Section:
    conf = (certificate.get("jurisdiction") or {}).get("confidence") or 0.95
    z = z_value(float(conf))
    rows = []
    for lv in certificate.get("bet_levels") or []:
        ex = lv.get("exact") or {}
        sim = lv.get("simulation") or {}
        sigma = ex.get("sigma")
        if sigma is None and ex.get("variance") is not None:
            sigma = math.sqrt(ex["variance"])
        if ex.get("rtp") is not None and sigma is not None:
            rtp, source = ex["rtp"], "exact"
        elif sim.get("spins"):
            rtp, source = sim["rtp"], "simulation"
            sigma = sim["std_error"] * math.sqrt(sim["spins"])
        else:
            continue
        for n in GAMES:
            half = z * sigma / math.sqrt(n)
            rows.append((lv["level"], n, conf, rtp - half, rtp + half, half, source))
    return Section(
        "return_ranges",
        "Return after n games at the confidence (rtp +/- z sigma / sqrt(n), sigma per game "
        "from the exact variance; jackpots aside)",
        ("level", "games", "confidence", "rtp_low", "rtp_high", "half_width", "source"),
        rows,
        ("rtp_low", "rtp_high", "half_width"),
    )


def _win_probabilities(certificate: dict[str, Any]) -> Section:
    rows: list[tuple[Any, ...]] = []
    conf = float((certificate.get("jurisdiction") or {}).get("confidence") or 0.95)
    for lv in certificate.get("bet_levels") or []:
        ex = lv.get("exact") or {}
        exact = ex.get("win_probabilities")
        if exact:
            for r in exact:
                p = r["probability"]
                rows.append(
                    (lv["level"], r["event"], p, 1 / p if p else None, None, None, "exact", "")
                )
            continue
        rows += _histogram_rows(lv, conf)
    return Section(
        "win_probabilities",
        "Wins against the bet, per paid spin (exact where every stop combination is "
        "evaluated; else the simulation's doubling bins, with their interval)",
        ("level", "event", "probability", "one_in", "ci_low", "ci_high", "source", "note"),
        rows,
    )


def _histogram_rows(lv: dict[str, Any], conf: float) -> list[tuple[Any, ...]]:
    """The events from the simulation's doubling bins, each with a normal interval."""
    sim = lv.get("simulation") or {}
    hist = sim.get("win_histogram") or []
    n = sim.get("spins") or 0
    if not hist or not n:
        return []
    z = z_value(conf)

    def at_least(k: int) -> float:  # P(win >= 2^(k-11) x bet): bins k and above
        return sum(hist[max(k, 1) :]) / n

    def ci(p: float) -> tuple[float, float]:
        half = z * math.sqrt(max(p * (1 - p), 0.0) / n)
        return max(p - half, 0.0), min(p + half, 1.0)

    ldw = sum(hist[1:HIST_UNIT_BIN]) / n
    rows = [
        (
            lv["level"],
            "win > 0 and < bet",
            ldw,
            1 / ldw if ldw else None,
            *ci(ldw),
            "simulation",
            "",
        )
    ]
    for t in THRESHOLDS:
        lo_k = HIST_UNIT_BIN + math.floor(math.log2(t))  # 2^floor <= t: P(>= that) >= P(>= t)
        hi_k = lo_k + 1  # 2^(floor+1) > t: P(>= that) <= P(>= t)
        if hi_k >= len(hist):
            continue
        upper, lower = at_least(lo_k), at_least(hi_k)
        note = (
            f"between P(win >= {2 ** (hi_k - HIST_UNIT_BIN)}x) and "
            f"P(win >= {2 ** (lo_k - HIST_UNIT_BIN)}x): doubling bins"
        )
        rows.append(
            (
                lv["level"],
                f"win >= {t}x bet",
                None,
                None,
                ci(lower)[0],
                ci(upper)[1],
                "simulation",
                note,
            )
        )
    return rows


def feature_table_sections(certificate: dict[str, Any]) -> list[Section]:
    """Each per-feature table of the certificate, every level's rows in one section."""
    merged: dict[str, Section] = {}
    for lv in certificate.get("bet_levels") or []:
        par = lv.get("par") or {}
        for t in par.get("tables") or []:
            rows = [(lv["level"], *r) for r in _with_pools(t, par)]
            old = merged.get(t["name"])
            if old is None:
                merged[t["name"]] = Section(
                    t["name"],
                    f"{t['title']} [{t.get('source', 'exact')}]",
                    ("level", *t["columns"]),
                    rows,
                    tuple(t.get("percent") or ()),
                )
            else:
                old.rows.extend(rows)
    return list(merged.values())


def _with_pools(table: dict[str, Any], par: dict[str, Any]) -> list[list[Any]]:
    """A hold-and-spin prize table with each progressive level's return from its pool row."""
    rows = [list(r) for r in table["rows"]]
    if table["name"] != "hold_prizes":
        return rows
    pools = {p["pool"]: p.get("rtp") for p in par.get("jackpots") or []}
    at = table["columns"].index("rtp_contribution")
    for r in rows:
        if r[1] == "progressive" and r[at] is None:
            r[at] = pools.get(r[0])
    return rows
