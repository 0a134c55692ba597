"""How cost grows (pytest-benchmark): the quick rows of :mod:`benchmarks.cost_growth`.

Run: ``.venv/bin/python -m pytest benchmarks/test_cost_growth.py --benchmark-only``; the
whole table: ``python -m benchmarks.cost_growth``.
"""

from __future__ import annotations

from benchmarks.cost_growth import factorised_table, table


def test_cost_growth_quick(benchmark):
    lines = benchmark.pedantic(table, args=(True, 1 << 20), rounds=1, iterations=1)
    benchmark.extra_info["table"] = lines
    assert all("refused" not in line for line in lines)


def test_ways_factorised(benchmark):
    lines = benchmark.pedantic(factorised_table, rounds=1, iterations=1)
    benchmark.extra_info["table"] = lines
