"""Ways games by per-reel factorisation: exact moments and award odds without a cycle.

A ways game pays, per family (entries sharing a first token), its longest
entry whose ways (the product over its reels of the matches on each reel) is
non-zero. When a family's entries are *nested* (distinct lengths, and each
entry matches on its reels exactly as the next longer one does), entry ``e``
pays exactly when its ways ``P_e`` is non-zero and the next entry's extra
reels do not all match (``G_e`` = 1 when they do)::

    W = sum_e c_e (P_e - P_e G_e)

Each of the two terms is a product over the reels of one function of that
reel's stop, and the reels are independent: the expectation of a product is
the product of the per-reel expectations, and so is the expectation of the
product of two terms (the second moment). The counted symbols (scatter pays,
trigger buckets) add up over the reels, so the per-reel expectations are
kept per count vector and convolved reel by reel.

This gives, per (trigger count, bonus part) bucket, the weight, the expected
credits and their square exactly (to float rounding), and each entry's
probability; hit frequency and the win distribution need the joint state
(:mod:`certify.exact.statedp`). Games whose families are not nested, and
games with a win cap, are not factorised (None).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from certify.engine._kernels import scatter_win
from certify.engine.kernel_inputs import reel_sets
from certify.engine.tables import GameTables, LevelTables, ways_sums


@dataclass(frozen=True)
class WaysFactorised:
    """Per-bucket sums of a ways phase over its cycle, as exact integers."""

    total: int  # weight of the cycle
    w: list[int]  # per bucket: weight
    wb: list[int]  # weight x credits (ways and scatter)
    wb2: list[int]  # weight x credits squared
    awards: list[int]  # per entry: weight of the spins that pay it


def nested_families(tables: GameTables) -> list[list[int]] | None:
    """Each family's entries by length when every family is nested, else None."""
    out = []
    match = tables.ways_match
    for f in range(int(tables.ways_family.max(initial=0)) + 1):
        entries = sorted(np.nonzero(tables.ways_family == f)[0], key=lambda e: tables.entry_len[e])
        lengths = [int(tables.entry_len[e]) for e in entries]
        if len(set(lengths)) != len(lengths):
            return None
        for e, nxt, n in zip(entries, entries[1:], lengths):
            if not np.array_equal(match[e, :n], match[nxt, :n]):
                return None
        out.append([int(e) for e in entries])
    return out


def _terms(tables: GameTables, families: list[list[int]], credits: np.ndarray) -> list[tuple]:
    """(coefficient, entry, ways reels, gate entry, gate reels) of every product term."""
    terms = []
    for entries in families:
        for i, e in enumerate(entries):
            n = int(tables.entry_len[e])
            terms.append((float(credits[e]), e, n, -1, n))
            if i + 1 < len(entries):
                nxt = entries[i + 1]
                terms.append((-float(credits[e]), e, n, nxt, int(tables.entry_len[nxt])))
    return terms


def _per_reel(sums: np.ndarray, r: int, terms: list[tuple], indicator: bool) -> np.ndarray:
    """(terms, stops) int64 value of each term's function of reel ``r``'s stop."""
    phi = np.ones((len(terms), sums.shape[1]), dtype=np.int64)
    for j, (_, e, n, gate, end) in enumerate(terms):
        if r < n:
            phi[j] = (sums[r, :, e] > 0) if indicator else sums[r, :, e]
        elif gate >= 0 and r < end:
            phi[j] = sums[r, :, gate] > 0
    return phi


def ways_factorised(tables: GameTables, lt: LevelTables, phase: int = 0) -> WaysFactorised | None:
    """The bucket sums of a ways phase by per-reel factorisation (None: it does not apply).

    Per reel the expectations are int64 sums (bounded by the reel's weight x
    its largest ways squared); across reels they multiply as Python integers.
    """
    families = nested_families(tables) if tables.is_ways else None
    if families is None or (phase == 0 and lt.cap > 0) or tables.base_parts is not None:
        return None  # (``paints``: the reels are independent only within a part)
    reels = reel_sets(tables)[0 if phase == 0 else len(reel_sets(tables)) - 1]
    sums = ways_sums(reels.window, tables.ways_match)
    terms = _terms(tables, families, lt.credits if phase == 0 else lt.credits_fs)
    coef = np.array([t[0] for t in terms], dtype=object)
    n_terms = len(terms)
    one = np.ones(n_terms, dtype=np.int64).astype(object)
    state: dict[tuple, tuple] = {(0,) * reels.counted.shape[0]: (one, np.outer(one, one), one, 1)}
    for r in range(reels.length.shape[0]):
        state = _convolve(state, _reel_moments(reels, sums, r, terms))
    return _buckets(tables, lt, phase, state, coef, terms)


def _reel_moments(reels, sums: np.ndarray, r: int, terms: list[tuple]) -> dict[tuple, tuple]:
    """Per count vector of reel ``r``: sums of term, term x term, indicator, weight."""
    n = int(reels.length[r])
    weight = reels.weight[r, :n]
    phi = _per_reel(sums, r, terms, False)[:, :n]
    ind = _per_reel(sums, r, terms, True)[:, :n]
    classes: dict[tuple, list[int]] = {}
    for stop in range(n):
        classes.setdefault(tuple(int(x) for x in reels.counted[:, r, stop]), []).append(stop)
    out = {}
    for cv, stops in classes.items():
        wv, p = weight[stops], phi[:, stops]
        out[cv] = (
            (p @ wv).astype(object),
            ((p * wv) @ p.T).astype(object),
            (ind[:, stops] @ wv).astype(object),
            int(wv.sum()),
        )
    return out


def _convolve(state: dict[tuple, tuple], reel: dict[tuple, tuple]) -> dict[tuple, tuple]:
    """The moments after one more independent reel: products, count vectors added."""
    nxt: dict[tuple, tuple] = {}
    for cv, (a1, a2, aw, a0) in reel.items():
        for v, (m1, m2, mw, m0) in state.items():
            key = tuple(a + b for a, b in zip(v, cv))
            add = (m1 * a1, m2 * a2, mw * aw, m0 * a0)
            old = nxt.get(key)
            nxt[key] = add if old is None else tuple(x + y for x, y in zip(old, add))
    return nxt


def _buckets(
    tables: GameTables, lt: LevelTables, phase: int, state: dict, coef: np.ndarray, terms: list
) -> WaysFactorised:
    """Sum the per-count-vector expectations into the (trigger count, bonus part) buckets."""
    nb = tables.bonus_jmax + 1
    n_buckets = nb * (tables.machine.max_count + 1)
    w, wb, wb2 = [0] * n_buckets, [0] * n_buckets, [0] * n_buckets
    awards = [0] * tables.entry_len.shape[0]
    pay = lt.scatter_pay if phase == 0 else lt.scatter_pay_fs
    for v, (m1, m2, mw, m0) in state.items():
        sc = int(scatter_win(np.array(v, dtype=np.int64), pay, tables.scatter_excl))
        b = _bucket_of(tables, v)
        e1 = int(coef @ m1)
        w[b] += m0
        wb[b] += e1 + sc * m0
        wb2[b] += int(coef @ m2 @ coef) + 2 * sc * e1 + sc * sc * m0
        for t, x in zip(terms, mw):
            awards[t[1]] += int(x) if t[3] < 0 else -int(x)  # P_e, minus P_e G_e
    return WaysFactorised(sum(w), w, wb, wb2, awards)


def _bucket_of(tables: GameTables, v: tuple) -> int:
    """The (trigger count, bonus part) bucket of a count vector (as the kernels' ``_bucket``)."""
    fs = v[tables.fs_counted] if tables.fs_counted >= 0 else 0
    j = 0
    if tables.bonus_counted >= 0 and v[tables.bonus_counted] >= tables.bonus_min:
        j = min(v[tables.bonus_counted], tables.bonus_jmax)
    return fs * (tables.bonus_jmax + 1) + j
