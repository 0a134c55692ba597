"""The floor file (which machine runs which certified model) and soft-count files.

Floor file columns (CSV, header required)::

    machine_id, model, bet_level, denomination, jackpot_pools, theoretical_rtp, sigma

plus an optional ``digits`` column (meter width of that machine). ``model``
names a machine model file (resolved against the floor file's folder, then the
working directory); its return and sigma per unit bet then come from
``certify.exact.theory``. For machines certified elsewhere ``model`` is empty
and ``theoretical_rtp``/``sigma`` come from the PAR sheet. ``jackpot_pools``
lists ``pool_id=rate`` entries separated by ``;`` or ``|`` (``pool_id`` alone
takes the rate of the model's jackpot with that id).

One reader, :func:`read_floor`, turns the file into typed :class:`FloorRow`
records with every check of the file (located errors); the reconciler's frame
(:func:`load_floor`) and the jackpot ledger (:func:`meters.ledger.load_book`)
are both built from it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.csv as pacsv

from certify.errors import EngineError, InputError
from certify.inputs import regular_file

if TYPE_CHECKING:
    from certify.model.schema import Jackpot, Machine

FLOOR_COLUMNS = (
    "machine_id",
    "model",
    "bet_level",
    "denomination",
    "jackpot_pools",
    "theoretical_rtp",
    "sigma",
)
COUNT_COLUMNS = ("machine_id", "period_start", "period_end", "amount")
MIN_DIGITS, MAX_DIGITS = 4, 15
MAX_PROBLEMS = 5  # problems named in one error message
MAX_DENOMINATION = Decimal(10) ** 9  # money per credit; above it is a typo, not a machine
MAX_MAGNITUDE = 15  # digits before the point of any number in a floor row

T = TypeVar("T")


@dataclass(frozen=True)
class PoolEntry:
    """One ``jackpot_pools`` entry of a floor row: a pool id and its rate as written.

    ``rate`` is None when the entry names the pool alone: the rate then comes
    from the model's jackpot of that id (:meth:`FloorRow.pool_rate`).
    """

    id: str
    rate: Decimal | None


@dataclass(frozen=True)
class FloorRow:
    """One validated row of a floor file.

    Attributes
    ----------
    line : int
        Line of the row in the file (the header is line 1).
    machine_id : str
        The machine.
    model_ref : str
        The ``model`` cell as written ("" for a machine certified elsewhere).
    model : Machine or None
        The loaded model file, None when ``model_ref`` is empty.
    bet_level : int or None
        The bet level (a level of ``model`` when there is one).
    denomination : Decimal
        Money per credit, positive.
    theoretical_rtp, sigma : Decimal or None
        The PAR sheet's figures as written.
    pools : tuple of PoolEntry
        The ``jackpot_pools`` entries in file order.
    digits : int
        Meter width of the machine (the file's, else the default).
    currency : str
        ISO 4217 code of the money (the ``currency`` column, else the
        model's; "" when neither gives one).

    """

    line: int
    machine_id: str
    model_ref: str
    model: Machine | None
    bet_level: int | None
    denomination: Decimal
    theoretical_rtp: Decimal | None
    sigma: Decimal | None
    pools: tuple[PoolEntry, ...]
    digits: int
    currency: str = ""

    def jackpot(self, pool_id: str) -> Jackpot | None:
        """The model's jackpot with id ``pool_id`` (None without model or jackpot)."""
        if self.model is None:
            return None
        return next((j for j in self.model.jackpots if j.id == pool_id), None)

    def pool_rate(self, entry: PoolEntry, reserve: bool = False) -> Decimal:
        """Rate of one pool entry: as written, else the model jackpot's contribution.

        ``reserve`` adds the jackpot's hidden ``reserve_rate`` to a rate taken
        from the model (the jackpot ledger's share of ``progressive_contrib``).
        """
        if entry.rate is not None:
            return entry.rate
        jp = self.jackpot(entry.id)
        if jp is None:  # read_floor refuses such rows
            raise ValueError(f"jackpot pool {entry.id!r} has no rate")
        return jp.contribution + (jp.reserve_rate if reserve else Decimal(0))


def read_floor(
    path: str | Path,
    digits: int = 10,
    required: Sequence[str] = ("machine_id", "denomination"),
    convert: Callable[[FloorRow], T] | None = None,
) -> list[T]:
    """Read and validate a floor file into typed rows: the one reader of floor files.

    Parameters
    ----------
    path : str or Path
        The floor CSV.
    digits : int
        Meter width for machines whose row has no ``digits`` value.
    required : sequence of str
        Columns the caller needs in the header.
    convert : callable, optional
        Applied to each :class:`FloorRow`; a ``ValueError`` it raises is a
        problem of that row, reported with the reader's own.

    Returns
    -------
    list
        The rows (or what ``convert`` made of them), in file order.

    Raises
    ------
    InputError
        Naming the file, the line and the value for every unusable row (the
        first five), or a missing column or unreadable file.

    """
    file = str(path)
    raw = read_floor_text(file, required)
    folder = Path(file).parent
    rows: list = []
    problems: list[str] = []
    seen: set[str] = set()
    cache: dict[str, Machine] = {}
    for i, rec in enumerate(raw.to_dict("records")):
        try:
            row = _floor_row(rec, i + 2, folder, digits, cache)
            if row.machine_id in seen:
                raise ValueError(f"machine_id {row.machine_id!r} appears more than once")
            seen.add(row.machine_id)
            rows.append(convert(row) if convert else row)
        except ValueError as exc:  # ModelError is a ValueError
            problems.append(f"{file}: line {i + 2}: {' '.join(str(exc).split())}")
    if problems:
        raise InputError(_problems(problems))
    return rows


def _problems(problems: list[str]) -> str:
    more = len(problems) - MAX_PROBLEMS
    return "; ".join(problems[:MAX_PROBLEMS]) + (f" (+{more} more)" if more > 0 else "")


def read_floor_text(file: str, required: Sequence[str]) -> pd.DataFrame:
    """The floor file's cells as text (header stripped); a located error if unreadable."""
    regular_file(file, "floor")
    try:
        raw = pd.read_csv(file, dtype=str, keep_default_na=False, skipinitialspace=True)
    except FileNotFoundError:
        raise InputError(f"{file}: no such file") from None
    except (pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError) as exc:
        raise InputError(f"{file}: not a readable CSV floor file: {exc}") from None
    raw.columns = [str(c).strip() for c in raw.columns]
    missing = [c for c in required if c not in raw.columns]
    if missing:
        raise InputError(
            f"{file}: missing column(s) {', '.join(missing)}; expected {', '.join(FLOOR_COLUMNS)}"
        )
    return raw


def _floor_row(
    rec: dict[str, str], line: int, folder: Path, digits: int, cache: dict[str, Machine]
) -> FloorRow:
    """Validate one floor row; raise ValueError naming the bad value."""
    mid = _text(rec, "machine_id")
    if not mid:
        raise ValueError("machine_id is empty")
    denom = _decimal(rec, "denomination")
    if denom is None or denom <= 0:
        raise ValueError(f"denomination={rec.get('denomination')!r} must be a positive decimal")
    if denom > MAX_DENOMINATION:
        raise ValueError(
            f"denomination={rec.get('denomination')!r} is above {MAX_DENOMINATION:,} per credit"
        )
    level = _integer(rec, "bet_level")
    width = _integer(rec, "digits") or digits
    if not MIN_DIGITS <= width <= MAX_DIGITS:
        raise ValueError(f"digits={width!r} must be in [{MIN_DIGITS}, {MAX_DIGITS}]")
    rtp, sigma = _decimal(rec, "theoretical_rtp"), _decimal(rec, "sigma")
    ref = _text(rec, "model")
    model = _model(ref, folder, cache)
    if model is not None and (level is None or level not in model.bet_levels):
        raise ValueError(
            f"bet_level={level!r} is not one of {list(model.bet_levels)} of model {ref!r}"
        )
    currency = _currency(_text(rec, "currency")) or (model.currency if model else "")
    pools = _pools(rec.get("jackpot_pools", ""))
    row = FloorRow(line, mid, ref, model, level, denom, rtp, sigma, pools, width, currency)
    _check_pools(row, rec.get("jackpot_pools", ""))
    return row


def _check_pools(row: FloorRow, text: str) -> None:
    """Every entry has a rate in [0, 1): written, or the model's jackpot of that id."""
    for entry in row.pools:
        if entry.rate is None and row.jackpot(entry.id) is None:
            if row.model is not None:
                raise ValueError(
                    f"jackpot pool {entry.id!r} is not a jackpot of model {row.model_ref!r} "
                    "(write pool_id=rate)"
                )
            raise ValueError(
                f"jackpot_pools={text!r}: each rate must be in [0, 1) (write pool_id=rate)"
            )
        if not 0 <= row.pool_rate(entry) < 1:
            raise ValueError(
                f"jackpot_pools={text!r}: each rate must be in [0, 1) (write pool_id=rate)"
            )


def _currency(text: str) -> str:
    if text and not re.fullmatch(_CURRENCY, text):
        raise ValueError(f"currency={text!r} must be an ISO 4217 code such as EUR")
    return text


def _model(ref: str, folder: Path, cache: dict[str, Machine]) -> Machine | None:
    """The model file a row names (floor folder first, then the working directory)."""
    if not ref:
        return None
    if ref not in cache:
        from certify.model import load_machine  # 0.2 s: only for floors that name models

        path = next((p for p in (folder / ref, Path(ref)) if p.is_file()), None)
        if path is None:
            raise ValueError(f"model={ref!r}: no such model file")
        cache[ref] = load_machine(path)
    return cache[ref]


def _text(rec: dict[str, str], key: str) -> str:
    return str(rec.get(key, "") or "").strip()


def _decimal(rec: dict[str, str], key: str) -> Decimal | None:
    text = _text(rec, key)
    if not text:
        return None
    try:
        value = Decimal(text)
    except InvalidOperation:
        raise ValueError(f"{key}={text!r} is not a decimal number") from None
    if not value.is_finite():
        raise ValueError(f"{key}={text!r} is not a finite number")
    if value and value.adjusted() >= MAX_MAGNITUDE:
        raise ValueError(f"{key}={text!r} is out of range (over {MAX_MAGNITUDE} digits)")
    return value


def _integer(rec: dict[str, str], key: str) -> int | None:
    value = _decimal(rec, key)
    if value is None:
        return None
    if value != value.to_integral_value():
        raise ValueError(f"{key}={rec[key]!r} must be a whole number")
    return int(value)


def _pools(text: str) -> tuple[PoolEntry, ...]:
    """``pool_id=rate`` entries separated by ``;`` or ``|`` (a later duplicate wins)."""
    pools: dict[str, Decimal | None] = {}
    for entry in (e.strip() for e in text.replace("|", ";").split(";")):
        if not entry:
            continue
        name, _, rate = entry.partition("=")
        try:
            pools[name.strip()] = Decimal(rate.strip()) if rate.strip() else None
        except InvalidOperation:
            raise ValueError(f"jackpot_pools entry {entry!r}: rate is not a decimal") from None
        value = pools[name.strip()]
        if value is not None and not value.is_finite():
            raise ValueError(f"jackpot_pools entry {entry!r}: rate is not a finite number")
    return tuple(PoolEntry(k, v) for k, v in pools.items())


def load_floor(path: str | Path, digits: int = 10) -> pd.DataFrame:
    """Read and validate a floor file into the reconciler's frame.

    Parameters
    ----------
    path : str or Path
        The floor CSV.
    digits : int
        Meter width for machines whose row has no ``digits`` value.

    Returns
    -------
    pandas.DataFrame
        Indexed by ``machine_id`` with ``model, bet_level, denomination``
        (float money per credit), ``theo_rtp, sigma, rate`` (total jackpot
        contribution rate) and ``digits``.

    Raises
    ------
    InputError
        Naming the file, the line and the value for every unusable row.

    """
    file = str(path)
    raw = read_floor_text(file, ("machine_id", "denomination"))
    floor = _plain_floor(raw, digits)
    if floor is None:  # rows naming a model, or a problem: row by row, every problem named
        rows = read_floor(file, digits, convert=_frame_row)
        floor = pd.DataFrame(rows, columns=list(FLOOR_FRAME))
    dup = floor["machine_id"][floor["machine_id"].duplicated()]
    if len(dup):
        raise InputError(f"{file}: machine_id {dup.iloc[0]!r} appears more than once")
    money = sorted(set(floor["currency"]) - {""})
    if len(money) > 1:
        raise InputError(f"{file}: one floor, one currency: the rows give {', '.join(money)}")
    return floor.set_index("machine_id")


def floor_currency(floor: pd.DataFrame, given: str | None = None) -> str:
    """The currency of a floor frame: its rows' (one at most), else ``given``, else "".

    Raises
    ------
    InputError
        When ``given`` differs from the floor's own currency or is not an ISO 4217 code.

    """
    own = sorted(set(floor["currency"]) - {""}) if "currency" in floor else []
    if given:
        try:
            _currency(given)
        except ValueError as exc:
            raise InputError(f"--{exc}") from None
        if own and own != [given]:
            raise InputError(f"--currency={given} but the floor file gives {own[0]}")
        return given
    return own[0] if own else ""


def floor_rows(floor: pd.DataFrame, machines: np.ndarray, codes: np.ndarray) -> pd.DataFrame:
    """``floor.loc[machines[codes]]``, looking each distinct machine up once.

    ``machines`` are a block's distinct machine ids and ``codes`` index them
    (one per period or count); a label lookup per code hashed the same few
    thousand ids hundreds of thousands of times.
    """
    pos = floor.index.get_indexer(pd.Index(machines, dtype=object))[codes]
    if len(pos) and pos.min() < 0:
        return floor.loc[machines[codes]]  # raises KeyError naming the machine, as before
    return floor.iloc[pos]


FLOOR_FRAME = (
    "machine_id",
    "model",
    "bet_level",
    "denomination",
    "theo_rtp",
    "sigma",
    "rate",
    "pools",
    "digits",
    "currency",
)
_DECIMAL = r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?"
_WHOLE = r"[+-]?\d+"
_CURRENCY = r"[A-Z]{3}"


def _plain_floor(raw: pd.DataFrame, digits: int) -> pd.DataFrame | None:
    """The floor frame, column by column, when no row names a model and every row is plain.

    None otherwise (then :func:`read_floor` takes every row and names each
    problem). A plain row gives what :func:`_frame_row` gives: plain decimal
    text converts to the same float through ``float`` as through ``Decimal``,
    and as rounding is monotone a float inside a bound means the decimal is.
    Jackpot pools are parsed once per distinct text.
    """
    n = len(raw)
    if n == 0:
        return None

    def text(name: str) -> pd.Series:
        col = raw[name] if name in raw.columns else pd.Series("", index=raw.index)
        if pd.api.types.infer_dtype(col, skipna=False) not in ("string", "empty"):  # NaN
            return pd.Series(None, index=raw.index, dtype=object)
        return col.str.strip()

    mid, model, pools = text("machine_id"), text("model"), text("jackpot_pools")
    if mid.isna().any() or pools.isna().any() or (mid == "").any() or (model != "").any():
        return None
    currency = text("currency")
    if currency.isna().any() or not (currency.str.fullmatch(_CURRENCY) | (currency == "")).all():
        return None
    num = {}
    for name, form in (
        ("denomination", _DECIMAL),
        ("theoretical_rtp", _DECIMAL),
        ("sigma", _DECIMAL),
        ("bet_level", _WHOLE),
        ("digits", _WHOLE),
    ):
        col = text(name)
        plain = col.str.fullmatch(form).fillna(False).astype(bool)
        if name in ("bet_level", "digits"):
            plain |= col == ""
        if not plain.all():
            return None
        num[name] = np.array(col.replace("", "0").to_numpy(dtype=object), dtype=float)
    level, width = num["bet_level"], np.where(num["digits"] == 0, digits, num["digits"])
    rtp, sigma = num["theoretical_rtp"], num["sigma"]
    if not (
        np.all(np.abs(level) < 2**53)
        and np.all(num["denomination"] > 0)
        and np.all(num["denomination"] <= float(MAX_DENOMINATION))
        and np.all((width >= MIN_DIGITS) & (width <= MAX_DIGITS))
        and np.all((rtp > 0) & (rtp < 2))
        and np.all(sigma > 0)
    ):
        return None
    rate, names = np.zeros(n), np.empty(n, dtype=object)
    for value, at in pools.groupby(pools, sort=False).indices.items():
        try:
            parsed = _pools(value)
        except ValueError:
            return None
        if not all(e.rate is not None and 0 <= e.rate < 1 for e in parsed):
            return None
        rate[at] = float(sum((e.rate for e in parsed if e.rate is not None), Decimal(0)))
        names[at] = ";".join(e.id for e in parsed)
    return pd.DataFrame(
        {
            "machine_id": mid.to_numpy(dtype=object),
            "model": model.to_numpy(dtype=object),
            "bet_level": level.astype(np.int64),
            "denomination": num["denomination"],
            "theo_rtp": rtp,
            "sigma": sigma,
            "rate": rate,
            "pools": names,
            "digits": width.astype(np.int64),
            "currency": currency.to_numpy(dtype=object),
        },
        columns=list(FLOOR_FRAME),
    )


def _frame_row(row: FloorRow) -> dict:
    """The reconciler's frame row of a floor row: theory from the model or the PAR sheet."""
    rtp, sigma = row.theoretical_rtp, row.sigma
    if row.model is not None:
        rtp, sigma = _model_theory(row, rtp, sigma)
    if rtp is None or sigma is None:
        raise ValueError("theoretical_rtp and sigma are required when model is empty")
    if not 0 < rtp < 2 or sigma <= 0:
        raise ValueError(
            f"theoretical_rtp={str(rtp)!r} must be in (0, 2) and sigma={str(sigma)!r} positive"
        )
    return {
        "machine_id": row.machine_id,
        "model": row.model_ref,
        "bet_level": row.bet_level or 0,
        "denomination": float(row.denomination),
        "theo_rtp": float(rtp),
        "sigma": float(sigma),
        "rate": float(sum((row.pool_rate(e) for e in row.pools), Decimal(0))),
        "pools": ";".join(e.id for e in row.pools),
        "digits": row.digits,
        "currency": row.currency,
    }


def _model_theory(
    row: FloorRow, rtp: Decimal | None, sigma: Decimal | None
) -> tuple[Decimal | None, Decimal | None]:
    """Return and sigma of a model row: the exact calculator's, else the row's PAR figures."""
    from certify.exact import theory  # the exact calculator's numba kernels load on first use

    machine = row.model
    assert machine is not None and row.bet_level is not None  # read_floor checked both
    try:
        figures = theory(machine, machine.bet_levels.index(row.bet_level))
    except EngineError:  # cycle too large: the PAR figures of the row must do
        figures = None
    if figures is not None:
        return Decimal(repr(float(figures[0]))), Decimal(repr(float(figures[1])))
    if rtp is None or sigma is None:
        raise ValueError(
            f"model {row.model_ref!r} is too large for exact figures: "
            "give theoretical_rtp and sigma from the PAR sheet"
        )
    return rtp, sigma


def load_counts(path: str | Path, floor: pd.DataFrame | None = None) -> pd.DataFrame:
    """Read a soft-count file: ``machine_id, period_start, period_end`` and the count.

    The header decides the unit of the count: ``amount`` is counted money,
    ``counted_drop`` is counted credits of the machine's denomination
    (converted to money with the floor's ``denomination``). The period
    bounds are ISO 8601 with offset.

    Parameters
    ----------
    path : str or Path
        The soft-count CSV.
    floor : pandas.DataFrame, optional
        From :func:`load_floor`; required for a ``counted_drop`` file.

    Returns
    -------
    pandas.DataFrame
        With ``start``/``end`` as int64 nanoseconds UTC and ``amount`` float
        money; a ``counted_drop`` file adds ``credits`` (``amount`` is NaN for
        a machine that is not on the floor).

    """
    file = str(path)
    regular_file(file, "soft count")
    fast = _counts_arrow(file)
    if fast is not None:
        return fast
    try:
        raw = pd.read_csv(path, dtype=str, keep_default_na=False, skipinitialspace=True)
    except FileNotFoundError:
        raise InputError(f"{file}: no such file") from None
    except (pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError) as exc:
        raise InputError(f"{file}: not a readable CSV soft-count file: {exc}") from None
    raw.columns = [c.strip() for c in raw.columns]
    unit = _count_unit(raw, file)
    missing = [c for c in (*COUNT_COLUMNS[:3], unit) if c not in raw.columns]
    if missing:
        raise InputError(f"{file}: missing column(s) {', '.join(missing)}")
    start = _count_times(raw, "period_start", file)
    end = _count_times(raw, "period_end", file)
    value = pd.to_numeric(raw[unit], errors="coerce")
    bad = value.isna() | (end <= start) | (value < 0)
    if unit == CREDITS_COLUMN:
        bad |= value.fillna(0) != np.floor(value.fillna(0))
    if bad.any():
        i = int(np.flatnonzero(bad.to_numpy())[0])
        what = (
            "a whole non-negative number of credits"
            if unit == CREDITS_COLUMN
            else ("a non-negative amount")
        )
        raise InputError(
            f"{file}: line {i + 2}: unusable count "
            f"{raw.iloc[i].to_dict()!r} (need ISO times, end after start, {what})"
        )
    ids = raw["machine_id"].str.strip()
    out = pd.DataFrame(
        {
            "machine_id": pd.Categorical(ids),
            "start": start,
            "end": end,
            "amount": value.astype(float),
            "line": np.arange(len(raw)) + 2,
        }
    )
    if unit == CREDITS_COLUMN:
        if floor is None:
            raise InputError(f"{file}: {CREDITS_COLUMN} is in credits: give the floor file too")
        denom = floor["denomination"].reindex(pd.Index(ids, dtype=object)).to_numpy(dtype=float)
        out["credits"] = value.to_numpy(dtype=float)
        out["amount"] = out["credits"].to_numpy() * denom  # NaN off the floor
    return out.assign(file=file)


CREDITS_COLUMN = "counted_drop"


def _count_unit(raw: pd.DataFrame, file: str) -> str:
    """``amount`` (money) or ``counted_drop`` (credits), as the header says."""
    has = [c for c in ("amount", CREDITS_COLUMN) if c in raw.columns]
    if len(has) == 2:
        raise InputError(
            f"{file}: give either amount (money) or {CREDITS_COLUMN} (credits), not both"
        )
    if not has:
        raise InputError(
            f"{file}: missing column amount (counted money) or {CREDITS_COLUMN} (counted credits)"
        )
    return has[0]


def _count_times(raw: pd.DataFrame, column: str, file: str) -> np.ndarray:
    """A soft-count time column as int64 ns UTC; the first unusable value is a located error.

    The rules of a dump's ``read_at`` apply: ISO 8601 with a UTC offset, in
    the plausible range of :mod:`meters.readers`.
    """
    from meters.readers import _timestamps

    reason = np.full(len(raw), "", dtype=object)
    ns = _timestamps(raw[column], reason, column)
    bad = np.flatnonzero(reason != "")
    if len(bad):
        i = int(bad[0])
        raise InputError(f"{file}: line {i + 2}: unusable count: {reason[i]}")
    return ns


def _counts_arrow(file: str) -> pd.DataFrame | None:
    """Read counts with Arrow's CSV reader (the fast path of :func:`load_counts`).

    Returns None when any value is unusable: the slow path then names the line.
    """
    types = {
        "machine_id": pa.string(),
        "period_start": pa.timestamp("ns", "UTC"),
        "period_end": pa.timestamp("ns", "UTC"),
        "amount": pa.float64(),
    }
    try:
        table = pacsv.read_csv(file, convert_options=pacsv.ConvertOptions(column_types=types))
    except (pa.ArrowInvalid, OSError):
        return None
    if set(table.column_names) != set(COUNT_COLUMNS) or any(
        table.column(c).null_count for c in COUNT_COLUMNS
    ):
        return None
    start = table.column("period_start").cast(pa.int64()).to_numpy()
    end = table.column("period_end").cast(pa.int64()).to_numpy()
    amount = table.column("amount").to_numpy()
    if (end <= start).any() or (amount < 0).any() or np.isnan(amount).any():
        return None
    from meters.readers import EARLIEST, LATEST

    if (start < EARLIEST).any() or (end >= LATEST).any():
        return None  # the slow path names the line
    ids = pd.Series(table.column("machine_id").to_numpy(zero_copy_only=False), dtype=object)
    return pd.DataFrame(
        {
            "machine_id": pd.Categorical(ids.str.strip()),
            "start": start,
            "end": end,
            "amount": amount,
            "line": np.arange(table.num_rows) + 2,
        }
    ).assign(file=file)
