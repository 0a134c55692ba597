#!/usr/bin/env bash
# --device cuda on a real NVIDIA GPU, in one short run (about 5-8 minutes on an
# H200 with 16 cores): the GPU/CPU identity check of tests/gpu/identity.py on
# the real GPU (not the simulator), small chunks, a few machines in parallel
# (each compiles its CPU and CUDA kernels), then benchmarks.devices.
#
# Needs only numpy, scipy, numba and numba-cuda (with a CUDA toolkit numba
# finds): the engine path imports nothing else, and the tree is used in place
# (PYTHONPATH), so nothing is installed. Sizes: SPINS (GPU, default 1e10),
# CPU_SPINS (default 5e8), THREADS (default 1,4,16), CHUNK (default 4096),
# MODELS (identity check), PYTHON (default python3).
set -uo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
export PYTHONPATH=$PWD
unset NUMBA_ENABLE_CUDASIM
OUT=${OUT:-/tmp/slotcert-gpu-check}
mkdir -p "$OUT"
nvidia-smi -L || echo "gpu_check: nvidia-smi not found"
"$PY" - <<'PYEOF' || { echo "gpu_check: a dependency is missing (above): install numpy scipy numba numba-cuda"; exit 2; }
import numpy, scipy, numba
from numba import cuda
print("numba", numba.__version__, "cuda available:", cuda.is_available())
assert cuda.is_available(), "numba.cuda.is_available() is False"
PYEOF
MODELS=${MODELS:-"ref-5x3-20 ways-243 classic-3r-1 book-5x3-10 reelwild-5x3-20 hold-5x3-20 heights-4r jackpot-5x3 cascade-5x3-10"}
status=0
start=$(date +%s)
pids=()
for m in $MODELS; do
    "$PY" tests/gpu/identity.py "models/machines/$m.toml" --sizes 4096,4096,1000 --spins 100000 \
        --chunk-spins 4096 >"$OUT/identity-$m.log" 2>&1 &
    pids+=($!)
done
for p in "${pids[@]}"; do wait "$p" || status=1; done
for m in $MODELS; do
    echo "identity $m: $(grep -h '^{' "$OUT/identity-$m.log" || tail -n 20 "$OUT/identity-$m.log")"
done
echo "gpu_check: identity $([ $status = 0 ] && echo PASSED || echo FAILED) in $(( $(date +%s) - start )) s"
"$PY" -m benchmarks.devices --models "${BENCH_MODELS:-ref-5x3-20,ways-243}" --spins "${SPINS:-1e10}" \
    --cpu-spins "${CPU_SPINS:-5e8}" --threads "${THREADS:-1,4,16}" --chunk-spins "${CHUNK:-4096}" || status=1
exit $status
