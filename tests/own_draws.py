"""The simulation kernel against the twin on the very stops the kernel drew."""

from __future__ import annotations

import numpy as np
from twins import lines as twin

from certify.engine import _kernels as k
from certify.engine.kernel_inputs import prefix_inputs, prefix_tables, reel_inputs
from certify.engine.rng import chunk_states
from certify.engine.simulate import fast_flag, run_chunks, ways_flag
from certify.engine.tables import GameTables
from certify.model.schema import Machine


def assert_kernel_pays_the_twin(machine: Machine, tables: GameTables, seed: int, n: int) -> None:
    """One chunk of ``n`` base spins (a game without features): the kernel's total win
    and award counts equal the twin's on the stops it drew (``replay_stops``)."""
    out, _, awards, _ = run_chunks(tables, 0, seed, 0, np.array([n], dtype=np.int64))
    stops = np.zeros((n, machine.reels), dtype=np.int64)
    px = prefix_tables(tables, 0)
    k.replay_stops(
        chunk_states(seed, 0, 1)[0],
        n,
        0,
        reel_inputs(tables),
        prefix_inputs(px),
        stops,
        fast_flag(tables, px),
        ways_flag(tables),
    )
    wins, paid = 0, np.zeros(len(machine.pays), dtype=np.int64)
    for row in stops.tolist():
        win, entries = twin.spin_value(machine, twin.window(machine.strips, row, machine.rows), 0)
        wins += win
        for e in entries:
            if e >= 0:
                paid[e] += 1
    assert int(out[0, k.OUT_WIN]) == wins
    assert awards[0].tolist() == paid.tolist()
