"""Reconcile meter dumps against a floor: the whole pipeline, in one piece or many.

:func:`reconcile` reads the dumps and picks a strategy of
:mod:`meters.strategies` (streamed when one Parquet dump is grouped by
machine, in memory, or piecewise on disk with ``pieces > 1``); each
reconciles blocks of whole machines with the per-block unit of work of
:mod:`meters.block`. Every check is local to a machine, so every path gives
the same rows; the blocks' results are merged and sorted at the end
(:func:`~meters.block.combine`), then the soft counts of machines off the
floor and the text of the quarantined rows are added.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pandas as pd

from meters import events, strategies
from meters.block import Result, combine, iso, reconcile_frame, sort_findings
from meters.codes import FINDING_COLUMNS, QUARANTINE_COLUMNS, SEVERITY, Code
from meters.config import Config
from meters.parallel import default_workers
from meters.readers import dump_meters, original_rows

__all__ = [
    "Result",
    "attach_originals",
    "combine",
    "counts_off_floor",
    "reconcile",
    "reconcile_frame",
    "small_pages",
    "sort_findings",
]


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
        results = strategies.streamed(
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
            results = strategies.in_memory(
                dumps, meters, floor, by_machine, cfg, batch_rows, block_rows
            )
    else:
        with tempfile.TemporaryDirectory(dir=workdir) as tmp:
            results = strategies.piecewise(
                dumps, meters, floor, by_machine, cfg, pieces, Path(tmp), batch_rows, block_rows
            )
    if not results:  # every dump is empty
        results = strategies.empty(dumps, meters, floor, by_machine, cfg)
    result = combine(results, counts)
    ghosts = counts_off_floor(counts, floor)
    if len(ghosts):
        result.findings = sort_findings(pd.concat([result.findings, ghosts], ignore_index=True))
    seen = set().union(*(r.extra.get("machines_read", ()) for r in results))
    result.extra["machines_without_readings"] = sorted(set(floor.index) - seen)
    attach_originals(result)
    return result


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
            "credits": counts["credits"].to_numpy()[off] if "credits" in counts else np.nan,
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
                f"{n} soft count(s) ({a}) of a machine that is not in the floor file"
                for n, a in zip(agg["n"], _counted(g, "credits" in counts), strict=True)
            ],
            "source_rows": [
                ";".join(w[:20]) + (f";... (+{len(w) - 20} more)" if len(w) > 20 else "")
                for w in where
            ],
        }
    )[list(FINDING_COLUMNS)]


def _counted(groups, credits: bool) -> list[str]:
    """What was counted per machine off the floor: money, or credits (no denomination known)."""
    if credits:
        return [f"{c:.0f} credits counted" for c in groups["credits"].sum()]
    return [f"{a:.2f} counted" for a in groups["amount"].sum()]


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
