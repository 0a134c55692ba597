"""The one place that compiles numba kernels, with the project's options.

Every kernel module imports :func:`jit` from here (never ``numba.njit``), so
all kernels share ``cache=True`` (compiled once, reused by later processes)
and ``error_model="numpy"`` (no Python exception checks on division).
"""

from __future__ import annotations

from typing import Any

import numba

_OPTIONS: dict[str, Any] = {"cache": True, "error_model": "numpy", "nogil": True}


def jit(*args: Any, parallel: bool = False, **kwargs: Any) -> Any:
    """Compile a kernel with the project's options.

    Parameters
    ----------
    parallel : bool
        Enable ``prange`` parallel loops.
    """
    options = {**_OPTIONS, "parallel": parallel, **kwargs}
    if args and callable(args[0]):
        return numba.njit(**options)(args[0])
    return numba.njit(*args, **options)


prange = numba.prange
