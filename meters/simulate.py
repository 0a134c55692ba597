"""A floor simulator: plays machines for days and writes realistic meter dumps.

Each machine has a PAR sheet (return and sigma per unit bet) realised as a
three-outcome pay table in credits (lose / small win / big win); the games
of every reading interval are drawn at once with binomial draws, so a floor
of thousands of machines and months of readings is a few array operations.
Machines whose floor row names a model are played by the slot engine
(``certify.engine.simulate``) when it and the exact calculator are
installed, otherwise by their PAR figures.

Faults of every finding kind can be injected at known places
(:mod:`meters.faults`); :attr:`FloorSim.injected` lists the findings the
reconciler must report for them, and nothing else.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from certify.outputs import atomic_path
from meters.registry import sas_header

DENOMINATIONS = np.array([0.01, 0.02, 0.05, 0.10, 0.25, 0.50, 1.00])
BETS = np.array([10, 20, 25, 40, 50, 100])
HANDPAY_MONEY = 1200.0
SIM_METERS = (
    "coin_in",
    "coin_out",
    "jackpot_handpaid",
    "prizes_paid",
    "coin_drop",
    "physical_coin_in",
    "coins_to_drop",
    "coins_to_hopper",
    "games_played",
    "games_won",
    "games_lost",
    "bills_in",
    "progressive_contrib",
)


@dataclass
class FloorSim:
    """A simulated floor: floor file, readings, soft counts, injected faults."""

    floor: pd.DataFrame
    readings: pd.DataFrame
    counts: pd.DataFrame
    injected: pd.DataFrame
    digits: int = 10

    def write(
        self, folder: str | Path, fmt: str = "csv", sas: bool = False, name: str = "dump"
    ) -> dict[str, Path]:
        """Write ``floor.csv``, ``counts.csv``, ``injected.csv`` and the dump."""
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        paths = {
            "floor": folder / "floor.csv",
            "counts": folder / "counts.csv",
            "injected": folder / "injected.csv",
            "dump": folder / f"{name}.{fmt}",
        }
        counts = self.counts.assign(
            period_start=_iso(self.counts["period_start"]),
            period_end=_iso(self.counts["period_end"]),
        )
        for key, frame in (("floor", self.floor), ("counts", counts), ("injected", self.injected)):
            with atomic_path(paths[key]) as tmp:
                frame.to_csv(tmp, index=False)
        write_dump(self.readings, paths["dump"], fmt, sas)
        return paths


@dataclass
class PayTable:
    """Per machine: credits bet per game, win probabilities and pays in credits."""

    bet: np.ndarray
    p_small: np.ndarray
    p_big: np.ndarray
    small: np.ndarray
    big: np.ndarray

    @property
    def rtp(self) -> np.ndarray:
        """Exact return per unit bet of the discrete table."""
        return (self.p_small * self.small + self.p_big * self.big) / self.bet

    @property
    def sigma(self) -> np.ndarray:
        """Exact standard deviation of the win per unit bet."""
        m2 = (self.p_small * self.small**2 + self.p_big * self.big**2) / self.bet**2
        return np.sqrt(m2 - self.rtp**2)


def pay_table(
    rtp: np.ndarray, sigma: np.ndarray, hit: np.ndarray, bet: np.ndarray, small_share: float = 0.6
) -> PayTable:
    """Build a three-outcome pay table matching ``rtp`` and ``sigma`` per unit bet.

    Small wins (probability ``hit``) carry ``small_share`` of the return; one
    big win carries the rest and all of the remaining variance.
    """
    s = rtp * small_share / hit
    m2 = sigma**2 + rtp**2
    big = (m2 - hit * s**2) / (rtp * (1 - small_share))
    if np.any(big <= s):
        raise ValueError("sigma too small for the hit frequency: no big win possible")
    p_big = rtp * (1 - small_share) / big
    return PayTable(
        bet.astype(np.int64),
        hit.copy(),
        p_big,
        np.maximum(np.round(s * bet), 1).astype(np.int64),
        np.round(big * bet).astype(np.int64),
    )


def machines(n: int, rng: np.random.Generator, pools_share: float = 0.3) -> pd.DataFrame:
    """Draw ``n`` machines: denomination, bet, PAR figures, play rate, pools."""
    denom = rng.choice(DENOMINATIONS, n)
    bet = rng.choice(BETS, n)
    money = denom * bet
    too_big = money > 5
    bet = np.where(too_big, np.maximum((5 / denom).astype(int), 1), bet)
    bet = np.where(denom * bet < 0.2, np.ceil(0.2 / denom).astype(int), bet)
    rate = np.where(rng.random(n) < pools_share, rng.choice([0.005, 0.01, 0.02], n), 0.0)
    return pd.DataFrame(
        {
            "machine_id": [f"M{i:05d}" for i in range(1, n + 1)],
            "model": "",
            "bet_level": 1,
            "denomination": denom,
            "bet": bet.astype(np.int64),
            "rtp_target": rng.uniform(0.86, 0.96, n),
            "sigma_target": rng.uniform(2.0, 8.0, n),
            "hit": rng.uniform(0.15, 0.35, n),
            "games_per_day": rng.uniform(800, 2500, n),
            "rate": rate,
            "cashout": rng.uniform(0.3, 0.6, n),
            "bills": rng.uniform(0.6, 0.9, n),
            "hopper": rng.uniform(0.1, 0.4, n),
        }
    )


def reading_times(
    start: str, n_int: int, per_day: int, n_machines: int, rng: np.random.Generator
) -> np.ndarray:
    """Draw reading times (int64 ns UTC), shape (machines, intervals + 1)."""
    t0 = pd.Timestamp(start).tz_convert("UTC").value
    step = 86_400 * 10**9 // per_day
    jitter_s = min(600, 86_400 // per_day // 20)
    grid = t0 + step * np.arange(n_int + 1, dtype=np.int64)
    jitter = rng.integers(-jitter_s, jitter_s + 1, (n_machines, n_int + 1)) * 10**9
    jitter[:, 0] = 0
    return grid[None, :] + jitter


def play(
    mach: pd.DataFrame, table: PayTable, n_int: int, per_day: int, rng: np.random.Generator
) -> dict[str, np.ndarray]:
    """Per machine and interval: deltas of every simulated meter (credits, games)."""
    lam = mach["games_per_day"].to_numpy()[:, None] / per_day
    games = rng.poisson(lam * rng.uniform(0.7, 1.3, (len(mach), n_int)))
    n_small = rng.binomial(games, table.p_small[:, None])
    n_big = rng.binomial(games - n_small, (table.p_big / (1 - table.p_small))[:, None])
    return meter_deltas(
        mach,
        table,
        games,
        n_small * table.small[:, None],
        n_big * table.big[:, None],
        n_small + n_big,
        rng,
    )


def meter_deltas(
    mach: pd.DataFrame, table: PayTable, games, small_win, big_win, won, rng
) -> dict[str, np.ndarray]:
    """Turn games and wins into the deltas of every meter."""
    denom = mach["denomination"].to_numpy()[:, None]
    handpaid = np.where(table.big[:, None] * denom >= HANDPAY_MONEY, big_win, 0)
    d = {
        "games_played": games,
        "games_won": won,
        "games_lost": games - won,
        "coin_in": games * table.bet[:, None],
        "jackpot_handpaid": handpaid,
        "coin_out": small_win + big_win - handpaid,
    }
    d["prizes_paid"] = d["coin_out"] + d["jackpot_handpaid"]
    cash = np.round(
        d["prizes_paid"] * mach["cashout"].to_numpy()[:, None] * rng.uniform(0.8, 1.2, games.shape)
    ).astype(np.int64)
    inserted = np.maximum(d["coin_in"] - d["prizes_paid"], 0) + cash + (games > 0)
    d["bills_in"] = np.round(inserted * mach["bills"].to_numpy()[:, None]).astype(np.int64)
    d["physical_coin_in"] = inserted - d["bills_in"]
    d["coins_to_hopper"] = np.round(
        d["physical_coin_in"] * mach["hopper"].to_numpy()[:, None]
    ).astype(np.int64)
    d["coins_to_drop"] = d["physical_coin_in"] - d["coins_to_hopper"]
    d["coin_drop"] = d["coins_to_drop"] + d["bills_in"]
    return {k: np.asarray(v, dtype=np.int64) for k, v in d.items()}


def cumulate(
    deltas: dict[str, np.ndarray],
    digits: int,
    rng: np.random.Generator,
    shift: dict[str, np.ndarray] | None = None,
) -> dict[str, np.ndarray]:
    """Cumulative (unwrapped) meters from random baselines below half the range.

    ``shift`` adds a per-machine amount to a meter's baseline (used to make
    a meter roll over at a chosen reading).
    """
    half = 10**digits // 2
    cum = {}
    for name, d in deltas.items():
        if name == "progressive_contrib":
            continue
        total = d.sum(axis=1)
        room = np.maximum(half - total, 0)
        base = (rng.uniform(0.02, 0.4, len(total)) * room).astype(np.int64)
        if name.startswith("games"):
            base = np.maximum(base, np.minimum(room, 100_000))
        c = np.concatenate([base[:, None], base[:, None] + np.cumsum(d, axis=1)], axis=1)
        if shift is not None and name in shift:
            c = c + shift[name][:, None]
        cum[name] = c
    gp = cum["games_won"][:, :1] + cum["games_lost"][:, :1]
    cum["games_played"] = cum["games_played"] - cum["games_played"][:, :1] + gp
    cum["prizes_paid"] = (
        cum["prizes_paid"]
        - cum["prizes_paid"][:, :1]
        + cum["coin_out"][:, :1]
        + cum["jackpot_handpaid"][:, :1]
    )
    return cum


def progressive(coin_in_cum: np.ndarray, rate: np.ndarray) -> np.ndarray:
    """Cumulative contributions: floor(rate x cumulative coin_in), exactly in integers."""
    micro = np.round(rate * 1_000_000).astype(np.int64)[:, None]
    return (coin_in_cum // 1_000_000) * micro + (coin_in_cum % 1_000_000) * micro // 1_000_000


def to_long(
    mach_ids: np.ndarray, times: np.ndarray, cum: dict[str, np.ndarray], digits: int
) -> pd.DataFrame:
    """One row per machine and reading, meters wrapped modulo 10**digits."""
    n, k = times.shape
    frame = {
        "machine_id": np.repeat(mach_ids, k),
        "read_at": pd.to_datetime(times.ravel(), utc=True),
    }
    for name in SIM_METERS:
        if name in cum:
            frame[name] = pd.array(cum[name].ravel() % 10**digits, dtype="Int64")
    return pd.DataFrame(frame)


def write_dump(
    readings: pd.DataFrame,
    path: str | Path,
    fmt: str = "csv",
    sas: bool = False,
    offset_hours: int = 1,
) -> None:
    """Write readings as a CSV, Parquet or JSON-lines dump.

    Parameters
    ----------
    readings : pandas.DataFrame
        ``machine_id``, ``read_at`` (UTC timestamps) and canonical meters.
    path : str or Path
        Output file.
    fmt : str
        ``csv``, ``parquet`` or ``jsonl``.
    sas : bool
        Use SAS meter codes as headers where a meter has one.
    offset_hours : int
        UTC offset the times are written in.

    """
    tz = dt.timezone(dt.timedelta(hours=offset_hours))
    out = readings.copy()
    local = out["read_at"].dt.tz_convert(tz)
    if fmt == "parquet":
        out["read_at"] = local
        out["machine_id"] = out["machine_id"].astype("category")
    else:
        text = local.dt.strftime("%Y-%m-%dT%H:%M:%S%z")
        out["read_at"] = text.str[:-2] + ":" + text.str[-2:]
    if sas:
        out = out.rename(
            columns={c: sas_header(c) for c in out.columns if c not in ("machine_id", "read_at")}
        )
    if fmt not in ("csv", "parquet", "jsonl"):
        raise ValueError(f"fmt={fmt!r} must be csv, parquet or jsonl")
    with atomic_path(path) as tmp:
        if fmt == "csv":
            out.to_csv(tmp, index=False)
        elif fmt == "parquet":
            out.to_parquet(tmp, index=False)
        else:
            out.to_json(tmp, orient="records", lines=True)


def _iso(values: pd.Series) -> pd.Series:
    text = pd.to_datetime(values, utc=True).dt.strftime("%Y-%m-%dT%H:%M:%S%z")
    return text.str[:-2] + ":" + text.str[-2:]


def simulate_floor(
    n_machines: int = 50,
    days: int = 14,
    seed: int = 0,
    per_day: int = 1,
    digits: int = 10,
    faults=(),
    start: str = "2026-01-01T06:00:00+00:00",
    pools_share: float = 0.3,
    models=(),
) -> FloorSim:
    """Play a floor of machines and return its readings, floor file and counts.

    Parameters
    ----------
    n_machines : int
        PAR-sheet machines to draw.
    days : int
        Days played.
    seed : int
        Seed of every random draw: the same arguments give the same floor.
    per_day : int
        Readings per day (1 = one reading per gaming day).
    digits : int
        Meter width; meters are written modulo ``10**digits``.
    faults : iterable of str or "all"
        Fault kinds to inject (see :data:`meters.faults.FAULT_KINDS`).
    start : str
        Time of the first reading (ISO 8601 with offset).
    pools_share : float
        Share of machines contributing to a jackpot pool.
    models : iterable of (path, bet_level)
        Extra machines running a model file, played by the slot engine when
        ``certify.engine`` and ``certify.exact`` are installed.

    """
    from meters import faults as fl

    rng = np.random.default_rng(seed)
    mach = machines(n_machines, rng, pools_share)
    mach = pd.concat([mach, model_machines(list(models), rng)], ignore_index=True)
    n_int = days * per_day
    plan = fl.Plan(fl.check_kinds(faults))
    fl.assign(plan, mach, expected_drop(mach), n_int, rng)
    honest, played = _tables(mach, plan, days)
    deltas = play(mach, played, n_int, per_day, rng)
    engine_play(mach, deltas, n_int, per_day, seed)
    times = reading_times(start, n_int, per_day, len(mach), rng)
    cum = cumulate(deltas, digits, rng)
    if "rollover" in plan.machine:
        fl.shift_to_wrap(
            cum["coin_in"], plan.machine["rollover"], plan.reading["rollover"], 10**digits
        )
    cum["progressive_contrib"] = progressive(cum["coin_in"], mach["rate"].to_numpy())
    ids = mach["machine_id"].to_numpy(dtype=object)
    if "hold_deviation" in plan.machine:
        i = plan.machine["hold_deviation"]
        plan.expect(
            "hold_deviation", ids[i], "hold_deviation", "prizes_paid", times[i, 0], times[i, -1]
        )
    counts = soft_counts(ids, times, deltas["coin_drop"], mach["denomination"].to_numpy())
    fl.apply_meter_faults(plan, cum, times, ids, per_day)
    fl.natural_rollovers(plan, cum, times, ids, 10**digits)
    rows = to_long(ids, times, cum, digits)
    no_pool = np.repeat(mach["rate"].to_numpy() == 0, times.shape[1])
    rows.loc[no_pool, "progressive_contrib"] = pd.NA
    rows = fl.apply_row_faults(plan, rows, times, ids)
    floor = floor_frame(mach, honest)
    floor, counts = fl.apply_floor_faults(plan, floor, counts, times, ids)
    injected = pd.DataFrame(
        plan.expected, columns=["kind", "machine_id", "code", "meter", "period_start", "period_end"]
    )
    for col in ("period_start", "period_end"):
        injected[col] = pd.to_datetime(injected[col].astype("int64"), utc=True)
    return FloorSim(floor, rows, counts, injected, digits)


def expected_drop(mach: pd.DataFrame) -> np.ndarray:
    """Estimate the money each machine drops per day."""
    coin_in = mach["games_per_day"] * mach["bet"] * mach["denomination"]
    rtp = mach["rtp_target"]
    return (coin_in * ((1 - rtp) + mach["cashout"] * rtp)).to_numpy()


def _tables(mach: pd.DataFrame, plan, days: int) -> tuple[PayTable, PayTable]:
    """Build the certified pay table and the one actually played.

    The hold-fault machine gets sigma 2 and plays its table with every win
    probability scaled down, so its return drops by about 9 standard errors
    of the days played (at least 0.05, at most 0.3).
    """
    sigma = mach["sigma_target"].to_numpy().copy()
    i = plan.machine.get("hold_deviation")
    if i is not None:
        sigma[i] = 2.0
    honest = pay_table(
        mach["rtp_target"].to_numpy(), sigma, mach["hit"].to_numpy(), mach["bet"].to_numpy()
    )
    scale = np.ones(len(mach))
    if i is not None:
        games = mach["games_per_day"].to_numpy()[i] * days
        drop = float(np.clip(9 * honest.sigma[i] / np.sqrt(games), 0.05, 0.3))
        scale[i] = 1 - drop / honest.rtp[i]
    played = PayTable(
        honest.bet, honest.p_small * scale, honest.p_big * scale, honest.small, honest.big
    )
    return honest, played


def floor_frame(mach: pd.DataFrame, table: PayTable) -> pd.DataFrame:
    """Build the floor file of the simulated machines (PAR figures of the tables)."""
    par = mach["model"] == ""
    rtp = (
        np.where(par | mach["exact_rtp"].isna(), table.rtp, mach["exact_rtp"])
        if "exact_rtp" in mach
        else table.rtp
    )
    sigma = (
        np.where(par | mach["exact_sigma"].isna(), table.sigma, mach["exact_sigma"])
        if "exact_sigma" in mach
        else table.sigma
    )
    pools = np.where(mach["rate"] > 0, "floor-pool=" + mach["rate"].map("{:.3f}".format), "")
    return pd.DataFrame(
        {
            "machine_id": mach["machine_id"],
            "model": mach["model"],
            "bet_level": mach["bet_level"],
            "denomination": mach["denomination"].map("{:.2f}".format),
            "jackpot_pools": pools,
            "theoretical_rtp": [f"{x:.12g}" for x in rtp],
            "sigma": [f"{x:.12g}" for x in sigma],
        }
    )


def soft_counts(
    ids: np.ndarray, times: np.ndarray, drop: np.ndarray, denom: np.ndarray
) -> pd.DataFrame:
    """One count per machine and UTC day of the closing readings (true drop, money)."""
    n, k = drop.shape
    day = times[:, 1:] // (86_400 * 10**9)
    frame = pd.DataFrame(
        {
            "m": np.repeat(np.arange(n), k),
            "day": day.ravel(),
            "start": times[:, :-1].ravel(),
            "end": times[:, 1:].ravel(),
            "drop": drop.ravel(),
        }
    )
    g = (
        frame.groupby(["m", "day"], sort=True)
        .agg(start=("start", "min"), end=("end", "max"), drop=("drop", "sum"))
        .reset_index()
    )
    return pd.DataFrame(
        {
            "machine_id": ids[g["m"]],
            "period_start": pd.to_datetime(g["start"], utc=True),
            "period_end": pd.to_datetime(g["end"], utc=True),
            "amount": np.round(g["drop"].to_numpy() * denom[g["m"]], 2),
        }
    )


def engine():
    """``(simulate, theory)``: the slot engine and the exact calculator."""
    from certify.engine import simulate
    from certify.exact import theory

    return simulate, theory


def model_machines(models: list, rng: np.random.Generator) -> pd.DataFrame:
    """Floor machines running model files (figures from the exact calculator)."""
    if not models:
        return pd.DataFrame()
    from certify.model import load_machine

    base = machines(len(models), rng, pools_share=0.0)
    found = engine()
    rows: list[dict] = []
    for (path, level), (_, m) in zip(models, base.iterrows(), strict=False):
        machine = load_machine(path)
        li = machine.bet_levels.index(level)
        rtp, sigma = _theory(found, machine, li)
        rows.append(
            {
                **m.to_dict(),
                "model": str(path),
                "bet_level": level,
                "denomination": float(machine.denomination),
                "bet": machine.total_bet(level),
                "exact_rtp": rtp,
                "exact_sigma": sigma,
                "machine_id": f"E{len(rows) + 1:05d}",
                "_machine": machine,
                "_li": li,
            }
        )
    return pd.DataFrame(rows)


def _theory(found, machine, li: int) -> tuple[float, float]:
    """Exact (rtp, sigma), or NaN when the calculator cannot enumerate the cycle.

    ``found`` is :func:`engine`'s pair; None (a test's stand-in for a floor
    without the engine) leaves the PAR figures too.
    """
    from certify.errors import EngineError

    if not found:
        return np.nan, np.nan
    try:
        return found[1](machine, li)
    except EngineError:
        return np.nan, np.nan


def engine_play(
    mach: pd.DataFrame, deltas: dict[str, np.ndarray], n_int: int, per_day: int, seed: int
) -> None:
    """Replace the PAR draws of model machines by slot-engine results."""
    found = engine()
    if found is None or "_machine" not in mach:
        return
    from certify.engine import compile_machine  # reusable compiled tables

    sim = found[0]
    for i in np.flatnonzero(mach["model"].to_numpy() != ""):
        machine = mach["_machine"].iloc[i]
        machine, li = compile_machine(machine), int(mach["_li"].iloc[i])
        games = deltas["games_played"][i]
        wins, hits = np.zeros(n_int, np.int64), np.zeros(n_int, np.int64)
        for k in range(n_int):  # one engine call per machine-interval
            res = sim(machine, li, int(games[k]), seed * 1_000_003 + i * 10_007 + k)
            wins[k], hits[k] = res.total_win, res.hits
        deltas["coin_out"][i], deltas["jackpot_handpaid"][i] = wins, 0
        deltas["prizes_paid"][i] = wins
        deltas["games_won"][i], deltas["games_lost"][i] = hits, games - hits
