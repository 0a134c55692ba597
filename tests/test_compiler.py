"""The compiler set-up: an import changes nothing in numba; the command line's call does."""

from __future__ import annotations

import subprocess
import sys

import llvmlite
import numba
import numpy as np
from testpaths import ROOT

from certify import compiler

NUMBA_STATE = """
import numba
from numba.core import config, ir_utils
from numba.parfors import parfor
def state():
    return (config.CPU_NAME, config.CPU_FEATURES, ir_utils.copy_propagate,
            ir_utils.init_copy_propagate_data, parfor.copy_propagate)
"""


def _run(code: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=600
    )


def test_import_leaves_numba_as_it_was():
    """A fresh interpreter: numba's CPU and its copy propagation are untouched by our imports.

    Before the set-up became an explicit call, importing the kernels (as any
    API call does) set numba's CPU to x86-64-v3 where the shipped kernels fit
    and replaced its copy propagation, for every kernel of the process. A
    user's own ``np.dot`` kernel still compiles afterwards (BLAS found).
    """
    code = NUMBA_STATE + (
        "before = state()\n"
        "import slotcert, certify.engine._kernels, certify.exact._kernels, certify.api\n"
        "assert state() == before, (before, state())\n"
        "import numpy as np\n"
        "@numba.njit\n"
        "def dot(a, b):\n"
        "    return np.dot(a, b)\n"
        "print(dot(np.ones(3), np.ones(3)))\n"
    )
    done = _run(code)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split()[-1] == "3.0"


def test_configure_applies_once_and_says_what():
    """The explicit call replaces the copy propagation and reports it; a second call is the same."""
    code = NUMBA_STATE + (
        "from certify.compiler import configure, current\n"
        "assert not current().configured\n"
        "before = state()\n"
        "setup = configure()\n"
        "assert setup is configure() and current() is setup and setup.configured\n"
        "from certify import numba_copyprop\n"
        "installed = getattr(state()[2], '__wrapped__', state()[2])  # behind numba_records\n"
        "assert installed is (numba_copyprop.copy_propagate if setup.copy_propagation_replaced"
        " else before[2])\n"
        "print(setup.prebuilt_kernels, state()[0] == 'x86-64-v3')\n"
    )
    done = _run(code)
    assert done.returncode == 0, done.stderr[-2000:]
    prebuilt, cpu_is_level = done.stdout.split()
    assert prebuilt == cpu_is_level  # the CPU level is set exactly when the shipped kernels apply


def test_describe_names_the_versions():
    """What a certificate's ``run.compiler`` holds: the versions of this process and the set-up."""
    described = compiler.describe()
    assert described["numba"] == numba.__version__
    assert described["llvmlite"] == llvmlite.__version__
    assert described["numpy"] == np.__version__
    assert described["configured"]  # tests/conftest.py configures the suite like the CLI
    assert set(described) >= {"cpu", "prebuilt_kernels", "copy_propagation_replaced"}


def test_help_loads_no_heavy_library():
    """``slotcert --help`` (every sub-command's parser, plugins included) imports no numba,
    numpy, pandas or model code: the runs import what they need when they run.

    Before the parsers were split from the runs (``reports/certify_run.py``,
    ``meters/jackpot_run.py``, lazy imports in ``certify/cli/commands.py``),
    the help loaded numba and pandas and took 2-5 s.
    """
    code = (
        "import sys\n"
        "from certify.cli import build_parser\n"
        "try:\n"
        "    build_parser(['--help']).parse_args(['--help'])\n"
        "except SystemExit:\n"
        "    pass\n"
        "heavy = ('numba', 'numpy', 'pandas', 'scipy', 'matplotlib', 'jinja2', 'openpyxl',\n"
        "         'dask', 'cryptography', 'certify.model', 'certify.engine')\n"
        "print([m for m in heavy if m in sys.modules])\n"
    )
    done = _run(code)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip().splitlines()[-1] == "[]"
