"""Per machine and period: sums of deltas, and the checks made on them.

Periods: an interval between two readings belongs to the period of its
closing reading (``Config.period``, default one UTC day). Intervals lost to a
reset count in ``lost_intervals`` and contribute no delta.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from certify.stats import normal_quantile
from meters import _kernels
from meters import floor as floor_file
from meters.codes import Code
from meters.config import Config, period_ns

IDENTITIES = (
    (Code.IDENTITY_GAMES, "games_played", ("games_won", "games_lost")),
    (Code.IDENTITY_COINS, "physical_coin_in", ("coins_to_drop", "coins_to_hopper")),
    (Code.IDENTITY_PRIZES, "prizes_paid", ("coin_out", "jackpot_handpaid")),
)


def period_key(end_ns: np.ndarray, freq: str) -> np.ndarray:
    """Start (ns, UTC) of the period each interval end falls in."""
    return (end_ns // period_ns(freq)) * period_ns(freq)


def add_prizes(iv, reported: np.ndarray, meters: list[str]) -> np.ndarray:
    """Derive ``prizes_paid`` deltas where a machine does not read it directly.

    Returns the per-machine flag "prizes_paid read directly".
    """
    col = {name: j for j, name in enumerate(meters)}
    direct = (
        reported[:, col["prizes_paid"]]
        if "prizes_paid" in col
        else np.zeros(len(reported), dtype=bool)
    )
    if "coin_out" not in col:
        return direct
    derived = iv["coin_out"].to_numpy() + (
        iv["jackpot_handpaid"].fillna(0).to_numpy() if "jackpot_handpaid" in col else 0.0
    )
    use = ~direct[iv["mcode"].to_numpy()]
    if "prizes_paid" in col:
        iv.set_meter("prizes_paid", np.where(use, derived, iv["prizes_paid"].to_numpy()))
    else:
        iv.set_meter("prizes_paid", derived)
    return direct


def aggregate(iv, meters: list[str], freq: str) -> pd.DataFrame:
    """Sum interval deltas per machine and period.

    Parameters
    ----------
    iv : Intervals
        From :func:`meters.sequence.intervals` (sorted by machine and end).
    meters : list of str
        Delta columns to sum (NaN stays NaN when every interval is NaN).
    freq : str
        Period length.

    """
    cols = [
        "mcode",
        "period",
        "period_start",
        "period_end",
        "row_start",
        "row_end",
        "intervals",
        "lost_intervals",
        *meters,
    ]
    if iv.empty:
        return pd.DataFrame(
            {c: np.zeros(0, dtype=float if c in meters else np.int64) for c in cols}
        )
    m = iv["mcode"].to_numpy()
    key = period_key(iv["end"].to_numpy(), freq)
    change = np.ones(len(iv), dtype=bool)
    change[1:] = (m[1:] != m[:-1]) | (key[1:] != key[:-1])
    first = np.flatnonzero(change)
    last = np.r_[first[1:], len(iv)] - 1
    values = iv.matrix(meters)
    sums, seen = np.zeros((len(first), values.shape[1])), np.zeros((len(first), values.shape[1]))
    _kernels.segment_sums(values, first, sums, seen)
    sums[seen == 0] = np.nan
    out = pd.DataFrame(sums, columns=meters)
    head = {
        "mcode": m[first],
        "period": key[first],
        "period_start": iv["start"].to_numpy()[first],
        "period_end": iv["end"].to_numpy()[last],
        "row_start": iv["row_start"].to_numpy()[first],
        "row_end": iv["row_end"].to_numpy()[last],
        "intervals": last - first + 1,
        "lost_intervals": np.add.reduceat(iv["reset"].to_numpy().astype(np.int64), first),
    }
    for i, (name, val) in enumerate(head.items()):
        out.insert(i, name, val)
    return out


def hold_columns(per: pd.DataFrame, floor_rows: pd.DataFrame) -> None:
    """Add ``hold, return, theo_rtp, sigma, z`` (and money) to the period table."""
    coin_in = per["coin_in"].to_numpy(dtype=float) if "coin_in" in per else np.nan
    prizes = per["prizes_paid"].to_numpy(dtype=float) if "prizes_paid" in per else np.nan
    games = (
        per["games_played"].to_numpy(dtype=float)
        if "games_played" in per
        else np.full(len(per), np.nan)
    )
    theo = floor_rows["theo_rtp"].to_numpy()
    sigma = floor_rows["sigma"].to_numpy()
    denom = floor_rows["denomination"].to_numpy()
    with np.errstate(invalid="ignore", divide="ignore"):
        ret = np.where(coin_in > 0, prizes / coin_in, np.nan)
        # z of the hold (the columns beside it): actual hold 1 - ret against theoretical 1 - theo
        z = np.where(games > 0, (theo - ret) / (sigma / np.sqrt(games)), np.nan)
    per["hold"] = coin_in - prizes
    per["hold_money"] = np.round((coin_in - prizes) * denom, 6)
    per["coin_in_money"] = np.round(coin_in * denom, 6)
    per["return"] = ret
    per["theo_rtp"] = theo
    per["sigma"] = sigma
    per["z"] = z


def period_findings(
    per: pd.DataFrame,
    reported: dict[str, np.ndarray],
    direct: np.ndarray,
    floor_rows: pd.DataFrame,
    cfg: Config,
) -> list[pd.DataFrame]:
    """Identity, stuck-meter and progressive-contribution findings per period.

    Parameters
    ----------
    per : pandas.DataFrame
        The period table of :func:`aggregate`.
    reported : dict
        Meter -> per-period bool "this machine reports the meter".
    direct : numpy.ndarray
        Per period: prizes_paid is read directly (not derived).
    floor_rows : pandas.DataFrame
        The floor row of each period's machine.
    cfg : Config
        Settings (required meters, stuck threshold).

    """
    out = []
    has = per["intervals"].to_numpy() > per["lost_intervals"].to_numpy()
    for code, total, parts in IDENTITIES:
        if not all(c in reported for c in (total, *parts)):
            continue
        ok = has & reported[total] & reported[parts[0]] & reported[parts[1]]
        if code is Code.IDENTITY_PRIZES:
            ok &= direct
        expected = per[parts[0]].to_numpy() + per[parts[1]].to_numpy()
        observed = per[total].to_numpy()
        bad = ok & (expected != observed)
        out.append(
            _frame(
                per,
                bad,
                code,
                total,
                expected,
                observed,
                f"{total} moved {{o:.0f}} but {parts[0]} + {parts[1]} moved {{e:.0f}}",
            )
        )
    out.extend(_stuck(per, reported, has, cfg))
    out.append(_progressive(per, reported, has, floor_rows))
    return out


def _stuck(per, reported, has, cfg: Config) -> list[pd.DataFrame]:
    coin_in = per["coin_in"].to_numpy() if "coin_in" in per else np.zeros(len(per))
    games = per["games_played"].to_numpy() if "games_played" in per else None
    active = has & (coin_in > 0)
    if games is not None and "games_played" in reported:
        g = np.where(reported["games_played"], games, np.inf)
        active &= g >= cfg.stuck_min_games
    out = []
    for meter in cfg.required:
        if meter not in reported:
            continue
        if meter == "coin_in":
            if games is None or "games_played" not in reported:
                continue
            bad = (
                has
                & reported["games_played"]
                & (games >= cfg.stuck_min_games)
                & reported[meter]
                & (coin_in == 0)
            )
            why = "coin_in did not move while games_played moved {e:.0f}"
            expected = games
        else:
            value = per[meter].to_numpy()
            bad = active & reported[meter] & (value == 0)
            why = meter + " did not move while coin_in moved {e:.0f}"
            expected = coin_in
        out.append(_frame(per, bad, Code.STUCK_METER, meter, expected, np.zeros(len(per)), why))
    return out


def _progressive(per, reported, has, floor_rows) -> pd.DataFrame:
    rate = floor_rows["rate"].to_numpy()
    if "progressive_contrib" not in reported or "coin_in" not in per:
        return _frame(per, np.zeros(len(per), bool), Code.PROGRESSIVE_CONTRIBUTION, "", 0, 0, "")
    expected = rate * per["coin_in"].to_numpy()
    observed = per["progressive_contrib"].to_numpy()
    runs = 1 + per["lost_intervals"].to_numpy()
    bad = (
        has
        & (rate > 0)
        & reported["progressive_contrib"]
        & (np.abs(observed - expected) > runs + 1e-9)
    )
    return _frame(
        per,
        bad,
        Code.PROGRESSIVE_CONTRIBUTION,
        "progressive_contrib",
        np.round(expected, 6),
        observed,
        "progressive_contrib moved {o:.0f} credits, rate x coin_in is {e:.2f}",
    )


def _frame(
    per: pd.DataFrame, bad: np.ndarray, code: Code, meter: str, expected, observed, message: str
) -> pd.DataFrame:
    """Build findings for the rows of ``per`` in ``bad``."""
    idx = np.flatnonzero(bad)
    exp = np.broadcast_to(np.asarray(expected, dtype=float), (len(per),))[idx]
    obs = np.broadcast_to(np.asarray(observed, dtype=float), (len(per),))[idx]
    return pd.DataFrame(
        {
            "mcode": per["mcode"].to_numpy()[idx],
            "start": per["period_start"].to_numpy()[idx],
            "end": per["period_end"].to_numpy()[idx],
            "code": code.value,
            "meter": meter,
            "expected": exp,
            "observed": obs,
            "message": [message.format(e=e, o=o) for e, o in zip(exp, obs, strict=False)],
            "rows": [
                np.array([a, b])
                for a, b in zip(
                    per["row_start"].to_numpy()[idx], per["row_end"].to_numpy()[idx], strict=False
                )
            ],
        }
    )


def z_critical(confidence: float, tests: int) -> float:
    """Two-sided critical z of the band (Bonferroni over ``tests`` when > 1)."""
    alpha = (1 - confidence) / max(tests, 1)
    return normal_quantile(1 - alpha / 2)


def machine_totals(per: pd.DataFrame, floor: pd.DataFrame, machines: np.ndarray) -> pd.DataFrame:
    """Per machine: games, coin_in, prizes over all periods, actual return and z."""
    cols = [c for c in ("games_played", "coin_in", "prizes_paid") if c in per]
    tot = per.groupby("mcode")[cols].sum(min_count=1)
    span = per.groupby("mcode").agg(
        start=("period_start", "min"),
        end=("period_end", "max"),
        row_start=("row_start", "min"),
        row_end=("row_end", "max"),
    )
    tot = tot.join(span)
    tot = tot.reindex(
        columns=[
            *tot.columns,
            *[c for c in ("games_played", "coin_in", "prizes_paid") if c not in tot],
        ]
    )
    rows = floor_file.floor_rows(floor, machines, tot.index.to_numpy())
    with np.errstate(invalid="ignore", divide="ignore"):
        tot["actual"] = tot["prizes_paid"] / tot["coin_in"]
        tot["theo"] = rows["theo_rtp"].to_numpy()
        tot["sigma"] = rows["sigma"].to_numpy()
        # on the hold, as the tables beside it: (actual - theoretical hold) / standard error
        tot["z"] = (tot["theo"] - tot["actual"]) / (tot["sigma"] / np.sqrt(tot["games_played"]))
    tot["machine_id"] = machines[tot.index.to_numpy()]
    return tot.reset_index()


def hold_findings(tot: pd.DataFrame, cfg: Config, tests: int) -> tuple[pd.DataFrame, float]:
    """``hold_deviation`` for machines whose z is outside the band."""
    zc = z_critical(cfg.confidence, tests if cfg.familywise else 1)
    z = tot["z"].to_numpy(dtype=float)
    games = tot["games_played"].to_numpy(dtype=float)
    with np.errstate(invalid="ignore"):
        bad = (games >= cfg.hold_min_games) & (np.abs(z) > zc)
    idx = np.flatnonzero(bad)
    frame = pd.DataFrame(
        {
            "mcode": tot["mcode"].to_numpy()[idx],
            "start": tot["start"].to_numpy()[idx],
            "end": tot["end"].to_numpy()[idx],
            "code": Code.HOLD_DEVIATION.value,
            "meter": "prizes_paid",
            "expected": tot["theo"].to_numpy()[idx],
            "observed": tot["actual"].to_numpy()[idx],
            "message": [
                f"hold {1 - a:.2%} vs theoretical {1 - t:.2%} (return {a:.2%} vs {t:.2%}) "
                f"over {g:,.0f} games: z={zz:+.2f} outside +/-{zc:.2f}"
                for a, t, g, zz in zip(
                    tot["actual"].to_numpy()[idx],
                    tot["theo"].to_numpy()[idx],
                    games[idx],
                    z[idx],
                    strict=True,
                )
            ],
            "rows": [
                np.array([a, b])
                for a, b in zip(
                    tot["row_start"].to_numpy()[idx], tot["row_end"].to_numpy()[idx], strict=False
                )
            ],
        }
    )
    return frame, zc
