"""Meter reconciliation: dump readers, the meter registry, checks and the floor simulator."""
