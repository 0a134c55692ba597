"""Hold-and-spin for the engine: the kernel arrays of a feature, and a test run.

:func:`hold_arrays` turns a :class:`~certify.model.hold.HoldAndSpin` into the
arguments :func:`certify.engine._hold.hold_spin` takes (credits at one bet);
:func:`simulate_features` plays many features on the per-chunk streams
through :func:`certify.engine._hold.simulate_hold` and sums them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from certify.engine._hold import (
    N_STATS,
    ST_COUNT,
    ST_COUNT_SQ,
    ST_FOURTH,
    ST_FULL,
    ST_SQ,
    ST_SUM,
    simulate_hold,
)
from certify.engine.spin_records import HoldFeature
from certify.model.hold import ENGINE_BOUND, HoldAndSpin


class HoldArrays(NamedTuple):
    """The kernel inputs of one feature at one total bet (see ``hold_spin``)."""

    respins: int
    p_num: int
    p_den: int
    value_cum: np.ndarray
    value_pay: np.ndarray
    value_jackpot: np.ndarray
    full_pay: int
    full_jackpot: int
    jackpots: tuple[str, ...]
    """Jackpot name of each ``out_hits`` column."""


def hold_arrays(
    hs: HoldAndSpin, bet_credits: int, progressive: set[str] | frozenset[str] = frozenset()
) -> HoldArrays:
    """Build the kernel arrays of ``hs`` for a total bet of ``bet_credits`` credits.

    Parameters
    ----------
    hs : HoldAndSpin
        The feature.
    bet_credits : int
        Total bet in credits (values and fixed jackpots are x total bet).
    progressive : set of str
        Jackpot names that pay a progressive pool: they pay 0 credits here
        and are only counted in the hits.

    Returns
    -------
    HoldArrays
        Hit columns follow ``hs.jackpot_names()``.

    """
    p = hs.cell_probability
    weights = np.array([v.weight for v in hs.values], dtype=np.int64)
    if not 0 < p < 1 or p.denominator > ENGINE_BOUND or int(weights.sum()) > ENGINE_BOUND:
        raise ValueError("cell probability or value weights beyond the engine's exact draws")
    names = hs.jackpot_names()
    prizes = dict(hs.jackpots)

    def credits(name: str) -> int:
        if name in progressive:
            return 0
        if name not in prizes:
            raise ValueError(f'jackpot "{name}" is neither a fixed prize nor progressive')
        return prizes[name] * bet_credits

    pays = [credits(v.jackpot) if v.jackpot else (v.pays or 0) * bet_credits for v in hs.values]
    full = hs.full_window
    return HoldArrays(
        respins=hs.respins,
        p_num=p.numerator,
        p_den=p.denominator,
        value_cum=np.cumsum(weights),
        value_pay=np.array(pays, dtype=np.int64),
        value_jackpot=np.array(
            [names.index(v.jackpot) if v.jackpot else -1 for v in hs.values], dtype=np.int64
        ),
        full_pay=credits(full) if full else 0,
        full_jackpot=names.index(full) if full else -1,
        jackpots=names,
    )


@dataclass(frozen=True)
class HoldSimulation:
    """Sums over simulated features (awards in credits)."""

    features: int
    total: float
    total_sq: float
    total_fourth: float
    count: float
    count_sq: float
    full: float
    hits: tuple[tuple[str, int], ...]


def simulate_features(
    hs: HoldAndSpin,
    cells: int,
    start: int,
    per_stream: int,
    states: np.ndarray,
    bet_credits: int = 1,
    progressive: set[str] | frozenset[str] = frozenset(),
) -> HoldSimulation:
    """Play ``per_stream`` features on each stream of ``states`` (advanced in place).

    Parameters
    ----------
    hs : HoldAndSpin
        The feature.
    cells : int
        Window cells.
    start : int
        Coins of the triggering screen (``1 <= start <= cells``).
    per_stream : int
        Features per stream.
    states : numpy.ndarray
        (streams, 4) uint64 xoshiro256** states, e.g. from
        :func:`certify.engine.rng.chunk_states`.
    bet_credits : int
        Total bet in credits.
    progressive : set of str
        Jackpot names paying a progressive pool (0 credits, hits counted).

    Returns
    -------
    HoldSimulation
        The sums over every stream.

    """
    if not 1 <= start <= cells:
        raise ValueError(f"start must be in [1, {cells}], got {start}")
    a = hold_arrays(hs, bet_credits, progressive)
    stats = np.zeros((states.shape[0], N_STATS), dtype=np.float64)
    hits = np.zeros((states.shape[0], max(len(a.jackpots), 1)), dtype=np.int64)
    feature = HoldFeature(
        cells=cells,
        respins=a.respins,
        p_num=a.p_num,
        p_den=a.p_den,
        value_cum=a.value_cum,
        value_pay=a.value_pay,
        value_jackpot=a.value_jackpot,
        full_pay=a.full_pay,
        full_jackpot=a.full_jackpot,
    )
    simulate_hold(states, per_stream, start, feature, stats, hits)
    s = stats.sum(axis=0)
    h = hits.sum(axis=0)
    return HoldSimulation(
        features=per_stream * states.shape[0],
        total=float(s[ST_SUM]),
        total_sq=float(s[ST_SQ]),
        total_fourth=float(s[ST_FOURTH]),
        count=float(s[ST_COUNT]),
        count_sq=float(s[ST_COUNT_SQ]),
        full=float(s[ST_FULL]),
        hits=tuple((name, int(h[i])) for i, name in enumerate(a.jackpots)),
    )
