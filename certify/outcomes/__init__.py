"""Outcome verification (SPEC 10): is the machine on the bench the certified model.

``slotcert outcomes verify`` / :func:`verify_outcomes` replay a machine's
outcome logs by the model and test its stops, return and raw output;
``slotcert outcomes record`` / :func:`record_outcomes` write a log of the
engine's own play, with a known fault when asked. See ``docs/OUTCOMES.md``.

Modules: ``logs`` (readers), ``model`` (the machine compiled for replay),
``kernels`` (numba: replay, feature order, record), ``replay`` (pieces ->
findings and tallies), ``tally`` (stop accumulators), ``stattests`` and
``nist`` (the tests), ``verify`` (orchestration, result), ``record``,
``report`` (output files), ``cli``.
"""

from __future__ import annotations

from typing import Any


def verify_outcomes(*args: Any, **kwargs: Any) -> Any:
    """See :func:`certify.outcomes.verify.verify_outcomes`."""
    from certify.outcomes.verify import verify_outcomes as _verify

    return _verify(*args, **kwargs)


def record_outcomes(*args: Any, **kwargs: Any) -> Any:
    """See :func:`certify.outcomes.record.record_outcomes`."""
    from certify.outcomes.record import record_outcomes as _record

    return _record(*args, **kwargs)


__all__ = ["record_outcomes", "verify_outcomes"]
