"""Order each machine's readings, quarantine bad rows, cut segments, take deltas.

All steps are vectorised over every machine at once: rows are sorted by
(machine, read_at, file, line) and neighbours are compared with shifted
arrays masked to the same machine.

Rules (documented in docs/METERS.md):

- a row that cannot be parsed, names no known machine, lacks a value of a
  meter its machine reports, or exceeds the meter width is quarantined;
- a second row of a machine at the same ``read_at`` is a ``duplicate_row``;
- a value is *behind* its predecessor when ``(cur - prev) mod 10**digits``
  is at least half the modulus (a smaller wrap is a rollover);
- a row behind its predecessor while its successor is ahead of that
  predecessor (a dip), or ahead of a successor that is itself ahead of the
  predecessor (a spike), is out of sequence: ``out_of_order`` when the
  sequence meter (``games_played``, else ``coin_in``) shows it, otherwise a
  ``malformed_row`` ("impossible"); repeated until no row is out of sequence;
- any remaining step behind is a reset (RAM clear): the interval is dropped
  and a new segment starts; no negative delta is ever produced.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from meters import _kernels
from meters.codes import Code
from meters.frame import Readings

SEQUENCE_METERS = ("games_played", "coin_in")


@dataclass
class Screened:
    """Rows of one piece after quarantine, kept rows in machine/time order."""

    order: np.ndarray
    qcode: np.ndarray
    qreason: np.ndarray
    mcode: np.ndarray
    machines: np.ndarray
    reported: np.ndarray
    meters: list[str]
    modulus: np.ndarray
    values: np.ndarray
    known: np.ndarray


def screen(df: Readings, floor: pd.DataFrame, digits: int = 10) -> Screened:
    """Quarantine unusable rows and order the rest.

    Parameters
    ----------
    df : Readings
        Normalised readings of whole machines (see :mod:`meters.readers`).
    floor : pandas.DataFrame
        From :func:`meters.floor.load_floor`.
    digits : int
        Fallback meter width.

    Returns
    -------
    Screened

    """
    meters = list(df.meters)
    ids = pd.Categorical(df["machine_id"])
    machines = np.asarray(ids.categories, dtype=object)
    mcode = ids.codes.astype(np.int64)
    qcode = np.full(len(df), "", dtype=object)
    qreason = np.full(len(df), "", dtype=object)
    bad = df["_bad"].to_numpy(dtype=object) != ""
    qcode[bad], qreason[bad] = Code.MALFORMED_ROW.value, df["_bad"].to_numpy(dtype=object)[bad]
    known = floor.index.get_indexer(pd.Index(machines, dtype=object)) >= 0
    known &= machines != ""
    unknown = ~known[mcode] & ~bad
    qcode[unknown] = Code.UNKNOWN_MACHINE.value
    qreason[unknown] = "machine_id is not in the floor file"
    width = floor["digits"].reindex(machines).fillna(digits).to_numpy(dtype=float)
    modulus = 10.0**width
    values = np.ascontiguousarray(df.values, dtype=np.float64)
    reported = _reported(values, mcode, qcode == "", len(machines))
    _incomplete(values, mcode, reported, modulus, meters, qcode, qreason)
    order = _sorted(df, mcode, np.flatnonzero(qcode == ""))
    order = _duplicates(df, values, mcode, order, qcode, qreason)
    times = df["read_at"].to_numpy().astype(np.int64)
    order = _out_of_sequence(values, mcode, modulus, reported, meters, order, qcode, qreason, times)
    return Screened(
        order, qcode, qreason, mcode, machines, reported, meters, modulus, values, known
    )


def _reported(values: np.ndarray, mcode: np.ndarray, ok: np.ndarray, n: int) -> np.ndarray:
    """Which machine reports which meter (any value among its usable rows)."""
    out = np.zeros((n, values.shape[1]), dtype=bool)
    _kernels.reported(values, mcode, ok, out)
    return out


def _incomplete(values, mcode, reported, modulus, meters, qcode, qreason) -> None:
    """Quarantine rows missing a reported meter or exceeding the meter width."""
    free = qcode == ""
    missing = np.empty(len(values), dtype=np.int64)
    over = np.empty(len(values), dtype=np.int64)
    _kernels.incomplete(values, np.maximum(mcode, 0), reported, modulus, free, missing, over)
    for col, text in (
        (missing, "no value for meter {m} that this machine reports"),
        (over, "{m}={v:.0f} exceeds the meter width"),
    ):
        rows = np.flatnonzero((col >= 0) & free)
        if len(rows):
            qcode[rows] = Code.MALFORMED_ROW.value
            qreason[rows] = [
                text.format(m=meters[j], v=values[r, j])
                for r, j in zip(rows, col[rows], strict=True)
            ]
            free[rows] = False


def _sorted(df: pd.DataFrame, mcode: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """``rows`` ordered by machine, read_at, source file and line."""
    t = df["read_at"].to_numpy()[rows]
    m = mcode[rows]
    f = (
        df["_file"].cat.codes.to_numpy()[rows]
        if hasattr(df["_file"], "cat")
        else pd.factorize(df["_file"])[0][rows]
    )
    line = df["_line"].to_numpy()[rows]
    if len(rows) < 2 or _is_sorted(m, t, f, line):
        return rows
    return rows[np.lexsort((line, f, t, m))]


def _is_sorted(*keys: np.ndarray) -> bool:
    """Tell whether rows are already in lexicographic order of ``keys``."""
    ahead = np.zeros(len(keys[0]) - 1, dtype=bool)
    tie = np.ones(len(keys[0]) - 1, dtype=bool)
    for key in keys:
        d = np.diff(key)
        ahead |= tie & (d > 0)
        if (tie & (d < 0)).any():
            return False
        tie &= d == 0
    return True


def _duplicates(df, values, mcode, order, qcode, qreason) -> np.ndarray:
    """Quarantine later rows of a machine with the same read_at; keep the first."""
    if len(order) < 2:
        return order
    t = df["read_at"].to_numpy()[order]
    m = mcode[order]
    dup = np.zeros(len(order), dtype=bool)
    dup[1:] = (m[1:] == m[:-1]) & (t[1:] == t[:-1])
    if not dup.any():
        return order
    first = order[np.maximum.accumulate(np.where(dup, 0, np.arange(len(order))))]
    rows = order[dup]
    same = np.all(
        (values[rows] == values[first[dup]])
        | (np.isnan(values[rows]) & np.isnan(values[first[dup]])),
        axis=1,
    )
    where = _where(df, first[dup])
    qcode[rows] = Code.DUPLICATE_ROW.value
    qreason[rows] = [
        ("identical to " if s else "same read_at as ")
        + w
        + ("" if s else " with different meter values")
        for s, w in zip(same, where, strict=True)
    ]
    return order[~dup]


def _where(df: pd.DataFrame, rows: np.ndarray) -> list[str]:
    """``file:line`` of some rows."""
    files = column_at(df["_file"], rows)
    lines = df["_line"].to_numpy()[rows]
    return [f"{f}:{n}" for f, n in zip(files, lines, strict=False)]


def column_at(column: pd.Series, idx: np.ndarray) -> np.ndarray:
    """Values of a (categorical) column at some rows, as an object array."""
    if isinstance(column.dtype, pd.CategoricalDtype):
        codes = column.cat.codes.to_numpy()[idx]
        cats = np.asarray(column.cat.categories, dtype=object)
        return np.where(codes >= 0, cats[np.maximum(codes, 0)], "").astype(object)
    return column.to_numpy(dtype=object)[idx]


def behind(prev: np.ndarray, cur: np.ndarray, modulus: np.ndarray) -> np.ndarray:
    """Mark where ``cur`` is behind ``prev`` (a decrease that is not a rollover).

    Both values lie in ``[0, modulus)``, so ``(cur - prev) mod modulus`` is
    ``d`` or ``d + modulus`` for ``d = cur - prev``. NaN on either side is
    never behind.
    """
    d = cur - prev
    half = modulus / 2
    with np.errstate(invalid="ignore"):
        return (d >= half) | ((d < 0) & (d >= -half))


def _out_of_sequence(
    values, mcode, modulus, reported, meters, order, qcode, qreason, times=None
) -> np.ndarray:
    """Quarantine dips and spikes, pass after pass, until none is left."""
    key = _sequence_meter(reported, meters)
    while len(order) > 2:
        flag, on_key, culprit = dips_and_spikes(values, order, mcode, modulus, key, times)
        if not flag.any():
            break
        rows = order[flag]
        qcode[rows] = np.where(on_key[flag], Code.OUT_OF_ORDER.value, Code.MALFORMED_ROW.value)
        qreason[rows] = [
            (
                "read_at out of sequence with the machine's other readings "
                f"({meters[j]} does not fit between its neighbours)"
            )
            if k
            else f"impossible value: {meters[j]} out of sequence with its neighbours"
            for k, j in zip(on_key[flag], culprit[flag], strict=False)
        ]
        order = order[~flag]
    return order


def _sequence_meter(reported: np.ndarray, meters: list[str]) -> np.ndarray:
    """Per machine, the column of its sequence meter (-1 when it has none)."""
    key = np.full(reported.shape[0], -1, dtype=np.int64)
    for name in reversed(SEQUENCE_METERS):
        if name in meters:
            j = meters.index(name)
            key = np.where(reported[:, j], j, key)
    return key


def dips_and_spikes(values, order, mcode, modulus, key, times=None):
    """One pass of the out-of-sequence rule over the sorted rows ``order``.

    Parameters
    ----------
    values : numpy.ndarray
        (rows, meters) float64 readings.
    order : numpy.ndarray
        Kept rows, sorted by machine and time.
    mcode : numpy.ndarray
        Machine code of every row.
    modulus : numpy.ndarray
        Meter modulus per machine code.
    key : numpy.ndarray
        Sequence-meter column per machine code (-1 for none).
    times : numpy.ndarray, optional
        ``read_at`` (int64 ns) of every row; decides a spike followed by a
        dip on the sequence meter (the row stamped farther from where its
        meter places it is out of order). Without it the dip is.

    Returns
    -------
    tuple of numpy.ndarray
        Per position of ``order``: out of sequence, shown by the sequence
        meter, culprit meter column.

    """
    n = len(order)
    flag, on_key = np.zeros(n, dtype=bool), np.zeros(n, dtype=bool)
    culprit = np.zeros(n, dtype=np.int64)
    _kernels.out_of_sequence(
        np.ascontiguousarray(values, dtype=np.float64),
        order.astype(np.int64),
        mcode.astype(np.int64),
        modulus.astype(np.float64),
        key.astype(np.int64),
        flag,
        on_key,
        culprit,
        np.zeros(len(values), np.int64) if times is None else np.asarray(times, np.int64),
    )
    return flag, on_key, culprit


def dips_and_spikes_numpy(values, order, mcode, modulus, key, times=None):
    """NumPy twin of :func:`dips_and_spikes` (the rule in whole-array form)."""
    v, m = values[order], mcode[order]
    mod = modulus[m][:, None]
    n = len(v)
    has_prev = np.zeros(n, dtype=bool)
    has_prev[1:] = m[1:] == m[:-1]
    has_next = np.zeros(n, dtype=bool)
    has_next[:-1] = has_prev[1:]
    back = np.zeros(v.shape, dtype=bool)
    back[1:] = behind(v[:-1], v[1:], mod[1:]) & has_prev[1:, None]
    ahead2 = np.zeros(v.shape, dtype=bool)  # next is not behind prev
    ahead2[1:-1] = ~behind(v[:-2], v[2:], mod[1:-1])
    both = (has_prev & has_next)[:, None] & ahead2
    dip = back & both
    spike = np.zeros(v.shape, dtype=bool)
    spike[:-1] = both[:-1] & back[1:] & ~back[:-1] & ~dip[1:]
    k = key[m]
    # a tie on the sequence meter (spike at i, dip at i + 1): the row stamped farther from where
    # its meter places it loses, on every meter of the pair
    tie = np.zeros(n, dtype=bool)
    kk = np.maximum(k, 0)
    rows = np.arange(n)
    tie[:-1] = (
        (k[:-1] >= 0)
        & both[rows[:-1], kk[:-1]]
        & back[rows[1:], kk[:-1]]
        & ~back[rows[:-1], kk[:-1]]
        & dip[rows[1:], kk[:-1]]
    )
    at = np.flatnonzero(tie)
    if len(at):
        t = np.zeros(len(values), np.int64) if times is None else np.asarray(times, np.int64)
        t = t[order].astype(np.float64)
        j = kk[at]
        a, d = at - 1, at + 2
        span = np.mod(v[d, j] - v[a, j], mod[at, 0])
        errs = []
        for x in (at, at + 1):
            step = np.mod(v[x, j] - v[a, j], mod[at, 0])
            with np.errstate(invalid="ignore", divide="ignore"):
                place = t[a] + step / span * (t[d] - t[a])
            errs.append(np.where(span > 0, np.abs(t[x] - place), 0.0))
        lose = at[errs[0] > errs[1]]
        spike[lose] |= both[lose] & back[lose + 1] & ~back[lose] & dip[lose + 1]
        dip[lose + 1] = False
    bad = dip | spike
    flag = bad.any(axis=1)
    on_key = np.where(k >= 0, bad[np.arange(n), np.maximum(k, 0)], False)
    culprit = np.where(on_key, np.maximum(k, 0), bad.argmax(axis=1))
    return flag, on_key, culprit


def deltas(values, order, mcode, modulus):
    """Interval deltas of consecutive same-machine rows of ``order``.

    Returns
    -------
    tuple of numpy.ndarray
        ``pair`` (positions in ``order`` closing an interval), ``delta``
        (modular; NaN when missing or on a reset), ``reset``, ``rolled``.

    """
    m = mcode[order]
    pair = np.flatnonzero(m[1:] == m[:-1]) + 1 if len(order) > 1 else np.zeros(0, np.int64)
    k = values.shape[1]
    delta = np.empty((len(pair), k))
    reset = np.zeros(len(pair), dtype=bool)
    rolled = np.zeros((len(pair), k), dtype=bool)
    _kernels.interval_deltas(
        np.ascontiguousarray(values, dtype=np.float64),
        order.astype(np.int64),
        mcode.astype(np.int64),
        modulus.astype(np.float64),
        pair.astype(np.int64),
        delta,
        reset,
        rolled,
    )
    return pair, delta, reset, rolled


def deltas_numpy(values, order, mcode, modulus):
    """NumPy twin of :func:`deltas`."""
    m = mcode[order]
    pair = np.flatnonzero(m[1:] == m[:-1]) + 1 if len(order) > 1 else np.zeros(0, np.int64)
    mod = modulus[m[pair]][:, None]
    prev, cur = values[order[pair - 1]], values[order[pair]]
    reset = behind(prev, cur, mod).any(axis=1)
    delta = cur - prev
    with np.errstate(invalid="ignore"):
        back = delta < 0
        rolled = back & ~reset[:, None]
    delta += np.where(back, mod, 0.0)
    delta[reset] = np.nan
    return pair, delta, reset, rolled


@dataclass
class Intervals:
    """Reading intervals: key columns in a DataFrame, meter deltas in one matrix."""

    keys: pd.DataFrame
    delta: np.ndarray
    meters: list[str]
    rolled: np.ndarray

    def __len__(self) -> int:
        return len(self.keys)

    def rolled_meters(self, at: np.ndarray) -> list[str]:
        """Name the meters that rolled over in intervals ``at`` (``;``-joined)."""
        return [";".join(self.meters[j] for j in np.flatnonzero(self.rolled[i])) for i in at]

    @property
    def empty(self) -> bool:
        """No intervals."""
        return len(self.keys) == 0

    @property
    def columns(self) -> list[str]:
        """Key columns then meters."""
        return [*self.keys.columns, *self.meters]

    def __getitem__(self, name):
        """Return a key column, a meter's deltas, or the key rows of a mask."""
        if isinstance(name, str) and name in self.meters:
            return pd.Series(self.delta[:, self.meters.index(name)], copy=False, name=name)
        return self.keys[name]

    def set_meter(self, name: str, column: np.ndarray) -> None:
        """Add or replace the deltas of one meter."""
        if name in self.meters:
            self.delta[:, self.meters.index(name)] = column
        else:
            self.delta = np.column_stack([self.delta, column])
            self.meters = [*self.meters, name]

    def matrix(self, meters: list[str]) -> np.ndarray:
        """Deltas of ``meters`` as a (intervals, meters) array (no copy when all)."""
        if list(meters) == self.meters:
            return self.delta
        return self.delta[:, [self.meters.index(m) for m in meters]]


def intervals(df: Readings, scr: Screened) -> Intervals:
    """Deltas between consecutive kept readings of each machine.

    Returns
    -------
    Intervals
        One row per interval: ``mcode, start, end, row_start, row_end, reset``,
        ``rolled`` (some meter rolled over) and one delta column per meter (NaN
        where not reported or the interval is lost to a reset).

    """
    order = scr.order
    pair, delta, reset, rolled = deltas(scr.values, order, scr.mcode, scr.modulus)
    t = df["read_at"].to_numpy()
    keys = pd.DataFrame(
        {
            "mcode": scr.mcode[order[pair]],
            "start": t[order[pair - 1]],
            "end": t[order[pair]],
            "row_start": order[pair - 1],
            "row_end": order[pair],
            "reset": reset,
            "rolled": rolled.any(axis=1),
        }
    )
    return Intervals(keys, delta, list(scr.meters), rolled)
