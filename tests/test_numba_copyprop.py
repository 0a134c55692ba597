"""The fast copy propagation gives numba's own results on real compiles.

Every call numba makes while compiling a parallel kernel is answered by
numba's original functions and checked against ours on the same IR; the
kernels compiled are built like the simulation kernel (a ``prange`` over
chunks, a ``while`` loop, inlined helpers taking tuples and arrays, tuple
results unpacked, branches on ``None`` arguments).
"""

from __future__ import annotations

import numba
import numpy as np
import pytest
from numba.core import ir_utils
from numba.parfors import parfor

from certify import numba_copyprop


@numba.njit(inline="always")
def _helper(table, row, acc):
    total, hits = acc
    value = table[row % table.shape[0], row & 3]
    if value > 2:
        hits += 1
    return total + value, hits


def _kernel(tables, n, out, flag):
    for c in numba.prange(out.shape[0]):
        first, second = tables
        acc = (0, 0)
        x = np.uint64(c + 1)
        left = n
        while left > 0:
            x ^= x << np.uint64(13)
            x ^= x >> np.uint64(7)
            x ^= x << np.uint64(17)
            row = np.int64(x >> np.uint64(33))
            if flag is not None and row & 1:
                acc = _helper(first, row, acc)
            else:
                acc = _helper(second, row, acc)
            left -= 1
        out[c, 0], out[c, 1] = acc


@pytest.fixture
def checked(monkeypatch):
    """Calls to numba's copy propagation, each answered by numba and compared with ours."""
    calls = []
    original = numba_copyprop._ORIGINAL

    def propagate(blocks, typemap):
        theirs = original["copy_propagate"](blocks, typemap)
        assert numba_copyprop.copy_propagate(blocks, typemap) == theirs
        entry = ir_utils.compute_cfg_from_blocks(blocks).entry_point()
        assert numba_copyprop.init_copy_propagate_data(blocks, entry, typemap) == original[
            "init_copy_propagate_data"
        ](blocks, entry, typemap)
        calls.append(len(blocks))
        return theirs

    monkeypatch.setattr(ir_utils, "copy_propagate", propagate)
    monkeypatch.setattr(parfor, "copy_propagate", propagate)
    return calls


@pytest.mark.parametrize("flag", [None, 1])
def test_same_copies_as_numba_on_a_kernel_like_the_simulation(checked, flag):
    tables = (np.arange(40).reshape(10, 4), np.arange(80).reshape(20, 4) % 5)
    out = np.zeros((4, 2), dtype=np.int64)
    numba.njit(parallel=True)(_kernel)(tables, 1000, out, flag)  # compiled afresh, not cached
    assert len(checked) >= 3 and max(checked) >= 6  # numba asked, on several blocks
    expected = np.zeros_like(out)  # and the kernel it compiled computes what it should
    for c in range(out.shape[0]):
        _python_chunk(tables, 1000, expected, flag, c)
    assert (out == expected).all()


def _python_chunk(tables, n, out, flag, c):
    """One chunk of ``_kernel`` in plain Python (64-bit wrap-around by masking)."""
    mask = (1 << 64) - 1
    total, hits, x = 0, 0, c + 1
    for _ in range(n):
        x ^= (x << 13) & mask
        x ^= x >> 7
        x ^= (x << 17) & mask
        row = x >> 33
        table = tables[0] if flag is not None and row & 1 else tables[1]
        value = int(table[row % table.shape[0], row & 3])
        total += value
        hits += value > 2
    out[c, 0], out[c, 1] = total, hits


def test_installed_in_numbas_place():
    """The command line's compiler set-up puts ours where numba's own modules look them up."""
    from certify.compiler import configure

    assert configure().copy_propagation_replaced

    assert numba_copyprop.installable()
    for module in (ir_utils, parfor):  # ours, behind the records' field forwarding
        assert module.copy_propagate.__wrapped__ is numba_copyprop.copy_propagate
    assert ir_utils.init_copy_propagate_data is numba_copyprop.init_copy_propagate_data
