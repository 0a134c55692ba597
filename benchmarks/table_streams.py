"""Table games at their files' settings: the French pockets' chi-square and each table's largest |z|.

Usage: ``python -m benchmarks.table_streams`` (numbers quoted in docs/TABLES.md).
"""

import numpy as np
from scipy import stats

from certify.tables import _kernels, exact_results, load_table
from certify.tables.montecarlo import chunk_streams, estimate, simulate_counts, split_rounds

t = load_table("models/tables/roulette-french.toml")
sim = t.simulation
codes = np.diag(np.full(37, 2)).astype(np.int64)
out = np.zeros((sim.chunks, 37, 3), dtype=np.int64)
_kernels.mc_lookup(
    chunk_streams(sim.seed, sim.chunks), split_rounds(sim.rounds, sim.chunks), codes, out
)
pockets = out.sum(axis=0)[:, 2]
e = sim.rounds / 37
z = (pockets - e) / np.sqrt(e * 36 / 37)
print(
    "french pockets chi2 p =",
    stats.chisquare(pockets).pvalue,
    "max |z|",
    np.abs(z).max(),
    "at",
    int(np.abs(z).argmax()),
)
for path in [
    "roulette-french",
    "roulette-american-single-zero",
    "fantan",
    "three-card-poker",
    "pai-kao",
]:
    t = load_table(f"models/tables/{path}.toml")
    counts = simulate_counts(t)
    res = exact_results(t)
    worst = 0
    for r, c in zip(res, counts):
        est = estimate(c, r.returns, 0.99)
        worst = max(worst, abs(est.rtp - float(r.rtp)) / est.std_error)
    level = 1 - 0.01 / len(res)
    from certify.stats import z_value

    print(path, "bets", len(res), "max |z|", round(worst, 2), "family z", round(z_value(level), 2))
