"""``--device cuda`` (SPEC section 8): the CUDA kernels, run on numba's CUDA simulator.

The simulator (``NUMBA_ENABLE_CUDASIM=1``, read when numba is imported) runs
the CUDA kernel and its device functions as Python on the CPU, so these
tests run everywhere (CI has no GPU). They run it in a subprocess, since the
variable must be set before numba is imported. The second method each figure
is checked against is the CPU kernel itself: every field of a run must be
identical, bit for bit (``tests/gpu/identity.py``); the speed is measured on
a real GPU (``benchmarks/gpu_check.sh``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest
from testpaths import MACHINES, ROOT

IDENTITY = ROOT / "tests" / "gpu" / "identity.py"


def _run(args: list[str], simulator: bool = True, **kw) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("NUMBA_ENABLE_CUDASIM", None)
    if simulator:
        env["NUMBA_ENABLE_CUDASIM"] = "1"
    return subprocess.run(
        [sys.executable, *args], capture_output=True, text=True, env=env, cwd=ROOT, **kw
    )


@pytest.fixture(scope="module")
def identity_rows() -> list[dict]:
    done = _run([str(IDENTITY)], timeout=1800)
    rows = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    assert rows, done.stderr[-3000:]
    return rows


def test_every_covered_model_identical_on_the_simulator(identity_rows):
    """Every shipped and test machine the GPU plays: the same chunks and runs, every field."""
    bad = [r for r in identity_rows if not r["ok"]]
    assert not bad, bad
    played = {os.path.basename(r["model"]) for r in identity_rows if "refused" not in r}
    # the lines fast path, the generic lines path, ways (group draw), features and rules
    for name in ("ref-5x3-20.toml", "ways-243.toml", "classic-3r-1.toml", "book-5x3-10.toml"):
        assert name in played
    for name in ("reelwild-5x3-20.toml", "hold-5x3-20.toml", "heights-4r.toml"):
        assert name in played
    # a multiplier each paid spin draws, cells and full reels that multiply the spin, the
    # real games (their headers of comments before the schema line)
    for name in ("reel_multipliers.toml", "agt_egypt.toml", "ct_hells_hot_7s.toml"):
        assert name in played
    assert {"ct_rainbow_charm.toml", "netent_flowers.toml"} <= played


def test_screen_games_refused_with_their_file(identity_rows):
    refused = {os.path.basename(r["model"]): r["refused"] for r in identity_rows if "refused" in r}
    assert "cascade: --device cuda does not play cascades" in refused["cascade-5x3-10.toml"]
    assert "evaluation: --device cuda does not play cluster pays" in refused["cluster-7x7.toml"]
    assert (
        "small_sticky.toml: free_spins: --device cuda does not play sticky wilds"
        in (refused["small_sticky.toml"])
    )


def test_identity_check_sees_one_bit():
    """The comparison the identity check uses fails on a one-ulp sum of squares or a count."""
    sys.path.insert(0, str(IDENTITY.parent))
    from identity import same

    assert same(1.0, 1.0) and not same(1.0, np.nextafter(1.0, 2.0))
    a = np.arange(4, dtype=np.int64)
    b = a.copy()
    b[3] += 1
    assert same(a, a.copy()) and not same(a, b) and not same(a, a.astype(np.int32))


def test_cli_simulate_cuda_same_json_and_refusal():
    """``slotcert simulate --device cuda`` prints the CPU run's JSON; a cascade exits 2, located."""
    model = str(MACHINES / "ref-5x3-20.toml")
    args = ["-m", "certify", "simulate", model, "--spins", "300", "--chunk-spins", "128"]
    args += ["--seed", "3", "--level", "1", "--json"]
    cpu = _run(args, simulator=False)
    gpu = _run([*args, "--device", "cuda"])
    assert cpu.returncode == 0 and gpu.returncode == 0, gpu.stderr[-2000:]
    assert json.loads(cpu.stdout) == json.loads(gpu.stdout)
    cascade = str(MACHINES / "cascade-5x3-10.toml")
    done = _run(
        ["-m", "certify", "simulate", cascade, "--spins", "10", "--seed", "1", "--device", "cuda"]
    )
    assert done.returncode == 2
    assert f"{cascade}: cascade: --device cuda does not play cascades" in done.stderr


def test_device_function_is_the_cpu_source():
    """cuda_device compiles play_chunk's own code, its helpers swapped for their device versions."""
    code = (
        "import numba\n"
        "from certify._numba import cuda_device\n"
        "from certify.engine._chunk import play_chunk\n"
        "dev = cuda_device(play_chunk)\n"
        "fn = dev.fn if hasattr(dev, 'fn') else dev.py_func\n"
        "assert fn.__code__ is play_chunk.py_func.__code__\n"
        "g = fn.__globals__\n"
        "cpu = [n for n in fn.__code__.co_names\n"
        "       if isinstance(g.get(n), numba.core.registry.CPUDispatcher)]\n"
        "assert not cpu, cpu\n"
        "assert play_chunk.py_func.__globals__['close_spin'] is not g['close_spin']\n"
        "print('ok')\n"
    )
    done = _run(["-c", code])
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr[-2000:]


def test_no_gpu_is_exit_2_not_a_cpu_fallback():
    probe = _run(["-c", "from numba import cuda; print(cuda.is_available())"], simulator=False)
    if probe.stdout.strip() == "True":
        pytest.skip("this machine has a GPU")
    model = str(MACHINES / "ref-5x3-20.toml")
    args = ["-m", "certify", "simulate", model, "--spins", "10", "--seed", "1", "--device", "cuda"]
    done = _run(args, simulator=False)
    assert done.returncode == 2 and done.stdout == ""
    assert "--device cuda: no usable NVIDIA GPU" in done.stderr


def test_device_option_checked_before_anything_runs():
    from certify.errors import UsageError
    from certify.runners import open_runner

    with pytest.raises(UsageError, match="--device='tpu': must be cpu or cuda"):
        with open_runner(None, None, None, "tpu"):
            pass
    with pytest.raises(UsageError, match="cannot go with --workers/--scheduler"):
        with open_runner(None, 2, None, "cuda"):
            pass
