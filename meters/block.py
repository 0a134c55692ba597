"""The per-block unit of work of the reconciler: whole machines in memory to a :class:`Result`.

:func:`reconcile_frame` reconciles the normalised readings of whole machines
(every check is local to a machine); the strategies of
:mod:`meters.strategies` and :mod:`meters.parallel` decide which blocks of
machines are reconciled where, and :mod:`meters.reconcile` merges the
blocks' results (:func:`combine`) into the outputs.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from meters import checks, events
from meters.codes import FINDING_COLUMNS, SEVERITY, Code
from meters.config import Config
from meters.floor import floor_rows
from meters.frame import Readings
from meters.sequence import column_at, intervals, screen


@dataclass
class Result:
    """Everything one reconciliation produced (frames as written to the outputs)."""

    findings: pd.DataFrame
    periods: pd.DataFrame
    quarantine: pd.DataFrame
    totals: pd.DataFrame
    rows_in: int = 0
    rows_reconciled: int = 0
    counts_unmatched: int = 0
    z_critical: float = float("nan")
    extra: dict = field(default_factory=dict)

    @property
    def rows_quarantined(self) -> int:
        """Rows set aside with a reason."""
        return len(self.quarantine)

    @property
    def errors(self) -> int:
        """Number of error-level findings."""
        return int((self.findings["severity"] == "error").sum())


def reconcile_frame(df: Readings, floor: pd.DataFrame, counts, cfg: Config) -> Result:
    """Reconcile the normalised readings of whole machines held in memory.

    ``counts`` is a soft-count frame, a :class:`~meters.events.CountsByMachine`
    or None.
    """
    scr = screen(df, floor, cfg.digits)
    iv = intervals(df, scr)
    direct = checks.add_prizes(iv, scr.reported, scr.meters)
    sums = list(iv.meters)
    per = checks.aggregate(iv, sums, cfg.period)
    pm = per["mcode"].to_numpy(dtype=np.int64)
    rows = floor_rows(floor, scr.machines, pm)
    rep = {m: scr.reported[pm, j] for j, m in enumerate(scr.meters)}
    if "prizes_paid" in sums:
        rep["prizes_paid"] = direct[pm] | rep.get("coin_out", False)
    checks.hold_columns(per, rows)
    tot = checks.machine_totals(per, floor, scr.machines)
    hold, zc = checks.hold_findings(tot, cfg, len(floor))
    span = _span(df, scr)
    drop, unmatched = events.drop_variance(df, iv, scr, counts, floor, cfg)
    parts = [
        *checks.period_findings(per, rep, direct[pm], rows, cfg),
        *events.reset_and_rollover(df, iv, scr),
        events.time_gaps(df, scr, cfg),
        *events.quarantine_findings(df, scr),
        events.missing_meters(scr, cfg, direct, span),
        drop,
        hold,
    ]
    findings = _findings(df, scr, [p for p in parts if len(p)])
    read = scr.machines[np.unique(scr.mcode[scr.order])] if len(scr.order) else []
    return Result(
        findings,
        _periods(per, scr, sums),
        _quarantine(df, scr),
        tot.drop(columns=["mcode", "row_start", "row_end"]),
        rows_in=len(df),
        rows_reconciled=len(scr.order),
        counts_unmatched=unmatched,
        z_critical=zc,
        extra={"machines_read": set(read)},
    )


def _span(df: pd.DataFrame, scr) -> pd.DataFrame:
    """First and last kept reading of each machine, by machine code."""
    m = scr.mcode[scr.order]
    t = df["read_at"].to_numpy()[scr.order]
    if len(m) and bool(np.all(m[1:] >= m[:-1])):  # kept rows are sorted by machine
        first = np.flatnonzero(np.r_[True, m[1:] != m[:-1]])
        last = np.r_[first[1:], len(m)] - 1
        return pd.DataFrame(
            {
                "start": t[first],
                "end": t[last],
                "row_start": scr.order[first],
                "row_end": scr.order[last],
            },
            index=pd.Index(m[first], name="m"),
        )
    frame = pd.DataFrame({"m": m, "t": t, "row": scr.order})
    g = frame.groupby("m")
    return pd.DataFrame(
        {
            "start": g["t"].first(),
            "end": g["t"].last(),
            "row_start": g["row"].first(),
            "row_end": g["row"].last(),
        }
    )


def iso(ns: np.ndarray) -> np.ndarray:
    """ISO 8601 UTC text (to the second) of int64 nanosecond times ("" for 0)."""
    ns = np.asarray(ns, dtype=np.int64)
    # period keys repeat a lot: format each distinct second once
    seconds, at = np.unique(ns // 10**9, return_inverse=True)
    text = np.char.add(np.datetime_as_string(seconds.astype("datetime64[s]"), unit="s"), "Z")[
        at.reshape(-1)
    ]
    return np.where(ns == 0, "", text).astype(object)


def _findings(df: pd.DataFrame, scr, parts: list[pd.DataFrame]) -> pd.DataFrame:
    if not parts:
        return pd.DataFrame(columns=list(FINDING_COLUMNS))
    f = pd.concat(parts, ignore_index=True)
    rows = np.unique(np.concatenate([np.asarray(r, dtype=np.int64) for r in f["rows"]]))
    files = dict(zip(rows, column_at(df["_file"], rows), strict=False))
    lines = dict(zip(rows, df["_line"].to_numpy()[rows], strict=False))
    f["source_rows"] = [_rows_text(files, lines, r) for r in f["rows"]]
    mcode = f["mcode"].to_numpy(dtype=np.int64)
    f["machine_id"] = np.where(mcode >= 0, scr.machines[np.maximum(mcode, 0)], "")
    f["period_start"], f["period_end"] = iso(f["start"]), iso(f["end"])
    f["severity"] = [SEVERITY[Code(c)] for c in f["code"]]
    return f[list(FINDING_COLUMNS)]


def _rows_text(files: dict, lines: dict, rows: np.ndarray, limit: int = 20) -> str:
    rows = np.unique(np.asarray(rows, dtype=np.int64))
    text = ";".join(f"{files[r]}:{lines[r]}" for r in rows[:limit])
    return text + (f";... (+{len(rows) - limit} more)" if len(rows) > limit else "")


def _periods(per: pd.DataFrame, scr, sums: list[str]) -> pd.DataFrame:
    out = per.drop(columns=["mcode", "row_start", "row_end"])
    out.insert(0, "machine_id", scr.machines[per["mcode"].to_numpy(dtype=np.int64)])
    out["period"] = iso(per["period"])
    out["period_start"] = iso(per["period_start"])
    out["period_end"] = iso(per["period_end"])
    for m in [c for c in sums if c in out]:
        out[m] = out[m].astype("Int64")
    for m in ("hold", "hold_money", "coin_in_money"):
        out[m] = out[m].round(6)
    return out


def _quarantine(df: pd.DataFrame, scr) -> pd.DataFrame:
    idx = np.flatnonzero(scr.qcode != "")
    return pd.DataFrame(
        {
            "source_file": column_at(df["_file"], idx),
            "source_line": df["_line"].to_numpy()[idx],
            "machine_id": column_at(df["machine_id"], idx),
            "read_at": iso(df["read_at"].to_numpy()[idx]),
            "code": scr.qcode[idx],
            "reason": scr.qreason[idx],
            "original": "",
        }
    )


def sort_findings(findings: pd.DataFrame) -> pd.DataFrame:
    """Findings in their canonical order."""
    return findings.sort_values(
        ["machine_id", "period_start", "code", "meter", "period_end", "source_rows"],
        kind="stable",
    ).reset_index(drop=True)


def combine(results: list[Result], counts: pd.DataFrame | None) -> Result:
    """Merge piece results and sort every table into its canonical order."""

    def cat(name: str) -> pd.DataFrame:
        frames = [getattr(r, name) for r in results if len(getattr(r, name))]
        return pd.concat(frames, ignore_index=True) if frames else getattr(results[0], name)

    findings = sort_findings(cat("findings"))
    periods = (
        cat("periods")
        .sort_values(["machine_id", "period_start"], kind="stable")
        .reset_index(drop=True)
    )
    quarantine = (
        cat("quarantine")
        .sort_values(["source_file", "source_line"], kind="stable")
        .reset_index(drop=True)
    )
    totals = cat("totals").sort_values("machine_id", kind="stable").reset_index(drop=True)
    n_counts = 0 if counts is None else len(counts)
    compared = sum(n_counts - r.counts_unmatched for r in results)
    return Result(
        findings,
        periods,
        quarantine,
        totals,
        rows_in=sum(r.rows_in for r in results),
        rows_reconciled=sum(r.rows_reconciled for r in results),
        counts_unmatched=n_counts - compared,
        z_critical=results[0].z_critical,
    )
