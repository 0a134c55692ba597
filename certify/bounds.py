"""Bounds the command line, the API and the model schema share, in a module that imports nothing.

Kept apart from :mod:`certify.engine.limits` (which checks a parsed machine
against them and more) so that argument parsing and ``slotcert --help`` load
neither numba nor numpy.
"""

MAX_COUNT = 10**15
"""The largest count a run takes (1e15 spins is months of work on one machine), CLI and API."""
MAX_SEED = 2**128 - 1
"""Largest seed (the stream scheme's ``SeedSequence`` entropy)."""
MAX_SCREENS = 1000
"""Screens of one cascade: the work of one spin (simulate, exact, the probe)."""
EXACT_BUDGET_S = 120.0
"""Seconds of work (at the rate measured on two cores) the exact calculator spends on a
screen game's cycle and its cascade probe by default; ``slotcert exact --budget`` and
the API change it. Two minutes: the largest real screen game of the slotopol catalogue
(CT Sugar Town, 1e9 starts, predicted 86 s; its cycle 66 s, ``slotcert exact`` 1:18
wall on two cores) is exact by default, as the other server's brute force is
(docs/PERFORMANCE.md)."""
MAX_EXACT_BUDGET_S = 7 * 86400
"""The largest ``--budget`` (seconds) the command line takes: a week of enumeration."""
MAX_RESPINS = 1000
"""Respins of hold and spin: the work of one feature (its chain, its play)."""

LINE_BONUS_TAG = (
    1 << 40
)  # credits the kernels add per line playing a line bonus (limits keep wins below)
LINE_BONUS_BITS = 22
"""Bits above :data:`LINE_BONUS_TAG` that count the plays, shared evenly by the bonus games."""


def law_field(games: int) -> int:
    """Bits of a spin's bonus mark that count one game's plays, with ``games`` bonus games."""
    return LINE_BONUS_BITS // max(games, 1)
