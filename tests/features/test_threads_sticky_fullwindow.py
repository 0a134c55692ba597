"""Sticky wilds and full-window pays: bit-identical chunks with 1 and 2 numba threads."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

_RUN = """
import json, sys
sys.path.insert(0, {here!r})
sys.path.insert(0, {tests!r})
import numpy as np
from test_full_window import game as fw_game
from test_sticky_wilds import game as sticky_game
from certify.engine.simulate import run_chunks
from certify.engine.tables import compile_machine
rows = []
for m in (sticky_game(), fw_game("[[full_window_pays]]\\nsymbol = 'ANY'\\nmultiplier = 2\\n")):
    arrays = run_chunks(compile_machine(m), 0, 11, 3, np.array([5000, 3000, 4000, 2000]))
    rows.append([a.tolist() for a in arrays])
print(json.dumps(rows))
"""


def test_bit_identical_for_any_thread_count():
    """Each chunk is one stream: the thread that plays it cannot change a bit of it."""
    results = []
    code = _RUN.format(here=str(HERE), tests=str(HERE.parent))
    for threads in ("1", "2"):
        env = {**os.environ, "NUMBA_NUM_THREADS": threads}
        done = subprocess.run(
            [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
        )
        results.append(json.loads(done.stdout.strip().splitlines()[-1]))
    assert results[0] == results[1]
    assert results[0][0][0] != results[0][1][0]  # two different games were played
