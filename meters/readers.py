"""Readers for meter dumps: CSV, Parquet and JSON lines, into one normalised frame.

A dump holds cumulative readings: ``machine_id``, ``read_at`` (ISO 8601 with a
UTC offset) and meters under canonical names or SAS codes (see
:mod:`meters.registry`). Every reader yields *normalised* frames:

==============  ==============================================================
``machine_id``  categorical, stripped text
``read_at``     int64 nanoseconds since the epoch, UTC (0 when unreadable)
<meter>         float64 per canonical meter present in the file (NaN = empty)
``_file``       the dump path as given
``_line``       CSV/JSONL: physical line (header = line 1); Parquet: row number
                from 1
``_bad``        why the row cannot be used ("" when it can)
==============  ==============================================================

Rows are validated column by column with vectorised operations; only the
original text of quarantined rows is fetched again at the end
(:func:`original_rows`).
"""

from __future__ import annotations

import csv
import io
import itertools
import json
import re
from collections.abc import Generator, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from certify.errors import InputError
from certify.inputs import regular_file
from meters import _kernels
from meters.frame import Readings
from meters.registry import KEY_COLUMNS, canonical

FORMATS = {
    ".csv": "csv",
    ".parquet": "parquet",
    ".pq": "parquet",
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
    ".json": "jsonl",
}
_EXTRA = 8
# a UTC offset after a time of day: "2026-01-01" alone ends in "-01", which is a day, not an offset
_OFFSET_RE = r"[Tt ]\d{2}(?::?\d{2}(?::?\d{2}(?:[.,]\d+)?)?)?\s*(?:[Zz]|[+-]\d{2}(?::?\d{2})?)$"
# readings outside these instants are bad time stamps (a clock reset to 1970, a typo of 2200)
EARLIEST = np.datetime64("2000-01-01T00:00:00", "ns").astype(np.int64)
LATEST = np.datetime64("2100-01-01T00:00:00", "ns").astype(np.int64)
PLAUSIBLE = "2000-01-01 .. 2100-01-01 UTC"
_WHOLE_RE = r"^\+?[0-9]+(?:\.0*)?$"
_NOT_UTF8 = "[\udc80-\udcff]"
# a JSON number value with a non-zero fraction or an exponent: a float would round it
_JSON_INEXACT = re.compile(
    r":\s*-?[0-9]+(?:\.[0-9]*[1-9][0-9]*|(?:\.[0-9]+)?[eE][+-]?[0-9]+)\s*[,}]"
)


def dump_format(path: str | Path) -> str:
    """Tell the format of a dump from its file name: ``csv``, ``parquet`` or ``jsonl``."""
    suffix = Path(path).suffix.lower()
    if suffix not in FORMATS:
        raise InputError(f"{path}: unknown dump format {suffix!r} (use .csv, .parquet or .jsonl)")
    return FORMATS[suffix]


def column_map(columns: list[str], file: str) -> dict[str, str]:
    """Map a dump's headers to canonical names; reject unknown or doubled meters.

    Parameters
    ----------
    columns : list of str
        Headers as they appear in the dump.
    file : str
        The dump, for messages.

    Returns
    -------
    dict
        Header -> canonical name (``machine_id`` and ``read_at`` included).

    """
    mapping: dict[str, str] = {}
    for col in columns:
        name = str(col).strip()
        target = name.lower() if name.lower() in KEY_COLUMNS else canonical(name)
        if target is None:
            raise InputError(
                f"{file}: column {name!r} is neither machine_id, read_at, a "
                "canonical meter name nor a known SAS meter code"
            )
        if target in mapping.values():
            raise InputError(f"{file}: meter {target!r} appears twice (column {name!r})")
        mapping[col] = target
    for key in KEY_COLUMNS:
        if key not in mapping.values():
            raise InputError(f"{file}: missing column {key!r}")
    if len(mapping) == len(KEY_COLUMNS):
        raise InputError(f"{file}: no meter column (only machine_id and read_at)")
    return mapping


def dump_meters(paths: list[str]) -> list[str]:
    """Canonical meters present in any of the dumps (header-only read)."""
    found: set[str] = set()
    for path in paths:
        found.update(
            v for v in column_map(_headers(path), str(path)).values() if v not in KEY_COLUMNS
        )
    return sorted(found)


def _headers(path: str | Path) -> list[str]:
    fmt = dump_format(path)
    regular_file(path, "meter dump")  # a FIFO or a device is refused, never read
    try:
        if fmt == "parquet":
            return list(pq.read_schema(path).names)
        # utf-8-sig: a byte-order mark (Excel's "CSV UTF-8") is not part of the first header
        with open(path, newline="", encoding="utf-8-sig", errors="replace") as handle:
            first = handle.readline()
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except (pa.ArrowInvalid, UnicodeDecodeError) as exc:
        raise InputError(f"{path}: cannot read: {exc}") from None
    if fmt == "csv":
        return next(csv.reader([first]), [])
    try:
        return list(json.loads(first)) if first.strip() else []
    except (json.JSONDecodeError, TypeError):
        raise InputError(f"{path}: line 1 is not a JSON object") from None


def read_dump(path: str | Path, meters: list[str] | None = None) -> Readings:
    """Read a whole dump into normalised readings (see module docstring)."""
    return Readings.concat(list(iter_dump(path, meters=meters)))


def iter_dump(
    path: str | Path, batch_rows: int = 1_000_000, meters: list[str] | None = None
) -> Generator[Readings, None, None]:
    """Yield normalised readings of at most ``batch_rows`` rows from one dump.

    Parameters
    ----------
    path : str or Path
        A ``.csv``, ``.parquet`` or ``.jsonl`` dump.
    batch_rows : int
        Rows per yielded frame.
    meters : list of str, optional
        Canonical meters every frame carries (NaN where the file lacks them),
        so frames of several files share one schema.

    """
    file = str(path)
    mapping = column_map(_headers(path), file)
    fmt = dump_format(path)
    if fmt == "parquet" and batch_rows >= _parquet_rows(file) > 0:
        yield _whole_parquet(file, mapping, meters)
        return
    readers = {"csv": _csv_batches, "parquet": _parquet_batches, "jsonl": _jsonl_batches}
    empty = True
    for frame, lines, bad in readers[fmt](file, mapping, batch_rows):
        empty = False
        yield normalise(frame, mapping, file, lines, bad, meters)
    if empty:
        yield normalise(
            {c: pd.Series([], dtype=object) for c in mapping},
            mapping,
            file,
            np.zeros(0, np.int64),
            np.zeros(0, object),
            meters,
        )


def _parquet_rows(file: str) -> int:
    try:
        return pq.ParquetFile(file).metadata.num_rows
    except (pa.ArrowInvalid, OSError) as exc:
        raise InputError(f"{file}: not a readable Parquet dump: {exc}") from None


def _whole_parquet(
    file: str, mapping: dict[str, str], meters: list[str] | None, batch_rows: int = 1_000_000
) -> Readings:
    """Read a whole Parquet dump batch by batch into one preallocated meter matrix.

    Only one batch of Arrow data is alive at a time, and the batches need no
    re-assembly afterwards.
    """
    names = meters if meters is not None else [v for v in mapping.values() if v not in KEY_COLUMNS]
    values = np.empty((_parquet_rows(file), len(names)))
    keys, offset = [], 0
    for frame, lines, bad in _parquet_batches(file, mapping, batch_rows):
        part = normalise(
            frame, mapping, file, lines, bad, names, out=values[offset : offset + len(lines)]
        )
        keys.append(part.keys)
        offset += len(lines)
    return Readings(Readings.concat_keys(keys), values, list(names))


def _csv_batches(file: str, mapping: dict[str, str], batch_rows: int):
    """Yield (raw text columns, lines, reasons) of a CSV dump, chunk by chunk.

    The fast C parser reads the dump until a row it cannot take: more fields
    than it allows for, or a byte that is not UTF-8. From that chunk on the
    careful reader takes over (Python parser, undecodable bytes kept as
    surrogates): such a row is marked bad and the rows around it are read
    as usual, so one broken row never refuses the whole dump.
    """
    headers = list(mapping)
    names = headers + [f"_extra{i}" for i in range(_EXTRA)]
    size = min(batch_rows, 1 << 30)
    start = 2
    try:
        for chunk in _csv_chunks(file, names, size, 1, careful=False):
            yield _csv_rows(chunk, headers, names, start, careful=False)
            start += len(chunk)
        return
    except (pd.errors.ParserError, UnicodeDecodeError):
        pass  # carry on with the careful reader from the chunk that failed
    try:
        for chunk in _csv_chunks(file, names, size, start - 1, careful=True):
            yield _csv_rows(chunk, headers, names, start, careful=True)
            start += len(chunk)
    except (pd.errors.ParserError, UnicodeDecodeError, csv.Error) as exc:
        raise InputError(f"{file}: not a readable CSV dump: {' '.join(str(exc).split())}") from None


def _csv_chunks(file: str, names: list[str], size: int, skip: int, careful: bool):
    """Chunks of raw text fields; ``careful``: the Python parser, bad rows kept and marked."""
    options: dict = {"engine": "c", "encoding": "utf-8", "dtype": str}
    if careful:
        width = len(names)
        options = {
            "engine": "python",
            "dtype": object,  # Arrow strings cannot hold the surrogates of undecodable bytes
            "encoding": "utf-8",
            "encoding_errors": "surrogateescape",
            # a row wider than the extra columns: its last field says so ("too many fields")
            "on_bad_lines": lambda row: [*row[: width - 1], "(more fields)"],
        }
    return pd.read_csv(
        file,
        header=None,
        skiprows=skip,
        names=names,
        keep_default_na=False,
        skip_blank_lines=False,
        chunksize=size,
        **options,
    )


def _csv_rows(chunk: pd.DataFrame, headers: list[str], names: list[str], start: int, careful: bool):
    lines = np.arange(start, start + len(chunk), dtype=np.int64)
    if careful:  # the Python parser leaves the fields a short row lacks as NaN
        chunk = chunk.fillna("")
    blank = (chunk == "").all(axis=1).to_numpy()
    extra = (chunk[names[len(headers) :]] != "").any(axis=1).to_numpy()
    bad = np.where(extra, "too many fields", "").astype(object)
    values = chunk[headers]
    if careful:
        values = values.copy()
        undecodable = np.zeros(len(chunk), dtype=bool)
        for col in headers:
            hit = values[col].str.contains(_NOT_UTF8, regex=True).to_numpy()
            if hit.any():
                undecodable |= hit
                values[col] = values[col].str.replace(_NOT_UTF8, "\ufffd", regex=True)
        _set(bad, undecodable, "the row is not UTF-8 text (a byte that is not UTF-8)")
    keep = ~blank
    return values[keep].reset_index(drop=True), lines[keep], bad[keep]


def _parquet_batches(file: str, mapping: dict[str, str], batch_rows: int):
    try:
        handle = pq.ParquetFile(
            file, read_dictionary=[c for c in mapping if mapping[c] == "machine_id"]
        )
        start = 1
        size = max(1, min(batch_rows, handle.metadata.num_rows))
        groups = [handle.metadata.row_group(i).num_rows for i in range(handle.num_row_groups)]
        # whole row groups when they fit: less Arrow memory and CPU than sliced batches
        batches = (
            (handle.read_row_group(i) for i in range(len(groups)))
            if max(groups, default=0) <= batch_rows
            else handle.iter_batches(batch_size=size)
        )
        for batch in prefetched(batches):
            frame = {name: _arrow_column(batch.column(name)) for name in batch.schema.names}
            lines = np.arange(start, start + batch.num_rows, dtype=np.int64)
            start += batch.num_rows
            yield frame, lines, np.full(batch.num_rows, "", dtype=object)
    except (pa.ArrowInvalid, OSError) as exc:
        raise InputError(f"{file}: not a readable Parquet dump: {exc}") from None


_END = object()


def prefetched(items: Iterator) -> Iterator:
    """Yield the items of an iterator while a worker thread produces the next one.

    Parquet decoding releases the GIL, so the next row group is decoded on
    the other core while the caller converts and reconciles this one (one
    item ahead: one more batch of Arrow data alive). Exceptions surface here.
    """
    with ThreadPoolExecutor(1, thread_name_prefix="meters-read") as pool:
        ahead = pool.submit(next, items, _END)
        while True:
            item = ahead.result()
            if item is _END:
                return
            ahead = pool.submit(next, items, _END)
            yield item


def _arrow_column(col: pa.Array | pa.ChunkedArray):
    """Convert an Arrow column to NumPy / pandas without ``to_pandas``.

    Numbers become int64 or float64 (NaN for nulls), times a
    ``datetime64[ns, UTC]`` series, text a categorical.
    """
    kind = col.type
    numeric = pa.types.is_integer(kind) or pa.types.is_floating(kind)
    if isinstance(col, pa.ChunkedArray):
        if numeric and col.num_chunks > 1:  # keep the row groups: no concatenation copy
            return Chunks(_arrow_column(c) for c in col.chunks)
        col = col.chunk(0) if col.num_chunks == 1 else col.combine_chunks()
    if pa.types.is_dictionary(kind) or pa.types.is_string(kind) or pa.types.is_large_string(kind):
        enc = col if pa.types.is_dictionary(kind) else pc.dictionary_encode(col)
        codes = enc.indices.fill_null(-1).to_numpy(zero_copy_only=False).astype(np.int64)
        cats = pd.Index(enc.dictionary.to_pylist(), dtype=object)
        ids = (
            pd.Categorical.from_codes(codes, cats.astype(str))
            if cats.is_unique
            else pd.Categorical(np.where(codes >= 0, cats.to_numpy()[codes], None))
        )
        return pd.Series(ids, copy=False)
    if pa.types.is_timestamp(kind):
        try:
            ns = col.cast(pa.timestamp("ns", tz=kind.tz)).cast(pa.int64())
        except pa.ArrowInvalid:  # an instant beyond the ns range (year 9999): as text, UTC
            utc = col.cast(pa.timestamp(kind.unit, "UTC"))
            return pd.Series(pc.strftime(utc, format="%Y-%m-%dT%H:%M:%SZ").to_pylist())
        values = ns.fill_null(np.iinfo(np.int64).min).to_numpy(zero_copy_only=False)
        return pd.Series(values.view("M8[ns]")).dt.tz_localize("UTC")
    if numeric:
        if col.null_count or not (pa.types.is_int64(kind) or pa.types.is_float64(kind)):
            # unsafe: a uint64 beyond 2**53 becomes a float too wide for any meter (that row
            # is then malformed), not a refusal of the whole dump
            col = col.cast(pa.float64(), safe=False)
        return col.to_numpy(zero_copy_only=False)
    return col.to_pandas()


def _jsonl_batches(file: str, mapping: dict[str, str], batch_rows: int):
    # undecodable bytes are kept as surrogates: that line is marked bad, not the whole dump
    with open(file, encoding="utf-8", errors="surrogateescape") as handle:
        start = 1
        while True:
            text = list(itertools.islice(handle, min(batch_rows, 1 << 30)))
            if not text:
                return
            lines = np.arange(start, start + len(text), dtype=np.int64)
            start += len(text)
            yield _jsonl_chunk(text, lines, list(mapping))


def _jsonl_chunk(text: list[str], lines: np.ndarray, headers: list[str]):
    """Parse a chunk of JSON lines; a bad line is kept as a row marked bad."""
    blank = np.array([not t.strip() for t in text])
    try:
        body = "".join(t for t, b in zip(text, blank, strict=True) if not b)
        if re.search(_NOT_UTF8, body):
            raise ValueError("a byte that is not UTF-8")
        if _JSON_INEXACT.search(body):
            raise ValueError("a number a float would round: read it as written")
        frame = pd.read_json(io.StringIO(body), lines=True, dtype=False, convert_axes=False)
        bad = np.full(len(frame), "", dtype=object)
        if any(c not in headers for c in frame.columns) or len(frame) != len(text) - blank.sum():
            raise ValueError("unexpected key")
    except (ValueError, TypeError):
        records, reasons = [], []
        # slow path, for a chunk holding a bad line only
        for t in (t for t, b in zip(text, blank, strict=True) if not b):
            rec, why = _json_record(t, headers)
            records.append(rec)
            reasons.append(why)
        frame = pd.DataFrame.from_records(records, columns=headers)
        bad = np.array(reasons, dtype=object)
    frame = frame.reindex(columns=headers)
    return frame, lines[~blank], bad


def _json_record(text: str, headers: list[str]) -> tuple[dict, str]:
    """One JSON line as a record of the dump's keys, or ``{}`` and why not."""
    if re.search(_NOT_UTF8, text):
        return {}, "the line is not UTF-8 text (a byte that is not UTF-8)"
    try:
        # numbers with a fraction stay text, judged as written ("12345.0000000000000001")
        rec = json.loads(text, parse_float=str)
    except (ValueError, RecursionError):
        return {}, "not a JSON object (not valid JSON)"
    if not isinstance(rec, dict):
        return {}, f"not a JSON object (a JSON {type(rec).__name__ if rec is not None else 'null'})"
    unknown = [k for k in rec if k not in headers]
    if unknown:
        return {}, f"not a JSON object with the dump's keys (unknown key {unknown[0]!r})"
    return rec, ""


def normalise(
    frame,
    mapping: dict[str, str],
    file: str,
    lines: np.ndarray,
    bad: np.ndarray,
    meters: list[str] | None = None,
    out: np.ndarray | None = None,
) -> Readings:
    """Turn raw columns into normalised readings, marking unusable rows.

    Parameters
    ----------
    frame : pandas.DataFrame or dict
        Raw columns as read (text or typed), by header.
    mapping : dict
        Header -> canonical name, from :func:`column_map`.
    file : str
        Source file, stored in ``_file``.
    lines : numpy.ndarray
        Source line (or Parquet row number) of each row.
    bad : numpy.ndarray
        Reasons already known (e.g. "too many fields"), ``""`` otherwise.
    meters : list of str, optional
        Canonical meters to carry (default: those of this file).
    out : numpy.ndarray, optional
        (rows, meters) array to write the meter values into.

    """
    cols = {mapping[k]: frame[k] for k in mapping if k in frame}
    n = len(lines)
    reason = np.asarray(bad, dtype=object).copy()
    names = meters if meters is not None else [c for c in cols if c not in KEY_COLUMNS]
    keys = pd.DataFrame(
        {"machine_id": _machine_ids(pd.Series(cols["machine_id"], copy=False), reason)}
    )
    keys["read_at"] = _timestamps(pd.Series(cols["read_at"], copy=False), reason)
    sources = [_meter_numbers(cols[m], m, reason) if m in cols else None for m in names]
    values, wrongs = _fill_values(sources, n, out)
    for meter, src, wrong in zip(names, sources, wrongs, strict=False):
        if wrong is not None and wrong.any():
            flat = np.concatenate(src) if isinstance(src, Chunks) else src
            _set(
                reason,
                wrong,
                meter + "={!r} is not a whole non-negative number",
                pd.Series(flat, copy=False),
            )
    keys["_file"] = pd.Categorical.from_codes(np.zeros(n, np.int8), [file])
    keys["_line"] = np.asarray(lines, dtype=np.int64)
    keys["_bad"] = pd.Series(reason, dtype=object, copy=False)
    return Readings(keys, values, list(names))


def _set(reason: np.ndarray, mask: np.ndarray, text: str, values: pd.Series | None = None) -> None:
    """Record ``text`` (formatted with the row's value) for rows in ``mask`` without one."""
    if not mask.any():
        return
    target = mask & (reason == "")
    if values is None:
        reason[target] = text
    else:
        reason[target] = [text.format(v) for v in values[target].tolist()]


def _machine_ids(values: pd.Series, reason: np.ndarray) -> pd.Categorical:
    missing = values.isna().to_numpy()
    if isinstance(values.dtype, pd.CategoricalDtype):
        cats = pd.Index(values.cat.categories.astype(str)).str.strip()
        codes = values.cat.codes.to_numpy()
        if cats.is_unique:
            ids = pd.Categorical.from_codes(codes, cats)
        else:
            ids = pd.Categorical(np.where(missing, "", np.asarray(cats, dtype=object)[codes]))
    else:
        text = values.astype(object).where(~missing, "").astype(str).str.strip()
        ids = pd.Categorical(text.to_numpy(dtype=object))
    empty = missing | (ids.codes < 0)
    if "" in ids.categories:
        empty |= ids.codes == ids.categories.get_loc("")
    _set(reason, empty, "machine_id is empty")
    return ids


def _timestamps(values: pd.Series, reason: np.ndarray, name: str = "read_at") -> np.ndarray:
    """``read_at`` as int64 UTC nanoseconds (0 where unusable, with the reason).

    Text must be ISO 8601 with a UTC offset; every instant must lie in
    ``EARLIEST .. LATEST`` (a bad time stamp otherwise: quarantined, never
    an internal overflow, a reset or a time gap).
    """
    if pd.api.types.is_datetime64_any_dtype(values.dtype):
        ts = values if getattr(values.dtype, "tz", None) else values.dt.tz_localize("UTC")
        # instants are stored as UTC nanoseconds: no per-row conversion needed
        ns = ts.astype("datetime64[ns, UTC]").array.asi8.copy()
        ok = ns != np.iinfo(np.int64).min
        _set(reason, ~ok, name + " is empty")
        text = None
    else:
        text = values.astype(object).where(values.notna(), "").astype(str).str.strip()
        ts = pd.to_datetime(text, utc=True, format="ISO8601", errors="coerce")
        ok = ts.notna().to_numpy()
        _set(reason, ~ok, name + "={!r} is not an ISO 8601 time", text)
        offset = text.str.contains(_OFFSET_RE, regex=True).to_numpy()
        _set(reason, ok & ~offset, name + "={!r} has no UTC offset", text)
        # the parsed unit may be coarser than ns (year 9999 does not fit in ns): compare first
        unit = getattr(ts.dtype, "unit", "ns")
        raw = ts.array.asi8.copy()
        scale = {"s": 10**9, "ms": 10**6, "us": 10**3}.get(str(unit), 1)
        lo, hi = -(-EARLIEST // scale), LATEST // scale
        inside = ok & (raw >= lo) & (raw < hi)
        ns = np.where(inside, raw, 0) * scale
    inside = ok & (ns >= EARLIEST) & (ns < LATEST)
    shown = text if text is not None else pd.Series(ns.view("M8[ns]")).astype(str)
    _set(
        reason,
        ok & ~inside,
        name + "={!r} is a bad time stamp (outside " + PLAUSIBLE + ")",
        shown,
    )
    ns[~inside] = 0
    return ns


class Chunks(list):
    """A numeric column kept as the NumPy arrays of its Arrow chunks."""


def _meter_numbers(raw, meter: str, reason: np.ndarray):
    """Return a meter column as numbers (NaN where empty), parsing text."""
    if isinstance(raw, Chunks) or (isinstance(raw, np.ndarray) and raw.dtype.kind in "iuf"):
        return raw
    values = pd.Series(raw, copy=False)
    if pd.api.types.is_numeric_dtype(values.dtype) and not pd.api.types.is_bool_dtype(values.dtype):
        return values.to_numpy(dtype=float, na_value=np.nan)
    text = values.astype(object).where(values.notna(), "").astype(str).str.strip()
    num = pd.to_numeric(text, errors="coerce").to_numpy(dtype=float, copy=True)
    given = text.to_numpy() != ""
    garbage = np.isnan(num) & given
    _set(reason, garbage, meter + "={!r} is not a number", text)
    # a number is whole only as written: "12345.0000000000000001" parses to 12345.0, "1e3"
    # is a spreadsheet's rewriting; meters are written in decimal digits (".0" allowed)
    whole = pc.match_substring_regex(pa.array(text, from_pandas=True), _WHOLE_RE)
    written = np.asarray(whole.to_numpy(zero_copy_only=False), dtype=bool)
    inexact = given & ~garbage & ~written
    _set(reason, inexact, meter + "={!r} is not a whole non-negative number", text)
    num[inexact] = np.nan
    return num


def _fill_values(
    sources: list, n: int, out: np.ndarray | None = None, block: int = 8192
) -> tuple[np.ndarray, list]:
    """Build the (rows, meters) matrix of the columns, block of rows by block.

    Each block of rows is first copied column by column into a small
    (meters, rows) buffer (contiguous, converting to float), then one kernel
    transposes it into the matrix: every write and read is sequential and
    the buffer stays in cache. Impossible values become NaN; the second
    result has one mask of them per column (None for absent columns).
    """
    values = np.empty((n, len(sources))) if out is None else out
    wrong = np.zeros((len(sources), n), dtype=bool)
    pieces = [None if s is None else list(s) if isinstance(s, Chunks) else [s] for s in sources]
    offsets = [None if p is None else np.cumsum([0] + [len(a) for a in p]) for p in pieces]
    buf = np.full((len(sources), min(block, n)), np.nan)
    for start in range(0, n, block):
        stop = min(start + block, n)
        for j, (arrays, offs) in enumerate(zip(pieces, offsets, strict=True)):
            if arrays is None or offs is None:
                continue
            c, pos = int(np.searchsorted(offs, start, "right")) - 1, start
            while pos < stop:
                end = min(stop, int(offs[c + 1]))
                buf[j, pos - start : end - start] = arrays[c][pos - offs[c] : end - offs[c]]
                pos, c = end, c + 1
        _kernels.fill_rows(buf[:, : stop - start], values[start:stop], wrong[:, start:stop])
    return values, [None if p is None else wrong[j] for j, p in enumerate(pieces)]


def original_rows(path: str, lines: np.ndarray) -> dict[int, str]:
    """Fetch the original text of some rows of a dump (Parquet: the row as JSON).

    Parameters
    ----------
    path : str
        The dump.
    lines : numpy.ndarray
        Line numbers (Parquet: row numbers from 1) as stored in ``_line``.

    """
    wanted = set(int(x) for x in lines)
    if not wanted:
        return {}
    if dump_format(path) == "parquet":
        return _parquet_originals(path, np.array(sorted(wanted), dtype=np.int64))
    found: dict[int, str] = {}
    last = max(wanted)
    with open(path, encoding="utf-8", errors="replace", newline="") as handle:
        for number, text in enumerate(handle, start=1):
            if number in wanted:
                found[number] = text.rstrip("\r\n")
            if number >= last:
                break
    return found


def _parquet_originals(path: str, numbers: np.ndarray) -> dict[int, str]:
    """Rows ``numbers`` (from 1, sorted) of a Parquet dump as JSON, reading only their row groups.

    A quarantine names a few rows of a dump that may not fit in memory: each
    row group holding one of them is decoded alone and the rows taken from
    it, so memory holds one row group, not the dump.
    """
    handle = pq.ParquetFile(path)
    sizes = [handle.metadata.row_group(g).num_rows for g in range(handle.num_row_groups)]
    first = np.cumsum([0, *sizes])  # first row (from 0) of each row group, then the row count
    numbers = numbers[(numbers >= 1) & (numbers <= first[-1])]
    group = np.searchsorted(first, numbers - 1, "right") - 1
    found: dict[int, str] = {}
    for g in np.unique(group):
        mine = numbers[group == g]
        rows = handle.read_row_group(int(g)).take(pa.array(mine - 1 - first[g])).to_pylist()
        found.update((int(n), json.dumps(r, default=str)) for n, r in zip(mine, rows, strict=True))
    return found
