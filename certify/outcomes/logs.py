"""Read outcome logs (CSV, JSON lines, Parquet) in pieces of bounded size (SPEC 10).

Each file is read in pieces of at most :data:`PIECE_ROWS` rows (Parquet: its
record batches; CSV: pyarrow's streaming reader; JSON lines: line by line), so
a log larger than memory is verified in bounded memory. Every piece comes back
as a :class:`Piece` of typed NumPy columns plus the rows that could not be read,
each with its file, its line (the file's own, 1-based, the CSV header included;
the record number for Parquet) and the reason.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from certify.errors import InputError
from certify.inputs import regular_file

PIECE_ROWS = 1 << 20
PHASES = ("base", "free", "bonus", "respin")
REQUIRED = ("game", "phase", "level", "win")
OPTIONAL = ("machine_id", "time", "choice", "step", "screen")
MAX_EXACT = 1 << 53  # integers read through floating point are exact below this


class Reasons:
    """Why rows of a piece are not verified: a flag per row, a text per flagged row.

    The first reason given for a row is kept.
    """

    def __init__(self, n: int):
        self.bad = np.zeros(n, dtype=bool)
        self.text: dict[int, str] = {}

    def set(self, mask: np.ndarray, reason: Any) -> None:
        """Flag the rows of ``mask`` not yet flagged; ``reason`` is a text or ``f(row) -> text``."""
        new = mask & ~self.bad
        if not new.any():
            return
        for i in np.flatnonzero(new):
            self.text[int(i)] = reason(int(i)) if callable(reason) else reason
        self.bad |= new

    def texts(self) -> list[str]:
        """The texts of the flagged rows, in row order."""
        return [self.text[int(i)] for i in np.flatnonzero(self.bad)]


@dataclass
class Quarantined:
    """Rows of one piece that were not verified: file, line, reason."""

    source: str
    lines: list[int] = field(default_factory=list)
    reasons: list[str] = field(default_factory=list)

    def add(self, lines: np.ndarray, reason: str | list[str]) -> None:
        """Quarantine ``lines`` with one reason each (or the same for all)."""
        self.lines.extend(int(x) for x in lines)
        self.reasons.extend([reason] * len(lines) if isinstance(reason, str) else reason)


@dataclass
class Piece:
    """Typed columns of the readable rows of a piece of one file, in log order."""

    source: str
    line: np.ndarray  # (n,) int64 the file's own line number
    machine: np.ndarray  # (n,) int64 machine id code (see LogReader.machines)
    game: np.ndarray
    phase: np.ndarray  # (n,) int8 index into PHASES
    step: np.ndarray  # (n,) int64, 0 without a step column
    screen: np.ndarray  # (n,) int64, -1 without a screen column
    level: np.ndarray
    stops: np.ndarray  # (n, reels) int64, -1 where empty (bonus and respin rows)
    win: np.ndarray
    choice: np.ndarray | None  # (n,) object, or None without a choice column
    quarantine: Quarantined
    rows_in: int
    last: bool = False  # the file's last piece

    def take(self, keep: np.ndarray) -> Piece:
        """The rows where ``keep`` is true (quarantine and counts unchanged)."""
        return Piece(
            self.source,
            self.line[keep],
            self.machine[keep],
            self.game[keep],
            self.phase[keep],
            self.step[keep],
            self.screen[keep],
            self.level[keep],
            self.stops[keep],
            self.win[keep],
            None if self.choice is None else self.choice[keep],
            self.quarantine,
            self.rows_in,
            self.last,
        )


def log_format(path: Path) -> str:
    """``csv``, ``jsonl`` or ``parquet`` from the file name."""
    name = path.name.lower()
    for suffix, kind in (
        (".parquet", "parquet"),
        (".pq", "parquet"),
        (".jsonl", "jsonl"),
        (".ndjson", "jsonl"),
        (".json", "jsonl"),
        (".csv", "csv"),
    ):
        if name.endswith(suffix):
            return kind
    raise InputError(f"{path}: unknown log format (expected .csv, .jsonl or .parquet)")


def check_header(path: Path, names: list[str], reels: int) -> None:
    """One clear line when the header lacks a column or has another reel count."""
    stop_cols = sorted(
        int(n[5:]) for n in names if n.startswith("stop_") and n[5:].isdigit() and int(n[5:]) > 0
    )
    missing = [n for n in REQUIRED if n not in names]
    if stop_cols and stop_cols != list(range(1, len(stop_cols) + 1)):
        raise InputError(f"{path}: stop columns {stop_cols} are not stop_1..stop_{len(stop_cols)}")
    if stop_cols and len(stop_cols) != reels:
        raise InputError(
            f"{path}: {len(stop_cols)} stop columns but the model has {reels} reels: "
            "a log of another model?"
        )
    missing += [f"stop_{r}" for r in range(1, reels + 1) if f"stop_{r}" not in names]
    if missing:
        raise InputError(f"{path}: the header lacks the column(s) {', '.join(missing)}")


def _columns(names: list[str], reels: int) -> list[str]:
    wanted = [*REQUIRED, *(f"stop_{r}" for r in range(1, reels + 1))]
    return wanted + [n for n in OPTIONAL if n in names]


class LogReader:
    """Pieces of every log file, with machine ids coded across files."""

    def __init__(self, reels: int, piece_rows: int = PIECE_ROWS):
        self.reels = reels
        self.piece_rows = piece_rows
        self.machines: dict[str, int] = {}

    def pieces(self, path: Path) -> Iterator[Piece]:
        """The pieces of one file, the last one flagged ``last``."""
        kind = log_format(path)
        regular_file(path, "log")  # a FIFO or a device is refused, never read
        raw = {"csv": self._csv, "jsonl": self._jsonl, "parquet": self._parquet}[kind](path)
        previous: Piece | None = None
        for table, lines, quarantine, rows_in in raw:
            piece = self._piece(str(path), table, lines, quarantine, rows_in)
            if previous is not None:
                yield previous
            previous = piece
        if previous is None:
            previous = self._piece(
                str(path), None, np.zeros(0, np.int64), Quarantined(str(path)), 0
            )
        previous.last = True
        yield previous

    # -- the three formats: (pyarrow table, line numbers, quarantined, rows in) per piece ----

    def _parquet(self, path: Path) -> Iterator[tuple]:
        import pyarrow.parquet as pq

        try:
            handle = pq.ParquetFile(path)
        except Exception as exc:  # noqa: BLE001 - pyarrow's errors are plain exceptions
            raise InputError(f"{path}: not a readable Parquet file ({exc})") from None
        names = handle.schema_arrow.names
        check_header(path, names, self.reels)
        first = 1
        for batch in handle.iter_batches(
            batch_size=self.piece_rows, columns=_columns(names, self.reels)
        ):
            n = batch.num_rows
            yield batch, np.arange(first, first + n, dtype=np.int64), Quarantined(str(path)), n
            first += n

    def _csv(self, path: Path) -> Iterator[tuple]:
        import csv

        import pyarrow as pa
        import pyarrow.csv as pcsv

        with open(path, encoding="utf-8", errors="replace", newline="") as fh:
            header = next(csv.reader([fh.readline().lstrip("\ufeff")]), [])
        names = [n.strip() for n in header]
        check_header(path, names, self.reels)
        bad: list[tuple[int, str]] = []

        def invalid(row: Any) -> str:
            bad.append(
                (
                    int(row.number or 0),
                    f"expected {row.expected_columns} fields, found {row.actual_columns}",
                )
            )
            return "skip"

        reader = pcsv.open_csv(
            path,
            read_options=pcsv.ReadOptions(use_threads=False, block_size=8 << 20),
            parse_options=pcsv.ParseOptions(invalid_row_handler=invalid, ignore_empty_lines=False),
            convert_options=pcsv.ConvertOptions(
                column_types={n: pa.string() for n in names},
                include_columns=_columns(names, self.reels),
                strings_can_be_null=True,
            ),
        )
        skipped = np.zeros(0, dtype=np.int64)
        valid = 0
        for batch in reader:
            quarantine = Quarantined(str(path))
            if bad:
                skipped = np.union1d(skipped, [b[0] for b in bad])
                quarantine.add(np.array([b[0] for b in bad]), [b[1] for b in bad])
            lines = _valid_lines(valid, batch.num_rows, skipped)
            valid += batch.num_rows
            yield batch, lines, quarantine, batch.num_rows + len(bad)
            bad.clear()
        if bad:
            quarantine = Quarantined(str(path))
            quarantine.add(np.array([b[0] for b in bad]), [b[1] for b in bad])
            yield None, np.zeros(0, dtype=np.int64), quarantine, len(bad)

    def _jsonl(self, path: Path) -> Iterator[tuple]:
        import pyarrow as pa

        wanted: list[str] | None = None
        with open(path, encoding="utf-8", errors="replace") as fh:
            rows: list[dict] = []
            lines: list[int] = []
            quarantine = Quarantined(str(path))
            count = 0
            for number, text in enumerate(fh, start=1):
                if not text.strip():
                    continue
                count += 1
                try:
                    record = json.loads(text)
                except ValueError:
                    record = None
                if not isinstance(record, dict):
                    quarantine.add(np.array([number]), "not a JSON object")
                else:
                    if wanted is None:
                        check_header(path, list(record), self.reels)
                        wanted = _columns(list(record), self.reels)
                    rows.append(record)
                    lines.append(number)
                if len(rows) >= self.piece_rows:
                    yield (
                        _json_table(pa, rows, wanted or []),
                        np.array(lines, np.int64),
                        quarantine,
                        count,
                    )
                    rows, lines, quarantine, count = [], [], Quarantined(str(path)), 0
            if wanted is None and rows == [] and count == 0:
                raise InputError(f"{path}: no records")
            yield (
                _json_table(pa, rows, wanted or []) if rows else None,
                np.array(lines, np.int64),
                quarantine,
                count,
            )

    # -- typed columns -------------------------------------------------------------------------

    def _piece(
        self, source: str, table: Any, lines: np.ndarray, quarantine: Quarantined, rows_in: int
    ) -> Piece:
        n = 0 if table is None else table.num_rows
        if n == 0:
            empty = np.zeros(0, dtype=np.int64)
            return Piece(
                source,
                empty,
                empty,
                empty,
                empty.astype(np.int8),
                empty,
                empty,
                empty,
                np.zeros((0, self.reels), np.int64),
                empty,
                None,
                quarantine,
                rows_in,
            )
        names = table.schema.names
        reasons = Reasons(n)
        cols = {}
        for name in ("game", "level", "win"):
            cols[name] = _integers(table.column(name), name, reasons, required=True)
        for name, default in (("step", 0), ("screen", -1)):
            cols[name] = (
                _integers(table.column(name), name, reasons, required=False, default=default)
                if name in names
                else np.full(n, default, dtype=np.int64)
            )
        phase = _phases(table.column("phase"), reasons)
        stops = np.empty((n, self.reels), dtype=np.int64)
        for r in range(self.reels):
            stops[:, r] = _integers(
                table.column(f"stop_{r + 1}"), f"stop_{r + 1}", reasons, False, -1
            )
        reasons.set(
            (phase <= 1) & (stops < 0).any(axis=1), "a base or free screen needs every stop"
        )
        reasons.set(cols["win"] < 0, "win is negative")
        machine = self._machine_codes(
            table.column("machine_id") if "machine_id" in names else None, n
        )
        choice = None
        if "choice" in names:
            choice = np.array(table.column("choice").cast(_string_type()).to_pylist(), dtype=object)
        if reasons.bad.any():
            quarantine.add(lines[reasons.bad], reasons.texts())
        keep = ~reasons.bad
        return Piece(
            source,
            lines[keep],
            machine[keep],
            cols["game"][keep],
            phase[keep],
            cols["step"][keep],
            cols["screen"][keep],
            cols["level"][keep],
            stops[keep],
            cols["win"][keep],
            None if choice is None else choice[keep],
            quarantine,
            rows_in,
        )

    def _machine_codes(self, column: Any, n: int) -> np.ndarray:
        if column is None:
            return np.zeros(n, dtype=np.int64)
        import pyarrow.compute as pc

        encoded = pc.dictionary_encode(_array(column).cast(_string_type()))
        names = encoded.dictionary.to_pylist()
        codes = np.array(
            [self.machines.setdefault(str(x), len(self.machines)) for x in names] or [0]
        )
        idx = encoded.indices.fill_null(0).to_numpy(zero_copy_only=False).astype(np.int64)
        return codes[idx] if len(names) else np.zeros(n, dtype=np.int64)


def _array(column: Any) -> Any:
    """One pyarrow Array of a column (a record batch's, or a table's chunks combined)."""
    return column.combine_chunks() if hasattr(column, "combine_chunks") else column


def _string_type() -> Any:
    import pyarrow as pa

    return pa.string()


def _json_table(pa: Any, rows: list[dict], wanted: list[str]) -> Any:
    """A string table of the wanted columns of JSON records (values written as text)."""

    def text(v: Any) -> str | None:
        if v is None:
            return None
        if isinstance(v, bool):
            return "bool"  # not an integer: quarantined as such
        return v if isinstance(v, str) else json.dumps(v)

    return pa.table(
        {name: pa.array([text(r.get(name)) for r in rows], pa.string()) for name in wanted}
    )


def _valid_lines(first: int, n: int, skipped: np.ndarray) -> np.ndarray:
    """File lines of valid CSV rows ``first .. first + n - 1`` (header on line 1)."""
    lines = np.arange(first, first + n, dtype=np.int64) + 2
    if skipped.size == 0:
        return lines
    while True:
        moved = (
            np.arange(first, first + n, dtype=np.int64)
            + 2
            + np.searchsorted(skipped, lines, side="right")
        )
        if np.array_equal(moved, lines):
            return lines
        lines = moved


def _phases(column: Any, reasons: Reasons) -> np.ndarray:
    """Phase codes (index into PHASES); a row with another phase gets its reason."""
    import pyarrow as pa
    import pyarrow.compute as pc

    text = pc.utf8_trim_whitespace(_array(column).cast(pa.string()))
    codes = pc.index_in(text, value_set=pa.array(PHASES))
    bad = codes.is_null().to_numpy(zero_copy_only=False)
    out = codes.fill_null(0).to_numpy(zero_copy_only=False).astype(np.int8)
    if bad.any():
        values = text.to_numpy(zero_copy_only=False)
        reasons.set(bad, lambda i: f"phase {values[i]!r} is not one of {', '.join(PHASES)}")
    return out


def _integers(
    column: Any, name: str, reasons: Reasons, required: bool, default: int = 0
) -> np.ndarray:
    """Integers of a column; a missing (when required) or non-integer value gets its reason."""
    import pyarrow as pa
    import pyarrow.compute as pc

    col = _array(column)
    if pa.types.is_string(col.type) or pa.types.is_large_string(col.type):
        col = pc.utf8_trim_whitespace(col)
        try:
            col = pc.cast(col, pa.int64())
        except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
            return _integers_slow(col, name, reasons, required, default)
    if pa.types.is_floating(col.type) or pa.types.is_decimal(col.type):
        return _integers_slow(col, name, reasons, required, default)
    if not pa.types.is_integer(col.type):
        return _integers_slow(col.cast(pa.string()), name, reasons, required, default)
    if col.null_count == 0:
        return col.to_numpy(zero_copy_only=False).astype(np.int64, copy=False)
    null = col.is_null().to_numpy(zero_copy_only=False)
    values = col.fill_null(default).to_numpy(zero_copy_only=False).astype(np.int64)
    if required:
        reasons.set(null, f"{name} is empty")
    return values


def _integers_slow(
    col: Any, name: str, reasons: Reasons, required: bool, default: int
) -> np.ndarray:
    import pandas as pd

    raw = col.to_pandas()
    number = pd.to_numeric(raw, errors="coerce").to_numpy(dtype=np.float64)
    null = raw.isna().to_numpy()
    ok = np.isfinite(number) & (np.floor(number) == number) & (np.abs(number) < MAX_EXACT)
    reasons.set(~ok & ~null, lambda i: f"{name} {str(raw.iloc[i])[:40]!r} is not an integer")
    if required:
        reasons.set(null, f"{name} is empty")
    return np.where(ok, number, default).astype(np.int64)
