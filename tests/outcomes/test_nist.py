"""The SP 800-22 rev. 1a tests against the document's worked examples (sections 2.x.4 and 2.x.8).

The 100-bit sequence of the examples is the first 100 binary digits of e as SP 800-22
prints them; the 128-bit one is section 2.4.8's. The figures are the document's.
"""

from __future__ import annotations

import numpy as np
import pytest

from certify.outcomes import nist

E100 = (
    "11001001000011111101101010100010001000010110100011"
    "00001000110100110001001100011001100010100010111000"
)
L128 = (
    "11001100000101010110110001001100111000000000001001001101010100010001"
    "001111010110100000001101011111001100111001101101100010110010"
)


def bits(text: str) -> np.ndarray:
    return np.array([int(c) for c in text], dtype=np.uint8)


def test_frequency_examples():
    """2.1.4: epsilon = 1011010101, P = 0.527089; 2.1.8: the 100 bits, P = 0.109599."""
    assert nist.frequency(bits("1011010101")) == pytest.approx(0.527089, abs=1e-6)
    assert nist.frequency(bits(E100)) == pytest.approx(0.109599, abs=1e-6)


def test_block_frequency_examples():
    """2.2.4: 0110011010, M = 3: P = 0.801252; 2.2.8: the 100 bits, M = 10: P = 0.706438."""
    assert nist.block_frequency(bits("0110011010"), 3) == pytest.approx(0.801252, abs=1e-6)
    assert nist.block_frequency(bits(E100), 10) == pytest.approx(0.706438, abs=1e-6)


def test_runs_examples():
    """2.3.4: 1001101011, V = 7, P = 0.147232; 2.3.8: the 100 bits, P = 0.500798."""
    assert nist.runs(bits("1001101011")) == pytest.approx(0.147232, abs=1e-6)
    assert nist.runs(bits(E100)) == pytest.approx(0.500798, abs=1e-6)


def test_runs_frequency_prerequisite():
    """2.3.4 step 2: |pi - 1/2| >= 2 / sqrt(n) (here 0.3 >= 0.2 with n = 100) gives P = 0."""
    assert nist.runs(bits("1" * 80 + "01" * 10)) == 0.0


def test_longest_run_example():
    """2.4.8: the 128 bits, M = 8: chi2 = 4.882605, P = 0.180609 (the document's class
    probabilities are rounded to 4 places, hence the tolerance)."""
    assert nist.longest_run(bits(L128)) == pytest.approx(0.180609, abs=2e-5)


def test_serial_example():
    """2.11.4: 0011011101, m = 3: del psi2 = 1.6, del2 psi2 = 0.8, P1 = 0.808792 and
    P2 = 0.670320 (igamc(2, 0.8) = 1.8 e^-0.8 and igamc(1, 0.4) = e^-0.4)."""
    p1, p2 = nist.serial(bits("0011011101"), 3)
    assert p1 == pytest.approx(0.808792, abs=1e-6)
    assert p2 == pytest.approx(0.670320, abs=1e-6)


def test_approximate_entropy_examples():
    """2.12.4: 0100110101, m = 3: P = 0.261961; 2.12.8: the 100 bits, m = 2: P = 0.235301."""
    assert nist.approximate_entropy(bits("0100110101"), 3) == pytest.approx(0.261961, abs=1e-6)
    assert nist.approximate_entropy(bits(E100), 2) == pytest.approx(0.235301, abs=1e-6)


def test_cumulative_sums_examples():
    """2.13.8: the 100 bits: forward P = 0.219194, backward P = 0.114866. 2.13.4:
    1011010111, z = 4: the document prints 0.4116588; its own formula gives 0.411585
    (the terms of 2.13.4 step 4 with n = 10, z = 4), checked to 1e-4."""
    assert nist.cumulative_sums(bits(E100)) == pytest.approx(0.219194, abs=1e-6)
    assert nist.cumulative_sums(bits(E100), reverse=True) == pytest.approx(0.114866, abs=1e-6)
    assert nist.cumulative_sums(bits("1011010111")) == pytest.approx(0.4116588, abs=1e-4)


def test_raw_file_judged_by_proportion(tmp_path):
    """Section 4.2.1 on a file: good words pass every test's proportion; constant words fail."""
    rng = np.random.default_rng(5)
    good = tmp_path / "good.bin"
    rng.integers(0, 2**32, 20 * 1024, dtype=np.uint32).astype("<u4").tofile(good)
    results = nist.raw_tests(good, sequence_bits=8192)
    assert {r.name for r in results} >= {
        "frequency",
        "block frequency",
        "runs",
        "longest run",
        "serial",
        "approximate entropy",
        "cumulative sums",
    }
    assert all(r.sequences == 80 and r.proportion_ok for r in results)
    bad = tmp_path / "bad.bin"
    (rng.integers(0, 2**32, 20 * 1024, dtype=np.uint32) | np.uint32(0x01010101)).astype(
        "<u4"
    ).tofile(bad)
    assert not all(r.proportion_ok for r in nist.raw_tests(bad, sequence_bits=8192))
