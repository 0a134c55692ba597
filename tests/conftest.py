"""Test helpers (``testpaths``, the ``twins`` package) importable everywhere; numba set up."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from certify.compiler import configure  # noqa: E402

# the suite runs with the command line's compiler set-up (and its shipped kernels);
# tests/test_compiler.py checks in fresh interpreters that an import alone changes nothing
configure()
