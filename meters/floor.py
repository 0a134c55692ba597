"""The floor file (which machine runs which certified model) and soft-count files.

Floor file columns (CSV, header required)::

    machine_id, model, bet_level, denomination, jackpot_pools, theoretical_rtp, sigma

plus an optional ``digits`` column (meter width of that machine). ``model``
names a machine model file (resolved against the floor file's folder, then the
working directory); its return and sigma per unit bet then come from
``certify.exact.theory``. For machines certified elsewhere ``model`` is empty
and ``theoretical_rtp``/``sigma`` come from the PAR sheet. ``jackpot_pools``
lists ``pool_id=rate`` entries separated by ``;`` (``pool_id`` alone takes the
rate of the model's jackpot with that id).
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.csv as pacsv

from certify.errors import EngineError, InputError

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


def exact_theory():
    """``certify.exact.theory`` if the exact calculator is installed, else None."""
    try:
        from certify.exact import theory
    except ImportError:
        return None
    return theory


def load_floor(path: str | Path, digits: int = 10) -> pd.DataFrame:
    """Read and validate a floor file.

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
    try:
        raw = pd.read_csv(path, dtype=str, keep_default_na=False, skipinitialspace=True)
    except FileNotFoundError:
        raise InputError(f"{file}: no such file") from None
    except (pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError) as exc:
        raise InputError(f"{file}: not a readable CSV floor file: {exc}") from None
    raw.columns = [c.strip() for c in raw.columns]
    missing = [c for c in ("machine_id", "denomination") if c not in raw.columns]
    if missing:
        raise InputError(
            f"{file}: missing column(s) {', '.join(missing)}; expected {', '.join(FLOOR_COLUMNS)}"
        )
    floor = _plain_floor(raw, digits)
    if floor is None:  # rows naming a model, or a problem: row by row, every problem named
        rows, problems = [], []
        for i, rec in enumerate(raw.to_dict("records")):
            try:
                rows.append(_floor_row(rec, Path(file).parent, digits))
            except ValueError as exc:
                problems.append(f"{file}: line {i + 2}: {exc}")
        if problems:
            raise InputError(
                "; ".join(problems[:5])
                + (f" (+{len(problems) - 5} more)" if len(problems) > 5 else "")
            )
        floor = pd.DataFrame(rows, columns=list(FLOOR_FRAME))
    dup = floor["machine_id"][floor["machine_id"].duplicated()]
    if len(dup):
        raise InputError(f"{file}: machine_id {dup.iloc[0]!r} appears more than once")
    return floor.set_index("machine_id")


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
)
_DECIMAL = r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?"
_WHOLE = r"[+-]?\d+"


def _plain_floor(raw: pd.DataFrame, digits: int) -> pd.DataFrame | None:
    """The floor frame, column by column, when no row names a model and every row is plain.

    None otherwise (then :func:`_floor_row` takes every row and names each
    problem). A plain row gives what :func:`_floor_row` gives: plain decimal
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
        and np.all((width >= 4) & (width <= 15))
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
        if not all(r is not None and 0 <= r < 1 for r in parsed.values()):
            return None
        rate[at] = float(sum((r for r in parsed.values() if r is not None), Decimal(0)))
        names[at] = ";".join(parsed)
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
        },
        columns=list(FLOOR_FRAME),
    )


def _floor_row(rec: dict[str, str], folder: Path, digits: int) -> dict:
    """Validate one floor row; raise ValueError naming the bad value."""
    mid = rec.get("machine_id", "").strip()
    if not mid:
        raise ValueError("machine_id is empty")
    denom = _decimal(rec, "denomination")
    if denom is None or denom <= 0:
        raise ValueError(f"denomination={rec.get('denomination')!r} must be a positive decimal")
    level = _integer(rec, "bet_level")
    width = _integer(rec, "digits") or digits
    if not 4 <= width <= 15:
        raise ValueError(f"digits={width!r} must be in [4, 15]")
    rtp, sigma = _decimal(rec, "theoretical_rtp"), _decimal(rec, "sigma")
    model = rec.get("model", "").strip()
    pools = _pools(rec.get("jackpot_pools", ""))
    if model:
        rtp, sigma, pools = _model_theory(model, folder, level, rtp, sigma, pools)
    if rtp is None or sigma is None:
        raise ValueError("theoretical_rtp and sigma are required when model is empty")
    if not 0 < rtp < 2 or sigma <= 0:
        raise ValueError(
            f"theoretical_rtp={str(rtp)!r} must be in (0, 2) and sigma={str(sigma)!r} positive"
        )
    if any(r is None or not 0 <= r < 1 for r in pools.values()):
        raise ValueError(
            f"jackpot_pools={rec.get('jackpot_pools')!r}: each rate must be in "
            "[0, 1) (write pool_id=rate)"
        )
    return {
        "machine_id": mid,
        "model": model,
        "bet_level": level or 0,
        "denomination": float(denom),
        "theo_rtp": float(rtp),
        "sigma": float(sigma),
        "rate": float(sum((r for r in pools.values() if r is not None), Decimal(0))),
        "pools": ";".join(pools),
        "digits": width,
    }


def _decimal(rec: dict[str, str], key: str) -> Decimal | None:
    text = rec.get(key, "").strip()
    if not text:
        return None
    try:
        value = Decimal(text)
    except InvalidOperation:
        raise ValueError(f"{key}={text!r} is not a decimal number") from None
    if not value.is_finite():
        raise ValueError(f"{key}={text!r} is not a finite number")
    return value


def _integer(rec: dict[str, str], key: str) -> int | None:
    value = _decimal(rec, key)
    if value is None:
        return None
    if value != value.to_integral_value():
        raise ValueError(f"{key}={rec[key]!r} must be a whole number")
    return int(value)


def _pools(text: str) -> dict[str, Decimal | None]:
    pools: dict[str, Decimal | None] = {}
    for entry in (e.strip() for e in text.replace("|", ";").split(";")):
        if not entry:
            continue
        name, _, rate = entry.partition("=")
        try:
            pools[name.strip()] = Decimal(rate.strip()) if rate.strip() else None
        except InvalidOperation:
            raise ValueError(f"jackpot_pools entry {entry!r}: rate is not a decimal") from None
    return pools


def _model_theory(model: str, folder: Path, level: int | None, rtp, sigma, pools):
    """Return, sigma and pool rates of a model row (exact calculator if present)."""
    from certify.model import load_machine

    path = folder / model if (folder / model).exists() else Path(model)
    machine = load_machine(path)
    if level is None or level not in machine.bet_levels:
        raise ValueError(
            f"bet_level={level!r} is not one of {list(machine.bet_levels)} of model {model!r}"
        )
    theory = exact_theory()
    try:
        figures = theory(machine, machine.bet_levels.index(level)) if theory else None
    except EngineError:  # cycle too large: the PAR figures of the row must do
        figures = None
    if figures is not None:
        rtp, sigma = Decimal(repr(float(figures[0]))), Decimal(repr(float(figures[1])))
    elif rtp is None or sigma is None:
        raise ValueError(
            f"model {model!r} needs certify.exact (not installed) or "
            "theoretical_rtp and sigma from the PAR sheet"
        )
    rates = {j.id: j.contribution for j in machine.jackpots}
    for name, rate in list(pools.items()):
        if rate is None:
            if name not in rates:
                raise ValueError(f"jackpot pool {name!r} is not a jackpot of model {model!r}")
            pools[name] = rates[name]
    return rtp, sigma, pools


def load_counts(path: str | Path) -> pd.DataFrame:
    """Read a soft-count file: ``machine_id, period_start, period_end, amount``.

    ``amount`` is counted money; the period bounds are ISO 8601 with offset.

    Returns
    -------
    pandas.DataFrame
        With ``start``/``end`` as int64 nanoseconds UTC and ``amount`` float.

    """
    file = str(path)
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
    missing = [c for c in COUNT_COLUMNS if c not in raw.columns]
    if missing:
        raise InputError(f"{file}: missing column(s) {', '.join(missing)}")
    start = _count_times(raw, "period_start", file)
    end = _count_times(raw, "period_end", file)
    amount = pd.to_numeric(raw["amount"], errors="coerce")
    bad = amount.isna() | (end <= start) | (amount < 0)
    if bad.any():
        i = int(np.flatnonzero(bad.to_numpy())[0])
        raise InputError(
            f"{file}: line {i + 2}: unusable count "
            f"{raw.iloc[i].to_dict()!r} (need ISO times, end after start, "
            "a non-negative amount)"
        )
    return pd.DataFrame(
        {
            "machine_id": pd.Categorical(raw["machine_id"].str.strip()),
            "start": start,
            "end": end,
            "amount": amount.astype(float),
            "line": np.arange(len(raw)) + 2,
        }
    ).assign(file=file)


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
