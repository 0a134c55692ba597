"""The replay kernel against the pure-Python twins (tests/twins/lines.py and features.py):
an independent scoring of the same windows, base and free, on every evaluation it covers
(lines, ways, wild multipliers, groups, scatters, the rules of real games, expanding and
reel wilds, full-window pays, the Book-of-Ra symbol)."""

from __future__ import annotations

import numpy as np
import pytest
from testpaths import DATA, MACHINES
from twins import features as twin
from twins import lines as base

from certify.outcomes import kernels as k
from certify.outcomes.kernel_records import ReplayOut
from certify.outcomes.verify import _machine_model

GAMES = [
    DATA / "small_features.toml",
    DATA / "small_ways.toml",
    DATA / "tiny_lines.toml",
    DATA / "small_full_window.toml",
    DATA / "rules" / "ref_max_both.toml",
    DATA / "published" / "cleopatra.toml",
    DATA / "published" / "igt_double_strike.toml",
    MACHINES / "ref-5x3-20.toml",
    MACHINES / "ways-243.toml",
    MACHINES / "classic-3r-1.toml",
    MACHINES / "reelwild-5x3-20.toml",
    MACHINES / "book-5x3-10.toml",
]


def _replay(rm, level, stops, fs, drawn):
    lk = rm.level(level)
    n = stops.shape[0]
    win = np.zeros(n, dtype=np.int64)
    packed = np.zeros(n, dtype=np.uint64)
    blocks = (n + k.BLOCK - 1) // k.BLOCK
    k.replay_screens(
        stops,
        np.full(n, fs, dtype=np.int64),
        np.full(n, drawn, dtype=np.int64),
        rm.reels,
        lk.prefix,
        lk.inputs,
        rm.game,
        rm.ways,
        rm.extras,
        ReplayOut(
            win,
            packed,
            np.zeros((blocks, 2 * lk.px.n_classes), dtype=np.int64),
            np.zeros((blocks, 2 * (lk.award_keys.shape[0] + 1)), dtype=np.int64),
        ),
    )
    return win


def _twin(m, strips, row, li, fs, drawn):
    landed = base.window(strips, row, m.rows)
    value, fixed = twin.spin(m, landed, li, bool(fs), drawn)
    return m.free_spins.multiplier * (value - fixed) + fixed if fs else value


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_replay_pays_what_the_twin_pays(path):
    """1,000 random base windows (and free windows, with each drawable Book-of-Ra symbol)
    per bet level: replay credits == twin credits, row by row."""
    rm = _machine_model(path)
    m = rm.machine
    rng = np.random.default_rng(11)
    sets = [(0, m.strips, -1)]
    if m.free_spins is not None:
        strips = m.free_spins.strips or m.strips
        sets += [(1, strips, d) for d in (range(len(rm.expand_names)) if rm.expand_names else [-1])]
    for li, level in enumerate(m.bet_levels[:2]):
        for fs, strips, drawn in sets:
            stops = np.stack([rng.integers(0, len(s), 1000) for s in strips], axis=1)
            got = _replay(rm, level, stops, fs, drawn)
            name = rm.expand_names[drawn] if drawn >= 0 else None
            want = [_twin(m, strips, row, li, fs, name) for row in stops.tolist()]
            assert got.tolist() == want
