"""``import slotcert``: the Python API of the slotcert toolkit.

>>> import slotcert
>>> machine = slotcert.load("models/machines/ref-5x3-20.toml")  # doctest: +SKIP
>>> slotcert.exact(machine).to_frame()  # doctest: +SKIP

See ``docs/API.md``. The functions are those of :mod:`certify.api` (load,
exact, simulate, certify), :func:`verify_outcomes` and :func:`record_outcomes`
(:mod:`certify.outcomes`, outcome verification) plus :func:`reconcile_meters` and
:func:`write_certificates` from :mod:`slotcert.api`.
"""

from certify import __version__
from certify.api import (
    BatchResult,
    CertificationResult,
    ExactResult,
    InputError,
    ModelError,
    SimulationRun,
    UsageError,
    certify,
    exact,
    kind_of,
    load,
    load_jurisdiction,
    load_machine,
    simulate,
)
from certify.outcomes import record_outcomes, verify_outcomes
from slotcert.api import MeterReconciliation, examples, reconcile_meters, write_certificates

__all__ = [
    "BatchResult",
    "CertificationResult",
    "ExactResult",
    "InputError",
    "MeterReconciliation",
    "ModelError",
    "SimulationRun",
    "UsageError",
    "__version__",
    "certify",
    "exact",
    "examples",
    "kind_of",
    "load",
    "load_jurisdiction",
    "load_machine",
    "reconcile_meters",
    "record_outcomes",
    "simulate",
    "verify_outcomes",
    "write_certificates",
]
