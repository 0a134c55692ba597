"""A jackpot combination that pays its line prize as well (``trigger.keep_pay``).

slotopol's games attach the pool to a paying win (Novomatic King's Jester's five
wilds: the win item keeps ``Pay`` and gets ``JID``), where SPEC's combination
jackpot replaces the line's prize. References: hand counts (docstrings) and the
lines twin (``tests/twins/lines.py``), which keeps the pay on its own.
"""

from __future__ import annotations

import dataclasses
import sys
from fractions import Fraction
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "features"))
from test_window_features import check, machine_from  # noqa: E402
from twins import lines as twin  # noqa: E402

from certify.errors import ModelError  # noqa: E402
from certify.exact import compute_exact  # noqa: E402
from certify.jackpot_return import spin_probability  # noqa: E402
from certify.model.fingerprint import fingerprint  # noqa: E402
from reports.paytable import pay_glass  # noqa: E402

R = "{kind = 'regular'}"
TABLE = (
    "[[pays]]\ncombo = ['A', 'A', 'A']\npays = 10\n\n[[pays]]\ncombo = ['B', 'B', 'B']\npays = 4\n"
)


def game(trigger: str):
    pool = f"""
[[jackpots]]
id = "pool"
kind = "standalone"
contribution = "0.01"
reset = "10.00"
trigger = {trigger}
"""
    return machine_from([["A", "B"]] * 3, {"A": R, "B": R}, TABLE, pool)


def test_the_kept_pay_is_paid_and_the_pool_still_won():
    """3 reels of one row, each strip A B: 8 windows, one line, total bet 1 credit.
    A A A wins the pool; B B B pays 4. Replaced: (0 + 4) / 8 = 1/2. Kept: A A A pays its
    10 too, (10 + 4) / 8 = 7/4. Both hit the pool on A A A only: 1/8 per spin."""
    replaced = game("{combo = ['A', 'A', 'A']}")
    kept = game("{combo = ['A', 'A', 'A'], keep_pay = true}")
    check(replaced, Fraction(1, 2))
    check(kept, Fraction(7, 4))
    for m in (replaced, kept):
        exact = compute_exact(m)
        assert exact is not None
        assert spin_probability(m, 0, m.jackpots[0], exact.levels[0]) == pytest.approx(1 / 8)
        assert exact.levels[0].rtp == pytest.approx(float(twin.brute_force(m, 0)["rtp"]))
    assert fingerprint(kept) != fingerprint(replaced)


def test_the_pay_glass_shows_the_prize_and_the_pool():
    machine = game("{combo = ['A', 'A', 'A'], keep_pay = true}")
    _, en = pay_glass(dataclasses.replace(machine, instruction_languages=("en",)))
    text = "\n".join(str(x) for x in _flatten(en))
    assert "+ jackpot “pool”" in text
    assert "on top of that sequence's prize" in text


def test_keep_pay_on_a_mystery_trigger_is_located():
    with pytest.raises(ModelError) as err:
        game('{mystery = "0.001", keep_pay = true}')
    assert any(p.path == "jackpots[0].trigger.keep_pay" for p in err.value.problems)


def _flatten(node):
    """Every string inside a pay-glass structure (dataclasses, tuples)."""
    if isinstance(node, str):
        yield node
    elif isinstance(node, (list, tuple)):
        for item in node:
            yield from _flatten(item)
    elif hasattr(node, "__dataclass_fields__"):
        for name in node.__dataclass_fields__:
            yield from _flatten(getattr(node, name))
