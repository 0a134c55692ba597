"""Exact calculator: full-cycle enumeration, decomposition, feature moments."""

from certify.exact.cycle import AwardExact, ExactResult, LevelExact, compute_exact
from certify.exact.theory import theory

__all__ = ["AwardExact", "ExactResult", "LevelExact", "compute_exact", "theory"]
