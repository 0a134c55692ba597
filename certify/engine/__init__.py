"""Monte Carlo engine: tables, numba kernels, splittable RNG streams."""

from certify.engine.simulate import SimulationResult, simulate
from certify.engine.tables import GameTables, compile_machine

__all__ = ["GameTables", "SimulationResult", "compile_machine", "simulate"]
