"""Jackpot ledger: the captive value of every pool at any date (Portaria 1441/95 n.º 5).

Pools come from the floor file's ``jackpot_pools`` column (``pool_id=rate``
entries; ``pool_id`` alone takes the model's rate): an id that names a
superjackpot group (``models/links/*.toml``) is that group's pool, any other
id is a standalone pool of that machine, keyed ``<machine_id>:<pool_id>``.
Contributions are the machines' own records (Portaria n.º 14): the deltas
of the ``progressive_contrib`` meter, split over a machine's pools by rate,
in money of its denomination. Hits come from a hit file (CSV ``pool_id,
machine_id, hit_at, amount``), transfers from transfer records.

Captive value of a pool at ``T`` = seeded + contributions - paid +
transfers in - transfers out, where *seeded* is the reset put in when the
pool opens and again after every hit. Money is :class:`~decimal.Decimal`
throughout, so balances add up exactly.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field
from decimal import ROUND_FLOOR, Decimal, InvalidOperation
from pathlib import Path

import numpy as np
import pandas as pd

from certify.errors import InputError
from certify.inputs import open_regular
from certify.model.links import Link, load_link
from certify.model.schema import Machine
from meters.floor import FloorRow, read_floor

ZERO = Decimal(0)
TOLERANCE_CREDITS = 1.0


@dataclass
class Pool:
    """One pool of the ledger: who feeds it, its reset, its model and stakes."""

    key: str
    kind: str
    reset: Decimal
    currency: str
    rates: dict[str, Decimal] = field(default_factory=dict)  # machine -> rate
    signature: set[tuple[str, str]] = field(default_factory=set)  # (model id, stake)


@dataclass
class FloorMachine:
    """A floor row as the ledger needs it."""

    machine_id: str
    denomination: Decimal
    digits: int
    model: Machine | None
    stake: Decimal | None
    pools: dict[str, Decimal] = field(default_factory=dict)  # pool key -> rate

    @property
    def rate(self) -> Decimal:
        """Total contribution rate over the machine's pools."""
        return sum(self.pools.values(), ZERO)


@dataclass
class Book:
    """Pools and machines of a floor."""

    pools: dict[str, Pool]
    machines: dict[str, FloorMachine]

    def pool_of(self, machine_id: str, pool_id: str) -> str | None:
        """The key of ``pool_id`` on a machine (a group id or a standalone id)."""
        m = self.machines.get(machine_id)
        if m is None:
            return None
        for key in (pool_id, f"{machine_id}:{pool_id}"):
            if key in m.pools:
                return key
        return None


def load_book(floor: str | Path, links: list[str | Path] | None = None, digits: int = 10) -> Book:
    """Read the floor file (:func:`meters.floor.read_floor`) and link files into a :class:`Book`.

    Raises
    ------
    InputError
        Naming the file, the line and the value of every unusable row.

    """
    groups: dict[str, Link] = {}
    for path in _link_files(links or []):
        link = load_link(path)
        groups[link.id] = link
    book = Book({}, {})
    read_floor(
        floor,
        digits,
        required=("machine_id", "denomination", "jackpot_pools"),
        convert=lambda row: _add_machine(book, row, groups),
    )
    return book


def _link_files(paths: list[str | Path]) -> list[Path]:
    out: list[Path] = []
    for raw in paths:
        p = Path(raw)
        out.extend(sorted(p.glob("*.toml")) if p.is_dir() else [p])
    return out


def _add_machine(book: Book, row: FloorRow, groups: dict[str, Link]) -> None:
    """Add a floor row's machine and its pools to the book (ValueError if unusable)."""
    model = row.model
    stake = None
    if model is not None and row.bet_level is not None:
        stake = model.total_bet(row.bet_level) * row.denomination
    fm = FloorMachine(row.machine_id, row.denomination, row.digits, model, stake)
    for entry in row.pools:
        _add_pool(book, fm, entry.id, row.pool_rate(entry, reserve=True), groups)
    book.machines[row.machine_id] = fm


def _money(text: str, what: str) -> Decimal:
    try:
        value = Decimal(text.strip())
    except InvalidOperation:
        raise ValueError(f"{what}={text!r} is not a decimal number") from None
    if not value.is_finite() or value < 0:
        raise ValueError(f"{what}={text!r} must be a non-negative decimal")
    return value


def _add_pool(
    book: Book, fm: FloorMachine, pool_id: str, rate: Decimal, groups: dict[str, Link]
) -> None:
    jp = next((j for j in fm.model.jackpots if j.id == pool_id), None) if fm.model else None
    if not ZERO <= rate < 1:
        raise ValueError(f"jackpot_pools {pool_id}={rate} must be in [0, 1)")
    if pool_id in groups:
        link = groups[pool_id]
        member = link.member(fm.machine_id)
        if member is None:
            raise ValueError(f"machine {fm.machine_id!r} is not a member of group {pool_id!r}")
        pool = book.pools.setdefault(
            pool_id,
            Pool(
                pool_id,
                "linked",
                link.reset,
                link.currency,
                signature={(m.machine.id, _stake(m.stake)) for m in link.members},
            ),
        )
    else:
        if jp is None:
            raise ValueError(
                f"jackpot_pools {pool_id!r} is neither a superjackpot group nor "
                "a jackpot of the machine's model (its reset is unknown)"
            )
        key = f"{fm.machine_id}:{pool_id}"
        sig = {(fm.model.id, _stake(fm.stake))} if fm.model and fm.stake is not None else set()
        pool = book.pools.setdefault(
            key,
            Pool(key, "standalone", jp.reset, fm.model.currency if fm.model else "", signature=sig),
        )
    pool.rates[fm.machine_id] = rate
    fm.pools[pool.key] = rate


def _stake(value: Decimal | None) -> str:
    if value is None:
        return ""
    cents = value.quantize(Decimal("0.01"))
    return f"{cents}" if cents == value else f"{value.normalize():f}"


def to_cents(value: Decimal) -> tuple[Decimal, Decimal]:
    """Split an exact amount into what is shown to the cent and the sub-cent remainder.

    The shown part is rounded down (toward minus infinity), so the remainder
    is in ``[0, 0.01)`` and shown + remainder is ``value`` exactly: nothing
    is dropped, the remainder stays in the pool and is carried forward.

    Examples
    --------
    >>> to_cents(Decimal("40.625"))
    (Decimal('40.62'), Decimal('0.005'))

    """
    shown = value.quantize(CENT, rounding=ROUND_FLOOR)
    return shown, value - shown


def shown_row(row: dict[str, object]) -> dict[str, object]:
    """A ledger row as shown: money to the cent, the sub-cent rest in ``remainder_carried``.

    ``captive`` is shown rounded down to the cent; the other flows are shown
    to the cent too and ``contributions`` is the one that takes up what the
    others' rounding leaves, so the row still adds up exactly in cents:
    ``seeded + contributions - paid + transfers_in - transfers_out = captive``,
    and ``captive + remainder_carried`` is the exact captive value.
    """
    exact = {k: row[k] for k in MONEY_COLUMNS}
    captive, remainder = to_cents(exact["captive"])  # type: ignore[arg-type]
    out = dict(row)
    for key in ("seeded", "paid", "transfers_in", "transfers_out"):
        out[key] = to_cents(exact[key])[0]  # type: ignore[arg-type]
    out["reset"] = to_cents(row["reset"])[0]  # type: ignore[arg-type]
    out["captive"] = captive
    out["contributions"] = (
        captive - out["seeded"] + out["paid"] - out["transfers_in"] + out["transfers_out"]  # type: ignore[operator]
    )
    out["remainder_carried"] = remainder
    return out


def as_time(text: str | pd.Timestamp | None) -> int | None:
    """An ISO 8601 time (offset required) as int64 nanoseconds UTC; None stays None."""
    if text is None:
        return None
    ts = pd.Timestamp(text)
    if ts.tzinfo is None:
        raise InputError(f"time {text!r} needs a UTC offset (e.g. 2026-01-31T23:59:59+00:00)")
    return int(ts.tz_convert("UTC").value)


def meter_deltas(values: np.ndarray, modulus: float) -> tuple[np.ndarray, np.ndarray]:
    """Deltas of cumulative readings; rollovers wrap, a reset (RAM clear) gives 0.

    Returns the deltas (NaN where a reading is missing) and a mask of resets.
    """
    d = np.diff(values)
    rolled = d <= -modulus / 2
    d = np.where(rolled, d + modulus, d)
    reset = d < 0
    return np.where(reset, 0.0, d), reset


METERS = ("coin_in", "progressive_contrib", "progressive_paid")
LEDGER_COLUMNS = (
    "pool",
    "kind",
    "as_of",
    "currency",
    "reset",
    "machines",
    "hits",
    "seeded",
    "contributions",
    "paid",
    "transfers_in",
    "transfers_out",
    "captive",
    "remainder_carried",
)
CENT = Decimal("0.01")
MONEY_COLUMNS = ("seeded", "contributions", "paid", "transfers_in", "transfers_out", "captive")


@dataclass(frozen=True)
class Hit:
    """One jackpot award from the hit file."""

    pool: str
    machine_id: str
    at: int
    amount: Decimal
    line: int


@dataclass(frozen=True)
class Transfer:
    """One transfer of a captive value from a pool to another (a transfer record)."""

    id: str
    at: int
    source: str
    target: str
    amount: Decimal


@dataclass
class Ledger:
    """Balances per pool at ``as_of`` and the findings met on the way."""

    as_of: int
    rows: list[dict[str, object]]
    findings: list[dict[str, object]]
    rows_in: int = 0
    rows_unusable: int = 0

    def captive(self, pool: str) -> Decimal:
        """The captive value of ``pool``."""
        for row in self.rows:
            if row["pool"] == pool:
                return row["captive"]  # type: ignore[return-value]
        raise KeyError(pool)

    @property
    def total(self) -> Decimal:
        """Sum of the captive values of every pool."""
        return sum((Decimal(str(r["captive"])) for r in self.rows), ZERO)

    @property
    def total_cents(self) -> Decimal:
        """Sum of the captive values as shown, each rounded down to the cent."""
        return sum((to_cents(Decimal(str(r["captive"])))[0] for r in self.rows), ZERO)

    @property
    def remainder(self) -> Decimal:
        """Sum of the sub-cent remainders the pools carry forward (:func:`to_cents`)."""
        return sum((Decimal(str(r["remainder_carried"])) for r in self.rows), ZERO)


def read_hits(path: str | Path | None, book: Book) -> tuple[list[Hit], list[dict]]:
    """Read a hit file (``pool_id, machine_id, hit_at, amount``); bad rows are findings."""
    if path is None:
        return [], []
    hits, findings = [], []
    with (
        open_regular(path, "hit file") as raw,
        io.TextIOWrapper(raw, encoding="utf-8", newline="") as handle,
    ):
        for i, rec in enumerate(csv.DictReader(handle, skipinitialspace=True)):
            rec = {(k or "").strip(): (v or "").strip() for k, v in rec.items()}
            line, mid = i + 2, rec.get("machine_id", "")
            try:
                at = as_time(rec.get("hit_at", ""))
                amount = _money(rec.get("amount", ""), "amount")
            except (ValueError, InputError) as exc:
                raise InputError(f"{path}: line {line}: {exc}") from None
            key = book.pool_of(mid, rec.get("pool_id", ""))
            if key is None:
                findings.append(
                    finding(
                        mid,
                        at,
                        at,
                        "unknown_pool",
                        "error",
                        "",
                        "",
                        "",
                        f"hit of {amount} on pool {rec.get('pool_id')!r} of "
                        f"machine {mid!r}: no such pool on the floor",
                        f"{path}:{line}",
                    )
                )
                continue
            hits.append(Hit(key, mid, at or 0, amount, line))
    return sorted(hits, key=lambda h: h.at), findings


def finding(
    machine_id: str,
    start: int | None,
    end: int | None,
    code: str,
    severity: str,
    meter: str,
    expected: object,
    observed: object,
    message: str,
    source: str = "",
) -> dict[str, object]:
    """A findings.csv row (``meters.codes.FINDING_COLUMNS``)."""
    return {
        "machine_id": machine_id,
        "period_start": _iso(start),
        "period_end": _iso(end),
        "code": code,
        "severity": severity,
        "meter": meter,
        "expected": expected,
        "observed": observed,
        "message": message,
        "source_rows": source,
    }


def _iso(ns: int | None) -> str:
    return "" if ns is None else pd.Timestamp(ns, tz="UTC").isoformat()


def read_readings(dumps: list[str | Path]) -> tuple[pd.DataFrame, int, int]:
    """Readings of every dump (meters package readers); unusable rows are dropped."""
    from meters.readers import read_dump

    frames = [_as_frame(read_dump(p, meters=list(METERS))) for p in dumps]
    if not frames:
        raise InputError("no meter dump given")
    data = pd.concat(frames, ignore_index=True)
    good = data["_bad"] == ""
    data = data[good].astype({"machine_id": str})
    return data.sort_values(["machine_id", "read_at"], kind="stable"), len(good), int((~good).sum())


def _as_frame(readings: object) -> pd.DataFrame:
    """A DataFrame of readings (the readers return frames or ``Readings`` objects)."""
    if isinstance(readings, pd.DataFrame):
        return readings
    keys = readings.keys.reset_index(drop=True)  # type: ignore[attr-defined]
    names = readings.meters  # type: ignore[attr-defined]
    meters = {m: readings.values[:, j] for j, m in enumerate(names)}  # type: ignore[attr-defined]
    return keys.assign(**meters)


def compute_ledger(
    book: Book,
    readings: pd.DataFrame,
    hits: list[Hit],
    transfers: list[Transfer],
    as_of: int | None = None,
) -> Ledger:
    """Balances of every pool at ``as_of`` (default: the last reading).

    Parameters
    ----------
    book : Book
        Pools and machines (:func:`load_book`).
    readings : pandas.DataFrame
        Normalised readings (:func:`read_readings`).
    hits, transfers : list
        Awards and transfer records; those after ``as_of`` are ignored.
    as_of : int, optional
        Nanoseconds since the epoch, UTC (:func:`as_time`).

    """
    if as_of is None:
        as_of = int(readings["read_at"].max()) if len(readings) else 0
    contrib = {key: ZERO for key in book.pools}
    findings: list[dict[str, object]] = []
    paid_by_machine: dict[str, Decimal] = {}
    for h in hits:
        if h.at <= as_of:
            paid_by_machine[h.machine_id] = paid_by_machine.get(h.machine_id, ZERO) + h.amount
    upto = readings[readings["read_at"] <= as_of]
    for mid, rows in upto.groupby("machine_id", sort=True, observed=True):
        fm = book.machines.get(str(mid))
        if fm is None:
            continue
        credits = _machine_contrib(fm, rows, findings)
        _check_paid(fm, rows, paid_by_machine.get(fm.machine_id, ZERO), findings)
        for key, rate in fm.pools.items():
            if fm.rate > 0:
                contrib[key] += _dec(credits) * fm.denomination * rate / fm.rate
    rows_out = [
        _pool_row(book.pools[k], contrib[k], hits, transfers, as_of, findings)
        for k in sorted(book.pools)
    ]
    return Ledger(as_of, rows_out, findings)


def _dec(x: float) -> Decimal:
    return Decimal(int(x)) if float(x).is_integer() else Decimal(repr(float(x)))


def _series(
    fm: FloorMachine, rows: pd.DataFrame, meter: str, findings: list[dict[str, object]]
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Times, values and deltas of one meter (missing readings left out)."""
    ok = rows[meter].notna().to_numpy()
    t = rows["read_at"].to_numpy()[ok]
    v = rows[meter].to_numpy()[ok]
    d, reset = meter_deltas(v, 10.0**fm.digits)
    for i in np.flatnonzero(reset):
        findings.append(
            finding(
                fm.machine_id,
                int(t[i]),
                int(t[i + 1]),
                "reset",
                "warning",
                meter,
                v[i],
                v[i + 1],
                f"{meter} went back from {v[i]:.0f} to "
                f"{v[i + 1]:.0f} (RAM clear?); the interval is not counted",
            )
        )
    return t, v, d


def _machine_contrib(
    fm: FloorMachine, rows: pd.DataFrame, findings: list[dict[str, object]]
) -> float:
    """Credits contributed by a machine, with rate x coin-in checks per interval."""
    rate = float(fm.rate)
    if rows["progressive_contrib"].notna().sum() < 1:
        _, _, dc = _series(fm, rows, "coin_in", findings)
        findings.append(
            finding(
                fm.machine_id,
                int(rows["read_at"].min()),
                int(rows["read_at"].max()),
                "missing_meter",
                "warning",
                "progressive_contrib",
                "",
                "",
                "no progressive_contrib readings: contributions estimated as rate x coin_in",
            )
        )
        return float(rate * dc.sum())
    _, _, dp = _series(fm, rows, "progressive_contrib", findings)
    both = rows[rows["coin_in"].notna() & rows["progressive_contrib"].notna()]
    t = both["read_at"].to_numpy()
    dcoin, _ = meter_deltas(both["coin_in"].to_numpy(), 10.0**fm.digits)
    dcon, reset = meter_deltas(both["progressive_contrib"].to_numpy(), 10.0**fm.digits)
    expected = rate * dcoin
    for i in np.flatnonzero((np.abs(dcon - expected) > TOLERANCE_CREDITS) & ~reset):
        findings.append(
            finding(
                fm.machine_id,
                int(t[i]),
                int(t[i + 1]),
                "progressive_contribution",
                "error",
                "progressive_contrib",
                round(float(expected[i]), 6),
                float(dcon[i]),
                f"progressive_contrib moved {dcon[i]:.0f} credits, rate {fm.rate} x coin_in "
                f"{dcoin[i]:.0f} is {expected[i]:.2f}",
            )
        )
    return float(dp.sum())


def _check_paid(
    fm: FloorMachine, rows: pd.DataFrame, paid: Decimal, findings: list[dict[str, object]]
) -> None:
    """The progressive_paid meter against the hit records of the machine."""
    if rows["progressive_paid"].notna().sum() < 2:
        return
    t, _, d = _series(fm, rows, "progressive_paid", [])
    expected = float(paid / fm.denomination)
    if abs(float(d.sum()) - expected) > TOLERANCE_CREDITS:
        findings.append(
            finding(
                fm.machine_id,
                int(t[0]),
                int(t[-1]),
                "progressive_paid",
                "error",
                "progressive_paid",
                expected,
                float(d.sum()),
                f"progressive_paid moved {d.sum():.0f} credits; the hit records add up to "
                f"{expected:.2f} credits ({paid} money)",
            )
        )


def _pool_row(
    pool: Pool,
    contributions: Decimal,
    hits: list[Hit],
    transfers: list[Transfer],
    as_of: int,
    findings: list[dict[str, object]],
) -> dict[str, object]:
    mine = [h for h in hits if h.pool == pool.key and h.at <= as_of]
    paid = sum((h.amount for h in mine), ZERO)
    t_in = sum((t.amount for t in transfers if t.target == pool.key and t.at <= as_of), ZERO)
    t_out = sum((t.amount for t in transfers if t.source == pool.key and t.at <= as_of), ZERO)
    seeded = pool.reset * (1 + len(mine))
    captive = seeded + contributions - paid + t_in - t_out
    if captive < 0:
        findings.append(
            finding(
                "",
                None,
                as_of,
                "negative_captive",
                "error",
                "",
                0,
                str(captive),
                f"pool {pool.key}: paid {paid} exceeds what it "
                f"held (seeded {seeded} + contributions {contributions})",
            )
        )
    return {
        "pool": pool.key,
        "kind": pool.kind,
        "as_of": _iso(as_of),
        "currency": pool.currency,
        "reset": pool.reset,
        "machines": ";".join(sorted(pool.rates)),
        "hits": len(mine),
        "seeded": seeded,
        "contributions": contributions,
        "paid": paid,
        "transfers_in": t_in,
        "transfers_out": t_out,
        "captive": captive,
        "remainder_carried": to_cents(captive)[1],
    }


PERIOD_COLUMNS = (
    "pool",
    "period_end",
    "currency",
    "hits",
    "remainder_in",
    "contributions",
    "paid",
    "captive",
    "remainder_carried",
)


def period_ends(readings: pd.DataFrame, as_of: int, period_ns: int) -> list[int]:
    """Ends of the periods from the first reading to ``as_of`` (the last one is ``as_of``)."""
    if not len(readings):
        return [as_of]
    first = int(readings["read_at"].min())
    ends = list(range((first // period_ns + 1) * period_ns, as_of, period_ns))
    return [*ends, as_of]


def ledger_periods(
    book: Book,
    readings: pd.DataFrame,
    hits: list[Hit],
    transfers: list[Transfer],
    as_of: int,
    period_ns: int,
) -> list[dict[str, object]]:
    """Each pool's ledger period by period, shown to the cent, the remainder carried on.

    For every period end the exact ledger is computed and shown with
    :func:`shown_row`; a period's ``contributions`` (and ``paid``) are the
    differences of the shown cumulative figures, ``remainder_in`` is the
    sub-cent rest carried from the period before and ``remainder_carried``
    the one carried to the next: so the shown contributions of the periods
    add up to the shown total, and the last remainder completes the exact
    value. Nothing is dropped.
    """
    rows: list[dict[str, object]] = []
    before: dict[str, dict[str, object]] = {}
    for end in period_ends(readings, as_of, period_ns):
        for row in compute_ledger(book, readings, hits, transfers, end).rows:
            now = shown_row(row)
            last = before.get(str(row["pool"]))

            def step(key: str, now=now, last=last) -> Decimal:
                prior = ZERO if last is None else Decimal(str(last[key]))
                return Decimal(str(now[key])) - prior

            rows.append(
                {
                    "pool": row["pool"],
                    "period_end": _iso(end),
                    "currency": row["currency"],
                    "hits": int(now["hits"]) - (0 if last is None else int(last["hits"])),  # type: ignore[call-overload]
                    "remainder_in": CENT * 0 if last is None else last["remainder_carried"],
                    "contributions": step("contributions"),
                    "paid": step("paid"),
                    "captive": now["captive"],
                    "remainder_carried": now["remainder_carried"],
                }
            )
            before[str(row["pool"])] = now
    return rows
