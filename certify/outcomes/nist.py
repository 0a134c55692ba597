"""The NIST SP 800-22 rev. 1a tests of raw generator output (SPEC 10, ``--raw``).

Frequency (2.1), block frequency (2.2), runs (2.3), longest run of ones in a
block (2.4), serial (2.11), approximate entropy (2.12) and cumulative sums
(2.13), each on a sequence of bits (a NumPy array of 0/1), returning its
p-values; each is checked against the document's worked examples in
``tests/outcomes/test_nist.py``. :func:`raw_tests` splits a file of unsigned
32-bit words (little-endian, each word's bits taken most significant first)
into sequences and judges the proportion of passing sequences as section 4.2.1
says.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from certify.errors import InputError

ALPHA = 0.01  # SP 800-22's significance level for one sequence
SEQUENCE_BITS = 1_000_000


def _igamc(a: float, x: float) -> float:
    from scipy.special import gammaincc

    return float(gammaincc(a, x))


def frequency(bits: np.ndarray) -> float:
    """2.1 Frequency (monobit): P = erfc(|S_n| / sqrt(2 n)), S_n the sum of +-1."""
    n = bits.shape[0]
    s = 2 * int(bits.sum()) - n
    return math.erfc(abs(s) / math.sqrt(n) / math.sqrt(2))


def block_frequency(bits: np.ndarray, m: int) -> float:
    """2.2 Frequency within blocks of ``m`` bits.

    chi2 = 4 m sum (pi_i - 1/2)^2 over the N blocks, P = igamc(N/2, chi2/2).
    """
    n_blocks = bits.shape[0] // m
    pi = bits[: n_blocks * m].reshape(n_blocks, m).mean(axis=1)
    chi2 = 4.0 * m * float(((pi - 0.5) ** 2).sum())
    return _igamc(n_blocks / 2, chi2 / 2)


def runs(bits: np.ndarray) -> float:
    """2.3 Runs: P = erfc(|V - 2 n pi (1 - pi)| / (2 sqrt(2 n) pi (1 - pi))).

    0 when the frequency prerequisite |pi - 1/2| >= 2 / sqrt(n) fails.
    """
    n = bits.shape[0]
    pi = float(bits.mean())
    if abs(pi - 0.5) >= 2 / math.sqrt(n):
        return 0.0
    v = 1 + int((bits[1:] != bits[:-1]).sum())
    return math.erfc(abs(v - 2 * n * pi * (1 - pi)) / (2 * math.sqrt(2 * n) * pi * (1 - pi)))


# 2.4: (block length M, classes v_0 .. v_K as longest-run bounds, probabilities pi_i)
_LONGEST = (
    (8, (1, 2, 3, 4), (0.2148, 0.3672, 0.2305, 0.1875)),
    (128, (4, 5, 6, 7, 8, 9), (0.1174, 0.2430, 0.2493, 0.1752, 0.1027, 0.1124)),
    (
        10_000,
        (10, 11, 12, 13, 14, 15, 16),
        (0.0882, 0.2092, 0.2483, 0.1933, 0.1208, 0.0675, 0.0727),
    ),
)


def longest_run(bits: np.ndarray) -> float:
    """2.4 Longest run of ones in a block.

    M = 8, 128 or 10^4 by the length (table 2.4.2 of SP 800-22);
    chi2 = sum (v_i - N pi_i)^2 / (N pi_i), P = igamc(K / 2, chi2 / 2).
    """
    n = bits.shape[0]
    m, bounds, pis = _LONGEST[0] if n < 6272 else (_LONGEST[1] if n < 750_000 else _LONGEST[2])
    n_blocks = n // m
    counts = np.zeros(len(bounds))
    for block in bits[: n_blocks * m].reshape(n_blocks, m):
        longest = _longest_ones(block)
        k = int(np.searchsorted(bounds, min(max(longest, bounds[0]), bounds[-1])))
        counts[k] += 1
    expected = n_blocks * np.array(pis)
    chi2 = float(((counts - expected) ** 2 / expected).sum())
    return _igamc((len(bounds) - 1) / 2, chi2 / 2)


def _longest_ones(block: np.ndarray) -> int:
    padded = np.concatenate([[0], block, [0]])
    edges = np.flatnonzero(np.diff(padded))
    return int((edges[1::2] - edges[::2]).max()) if edges.size else 0


def _psi2(bits: np.ndarray, m: int) -> float:
    """psi^2_m of 2.11: overlapping m-bit patterns of the sequence extended by m - 1 bits."""
    n = bits.shape[0]
    if m <= 0:
        return 0.0
    ext = np.concatenate([bits, bits[: m - 1]]).astype(np.int64)
    code = np.zeros(n, dtype=np.int64)
    for j in range(m):
        code = (code << 1) | ext[j : j + n]
    counts = np.bincount(code, minlength=1 << m).astype(np.float64)
    return float((counts**2).sum() * (1 << m) / n - n)


def serial(bits: np.ndarray, m: int) -> tuple[float, float]:
    """2.11 Serial: P1 = igamc(2^(m-2), del psi^2_m / 2), P2 = igamc(2^(m-3), del^2 psi^2_m / 2)."""
    p0, p1, p2 = _psi2(bits, m), _psi2(bits, m - 1), _psi2(bits, m - 2)
    d1, d2 = p0 - p1, p0 - 2 * p1 + p2
    return _igamc(2 ** (m - 2), d1 / 2), _igamc(2 ** (m - 3), d2 / 2)


def _phi(bits: np.ndarray, m: int) -> float:
    n = bits.shape[0]
    ext = np.concatenate([bits, bits[: m - 1]]).astype(np.int64)
    code = np.zeros(n, dtype=np.int64)
    for j in range(m):
        code = (code << 1) | ext[j : j + n]
    c = np.bincount(code, minlength=1 << m) / n
    c = c[c > 0]
    return float((c * np.log(c)).sum())


def approximate_entropy(bits: np.ndarray, m: int) -> float:
    """2.12 Approximate entropy: chi2 = 2 n (ln 2 - ApEn(m)), P = igamc(2^(m-1), chi2 / 2)."""
    n = bits.shape[0]
    apen = _phi(bits, m) - _phi(bits, m + 1)
    chi2 = 2.0 * n * (math.log(2) - apen)
    return _igamc(2 ** (m - 1), chi2 / 2)


def cumulative_sums(bits: np.ndarray, reverse: bool = False) -> float:
    """2.13 Cumulative sums (mode 0 forward, 1 backward).

    z = max |S_k|, P from the two sums of normal distribution terms of section 2.13.4.
    """
    from certify.stats import normal_cdf

    x = 2 * bits.astype(np.int64) - 1
    if reverse:
        x = x[::-1]
    n = x.shape[0]
    z = int(np.abs(np.cumsum(x)).max())
    sq = math.sqrt(n)
    k1 = np.arange(int((-n / z + 1) // 4), int((n / z - 1) // 4) + 1)
    k2 = np.arange(int((-n / z - 3) // 4), int((n / z - 1) // 4) + 1)
    s1 = float((normal_cdf((4 * k1 + 1) * z / sq) - normal_cdf((4 * k1 - 1) * z / sq)).sum())
    s2 = float((normal_cdf((4 * k2 + 3) * z / sq) - normal_cdf((4 * k2 + 1) * z / sq)).sum())
    return 1.0 - s1 + s2


@dataclass(frozen=True)
class RawTest:
    """One SP 800-22 test over the sequences of a raw file."""

    name: str
    sequences: int
    passed: int
    p_values: tuple[float, ...]
    proportion_low: float  # section 4.2.1: p_hat - 3 sqrt(p_hat (1 - p_hat) / m)
    uniformity_p: float  # section 4.2.2: P-value_T of the 10-bin histogram (nan below 55)

    @property
    def proportion_ok(self) -> bool:
        """The share passing at alpha = 0.01 is inside section 4.2.1's interval."""
        return self.passed / self.sequences >= self.proportion_low

    @property
    def family_p(self) -> float:
        """The p-value this test contributes to the Holm family.

        One sequence: its own (smallest) p-value. Several: the binomial
        probability of at least this many failures at alpha = 0.01.
        """
        from scipy.stats import binom

        if self.sequences == 1:
            return min(self.p_values)
        failed = self.sequences - self.passed
        return float(binom.sf(failed - 1, self.sequences, ALPHA))


def read_bits(path: Path) -> np.ndarray:
    """The bits of a file of unsigned 32-bit words, little-endian, most significant bit first."""
    data = np.fromfile(path, dtype="<u4")
    if data.size == 0:
        raise InputError(f"{path}: no 32-bit words")
    return np.unpackbits(data.astype(">u4").view(np.uint8))


def sequence_tests(bits: np.ndarray) -> dict[str, list[float]]:
    """Every applicable test of one sequence: name -> p-values."""
    n = bits.shape[0]
    out: dict[str, list[float]] = {"frequency": [frequency(bits)]}
    block = max(20, n // 100) if n >= 100 else n
    out["block frequency"] = [block_frequency(bits, block)]
    out["runs"] = [runs(bits)]
    if n >= 128:
        out["longest run"] = [longest_run(bits)]
    log2n = int(math.floor(math.log2(n)))
    m = max(2, min(16, log2n - 3))  # 2.11.7: m < floor(log2 n) - 2
    out["serial"] = list(serial(bits, m))
    # 2.12.7: m < floor(log2 n) - 5
    out["approximate entropy"] = [approximate_entropy(bits, max(1, min(10, log2n - 6)))]
    out["cumulative sums"] = [cumulative_sums(bits), cumulative_sums(bits, reverse=True)]
    return out


def raw_tests(path: Path, sequence_bits: int = SEQUENCE_BITS) -> list[RawTest]:
    """SP 800-22 tests over the sequences of ``sequence_bits`` bits of a raw file (section 4.2)."""
    bits = read_bits(path)
    n = min(sequence_bits, bits.shape[0])
    if n < 100:
        raise InputError(f"{path}: {bits.shape[0]} bits; SP 800-22's tests need at least 100")
    per: dict[str, list[list[float]]] = {}
    for s in range(bits.shape[0] // n):
        for name, ps in sequence_tests(bits[s * n : (s + 1) * n]).items():
            per.setdefault(name, []).append(ps)
    return [_judge(name, rows) for name, rows in per.items()]


def _judge(name: str, rows: list[list[float]]) -> RawTest:
    m = len(rows)
    flat = tuple(p for ps in rows for p in ps)
    passed = sum(1 for ps in rows if min(ps) >= ALPHA)
    p_hat = 1 - ALPHA
    low = p_hat - 3 * math.sqrt(p_hat * (1 - p_hat) / m)
    uniform = float("nan")
    if m >= 55:
        counts = np.histogram(np.minimum(flat, 1 - 1e-12), bins=10, range=(0, 1))[0]
        s = len(flat) / 10
        uniform = _igamc(9 / 2, float(((counts - s) ** 2 / s).sum()) / 2)
    return RawTest(name, m, passed, flat, low, uniform)
