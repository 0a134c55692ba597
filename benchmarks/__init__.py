"""Benchmarks run with the command line's compiler set-up (:func:`certify.compiler.configure`).

Their figures stand for what ``slotcert`` does, so they compile as it does:
branch alignment, the faster copy propagation, the shipped kernels.
"""

from certify.compiler import configure

configure()
