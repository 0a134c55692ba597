"""The compiler set-up of the command line: one explicit call, never an import's side effect.

``import slotcert`` (or any module of the packages) leaves numba as it found
it: a user's own ``@njit`` code compiles the same before and after. The
``slotcert`` command (``certify.cli.main``), the warm-up process and the
test suite call :func:`configure` once, before any kernel is compiled or
read from the cache. It

- keeps branches from crossing 32-byte boundaries (a process-wide LLVM
  option: on Intel cores with the JCC erratum microcode the simulation
  kernel's speed hung on where its loop happened to be placed, 21.9M vs
  30.9M spins/s per thread for the same code);
- puts :mod:`certify.numba_copyprop` in place of numba's copy propagation
  (about 40% off each simulation kernel's compile), with
  :mod:`certify.numba_records` before it (records' fields read as the
  arrays they were built from: the chunk loop's records cost nothing per spin);
- loads numba's array maths without its probe of scipy's BLAS (no kernel
  here uses ``np.dot``; the probe cost 0.1 s of start-up);
- activates the kernels shipped compiled for x86-64-v3 where they fit
  (:mod:`certify.prebuilt`).

:func:`describe` is what a certificate records of the compiler that made its
figures: numba, llvmlite and numpy versions, the CPU numba compiled
for, and which of the above were in effect (the ``run`` block holds Python's
version beside it).
"""

from __future__ import annotations

import sys
import warnings
from dataclasses import asdict, dataclass
from typing import Any


@dataclass(frozen=True)
class CompilerSetup:
    """What :func:`configure` changed in this process (all False when it was not called)."""

    configured: bool = False
    branch_alignment: bool = False
    copy_propagation_replaced: bool = False
    blas_probe_skipped: bool = False
    prebuilt_kernels: bool = False


_SETUP = CompilerSetup()


def configure() -> CompilerSetup:
    """Apply the command line's compiler options to this process, once; what was applied.

    Call it before the first kernel is compiled or loaded (afterwards the CPU
    numba compiles for is fixed, and the shipped kernels are not used).
    """
    global _SETUP
    if _SETUP.configured:
        return _SETUP
    import llvmlite.binding

    from certify import _numba, numba_copyprop, prebuilt

    llvmlite.binding.set_option("slotcert", "-x86-branches-within-32B-boundaries")
    # kernels compiled through the parallel passes for their copy propagation alone
    # (certify._numba.SERIAL_PASSES) make no parallel loop, as meant: no warning
    warnings.filterwarnings(
        "ignore", message=r"\s*The keyword argument 'parallel=True' was specified but no"
    )
    _SETUP = CompilerSetup(
        configured=True,
        branch_alignment=True,
        copy_propagation_replaced=numba_copyprop.install(),
        blas_probe_skipped=_load_numba_array_maths_without_blas(),
        prebuilt_kernels=prebuilt.activate(_numba.SOURCES_DIGEST),
    )
    return _SETUP


def current() -> CompilerSetup:
    """What :func:`configure` applied in this process (nothing, if it was not called)."""
    return _SETUP


def describe() -> dict[str, Any]:
    """The compiler behind this process's figures, for a certificate's ``run`` block."""
    import llvmlite
    import numba
    import numpy as np

    config: Any = numba.config
    return {
        "numba": numba.__version__,
        "llvmlite": llvmlite.__version__,
        "numpy": np.__version__,
        "cpu": config.CPU_NAME or "host",
        **asdict(_SETUP),
    }


def _load_numba_array_maths_without_blas() -> bool:
    """Import numba's array maths without its probe of scipy's BLAS; True if skipped.

    When it loads (at the first kernel compiled or read from the cache),
    ``numba.np.arraymath`` imports ``scipy.linalg`` only to learn whether
    ``np.dot`` can be compiled. No kernel here uses BLAS (``np.dot``,
    ``np.linalg``), so the probe is answered "no"; scipy itself stays
    importable as usual afterwards.
    """
    probe = "scipy.linalg.cython_blas"
    if probe in sys.modules or "numba.np.arraymath" in sys.modules:
        return False
    sys.modules[probe] = None  # type: ignore[assignment]  # makes the import fail
    try:
        import numba.np.arraymath  # noqa: F401
    finally:
        del sys.modules[probe]
    return True
