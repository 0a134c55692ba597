"""A progressive pool won in hold and spin (SPEC 3.1b ``jackpots``, 3.3): hits and return.

Hand counts on tiny games; the pool's return is its contribution plus the reset
funding at the exact hit rate (``certify.jackpot_return``).
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from test_window_features import R, machine_from, pays

from certify.engine import compile_machine
from certify.errors import ModelError
from certify.exact import compute_exact
from certify.jackpot_return import level_pools, spin_probability

POOL = '\n[[jackpots]]\nid = "GP"\nkind = "standalone"\ncontribution = "0.01"\nreset = "5.00"\n'
HOLD = (
    "[hold_and_spin]\ntrigger = {symbol = 'COIN', count = 1}\nrespins = 1\n"
    'cell_probability = "0.5"\nvalues = [{pays = 1, weight = 1}]\nfull_window = "GP"\n'
    "jackpots = {}\n"
)
SYMBOLS = {"COIN": "{kind = 'bonus'}", "F": "{kind = 'scatter'}", "X": R}


def game(strips, extra=""):
    return machine_from(strips, SYMBOLS, pays("X X = 1"), HOLD + extra + POOL)


def test_pool_hits_in_the_base_game():
    """2 reels x 1 row, strips COIN X, 1 coin starts 1 respin with p = 1/2; a full window
    (2 cells) wins GP. COIN COIN (1/4) is full at once; one coin (1/2) fills with 1/2:
    hits per spin 1/4 + 1/4 = 1/2. The coins pay 1 x total bet each: the fixed part is
    the test_window_features figure without its GRAND: 2/4 + (1/2)(3/2) + 1/4 = 3/2."""
    m = game([["COIN", "X"]] * 2)
    ex = compute_exact(compile_machine(m))
    level = ex.levels[0]
    assert level.pool_hits == {"GP": pytest.approx(0.5, abs=1e-15)}
    assert level.rtp == pytest.approx(1.5, abs=1e-12)
    assert spin_probability(m, 0, m.jackpots[0], level) == pytest.approx(0.5, abs=1e-15)


def test_pool_hits_in_free_spins_count_too():
    """Strips COIN F X (1 row, 2 reels, 9 windows); F F starts 1 free spin on the same
    strips. Per spin: COIN COIN (1/9) hits; one coin and no other (4/9) hits with 1/2;
    F F (1/9) plays a free spin hitting 1/9 + (4/9)(1/2) = 1/3 times.
    Hits per paid spin 1/9 + 2/9 + (1/9)(1/3) = 10/27."""
    extra = "[free_spins]\ntrigger = {symbol = 'F', count = 2}\nspins = {2 = 1}\n"
    m = game([["COIN", "F", "X"]] * 2, extra)
    level = compute_exact(compile_machine(m)).levels[0]
    assert level.pool_hits["GP"] == pytest.approx(float(Fraction(10, 27)), abs=1e-15)


def test_pool_return_is_contribution_plus_reset_funding():
    """Return of GP per unit wagered: c + q x reset / bet = 0.01 + (1/2) x 5 / 0.01
    (1 line x 1 credit x EUR 0.01) = 250.01 (a toy pool: tiny bet, big reset)."""
    m = game([["COIN", "X"]] * 2)
    level = compute_exact(compile_machine(m)).levels[0]
    (pool,) = level_pools(m, 0, level)
    assert pool.rtp == pytest.approx(0.01 + 0.5 * 5 / 0.01, rel=1e-12)


def test_a_pool_without_trigger_must_be_a_hold_prize():
    """Without [hold_and_spin] naming it, a pool needs its trigger (located error)."""
    hold = HOLD.replace('"GP"', '"G2"').replace("jackpots = {}", "jackpots = {G2 = 10}")
    with pytest.raises(ModelError, match="trigger") as err:
        machine_from([["COIN", "X"]] * 2, SYMBOLS, pays("X X = 1"), hold + POOL)
    assert "unless [hold_and_spin] or a [[full_window_pays]] entry awards it" in str(err.value)
