"""Exact calculator: full-cycle enumeration, decomposition, feature moments."""

from certify.exact.calculator import compute_exact, exact_refusal
from certify.exact.cycle import AwardExact, ExactResult, LevelExact
from certify.exact.theory import theory

__all__ = ["AwardExact", "ExactResult", "LevelExact", "compute_exact", "exact_refusal", "theory"]
