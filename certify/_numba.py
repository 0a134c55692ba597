"""The one place that compiles numba kernels, with the project's options.

Every kernel module imports :func:`jit` from here (never ``numba.njit``), so
all kernels share ``cache=True`` (compiled once, reused by later processes)
and ``error_model="numpy"`` (no Python exception checks on division).

numba checks a cached kernel only against its own source file, not the
inlined functions it took from other files: a kernel compiled with an old
``_prefix.py`` would be reused after that file changed. So on import, a digest
of every kernel source file (``_*.py`` in the packages, and the modules of the
records kernels take: ``*records.py``, ``kernel_inputs.py``, ``engine/hold.py``)
is compared with the one the caches were built from, and the caches are dropped
when it differs.

Importing this module changes nothing in numba: the command line's compiler
options (branch alignment, the faster copy propagation, the kernels shipped
compiled) are applied by one explicit call, :func:`certify.compiler.configure`.
"""

from __future__ import annotations

import contextlib
import hashlib
import types
from pathlib import Path
from typing import Any

import numba

_ROOT = Path(__file__).resolve().parents[1]
_PACKAGES = ("certify", "meters")
_STAMP = _ROOT / "certify" / "__pycache__" / "numba-sources.sha256"
# modules of records kernels take, beside ``*records.py`` (tests/test_structure.py finds any other)
_RECORD_MODULES = ("certify/engine/kernel_inputs.py", "certify/engine/hold.py")


def _is_kernel_source(path: Path) -> bool:
    """A kernel module (``_*.py``) or a module of the records kernels take.

    numba's cache keys a kernel by its arguments' types: a record's class and
    its fields' types, not their names. Two fields of one type swapped in a
    record module would let a cached kernel read one as the other, so the
    record modules count as kernel sources too.
    """
    name = path.name
    if name.startswith("__"):
        return False
    if name.startswith("_") or name.endswith("records.py"):
        return True
    return path.relative_to(_ROOT).as_posix() in _RECORD_MODULES


def _kernel_sources() -> list[Path]:
    return sorted(
        p for pkg in _PACKAGES for p in (_ROOT / pkg).rglob("*.py") if _is_kernel_source(p)
    )


def kernel_sources_digest() -> str:
    """sha256 of every kernel source file (what compiled kernels and cached tables hang on)."""
    digest = hashlib.sha256()
    for path in _kernel_sources():
        digest.update(path.relative_to(_ROOT).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def refresh_kernel_cache() -> bool:
    """Drop the packages' numba caches if a kernel source changed; True if dropped."""
    stamp = SOURCES_DIGEST
    with contextlib.suppress(OSError):
        if _STAMP.read_text() == stamp:
            return False
    with contextlib.suppress(OSError):
        for pkg in _PACKAGES:
            for cached in (_ROOT / pkg).rglob("__pycache__/*.nb[ic]"):
                cached.unlink(missing_ok=True)
        _STAMP.parent.mkdir(exist_ok=True)
        _STAMP.write_text(stamp)
    return True


SOURCES_DIGEST = kernel_sources_digest()
refresh_kernel_cache()

_OPTIONS: dict[str, Any] = {"cache": True, "error_model": "numpy", "nogil": True}


def jit(*args: Any, parallel: bool | dict[str, bool] = False, **kwargs: Any) -> Any:
    """Compile a kernel with the project's options.

    Parameters
    ----------
    *args : callable or signature
        What ``numba.njit`` takes (the function, or a signature).
    parallel : bool or dict
        Enable ``prange`` parallel loops, or numba's parallel options by name
        (e.g. :data:`SERIAL_PASSES`).
    **kwargs : Any
        Further numba options (e.g. ``inline="always"``).

    """
    if isinstance(parallel, dict):
        parallel = dict(parallel)  # numba empties the dict it is given
    options = {**_OPTIONS, "parallel": parallel, **kwargs}
    if args and callable(args[0]):
        return numba.njit(**options)(args[0])
    return numba.njit(*args, **options)


prange = numba.prange

# numba's parallel passes with no parallel loop made: a kernel called once per
# chunk from a ``prange`` loop gets copy propagation (and with it
# :mod:`certify.numba_records`) without starting parallel work of its own
SERIAL_PASSES = {
    "comprehension": False,
    "reduction": False,
    "inplace_binop": False,
    "setitem": False,
    "numpy": False,
    "stencil": False,
    "fusion": False,
    "prange": False,
}

_CUDA_DEVICE: dict[Any, Any] = {}  # Python function -> its CUDA device function


def cuda_device(func: Any) -> Any:
    """The CUDA device function of a kernel function compiled by :func:`jit`.

    The same Python source as the CPU kernel, not a copy of it: the function
    is rebuilt on a copy of its module's globals in which every function
    compiled by :func:`jit` it calls is replaced by that function's own CUDA
    device function (recursively), then compiled with
    ``numba.cuda.jit(device=True)``. Under numba's CUDA simulator
    (``NUMBA_ENABLE_CUDASIM=1``) the device functions run as Python.

    Parameters
    ----------
    func : numba dispatcher or callable
        A function compiled by :func:`jit` (or its Python function).

    """
    py = getattr(func, "py_func", func)
    done = _CUDA_DEVICE.get(py)
    if done is not None:
        return done
    from numba import cuda  # noqa: PLC0415  (only runs of --device cuda load it)

    scope = dict(py.__globals__)
    clone = types.FunctionType(py.__code__, scope, py.__name__, py.__defaults__, py.__closure__)
    clone.__doc__ = py.__doc__
    device = _CUDA_DEVICE[py] = cuda.jit(device=True)(clone)
    for name in py.__code__.co_names:
        value = scope.get(name)
        if isinstance(value, numba.core.registry.CPUDispatcher):
            scope[name] = cuda_device(value)
    return device
