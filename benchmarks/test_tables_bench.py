"""Table games: exact three-card poker (inclusion-exclusion vs the full pair walk),
Pai Kao (fast vs the Python twin) and Monte Carlo throughput; correctness asserted inside."""

from fractions import Fraction
from pathlib import Path

import pytest

from certify.tables import _twins, load_table
from certify.tables.duel import duel_space
from certify.tables.duel_exact import duel_odds, duel_odds_brute
from certify.tables.montecarlo import simulate_counts

TABLES = Path(__file__).resolve().parents[1] / "models" / "tables"


@pytest.fixture(scope="module")
def poker():
    return duel_space(load_table(TABLES / "three-card-poker.toml"))


@pytest.fixture(scope="module")
def poker_reference(poker):
    return duel_odds(poker.hands, poker.keys, poker.zero, 52, True, True)


@pytest.mark.parametrize("method", ["inclusion_exclusion", "numba_pair_walk"])
def test_poker_exact(benchmark, poker, poker_reference, method):
    if method == "inclusion_exclusion":
        run = lambda: duel_odds(poker.hands, poker.keys, poker.zero, 52, True, True)  # noqa: E731
    else:
        run = lambda: duel_odds_brute(poker.hands, poker.keys, poker.zero, True, True)  # noqa
    run()  # compile outside the timing
    odds = benchmark.pedantic(run, rounds=3, iterations=1)
    assert odds == poker_reference


@pytest.mark.parametrize("method", ["fast", "python_twin"])
def test_paikao_exact(benchmark, method):
    space = duel_space(load_table(TABLES / "pai-kao.toml"))
    fast = duel_odds(space.hands, space.keys, space.zero, 20, True, True)
    if method == "fast":
        odds = benchmark(duel_odds, space.hands, space.keys, space.zero, 20, True, True)
        assert odds == fast
        return
    tiles = [face for face in range(1, 11) for _ in range(2)]

    def zero(hand):
        return hand[0] != hand[1] and (hand[0] + hand[1]) % 10 == 0

    lose, push, win = benchmark.pedantic(
        _twins.duel_counts, (tiles, 2, _twins.paikao_rank, zero, True, True), rounds=1, iterations=1
    )
    assert Fraction(win, lose + push + win) == fast.probabilities()[0]


@pytest.mark.parametrize("name", ["roulette-french", "three-card-poker"])
def test_monte_carlo_million_rounds(benchmark, name):
    table = load_table(TABLES / f"{name}.toml")
    simulate_counts(table, rounds=1000, seed=1)  # compile
    counts = benchmark.pedantic(simulate_counts, (table, 1_000_000, 1), rounds=3, iterations=1)
    assert int(counts[0].sum()) == 1_000_000
