"""The replay kernel against the pure-Python twin (tests/twins/lines.py): an independent
scoring of the same windows, base and free, on every shipped evaluation it covers."""

from __future__ import annotations

import numpy as np
import pytest
from testpaths import DATA, MACHINES
from twins import lines as twin

from certify.outcomes import kernels as k
from certify.outcomes.verify import _machine_model

GAMES = [
    DATA / "small_features.toml",
    DATA / "small_ways.toml",
    DATA / "tiny_lines.toml",
    MACHINES / "ref-5x3-20.toml",
    MACHINES / "ways-243.toml",
    MACHINES / "classic-3r-1.toml",
]


def _replay(rm, level, stops, fs):
    lk = rm.level(level)
    n = stops.shape[0]
    win = np.zeros(n, dtype=np.int64)
    packed = np.zeros(n, dtype=np.uint64)
    blocks = (n + k.BLOCK - 1) // k.BLOCK
    k.replay_screens(
        stops,
        np.full(n, fs, dtype=np.int64),
        np.full(n, -1, dtype=np.int64),
        rm.reels,
        lk.prefix,
        lk.inputs,
        rm.game,
        rm.ways,
        rm.extras,
        win,
        packed,
        np.zeros((blocks, 2 * lk.px.n_classes), dtype=np.int64),
        np.zeros((blocks, 2 * (lk.award_keys.shape[0] + 1)), dtype=np.int64),
    )
    return win


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_replay_pays_what_the_twin_pays(path):
    """1,500 random base windows (and free windows, x the free-spin multiplier, when the
    game has free spins) per bet level: replay credits == twin credits, row by row."""
    rm = _machine_model(path)
    m = rm.machine
    rng = np.random.default_rng(11)
    sets = [(0, m.strips, 1)]
    if m.free_spins is not None:
        sets.append((1, m.free_spins.strips or m.strips, m.free_spins.multiplier))
    for li, level in enumerate(m.bet_levels):
        for fs, strips, mult in sets:
            stops = np.stack([rng.integers(0, len(s), 1500) for s in strips], axis=1)
            got = _replay(rm, level, stops, fs)
            want = [
                twin.spin_value(m, twin.window(strips, row, m.rows), li)[0] * mult
                for row in stops.tolist()
            ]
            assert got.tolist() == want
