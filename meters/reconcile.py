"""Reconcile meter dumps against a floor: the whole pipeline, in one piece or many.

:func:`reconcile` reads the dumps, and either reconciles them in memory or,
with ``pieces > 1``, spills them to Parquet partitioned by machine (a hash of
``machine_id``) and reconciles one partition at a time. Every check is local to
a machine, so both paths give the same rows; outputs are sorted at the end.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow.parquet as pq

from meters import checks, events
from meters.codes import FINDING_COLUMNS, QUARANTINE_COLUMNS, SEVERITY, Code
from meters.config import Config
from meters.floor import floor_rows
from meters.frame import NotGrouped, Readings, machine_blocks, stream_blocks
from meters.parallel import default_workers, reconcile_parallel
from meters.readers import dump_format, dump_meters, iter_dump, original_rows
from meters.sequence import column_at, intervals, screen

STREAM_BATCH_ROWS = 1_000_000  # rows decoded at a time when streaming a Parquet dump


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


@contextlib.contextmanager
def small_pages() -> Iterator[None]:
    """Ask NumPy not to advise transparent huge pages while inside the block.

    NumPy advises huge pages for large arrays; where the kernel then compacts
    memory on each fault (``defrag=madvise``), filling fresh gigabyte arrays
    costs about a third of the run. An explicit ``NUMPY_MADVISE_HUGEPAGE``
    setting is respected.
    """
    import numpy

    core = getattr(numpy, "_core", None) or getattr(numpy, "core", None)
    setter = getattr(getattr(core, "multiarray", None), "_set_madvise_hugepage", None)
    if setter is None or "NUMPY_MADVISE_HUGEPAGE" in os.environ:
        yield
        return
    previous = setter(False)
    try:
        yield
    finally:
        setter(previous)


def reconcile(
    dumps: list[str],
    floor: pd.DataFrame,
    counts: pd.DataFrame | None = None,
    cfg: Config | None = None,
    pieces: int = 1,
    batch_rows: int | None = None,
    workdir: str | None = None,
    block_rows: int = 1_000_000,
    workers: int | None = None,
) -> Result:
    """Reconcile dumps against a floor.

    Parameters
    ----------
    dumps : list of str
        CSV / Parquet / JSONL dump files.
    floor : pandas.DataFrame
        From :func:`meters.floor.load_floor`.
    counts : pandas.DataFrame, optional
        From :func:`meters.floor.load_counts`.
    cfg : Config, optional
        Tolerances (defaults of :class:`~meters.config.Config`).
    pieces : int
        1 reconciles in memory; more partitions the readings by machine into
        that many Parquet pieces on disk and reconciles them one at a time.
    batch_rows : int, optional
        Rows read at a time (default: whole dumps in memory, 1M when
        partitioning).
    workdir : str, optional
        Where the pieces go (a temporary folder by default).
    block_rows : int
        Rows of whole machines reconciled at a time within memory (bounds the
        working memory of the checks; results do not depend on it).
    workers : int, optional
        Processes reconciling a Parquet dump grouped by machine in parallel
        (default: the usable cores; 1 reconciles in this process). Results do
        not depend on it.

    Returns
    -------
    Result

    """
    cfg = cfg or Config()
    meters = dump_meters([str(d) for d in dumps])
    by_machine = events.CountsByMachine(counts) if counts is not None else None
    if pieces <= 1:
        results = _streamed(
            dumps,
            meters,
            floor,
            by_machine,
            cfg,
            batch_rows,
            block_rows,
            default_workers() if workers is None else workers,
        )
        if results is None:
            parts = [
                f
                for d in dumps
                for f in iter_dump(d, batch_rows=batch_rows or 2**62, meters=meters)
            ]
            results = [
                reconcile_frame(block, floor, by_machine, cfg)
                for block in machine_blocks(parts, block_rows)
            ]
    else:
        with tempfile.TemporaryDirectory(dir=workdir) as tmp:
            files = spill(dumps, meters, pieces, Path(tmp), batch_rows or 1_000_000)
            results = [
                reconcile_frame(block, floor, by_machine, cfg)
                for f in files
                for block in machine_blocks(
                    [Readings.from_table(pq.read_table(f), meters)], block_rows
                )
            ]
    if not results:  # every dump is empty (a zero-row Parquet dump has no row group to stream)
        first = next(iter_dump(dumps[0], meters=meters))
        results = [reconcile_frame(first.take(np.zeros(0, np.int64)), floor, by_machine, cfg)]
    result = combine(results, counts)
    ghosts = counts_off_floor(counts, floor)
    if len(ghosts):
        result.findings = sort_findings(pd.concat([result.findings, ghosts], ignore_index=True))
    seen = set().union(*(r.extra.get("machines_read", ()) for r in results))
    result.extra["machines_without_readings"] = sorted(set(floor.index) - seen)
    attach_originals(result)
    return result


def _streamed(
    dumps, meters, floor, by_machine, cfg, batch_rows, block_rows, workers
) -> list[Result] | None:
    """Reconcile one Parquet dump grouped by machine while it is read; None if not grouped.

    Row groups are decoded one ahead on the other core, and blocks of whole
    machines are reconciled as soon as their rows are in, so memory holds a
    block and a row group, not the dump. A dump that turns out not to be
    grouped by machine (some machine's rows apart) is left to the caller,
    which reads it whole: the blocks reconciled so far are discarded.
    """
    if len(dumps) != 1 or dump_format(dumps[0]) != "parquet":
        return None
    if workers > 1 and batch_rows is None:
        results = reconcile_parallel(
            str(dumps[0]), meters, floor, by_machine, cfg, block_rows, workers
        )
        if results is not None:
            return results
    parts = iter_dump(dumps[0], batch_rows=batch_rows or STREAM_BATCH_ROWS, meters=meters)
    try:
        return [
            reconcile_frame(block, floor, by_machine, cfg)
            for block in stream_blocks(parts, block_rows)
        ]
    except NotGrouped:
        parts.close()
        return None


def spill(
    dumps: list[str], meters: list[str], pieces: int, folder: Path, batch_rows: int
) -> list[Path]:
    """Write the dumps' rows to ``pieces`` Parquet files partitioned by machine.

    Returns the paths of the pieces that received rows.
    """
    writers: dict[int, pq.ParquetWriter] = {}
    try:
        for dump in dumps:
            for part in iter_dump(dump, batch_rows=batch_rows, meters=meters):
                ids = part.keys["machine_id"].cat
                bucket_of = pd.util.hash_array(np.asarray(ids.categories, dtype=object)) % pieces
                codes = ids.codes.to_numpy()
                bucket = np.where(codes >= 0, bucket_of[np.maximum(codes, 0)], 0)
                for b in np.unique(bucket):
                    table = part.take(np.flatnonzero(bucket == b)).to_table()
                    if b not in writers:
                        writers[b] = pq.ParquetWriter(
                            folder / f"piece-{b:05d}.parquet", table.schema
                        )
                    writers[b].write_table(table)
    finally:
        for w in writers.values():
            w.close()
    return [folder / f"piece-{b:05d}.parquet" for b in sorted(writers)]


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


def counts_off_floor(counts: pd.DataFrame | None, floor: pd.DataFrame) -> pd.DataFrame:
    """One ``unknown_machine`` finding per machine with soft counts but no floor row.

    Such money was counted for a machine nobody can reconcile: it is raised,
    not only left in ``counts_not_compared``.
    """
    if counts is None or not len(counts):
        return pd.DataFrame(columns=list(FINDING_COLUMNS))
    ids = counts["machine_id"].astype(object).astype(str).to_numpy()
    off = ~pd.Index(ids).isin(floor.index)
    if not off.any():
        return pd.DataFrame(columns=list(FINDING_COLUMNS))
    c = pd.DataFrame(
        {
            "m": ids[off],
            "start": counts["start"].to_numpy()[off],
            "end": counts["end"].to_numpy()[off],
            "amount": counts["amount"].to_numpy()[off],
            "where": [
                f"{f}:{n}"
                for f, n in zip(
                    counts["file"].to_numpy()[off], counts["line"].to_numpy()[off], strict=True
                )
            ],
        }
    )
    g = c.groupby("m", sort=True)
    agg = g.agg(start=("start", "min"), end=("end", "max"), n=("amount", "size"))
    amount = g["amount"].sum()
    where = g["where"].agg(list)
    return pd.DataFrame(
        {
            "machine_id": agg.index.to_numpy(object),
            "period_start": iso(agg["start"].to_numpy()),
            "period_end": iso(agg["end"].to_numpy()),
            "code": Code.UNKNOWN_MACHINE.value,
            "severity": SEVERITY[Code.UNKNOWN_MACHINE],
            "meter": "",
            "expected": np.nan,
            "observed": agg["n"].to_numpy(dtype=float),
            "message": [
                f"{n} soft count(s) ({a:.2f} counted) of a machine that is not in the floor file"
                for n, a in zip(agg["n"], amount, strict=True)
            ],
            "source_rows": [
                ";".join(w[:20]) + (f";... (+{len(w) - 20} more)" if len(w) > 20 else "")
                for w in where
            ],
        }
    )[list(FINDING_COLUMNS)]


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


def attach_originals(result: Result) -> None:
    """Fill ``original`` of the quarantine with the rows' text from their files."""
    q = result.quarantine
    if q.empty:
        return
    original = np.full(len(q), "", dtype=object)
    for file, idx in q.groupby("source_file").indices.items():
        text = original_rows(str(file), q["source_line"].to_numpy()[idx])
        original[idx] = [text.get(int(n), "") for n in q["source_line"].to_numpy()[idx]]
    q["original"] = original
    result.quarantine = q[list(QUARANTINE_COLUMNS)]
