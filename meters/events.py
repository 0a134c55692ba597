"""Findings about readings rather than sums.

Resets, rollovers, gaps, quarantine, missing meters, unknown machines, and
the soft count against the drop meter.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from meters.codes import Code
from meters.config import Config
from meters.floor import floor_rows
from meters.sequence import Screened


def _frame(mcode, start, end, code: Code, meter, expected, observed, message, rows) -> pd.DataFrame:
    n = len(mcode)
    return pd.DataFrame(
        {
            "mcode": np.asarray(mcode, dtype=np.int64),
            "start": np.asarray(start, dtype=np.int64),
            "end": np.asarray(end, dtype=np.int64),
            "code": np.full(n, code.value, dtype=object),
            "meter": np.broadcast_to(np.asarray(meter, dtype=object), (n,)),
            "expected": np.broadcast_to(np.asarray(expected, dtype=float), (n,)),
            "observed": np.broadcast_to(np.asarray(observed, dtype=float), (n,)),
            "message": list(message),
            "rows": list(rows),
        }
    )


def pairs(first, second) -> list[np.ndarray]:
    """Pair two row-index sequences into ``[first, second]`` arrays."""
    return list(np.column_stack([np.asarray(first, np.int64), np.asarray(second, np.int64)]))


def reset_and_rollover(df: pd.DataFrame, iv: pd.DataFrame, scr: Screened) -> list[pd.DataFrame]:
    """One ``reset`` per interval cut by a RAM clear; one ``rollover`` per meter wrapped."""
    out = []
    r = iv[iv["reset"]]
    games = "games_played" if "games_played" in scr.meters else scr.meters[0]
    values = scr.values[:, scr.meters.index(games)]
    prev, cur = values[r["row_start"].to_numpy()], values[r["row_end"].to_numpy()]
    out.append(
        _frame(
            r["mcode"],
            r["start"],
            r["end"],
            Code.RESET,
            games,
            prev,
            cur,
            [
                f"meters went back ({games} {p:.0f} -> {c:.0f}): RAM clear; the "
                "interval is not counted and a new segment starts"
                for p, c in zip(prev, cur, strict=False)
            ],
            pairs(r["row_start"], r["row_end"]),
        )
    )
    at = np.flatnonzero(iv["rolled"].to_numpy())
    if len(at):
        rolled = iv.keys.iloc[at].assign(meter=[n.split(";") for n in iv.rolled_meters(at)])
        parts = rolled.explode("meter")
        mod = scr.modulus[parts["mcode"].to_numpy()]
        col = parts["meter"].map({m: j for j, m in enumerate(scr.meters)}).to_numpy(np.int64)
        before = scr.values[parts["row_start"].to_numpy(np.int64), col]
        after = scr.values[parts["row_end"].to_numpy(np.int64), col]
        out.append(
            _frame(
                parts["mcode"],
                parts["start"],
                parts["end"],
                Code.ROLLOVER,
                parts["meter"].to_numpy(dtype=object),
                before,
                after,
                [
                    f"{m} rolled over modulo {md:.0e}: {b:.0f} -> {a:.0f}"
                    for m, md, b, a in zip(parts["meter"], mod, before, after, strict=True)
                ],
                [
                    np.array([a, b])
                    for a, b in zip(parts["row_start"], parts["row_end"], strict=False)
                ],
            )
        )
    return out


def time_gaps(df: pd.DataFrame, scr: Screened, cfg: Config) -> pd.DataFrame:
    """``time_gap`` where a machine was not read for too long.

    Every row with a readable time of a known machine counts as a reading
    here, quarantined or not: a gap means nothing was read.
    """
    t_all = df["read_at"].to_numpy()
    on_floor = np.r_[scr.known, False][scr.mcode]  # code -1 (no machine_id) -> False
    known = on_floor & (t_all != 0)
    extra = np.flatnonzero(known & (scr.qcode != ""))
    rows = scr.order
    if len(extra):
        rows = np.concatenate([rows, extra])
        rows = rows[np.lexsort((t_all[rows], scr.mcode[rows]))]
    m, t = scr.mcode[rows], t_all[rows]
    step = np.flatnonzero((m[1:] == m[:-1]) & (t[1:] != t[:-1])) + 1
    if len(step) == 0:
        return _frame([], [], [], Code.TIME_GAP, "", [], [], [], [])
    gap = (t[step] - t[step - 1]).astype(float)
    if cfg.max_gap_s is not None:
        limit = np.full(len(step), cfg.max_gap_s * 1e9)
    else:
        med = pd.Series(gap).groupby(m[step]).transform("median").to_numpy()
        limit = cfg.gap_factor * med
    bad = gap > limit
    s = step[bad]
    return _frame(
        m[s],
        t[s - 1],
        t[s],
        Code.TIME_GAP,
        "",
        limit[bad] / 3.6e12,
        gap[bad] / 3.6e12,
        [
            f"no reading for {g / 3.6e12:.1f} h (limit {lim / 3.6e12:.1f} h)"
            for g, lim in zip(gap[bad], limit[bad], strict=False)
        ],
        pairs(rows[s - 1], rows[s]),
    )


def quarantine_findings(df: pd.DataFrame, scr: Screened) -> list[pd.DataFrame]:
    """One finding per quarantined row; one ``unknown_machine`` per unknown machine."""
    t = df["read_at"].to_numpy()
    out = []
    rowwise = np.flatnonzero((scr.qcode != "") & (scr.qcode != Code.UNKNOWN_MACHINE.value))
    for code in (Code.DUPLICATE_ROW, Code.OUT_OF_ORDER, Code.MALFORMED_ROW):
        idx = rowwise[scr.qcode[rowwise] == code.value]
        out.append(
            _frame(
                scr.mcode[idx],
                t[idx],
                t[idx],
                code,
                "",
                np.nan,
                np.nan,
                scr.qreason[idx],
                [np.array([i]) for i in idx],
            )
        )
    unk = np.flatnonzero(scr.qcode == Code.UNKNOWN_MACHINE.value)
    if len(unk):
        g = pd.DataFrame({"m": scr.mcode[unk], "t": t[unk], "row": unk}).groupby("m")
        agg = g.agg(start=("t", "min"), end=("t", "max"), n=("row", "size"))
        out.append(
            _frame(
                agg.index,
                agg["start"],
                agg["end"],
                Code.UNKNOWN_MACHINE,
                "",
                np.nan,
                agg["n"],
                [f"{n} row(s) of a machine that is not in the floor file" for n in agg["n"]],
                [np.asarray(v) for v in g["row"].agg(list)],
            )
        )
    return out


def missing_meters(
    scr: Screened, cfg: Config, direct: np.ndarray, span: pd.DataFrame
) -> pd.DataFrame:
    """``missing_meter`` for each required meter a known machine does not report.

    ``prizes_paid`` counts as reported when read directly or derivable from
    ``coin_out``. ``span`` has per machine code ``start, end, row_start, row_end``.
    """
    col = {name: j for j, name in enumerate(scr.meters)}
    found = []
    for meter in cfg.required:
        has = scr.reported[:, col[meter]] if meter in col else np.zeros(len(scr.machines), bool)
        if meter == "prizes_paid":
            has = direct | (scr.reported[:, col["coin_out"]] if "coin_out" in col else False)
        lacking = np.flatnonzero(~has)
        lacking = lacking[np.isin(lacking, span.index.to_numpy())]
        s = span.loc[lacking]
        found.append(
            _frame(
                lacking,
                s["start"],
                s["end"],
                Code.MISSING_METER,
                meter,
                np.nan,
                np.nan,
                [f"required meter {meter} is not reported"] * len(lacking),
                pairs(s["row_start"], s["row_end"]),
            )
        )
    return pd.concat(found, ignore_index=True)


class CountsByMachine:
    """Soft counts sorted by machine once, so each block takes its own in O(its counts)."""

    def __init__(self, counts: pd.DataFrame):
        ids = pd.Categorical(counts["machine_id"])
        order = np.argsort(ids.codes, kind="stable")
        self.frame = counts.iloc[order].reset_index(drop=True)
        self.categories = pd.Index(ids.categories, dtype=object)
        self.bounds = np.searchsorted(ids.codes[order], np.arange(len(self.categories) + 1))
        self.total = len(counts)

    def of(self, machines: np.ndarray) -> pd.DataFrame:
        """Counts of ``machines``, with ``mcode`` (position in ``machines``)."""
        cat = self.categories.get_indexer(pd.Index(machines, dtype=object))
        mine = np.flatnonzero(cat >= 0)
        starts, ends = self.bounds[cat[mine]], self.bounds[cat[mine] + 1]
        sizes = ends - starts
        rows = np.repeat(starts - (np.cumsum(sizes) - sizes), sizes) + np.arange(sizes.sum())
        return self.frame.iloc[rows].assign(mcode=np.repeat(mine, sizes).astype(np.int64))


def drop_variance(
    df: pd.DataFrame, iv: pd.DataFrame, scr: Screened, counts, floor: pd.DataFrame, cfg: Config
) -> tuple[pd.DataFrame, int]:
    """Compare counted drop (money) with the ``coin_drop`` meter, per count period.

    Counts are matched to readings: a count's end snaps forward to the first
    reading at or after it, its start back to the last reading at or before
    it; consecutive counts snapping to the same end reading are merged (a
    missing reading merges the counts around it). Counts spanning a reset, or
    with no reading around them, are not compared and are returned as the
    number ``unmatched``.
    """
    empty = _frame([], [], [], Code.DROP_VARIANCE, "", [], [], [], [])
    if counts is None:
        return empty, 0
    if not isinstance(counts, CountsByMachine):
        counts = CountsByMachine(counts)
    if counts.total == 0 or "coin_drop" not in scr.meters or len(scr.order) < 2:
        return empty, counts.total
    j = scr.meters.index("coin_drop")
    c = counts.of(scr.machines)
    c = c[scr.reported[c["mcode"].to_numpy(), j]]
    if c.empty:
        return empty, counts.total
    m, t = scr.mcode[scr.order], df["read_at"].to_numpy()[scr.order]
    cum, lost = _cumulative(iv, scr.order, "coin_drop")
    sec = m * np.int64(2**33) + t // 10**9
    c = c.sort_values(["mcode", "start"])
    cm = c["mcode"].to_numpy()
    je = np.searchsorted(sec, cm * np.int64(2**33) - (-c["end"].to_numpy() // 10**9), "left")
    js = np.searchsorted(sec, cm * np.int64(2**33) + c["start"].to_numpy() // 10**9, "right") - 1
    ok = (je < len(m)) & (js >= 0)
    ok[ok] &= (m[je[ok]] == cm[ok]) & (m[js[ok]] == cm[ok])
    g = _merge_counts(
        cm[ok],
        je[ok],
        js[ok],
        c["amount"].to_numpy()[ok],
        c["start"].to_numpy()[ok],
        c["end"].to_numpy()[ok],
    )
    usable = (lost[g["je"]] - lost[g["js"]] == 0) & (g["je"].to_numpy() > g["js"].to_numpy())
    g = g[usable]
    unmatched = counts.total - int(g["n"].sum())
    denom = floor_rows(floor, scr.machines, g["mcode"].to_numpy())["denomination"].to_numpy()
    meter = (cum[g["je"]] - cum[g["js"]]) * denom
    amount = g["amount"].to_numpy()
    # the floor is drop_abs credits of *this* machine (SPEC 7): 1.00 on a 0.01 machine, 100 on a
    # 1.00 machine, so a 10% inflation bites alike whatever the denomination
    tol = np.maximum(cfg.drop_pct * np.abs(meter), cfg.drop_abs * denom)
    bad = np.abs(amount - meter) > tol + 1e-9
    b = g[bad]
    return _frame(
        b["mcode"],
        b["start"],
        b["end"],
        Code.DROP_VARIANCE,
        "coin_drop",
        np.round(meter[bad], 6),
        amount[bad],
        [
            f"counted {a:.2f} vs metered drop {e:.2f} (tolerance {tl:.2f})"
            for a, e, tl in zip(amount[bad], meter[bad], tol[bad], strict=False)
        ],
        pairs(scr.order[b["js"]], scr.order[b["je"]]),
    ), unmatched


def _merge_counts(cm, je, js, amount, start, end) -> pd.DataFrame:
    """Merge consecutive counts of a machine that snap to the same end reading."""
    first = (
        np.flatnonzero(np.r_[True, (cm[1:] != cm[:-1]) | (je[1:] != je[:-1])])
        if len(cm)
        else np.zeros(0, dtype=np.int64)
    )
    if len(first) == 0:
        return pd.DataFrame(
            {k: np.zeros(0, np.int64) for k in ("mcode", "je", "js", "amount", "start", "end", "n")}
        )
    return pd.DataFrame(
        {
            "mcode": cm[first],
            "je": je[first],
            "js": np.minimum.reduceat(js, first),
            "amount": np.add.reduceat(amount, first),
            "start": np.minimum.reduceat(start, first),
            "end": np.maximum.reduceat(end, first),
            "n": np.diff(np.r_[first, len(cm)]),
        }
    )


def _cumulative(iv: pd.DataFrame, order: np.ndarray, meter: str):
    """Per kept reading: cumulative delta of ``meter`` and cumulative lost intervals."""
    index = np.zeros(order.max() + 1 if len(order) else 0, dtype=np.int64)
    index[order] = np.arange(len(order))
    at = index[iv["row_end"].to_numpy()]
    d = np.zeros(len(order))
    lost = np.zeros(len(order), dtype=np.int64)
    col = iv[meter].to_numpy()
    d[at] = np.where(np.isnan(col), 0.0, col)
    lost[at] = iv["reset"].to_numpy()
    return np.cumsum(d), np.cumsum(lost)
