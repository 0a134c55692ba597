"""The operator's view of a reconciliation: money per machine, a floor summary, findings in order.

Figures come from the period table (``periods.csv``, credits per period)
and the floor's denominations, added up as :class:`~decimal.Decimal` money
and shown to the cent in the floor's currency; nothing here changes what the
reconciler found. Findings are shown by severity (error, warning, info), then
machine; ``findings.csv`` keeps its canonical order.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from decimal import ROUND_HALF_EVEN, Decimal
from pathlib import Path

import numpy as np
import pandas as pd

from certify.errors import InputError
from certify.inputs import DOCUMENT_BYTES, UnreadableInput, read_json, regular_file
from certify.outputs import printable
from meters.codes import Code
from meters.registry import BY_NAME

CENT = Decimal("0.01")
SEVERITY_ORDER = ("error", "warning", "info")
MACHINE_COLUMNS = (
    "machine_id",
    "currency",
    "denomination",
    "games_played",
    "coin_in",
    "prizes_paid",
    "drop",
    "hold",
    "actual_hold_pct",
    "theoretical_hold_pct",
    "theoretical_hold",
    "variance",
    "z",
    "findings",
)
_RATIO_CODES = {Code.HOLD_DEVIATION.value}
_MONEY_CODES = {Code.DROP_VARIANCE.value}
_READING_CODES = {Code.RESET.value, Code.ROLLOVER.value}  # values are readings, not amounts
_HOURS_CODES = {Code.TIME_GAP.value}
_COUNT_CODES = {Code.UNKNOWN_MACHINE.value}


def decimal(value: object) -> Decimal | None:
    """A float (or int, or text) as the Decimal it was written as; None for NaN/NA/empty.

    Floats go through ``repr`` (the shortest text that reads back as the same
    float), so 0.05 is ``Decimal("0.05")``, not its binary expansion.
    """
    if value is None or value is pd.NA or (isinstance(value, str) and not value.strip()):
        return None
    if isinstance(value, float | np.floating):
        return None if np.isnan(value) else Decimal(repr(float(value)))
    if isinstance(value, int | np.integer):
        return Decimal(int(value))
    return Decimal(str(value).strip())


def cents(value: Decimal | None) -> Decimal | None:
    """``value`` rounded to the cent (half to even), None stays None."""
    return None if value is None else value.quantize(CENT, rounding=ROUND_HALF_EVEN)


def money(value: Decimal | None, currency: str = "") -> str:
    """Money for display: two decimals, thousands separated, the currency code after it."""
    if value is None:
        return ""
    text = f"{cents(value):,.2f}"
    return f"{text} {currency}" if currency else text


def pct(value: Decimal | None, places: int = 2) -> str:
    """A percentage for display (``value`` already in percent)."""
    return "" if value is None else f"{value.quantize(Decimal(10) ** -places):.{places}f}%"


def machine_table(
    periods: pd.DataFrame,
    floor: pd.DataFrame,
    totals: pd.DataFrame,
    findings: pd.DataFrame | None = None,
    currency: str = "",
) -> pd.DataFrame:
    """Per machine: coin in, prizes paid, drop and hold in money, actual and theoretical hold.

    Parameters
    ----------
    periods : pandas.DataFrame
        The period table of the reconciliation (``periods.csv``).
    floor : pandas.DataFrame
        The floor frame (:func:`meters.floor.load_floor`), for denominations
        and currencies.
    totals : pandas.DataFrame
        Per-machine totals of the reconciliation (for ``z``).
    findings : pandas.DataFrame, optional
        The findings, counted per machine.
    currency : str
        The currency of machines whose floor row gives none.

    Returns
    -------
    pandas.DataFrame
        :data:`MACHINE_COLUMNS`, money as :class:`~decimal.Decimal` (exact
        sums of credits x denomination), sorted by machine. ``variance`` is
        actual hold minus theoretical hold, in money: positive when the
        machine kept more than its certified return lets it keep.

    """
    credits = _credit_sums(periods)
    ids = credits.index.to_numpy(dtype=object)
    at = floor.reindex(pd.Index(ids, dtype=object))
    z = totals.set_index("machine_id")["z"] if len(totals) else pd.Series(dtype=float)
    n = findings["machine_id"].value_counts() if findings is not None else pd.Series(dtype=int)
    own = at["currency"] if "currency" in at else pd.Series("", index=at.index)
    columns = {
        "machine_id": [str(m) for m in ids],
        "denomination": [decimal(v) for v in at["denomination"].to_numpy()],
        "theo": [decimal(v) for v in credits["theo_rtp"].to_numpy()],
        "z": z.reindex(pd.Index(ids, dtype=object)).to_numpy(dtype=float),
        "findings": n.reindex(pd.Index(ids, dtype=object)).fillna(0).to_numpy(dtype=np.int64),
        "currency": [str(c) if isinstance(c, str) and c else currency for c in own.to_numpy()],
    }
    for c in ("games_played", "coin_in", "prizes_paid", "coin_drop"):
        columns[c] = [decimal(v) for v in credits[c].to_numpy(dtype=object)]
    rows = [
        _machine_row(dict(zip(columns, values, strict=True)))
        for values in zip(*columns.values(), strict=True)
    ]
    return pd.DataFrame(rows, columns=list(MACHINE_COLUMNS))


def _credit_sums(periods: pd.DataFrame) -> pd.DataFrame:
    """Sums of credits per machine (games, coin in, prizes, drop), with the theoretical return."""
    cols = [c for c in ("games_played", "coin_in", "prizes_paid", "coin_drop") if c in periods]
    frame = periods[["machine_id", *cols]].copy()
    for c in cols:
        frame[c] = pd.to_numeric(frame[c], errors="coerce").astype("Float64")
    sums = frame.groupby("machine_id", sort=True)[cols].sum(min_count=1)
    theo = periods.groupby("machine_id", sort=True)["theo_rtp"].first()
    sums = sums.reindex(columns=["games_played", "coin_in", "prizes_paid", "coin_drop"])
    sums["theo_rtp"] = theo
    return sums


def _machine_row(v: dict) -> dict:
    """One machine's money from its credit sums (Decimal), hold and variance."""
    denom, theo = v["denomination"], v["theo"]

    def cash(value: Decimal | None) -> Decimal | None:
        return None if value is None or denom is None else value * denom

    coin_in, prizes, drop = cash(v["coin_in"]), cash(v["prizes_paid"]), cash(v["coin_drop"])
    hold = coin_in - prizes if coin_in is not None and prizes is not None else None
    theo_hold = coin_in * (1 - theo) if coin_in is not None and theo is not None else None
    return {
        "machine_id": v["machine_id"],
        "currency": v["currency"],
        "denomination": denom,
        "games_played": None if v["games_played"] is None else int(v["games_played"]),
        "coin_in": coin_in,
        "prizes_paid": prizes,
        "drop": drop,
        "hold": hold,
        "actual_hold_pct": 100 * hold / coin_in if hold is not None and coin_in else None,
        "theoretical_hold_pct": None if theo is None else 100 * (1 - theo),
        "theoretical_hold": theo_hold,
        "variance": hold - theo_hold if hold is not None and theo_hold is not None else None,
        "z": None if np.isnan(v["z"]) else float(v["z"]),
        "findings": int(v["findings"]),
    }


def floor_summary(machines: pd.DataFrame, findings: pd.DataFrame, currency: str) -> dict:
    """Totals of the floor, its coin-in-weighted theoretical hold, machines flagged per code.

    Money is text to the cent (exact sums, rounded once); percentages to
    four places. ``theoretical_hold_pct`` is the coin-in-weighted mean of the
    machines' theoretical hold: ``sum((1 - rtp_i) coin_in_i) / sum(coin_in_i)``.
    """

    def total(column: str) -> Decimal | None:
        values = [v for v in machines[column] if v is not None]
        return sum(values, Decimal(0)) if values else None

    coin_in, hold, theo_hold = total("coin_in"), total("hold"), total("theoretical_hold")
    flagged = findings[findings["machine_id"].astype(str) != ""]
    per_code = flagged.groupby("code")["machine_id"].nunique() if len(flagged) else {}
    return {
        "currency": currency,
        "machines": len(machines),
        "games_played": int(sum(g for g in machines["games_played"] if g is not None)),
        "coin_in": _text(cents(coin_in)),
        "prizes_paid": _text(cents(total("prizes_paid"))),
        "drop": _text(cents(total("drop"))),
        "hold": _text(cents(hold)),
        "theoretical_hold": _text(cents(theo_hold)),
        "variance": _text(cents(hold - theo_hold if hold is not None and theo_hold else None)),
        "actual_hold_pct": _text(_pct4(hold, coin_in)),
        "theoretical_hold_pct": _text(_pct4(theo_hold, coin_in)),
        "machines_flagged": int(flagged["machine_id"].nunique()),
        "machines_flagged_per_code": {c.value: int(per_code.get(c.value, 0)) for c in Code},
    }


def _pct4(part: Decimal | None, whole: Decimal | None) -> Decimal | None:
    if part is None or not whole:
        return None
    return (100 * part / whole).quantize(Decimal("0.0001"), rounding=ROUND_HALF_EVEN)


def _text(value: Decimal | None) -> str | None:
    return None if value is None else str(value)


def sort_by_severity(findings: pd.DataFrame) -> pd.DataFrame:
    """Findings by severity (error, warning, info), then machine, then their canonical order."""
    rank = findings["severity"].map({s: i for i, s in enumerate(SEVERITY_ORDER)}).fillna(9)
    order = np.lexsort((np.arange(len(findings)), findings["machine_id"].astype(str), rank))
    return findings.iloc[order].reset_index(drop=True)


def select(
    findings: pd.DataFrame,
    severity: str | None = None,
    machines: Iterable[str] = (),
    codes: Iterable[str] = (),
) -> pd.DataFrame:
    """Findings at or above ``severity``, of ``machines`` and ``codes`` (empty: all)."""
    keep = np.ones(len(findings), dtype=bool)
    if severity:
        allowed = SEVERITY_ORDER[: SEVERITY_ORDER.index(severity) + 1]
        keep &= findings["severity"].isin(allowed).to_numpy()
    wanted = set(machines)
    if wanted:
        keep &= findings["machine_id"].astype(str).isin(wanted).to_numpy()
    if set(codes):
        keep &= findings["code"].isin(set(codes)).to_numpy()
    return findings[keep]


def shown_value(code: str, meter: str, value: object, denom: Decimal | None, currency: str) -> str:
    """A finding's ``expected``/``observed`` for display, in its unit.

    Returns are percentages, drop variances money, time gaps hours, credit
    meters credits with their money; never a raw float.
    """
    number = decimal(value)
    if number is None:
        return ""
    if code in _RATIO_CODES:
        return pct(100 * number)
    if code in _MONEY_CODES:
        return money(number, currency)
    if code in _HOURS_CODES:
        return f"{number.quantize(CENT)} h"
    if code in _COUNT_CODES:
        return f"{number:.0f}"
    unit = BY_NAME[meter].unit if meter in BY_NAME else ""
    whole = number == number.to_integral_value()
    text = f"{number:,.0f}" if whole else f"{number.quantize(CENT):,.2f}"
    if unit != "credits":
        return f"{text} {unit}".strip()
    if code in _READING_CODES or denom is None:
        return f"{text} credits"
    return f"{text} credits ({money(number * denom, currency)})"


_AMOUNT = re.compile(r"(?<![\w.,])(-?\d[\d,]*\.\d\d)(?![\d%])")


def shown_message(code: str, message: str, currency: str) -> str:
    """A finding's message for display: its amounts of money with the currency.

    A money finding (a drop variance) states amounts in money
    (``counted 5230.00 vs metered drop 0.00``); shown, each carries the
    floor's currency and thousands separators (``5,230.00 EUR``). Other
    messages are shown as written.
    """
    if code not in _MONEY_CODES or not currency:
        return message
    return _AMOUNT.sub(lambda m: money(Decimal(m.group(1).replace(",", "")), currency), message)


@dataclass(frozen=True)
class View:
    """What the operator's report shows: findings filters and the floor's currency.

    ``severity`` keeps findings at or above it (``error``: errors only;
    ``warning``: errors and warnings); ``machines`` and ``codes`` keep those
    only (empty: all). The filters change the report page and the printed
    tables, never ``findings.csv`` or the floor summary.
    """

    severity: str | None = None
    machines: tuple[str, ...] = ()
    codes: tuple[str, ...] = ()
    currency: str = ""

    def findings(self, findings: pd.DataFrame) -> pd.DataFrame:
        """The findings shown: filtered, by severity then machine."""
        return sort_by_severity(select(findings, self.severity, self.machines, self.codes))

    def machine_rows(self, machines: pd.DataFrame) -> pd.DataFrame:
        """The per-machine rows shown (``machines`` filter only)."""
        if not self.machines:
            return machines
        return machines[machines["machine_id"].isin(set(self.machines))]

    def describe(self) -> str:
        """The filters in words ("" when none)."""
        parts = []
        if self.severity:
            parts.append(
                {"error": "errors", "warning": "errors and warnings"}.get(
                    self.severity, "every severity"
                )
            )
        if self.machines:
            parts.append("machines " + ", ".join(self.machines))
        if self.codes:
            parts.append("codes " + ", ".join(self.codes))
        return "; ".join(parts)


def machines_csv(machines: pd.DataFrame) -> pd.DataFrame:
    """The per-machine table as written to ``machines.csv``: money to the cent, % to 4 places."""
    out = pd.DataFrame({"machine_id": machines["machine_id"], "currency": machines["currency"]})
    out["denomination"] = [_text(v) for v in machines["denomination"]]
    out["games_played"] = machines["games_played"].astype("Int64")
    for c in ("coin_in", "prizes_paid", "drop", "hold"):
        out[c] = [_text(cents(v)) for v in machines[c]]
    for c in ("actual_hold_pct", "theoretical_hold_pct"):
        out[c] = [None if v is None else str(v.quantize(Decimal("0.0001"))) for v in machines[c]]
    for c in ("theoretical_hold", "variance"):
        out[c] = [_text(cents(v)) for v in machines[c]]
    out["z"] = [None if v is None or np.isnan(v) else round(v, 6) for v in machines["z"]]
    out["findings"] = machines["findings"].astype("Int64")
    return out[list(MACHINE_COLUMNS)]


def print_report(folder: Path, view: View, show: str = "all") -> None:
    """Print the floor summary, the machines and the findings of a reconciliation folder.

    Reads ``summary.json``, ``machines.csv`` and ``findings.csv`` as
    ``meters reconcile`` wrote them; ``view`` filters the machines and the
    findings (by severity, then machine). Everything is read and checked
    before anything is printed; control characters in the files never reach
    the terminal (:func:`certify.outputs.printable`).

    Raises
    ------
    InputError
        When the folder lacks one of the files, or one is damaged (not
        UTF-8, not JSON, a missing column or key, a value that is not a
        number): a located, one-line error naming the file.

    """
    summary = folder / "summary.json"
    info = _read_json(summary)
    floor = info.get("floor") if isinstance(info, dict) else None
    if floor is None:
        raise InputError(f"{summary}: has no floor summary (run meters reconcile again)")
    blocks: list[list[str]] = []
    with _damaged(summary):
        if not isinstance(floor, dict):
            raise TypeError(f"floor is {type(floor).__name__}, not an object")
        currency = view.currency or str(floor.get("currency") or "")
        if show in ("summary", "all"):
            blocks.append(_summary_lines(floor, currency))
    if show in ("machines", "all"):
        path = folder / "machines.csv"
        machines = _read_csv(path, MACHINE_COLUMNS)
        with _damaged(path):
            if view.machines:
                machines = machines[machines["machine_id"].isin(set(view.machines))]
            blocks.append(_table_lines("machines", _machine_text(machines, currency)))
    if show in ("findings", "all"):
        path = folder / "findings.csv"
        cols = ["severity", "machine_id", "code", "period_start", "period_end", "message"]
        findings = _read_csv(path, cols)
        with _damaged(path):
            findings = view.findings(findings)
            findings = findings.assign(
                message=[
                    shown_message(str(c), str(m), currency)
                    for c, m in zip(findings["code"], findings["message"], strict=True)
                ]
            )
            title = "findings" + (f" ({view.describe()})" if view.describe() else "")
            blocks.append(_table_lines(title, findings[cols]))
    for line in (line for block in blocks for line in block):
        print(printable(line))


@contextlib.contextmanager
def _damaged(path: Path) -> Iterator[None]:
    """Turn what a damaged file raises (a missing key, a bad number) into a located error."""
    try:
        yield
    except (KeyError, TypeError, ValueError, AttributeError, ArithmeticError) as exc:
        what = f"missing {exc}" if isinstance(exc, KeyError) else str(exc) or type(exc).__name__
        raise InputError(
            f"{path}: damaged, not as meters reconcile wrote it ({type(exc).__name__}: {what})"
        ) from None
    except RecursionError:
        raise InputError(f"{path}: damaged: nested too deeply") from None


def _read_json(path: Path) -> dict:
    try:
        return read_json(path, "reconciliation summary", DOCUMENT_BYTES)
    except UnreadableInput as exc:
        if exc.missing:
            raise InputError(
                f"{path}: no such file (not an output folder of meters reconcile)"
            ) from None
        raise


def _read_csv(path: Path, columns: Iterable[str]) -> pd.DataFrame:
    try:
        regular_file(path, "CSV")
    except UnreadableInput as exc:
        if exc.missing:
            raise InputError(
                f"{path}: no such file (not an output folder of meters reconcile)"
            ) from None
        raise
    try:
        frame = pd.read_csv(path, dtype=str, keep_default_na=False)
    except UnicodeDecodeError as exc:
        raise InputError(f"{path}: not UTF-8 text (byte {exc.start})") from None
    except (pd.errors.ParserError, pd.errors.EmptyDataError, ValueError) as exc:
        raise InputError(f"{path}: not a readable CSV file: {exc}") from None
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise InputError(
            f"{path}: missing column(s) {', '.join(missing)} (not as meters reconcile wrote it)"
        )
    return frame


def _summary_lines(floor: dict, currency: str) -> list[str]:
    def m(key: str) -> str:
        return money(decimal(floor.get(key)), currency)

    def p(key: str) -> str:
        return pct(decimal(floor.get(key)))

    lines = [
        ("machines reconciled", str(int(floor["machines"]))),
        ("games played", f"{int(floor['games_played']):,}"),
        ("coin in", m("coin_in")),
        ("prizes paid", m("prizes_paid")),
        ("drop (metered)", m("drop")),
        ("actual hold", f"{m('hold')} ({p('actual_hold_pct')})"),
        (
            "theoretical hold (coin-in weighted)",
            f"{m('theoretical_hold')} ({p('theoretical_hold_pct')})",
        ),
        ("variance (actual - theoretical)", m("variance")),
        ("machines with findings", str(int(floor["machines_flagged"]))),
    ]
    lines += [
        (f"  flagged {code}", str(int(n)))
        for code, n in floor["machines_flagged_per_code"].items()
        if n
    ]
    width = max(len(k) for k, _ in lines)
    return ["floor summary", *(f"  {key.ljust(width)}  {value}" for key, value in lines), ""]


def _machine_text(machines: pd.DataFrame, currency: str) -> pd.DataFrame:
    out = pd.DataFrame({"machine": machines["machine_id"]})
    for col, name in (
        ("coin_in", "coin in"),
        ("prizes_paid", "prizes paid"),
        ("drop", "drop"),
    ):
        out[name] = [money(decimal(v), currency) for v in machines[col]]
    out["hold %"] = [pct(decimal(v)) for v in machines["actual_hold_pct"]]
    out["theo hold %"] = [pct(decimal(v)) for v in machines["theoretical_hold_pct"]]
    out["z"] = [f"{float(v):+.2f}" if v else "" for v in machines["z"]]
    out["variance"] = [money(decimal(v), currency) for v in machines["variance"]]
    out["findings"] = machines["findings"]
    return out


def _table_lines(title: str, frame: pd.DataFrame) -> list[str]:
    """A plain aligned text table (numbers right-aligned), control characters removed."""
    lines = [f"{title}: {len(frame)}"]
    if not len(frame):
        return [*lines, ""]
    cells = [[printable(c) for c in frame.columns]] + [
        ["" if v is None else printable(v) for v in row] for row in frame.itertuples(index=False)
    ]
    widths = [max(len(r[j]) for r in cells) for j in range(len(cells[0]))]
    numeric = [all(_looks_numeric(r[j]) for r in cells[1:]) and j > 0 for j in range(len(widths))]
    for row in cells:
        lines.append(
            "  ".join(
                (v.rjust(w) if num else v.ljust(w))
                for v, w, num in zip(row, widths, numeric, strict=True)
            ).rstrip()
        )
    return [*lines, ""]


def _looks_numeric(text: str) -> bool:
    head = text.split(" ")[0].replace(",", "").replace("%", "").lstrip("+-")
    return text == "" or head.replace(".", "", 1).isdigit()
