"""Exact moments of free spins (with retriggers and a cap) and of bonuses.

A free spin's win ``X`` and the spins it adds ``a`` are jointly distributed
(from the feature cycle). With ``S1[a] = E[X; a]``, ``S2[a] = E[X^2; a]`` and
``Q[a] = P(a)``:

* uncapped: every spin and its descendants form an independent tree with
  ``m1 = sum S1 / (1 - rho)``, ``rho = sum a Q[a]`` (must be < 1), and
  ``m2 (1 - rho) = sum_a S2[a] + 2 a S1[a] m1 + a (a - 1) Q[a] m1^2``;
  ``n`` starting spins give ``E[F] = n m1``, ``E[F^2] = n m2 + n (n - 1) m1^2``.
* capped at ``cap`` spins per feature: a backward recursion over
  (spins awarded, spins played) gives both moments exactly. Its cost is
  O(cap^2 x classes): beyond :data:`certify.engine.limits.CAPPED_WORK_MAX`
  steps it raises :class:`RecursionTooLong` (the exact calculator refuses
  such a model beforehand, see :mod:`certify.engine.limits`), except when no
  spin retriggers (then the moments are the closed form of ``start`` i.i.d.
  spins). One recursion serves every call with the same classes, cap and start.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from certify.engine.limits import capped_feasible
from certify.errors import EngineError
from certify.exact._kernels import capped_moments


class RecursionTooLong(EngineError):
    """The capped free-spin recursion would exceed its step budget."""


def spin_classes(
    added: np.ndarray, q: np.ndarray, s1: np.ndarray, s2: np.ndarray
) -> dict[int, tuple[float, float, float]]:
    """Merge per-bucket moments into classes by spins added: a -> (Q, S1, S2)."""
    out: dict[int, list[float]] = {}
    for a, qq, m1, m2 in zip(added, q, s1, s2):
        acc = out.setdefault(int(a), [0.0, 0.0, 0.0])
        acc[0] += qq
        acc[1] += m1
        acc[2] += m2
    return {a: (v[0], v[1], v[2]) for a, v in out.items()}


def feature_moments(
    classes: dict[int, tuple[float, float, float]], start: int, cap: int, once: bool = False
) -> tuple[float, float, float]:
    """E[F], E[F^2] and E[spins played] of a feature starting with ``start`` spins.

    ``once``: the feature can be extended one time only (``retrigger = "once"``).
    """
    if start <= 0:
        return 0.0, 0.0, 0.0
    if once:
        return _once(classes, min(start, cap) if cap > 0 else start, cap)
    if cap <= 0:
        return _uncapped(classes, start)
    return _capped(classes, min(start, cap), cap)


def _once(classes: dict, n: int, cap: int) -> tuple[float, float, float]:
    """A feature that one retrigger may extend: forward over the spins left before it.

    Until the retrigger every spin is a class ``a`` (``a`` > 0: it retriggers
    with ``a`` spins, capped so that at most ``cap`` are awarded in all);
    after it the spins left are independent spins whose adds no longer count:
    r of them have moments r m1 and r m2 + r (r - 1) m1^2.
    """
    m1 = sum(v[1] for v in classes.values())
    m2 = sum(v[2] for v in classes.values())

    def after(r: int) -> tuple[float, float, float]:
        return r * m1, r * m2 + r * (r - 1) * m1 * m1, float(r)

    v = [(0.0, 0.0, 0.0)]  # moments with r spins left and the retrigger not yet used
    for r in range(1, n + 1):
        e1 = e2 = en = 0.0
        for a, (q, x1, x2) in classes.items():
            add = min(a, cap - n) if cap > 0 else a
            w1, w2, wn = v[r - 1] if a == 0 else after(r - 1 + max(add, 0))
            e1 += x1 + q * w1
            e2 += x2 + 2 * x1 * w1 + q * w2
            en += q * (1.0 + wn)
        v.append((e1, e2, en))
    return v[n]


def _uncapped(classes: dict, n: int) -> tuple[float, float, float]:
    rho = sum(a * q for a, (q, _, _) in classes.items())
    if rho >= 1:
        raise EngineError(
            f"free spins retrigger on average {rho:.4f} >= 1 spin per spin: the "
            "feature never ends; set free_spins.max_spins"
        )
    s1 = sum(v[1] for v in classes.values())
    m1 = s1 / (1 - rho)
    rest = sum(
        s2 + 2 * a * x1 * m1 + a * (a - 1) * q * m1 * m1 for a, (q, x1, s2) in classes.items()
    )
    m2 = rest / (1 - rho)
    spins = n / (1 - rho)
    return n * m1, n * m2 + n * (n - 1) * m1 * m1, spins


def _capped(classes: dict, start: int, cap: int) -> tuple[float, float, float]:
    key = tuple((a, *classes[a]) for a in sorted(classes))
    if not capped_feasible(cap, len(key)):
        if all(a == 0 for a, *_ in key):  # no retrigger: start independent spins
            s1, s2 = sum(v[2] for v in key), sum(v[3] for v in key)
            return start * s1, start * s2 + start * (start - 1) * s1 * s1, float(start)
        raise RecursionTooLong(
            f"the capped free-spin recursion over {cap:,} spins and {len(key)} classes "
            "is too long: the exact calculator refuses this feature"
        )
    return _capped_cached(key, start, cap)


@lru_cache(maxsize=256)
def _capped_cached(key: tuple, start: int, cap: int) -> tuple[float, float, float]:
    adds = np.array([k[0] for k in key], dtype=np.int64)
    q = np.array([k[1] for k in key], dtype=np.float64)
    x1 = np.array([k[2] for k in key], dtype=np.float64)
    x2 = np.array([k[3] for k in key], dtype=np.float64)
    v1, v2, vn = capped_moments(adds, q, x1, x2, cap, start)
    return float(v1), float(v2), float(vn)


def bonus_moments(pays: np.ndarray, weights: np.ndarray) -> tuple[float, float]:
    """E[B] and E[B^2] of a bonus award table (credits, weights)."""
    p = weights / weights.sum()
    return float(np.sum(p * pays)), float(np.sum(p * pays.astype(float) ** 2))


def law_moments(law_cum: np.ndarray, law_off: np.ndarray, law_pay: np.ndarray) -> list:
    """E[B] and E[B^2] (credits) of each bonus game pay entries play, in the kernels' order.

    ``law_cum``, ``law_off``: the games' running weights one after another and
    where each starts (:class:`certify.engine.tables.GameTables`); ``law_pay``
    their prizes at a bet level.
    """
    out = []
    for k in range(law_off.shape[0] - 1):
        lo, hi = int(law_off[k]), int(law_off[k + 1])
        weights = np.diff(np.concatenate([[0], law_cum[lo:hi]])).astype(float)
        out.append(bonus_moments(law_pay[lo:hi], weights))
    return out
