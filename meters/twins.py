"""NumPy twins of the small kernels in :mod:`meters._kernels` (test oracles).

The sequence-rule twins live next to their wrappers in :mod:`meters.sequence`.
"""

from __future__ import annotations

import numpy as np


def reported(values: np.ndarray, mcode: np.ndarray, usable: np.ndarray, n: int) -> np.ndarray:
    """Which machine has a value of which meter in a usable row."""
    out = np.zeros((n, values.shape[1]), dtype=bool)
    for j in range(values.shape[1]):
        hits = np.bincount(mcode[usable], weights=~np.isnan(values[usable, j]), minlength=n)
        out[:, j] = hits > 0
    return out


def incomplete(values, mcode, reported_, modulus, usable):
    """First reported meter without a value, first meter too wide, per row (-1: none)."""
    missing = np.isnan(values) & reported_[mcode]
    over = values >= modulus[mcode][:, None]
    first_missing = np.where(missing.any(axis=1) & usable, missing.argmax(axis=1), -1)
    first_over = np.where(over.any(axis=1) & usable, over.argmax(axis=1), -1)
    return first_missing, first_over


def segment_sums(values: np.ndarray, first: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Sum and count of non-NaN values per column, per segment starting at ``first``."""
    missing = np.isnan(values)
    sums = np.add.reduceat(np.where(missing, 0.0, values), first, axis=0)
    seen = np.add.reduceat((~missing).astype(float), first, axis=0)
    return sums, seen


def fill_rows(src: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Twin of ``_kernels.fill_rows``: (meters, rows) values as a (rows, meters) array.

    Impossible values (negative, fractional, > 9e15) become NaN; also returns
    the (meters, rows) mask of them.
    """
    x = np.asarray(src, dtype=float)
    with np.errstate(invalid="ignore"):
        wrong = ~np.isnan(x) & ((x < 0) | (x > 9.0e15) | (x != np.floor(x)))
    return np.where(wrong, np.nan, x).T, wrong
