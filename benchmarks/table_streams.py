"""Table games at their files' settings: French pocket chi-square, each table's largest |z|.

Usage: ``python -m benchmarks.table_streams`` (the figures quoted in docs/TABLES.md).
"""

from pathlib import Path

import numpy as np
from scipy import stats

from certify.stats import z_value
from certify.tables import _kernels, exact_results, load_table
from certify.tables.montecarlo import chunk_streams, estimate, simulate_counts, split_rounds

TABLES = Path(__file__).resolve().parents[1] / "models" / "tables"
NAMES = ("roulette-french", "roulette-american-single-zero", "fantan")
NAMES += ("three-card-poker", "pai-kao")


def pockets() -> None:
    """Chi-square of the French wheel's 37 pocket counts."""
    sim = load_table(TABLES / "roulette-french.toml").simulation
    codes = np.diag(np.full(37, 2)).astype(np.int64)
    out = np.zeros((sim.chunks, 37, 3), dtype=np.int64)
    streams = chunk_streams(sim.seed, sim.chunks)
    _kernels.mc_lookup(streams, split_rounds(sim.rounds, sim.chunks), codes, out)
    counts = out.sum(axis=0)[:, 2]
    e = sim.rounds / 37
    z = (counts - e) / np.sqrt(e * 36 / 37)
    print(f"french pockets: chi-square p = {stats.chisquare(counts).pvalue:.3f}, ", end="")
    print(f"largest |z| {np.abs(z).max():.2f} (pocket {int(np.abs(z).argmax())})")


def bets() -> None:
    """Largest |simulated - exact| / se over each table's bets, and the family bound."""
    for name in NAMES:
        table = load_table(TABLES / f"{name}.toml")
        results = exact_results(table)
        worst = 0.0
        for r, c in zip(results, simulate_counts(table)):
            est = estimate(c, r.returns, 0.99)
            worst = max(worst, abs(est.rtp - float(r.rtp)) / est.std_error)
        bound = z_value(1 - 0.01 / len(results))
        print(f"{name}: {len(results)} bets, largest |z| {worst:.2f}, family bound {bound:.2f}")


if __name__ == "__main__":
    pockets()
    bets()
