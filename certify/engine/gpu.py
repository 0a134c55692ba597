"""The Monte Carlo engine on an NVIDIA GPU (``--device cuda``, SPEC section 8).

One GPU thread plays one chunk through the CUDA kernel of
:mod:`certify.engine._cuda`, which runs the CPU kernel's own chunk loop
(:func:`certify.engine._chunk.play_chunk`) compiled for CUDA: the chunk draws
the same xoshiro256** stream and adds the same integers, and the host merges
the chunks in chunk order, so a run's figures are bit-identical to the CPU
run with the same seed and chunk size. A GPU wants many threads, so GPU runs
want small chunks (``--chunk-spins 4096``: 2.4M threads for 1e10 spins).

Games the kernel does not play on the GPU (cascades, cluster pays, sticky
wilds: the screen kernels) are refused with a located message; so is a run
without a usable GPU, never silently moved to the CPU. Under numba's CUDA
simulator (``NUMBA_ENABLE_CUDASIM=1``, set before numba is imported) the
kernels run on the CPU as Python: what the tests use.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np

from certify.engine import _kernels as k
from certify.engine.kernel_inputs import (
    game_inputs,
    hist_inputs,
    level_inputs,
    prefix_inputs,
    prefix_tables,
    reel_inputs,
)
from certify.engine.rng import chunk_states
from certify.engine.simulate import extras_flag, fast_flag, ways_flag
from certify.engine.tables import HIST_BINS, GameTables, line_bonus_variant
from certify.errors import UsageError
from certify.model.screens import is_screen_game

DEVICES = ("cpu", "cuda")
# chunks of one kernel launch at most (and no more than DEVICE_BYTES of counters)
LAUNCH_CHUNKS = 1 << 18
DEVICE_BYTES = 2 << 30


def simulating() -> bool:
    """Whether numba's CUDA simulator is on (``NUMBA_ENABLE_CUDASIM=1``)."""
    return os.environ.get("NUMBA_ENABLE_CUDASIM", "0") not in ("", "0")


def machine_refusal(machine: Any, where: str = "") -> str | None:
    """Why a machine cannot run on ``--device cuda``, from its model alone (None: maybe it can).

    The screen games (cascades, cluster pays, sticky wilds) run on the CPU
    only. The message names ``where`` (the machine file; else the machine's
    id), the model key of the rule and what to do.
    """
    if not is_screen_game(machine):
        return None
    if getattr(machine, "cascade", None) is not None:
        key, what = "cascade", "cascades"
    elif machine.evaluation == "cluster":
        key, what = "evaluation", "cluster pays"
    else:
        key, what = "free_spins", "sticky wilds"
    return (
        f"{where or f'machine {machine.id}'}: {key}: --device cuda does not play {what} (the "
        "screen kernels run on the CPU only); run this machine without --device cuda"
    )


def cuda_refusal(tables: GameTables, where: str = "") -> str | None:
    """Why a game cannot run on ``--device cuda`` (None: it can); see :func:`machine_refusal`."""
    from certify.engine._cuda import MAX_FAMILIES, MAX_JACKPOTS, MAX_REELS

    refusal = machine_refusal(tables.machine, where)
    if refusal is not None:
        return refusal
    where = where or f"machine {tables.machine.id}"
    n_reels = int(tables.base.length.shape[0])
    if n_reels > MAX_REELS:
        return f"{where}: reels: {n_reels} reels; --device cuda plays at most {MAX_REELS}"
    families = int(tables.ways_family.max(initial=0)) + 1
    if families > MAX_FAMILIES:
        return (
            f"{where}: pays: {families} ways families; --device cuda plays at most {MAX_FAMILIES}"
        )
    jackpots = game_inputs(tables).hold_n_jackpots
    if jackpots > MAX_JACKPOTS:
        return f"{where}: hold: {jackpots} jackpots; --device cuda plays at most {MAX_JACKPOTS}"
    return None


def refuse_machine(machine: Any, where: str = "") -> None:
    """Raise :func:`machine_refusal` as a UsageError (exit 2), if there is one."""
    refusal = machine_refusal(machine, where)
    if refusal is not None:
        raise UsageError(refusal)


def refuse(tables: GameTables, where: str = "") -> None:
    """Raise :func:`cuda_refusal` as a UsageError (exit 2), if there is one."""
    refusal = cuda_refusal(tables, where)
    if refusal is not None:
        raise UsageError(refusal)


def check_cuda() -> str:
    """The GPU a ``--device cuda`` run uses, by name; a UsageError (exit 2) if there is none."""
    if simulating():
        return "numba CUDA simulator (NUMBA_ENABLE_CUDASIM=1)"
    if "device" in _STATE:
        return _STATE["device"]
    from numba import cuda

    try:
        available = bool(cuda.is_available())
    except Exception as exc:  # noqa: BLE001  (a broken driver raises many kinds of errors)
        raise UsageError(f"--device cuda: the CUDA driver failed: {exc}") from exc
    if not available:
        raise UsageError(
            "--device cuda: no usable NVIDIA GPU (numba.cuda.is_available() is False: no GPU, "
            "no driver, or no CUDA toolkit; install slotcert[gpu]); run without --device cuda "
            "to use the CPU"
        )
    _load_cuda_target()
    name = cuda.get_current_device().name
    _STATE["device"] = name.decode() if isinstance(name, bytes) else str(name)
    return _STATE["device"]


_STATE: dict[str, Any] = {}  # the GPU's name once checked, whether numba-cuda is loaded
_STAND_INS: dict[str, Any] = {}
# numpy functions removed since numba-cuda releases that still name them
_REMOVED_NUMPY = frozenset(
    "row_stack trapz in1d product cumproduct sometrue alltrue round_ msort asfarray "
    "find_common_type issubclass_ deprecate deprecate_with_doc safe_eval lookfor "
    "fastCopyAndTranspose set_string_function byte_bounds compare_chararrays".split()
)


def _load_cuda_target() -> None:
    """Load numba-cuda's typing registries, tolerating numpy names removed since it was built.

    A numba-cuda older than the installed numpy registers overloads of numpy
    functions numpy has since removed (``np.row_stack`` in numpy 2.5,
    ``np.trapz`` and ``np.in1d`` in 2.4) and then fails at its first kernel
    with an AttributeError, whatever the kernel. While a trivial kernel is
    compiled (which loads every registry once), a missing public numpy name
    (of ``_REMOVED_NUMPY``) reads as a stand-in function that nothing calls;
    numpy is left as it was.
    """
    if _STATE.get("loaded"):
        return
    from numba import cuda

    original = np.__dict__.get("__getattr__")

    def lenient(name: str) -> Any:
        try:
            if original is None:
                raise AttributeError(name)
            return original(name)
        except AttributeError:
            if name not in _REMOVED_NUMPY:
                raise
            if name not in _STAND_INS:

                def stand_in(*args: Any, **kwargs: Any) -> Any:
                    raise AttributeError(f"numpy.{name} was removed from numpy")

                stand_in.__name__ = name
                _STAND_INS[name] = stand_in
            return _STAND_INS[name]

    np.__getattr__ = lenient  # type: ignore[attr-defined,method-assign]
    try:

        def touch(a):  # pragma: no cover - compiled for the GPU
            a[0] = 1

        cuda.jit("void(int64[:])")(touch)
    finally:
        if original is None:
            del np.__getattr__  # type: ignore[attr-defined]
        else:
            np.__getattr__ = original  # type: ignore[attr-defined,method-assign]
    _STATE["loaded"] = True


def _to_device(inputs: Any) -> Any:
    """A named tuple of kernel inputs with its arrays on the GPU (as is in the simulator)."""
    if simulating():
        return inputs
    from numba import cuda

    return type(inputs)(
        *(
            cuda.to_device(np.ascontiguousarray(v)) if isinstance(v, np.ndarray) else v
            for v in inputs
        )
    )


def _device_tables(tables: GameTables, level_index: int) -> dict[str, Any]:
    """The kernel inputs of one level on the GPU (sent once, then kept with the tables)."""
    tables = line_bonus_variant(tables, "tag")  # a line bonus: its lines marked, as on the CPU
    key = ("cuda", level_index)
    if key not in tables.prefix_cache:
        px = prefix_tables(tables, level_index)
        lt = tables.levels[level_index]
        tables.prefix_cache[key] = {
            "inputs": tuple(
                _to_device(x)
                for x in (
                    reel_inputs(tables),
                    prefix_inputs(px),
                    level_inputs(lt, tables),
                    game_inputs(tables),
                    hist_inputs(lt.total_bet),
                )
            ),
            "class_entries": _array(np.ascontiguousarray(px.class_entries, dtype=np.int64)),
            "award_keys": _array(np.ascontiguousarray(lt.award_keys, dtype=np.int64)),
            "n_classes": int(px.n_classes),
            "n_keys": int(lt.n_keys),
            "flags": (ways_flag(tables), fast_flag(tables, px), extras_flag(tables)),
        }
    return tables.prefix_cache[key]


def _array(a: np.ndarray) -> Any:
    if simulating():
        return a
    from numba import cuda

    return cuda.to_device(a)


def _empty(shape: tuple[int, ...], dtype: Any) -> Any:
    if simulating():
        return np.zeros(shape, dtype=dtype)
    from numba import cuda

    return cuda.device_array(shape, dtype=dtype)


def _host(a: Any) -> np.ndarray:
    return a if isinstance(a, np.ndarray) else a.copy_to_host()


def launch_chunks(dev: dict[str, Any], states: np.ndarray, sizes: np.ndarray) -> tuple:
    """One kernel launch over ``states.shape[0]`` chunks; the outputs of :func:`run_chunks_cuda`."""
    from certify.engine._cuda import THREADS_PER_BLOCK, award_kernel, chunk_kernel

    n = states.shape[0]
    n_classes2 = 2 * dev["n_classes"]
    n_awards2 = 2 * (dev["n_keys"] + 1)
    n_awards = dev["award_keys"].shape[1]
    out = _empty((n, k.N_OUT), np.int64)
    sq = _empty((n,), np.float64)
    classes = _empty((max(n_classes2, 1), n), np.int64)
    awards = _empty((n_awards2, n), np.int64)
    hist = _empty((HIST_BINS, n), np.int64)
    counts = _empty((n, n_awards), np.int64)
    blocks = -(-n // THREADS_PER_BLOCK)
    kernel = chunk_kernel(*dev["flags"])
    kernel[blocks, THREADS_PER_BLOCK](
        _array(states), _array(sizes), *dev["inputs"], out, sq, classes, awards, hist
    )
    award_kernel[blocks, THREADS_PER_BLOCK](
        classes,
        awards,
        dev["class_entries"],
        dev["award_keys"],
        dev["n_classes"],
        dev["n_keys"],
        counts,
    )
    return _host(out), _host(sq), _host(counts), np.ascontiguousarray(_host(hist).T)


def launch_size(dev: dict[str, Any]) -> int:
    """Chunks per kernel launch: at most ``LAUNCH_CHUNKS`` and ``DEVICE_BYTES`` of counters."""
    words = k.N_OUT + 1 + 2 * dev["n_classes"] + 2 * (dev["n_keys"] + 1) + HIST_BINS
    words += dev["award_keys"].shape[1]
    return int(max(1024, min(LAUNCH_CHUNKS, DEVICE_BYTES // (8 * words))))


def run_chunks_cuda(
    tables: GameTables,
    level_index: int,
    seed: int,
    first_chunk: int,
    sizes: np.ndarray,
    stream: int = 0,
) -> tuple:
    """:func:`certify.engine.simulate.run_chunks` on the GPU: the same four arrays, bit for bit.

    (statistics, sums of squares, base-game award counts, histograms), one
    row per chunk, chunks ``first_chunk ..`` of sizes ``sizes``.
    """
    refuse(tables)
    check_cuda()  # a clear error without a GPU; loads numba-cuda's registries once
    dev = _device_tables(tables, level_index)
    step = launch_size(dev)
    parts = []
    for lo in range(0, sizes.shape[0], step):
        part = sizes[lo : lo + step]
        states = chunk_states(seed, first_chunk + lo, part.shape[0], stream)
        parts.append(launch_chunks(dev, states, np.ascontiguousarray(part, dtype=np.int64)))
    if len(parts) == 1:
        return parts[0]
    return tuple(np.concatenate([p[f] for p in parts]) for f in range(4))
