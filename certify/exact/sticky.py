"""Exact free spins with a sticky wild (SPEC 3.1a ``sticky``): a chain over held cells.

A sticky wild that lands in a free spin stays on its cell until the feature
ends, so the free spins are no longer independent: the state after each spin
is the set of held cells. From the empty set, every reachable set ``H`` is
found breadth first; for each, every stop combination of the free reel set is
played with the cells of ``H`` held (:func:`certify.exact._screens.sticky_cycle`),
giving its weight, credits, trigger counts and the next set. The feature's
first two moments then follow by backward recursion over spins left ``k``::

    V1(H, k) = sum_c p_c (x_c + b_c + V1(H_c, k - 1))
    V2(H, k) = sum_c p_c (x_c^2 + 2 x_c b_c + b2_c + 2 (x_c + b_c) V1(H_c, k - 1)
                          + V2(H_c, k - 1))

(``x_c`` the combination's credits x the free-spin multiplier, ``b_c``,
``b2_c`` the moments of the bonus it triggers). The work is (held sets) x
(free cycle): exact where that is small, else refused with the figure. Free
spins that retrigger are refused (their spins left grow with the held set).
"""

from __future__ import annotations

import numpy as np

from certify.engine.kernel_inputs import game_inputs, level_inputs, reel_inputs, reel_sets
from certify.engine.screens import screen_inputs
from certify.engine.tables import GameTables, LevelTables
from certify.exact import _screens as k
from certify.model.screens import sticky_symbol

MAX_STICKY_WORK = 50_000_000  # held sets x free-cycle combinations, at most


def sticky_cells(tables: GameTables) -> int:
    """Cells of the free reel set where the sticky wild can show (as the lines see them)."""
    name = sticky_symbol(tables.machine)
    if name is None:
        return 0
    reels = reel_sets(tables)[-1]
    sym = tables.symbol_ids[name]
    cells = 0
    for r in range(reels.length.shape[0]):
        window = reels.window[r, : reels.length[r]]
        cells += int((window == sym).any(axis=0).sum())
    return cells


def sticky_infeasible(tables: GameTables) -> str | None:
    """Why the sticky-wild chain is not solved exactly (None: it is, or no sticky wild)."""
    name = sticky_symbol(tables.machine)
    if name is None or tables.fs_counted < 0:
        return None
    if tables.fs_retrigger:
        return (
            f"symbols.{name}.sticky: free spins that retrigger with a sticky wild "
            "(the chain's spins left grow with the held cells): simulation only"
        )
    cycle = int(np.prod([int(n) for n in reel_sets(tables)[-1].length], dtype=object))
    work = (1 << sticky_cells(tables)) * cycle
    if work > MAX_STICKY_WORK:
        return (
            f"symbols.{name}.sticky: up to 2^{sticky_cells(tables)} held-cell sets x "
            f"{cycle:,} free-spin combinations to play (at most {MAX_STICKY_WORK:,})"
        )
    return None


def _play(tables: GameTables, lt: LevelTables, held: int) -> tuple[np.ndarray, ...]:
    """(weights, credits, trigger counts (n, 2), next held sets) of every free combination."""
    ps = len(reel_sets(tables)) - 1
    reels = reel_sets(tables)[ps]
    n = int(np.prod([int(x) for x in reels.length]))
    out_w = np.zeros(n, dtype=np.int64)
    out_spin = np.zeros(n, dtype=np.int64)
    out_top = np.zeros((n, 2), dtype=np.int64)
    out_held = np.zeros(n, dtype=np.int64)
    level = level_inputs(lt, tables)
    k.sticky_cycle(
        ps,
        reel_inputs(tables),
        level,
        game_inputs(tables),
        screen_inputs(tables, lt.level_index),
        level.scatter_pay[1],
        tables.scatter_excl,
        np.int64(held),
        out_w,
        out_spin,
        out_top,
        out_held,
    )
    return out_w, out_spin, out_top, out_held


def sticky_feature_moments(
    tables: GameTables, lt: LevelTables, bonus: dict[int, tuple[float, float]]
) -> dict[int, tuple[float, float]]:
    """E[F], E[F^2] (credits) of the feature by base-game trigger count."""
    nb_max = tables.bonus_jmax
    index: dict[int, int] = {0: 0}
    rows: list[tuple[np.ndarray, ...]] = []
    queue = [0]
    while queue:  # breadth first over the held sets reachable from none
        held = queue.pop(0)
        w, spin, top, nxt = _play(tables, lt, held)
        p = w / w.sum()
        x = tables.fs_spin_mult * spin.astype(np.float64)
        j = np.where(
            (tables.bonus_counted >= 0) & (top[:, 1] >= tables.bonus_min),
            np.minimum(top[:, 1], nb_max),
            0,
        )
        eb = np.array([bonus.get(int(v), (0.0, 0.0))[0] for v in range(nb_max + 1)])[j]
        eb2 = np.array([bonus.get(int(v), (0.0, 0.0))[1] for v in range(nb_max + 1)])[j]
        uniq, inverse = np.unique(nxt, return_inverse=True)
        for h in uniq.tolist():
            if h not in index:
                index[h] = len(index)
                queue.append(h)
        where = np.array([index[h] for h in uniq.tolist()], dtype=np.int64)
        rows.append((p, x, eb, eb2, where[inverse]))
    spins = [int(tables.fs_spins[c]) for c in range(tables.fs_min, tables.fs_spins.shape[0])]
    v1 = np.zeros(len(index))
    v2 = np.zeros(len(index))
    by_spins = {0: (0.0, 0.0)}
    for left in range(1, max(spins, default=0) + 1):
        n1, n2 = np.zeros_like(v1), np.zeros_like(v2)
        for s, (p, x, eb, eb2, nxt) in enumerate(rows):
            a, b = v1[nxt], v2[nxt]
            n1[s] = float(np.dot(p, x + eb + a))
            n2[s] = float(np.dot(p, x * x + 2 * x * eb + eb2 + 2 * (x + eb) * a + b))
        v1, v2 = n1, n2
        by_spins[left] = (float(v1[0]), float(v2[0]))
    return {
        c: by_spins[int(tables.fs_spins[c])] for c in range(tables.fs_min, tables.fs_spins.shape[0])
    }
