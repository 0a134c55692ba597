"""Per-feature PAR tables: hold and spin, the expanding symbol, cascades, full windows.

Each table is exact where the exact calculator has the figure (the hold-and-spin
absorbing chain of :mod:`certify.exact.hold`, the Book-of-Ra free cycles per
drawn symbol of :mod:`certify.exact.cycle`, every stop combination of a strip
cascade played through :func:`certify.engine.screens.play_sequences`, the full
windows of :mod:`certify.exact.fullwindow`); its ``source`` says so. The
figures are per paid spin unless a column says otherwise, returns per unit
wagered, prizes in multiples of the total bet.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from certify.engine.tables import GameTables, LevelTables, pool_ids
from certify.exact.decompose import phase_count_distribution


@dataclass(frozen=True)
class FeatureTable:
    """One per-feature PAR table of a bet level: rows of plain values."""

    name: str
    title: str
    columns: tuple[str, ...]
    rows: list[tuple[Any, ...]] = field(default_factory=list)
    percent: tuple[str, ...] = ()  # columns holding returns or rates shown as percentages
    source: str = "exact"  # exact | simulation

    def to_dict(self) -> dict[str, Any]:
        """The table as the certificate's JSON holds it."""
        return {
            "name": self.name,
            "title": self.title,
            "columns": list(self.columns),
            "rows": [list(r) for r in self.rows],
            "percent": list(self.percent),
            "source": self.source,
        }


def _one_in(p: float) -> float | None:
    return 1.0 / p if p > 0 else None


# --- hold and spin -------------------------------------------------------------------------


def hold_tables(tables: GameTables, lt: LevelTables) -> list[FeatureTable]:
    """Coins locked at the end of the feature, and each prize level's hit rate and return.

    The start (coins on the triggering screen) has the base game's exact count
    distribution; each start's final count is the absorbing chain's
    (:func:`certify.exact.hold.final_count_distribution`). Triggers inside free
    spins are not in these tables (they are in the feature's return).
    """
    from certify.exact.hold import hold_exact_by_start

    hs = tables.machine.hold_and_spin
    if hs is None or tables.bonus_counted < 0:
        return []
    cells = tables.machine.rows * tables.machine.reels
    progressive = pool_ids(tables.machine)
    by_start = hold_exact_by_start(hs, cells, progressive)
    start_p = phase_count_distribution(tables, 0, tables.bonus_counted)
    weights = {j: float(start_p[j]) for j in by_start if j < start_p.shape[0]}
    p_trigger = sum(weights.values())
    return [
        _coins_table(hs, by_start, weights, p_trigger, cells, progressive),
        _prize_table(hs, by_start, weights, p_trigger, progressive),
    ]


def _coins_table(
    hs: Any,
    by_start: dict[int, Any],
    weights: dict[int, float],
    p_trigger: float,
    cells: int,
    progressive: frozenset[str],
) -> FeatureTable:
    full = (
        0
        if hs.full_window is None or hs.full_window in progressive
        else dict(hs.jackpots)[hs.full_window]
    )
    rows = []
    for n in range(hs.trigger.count, cells + 1):
        p = sum(w * float(by_start[j].final_count[n]) for j, w in weights.items())
        mean = float(by_start[min(weights)].coin_mean) * n + (full if n == cells else 0)
        rows.append((n, p / p_trigger if p_trigger else 0.0, p, _one_in(p), mean, p * mean))
    return FeatureTable(
        "hold_coins",
        "Hold and spin: coins locked at the end (exact chain; started in the base game)",
        (
            "coins",
            "probability_given_trigger",
            "probability",
            "one_in",
            "mean_award_x_bet",
            "rtp_contribution",
        ),
        rows,
        ("probability_given_trigger", "rtp_contribution"),
    )


def _prize_table(
    hs: Any,
    by_start: dict[int, Any],
    weights: dict[int, float],
    p_trigger: float,
    progressive: frozenset[str],
) -> FeatureTable:
    total_w = sum(v.weight for v in hs.values)
    mean_count = sum(w * float(by_start[j].mean_count) for j, w in weights.items())
    full = sum(w * float(by_start[j].full_probability) for j, w in weights.items())
    prizes = dict(hs.jackpots)
    levels: dict[str, list[float]] = {}  # label -> [hits per paid spin, pays (x bet) or nan]
    for v in hs.values:
        label = v.jackpot if v.jackpot is not None else f"coin {v.pays}x"
        pays = (
            float("nan") if v.jackpot in progressive else float(prizes.get(v.jackpot, v.pays or 0))
        )
        old = levels.setdefault(label, [0.0, pays])
        old[0] += mean_count * v.weight / total_w
    if hs.full_window is not None:
        pays = float("nan") if hs.full_window in progressive else float(prizes[hs.full_window])
        levels.setdefault(hs.full_window, [0.0, pays])[0] += full
    rows = []
    for label, (hits, pays) in levels.items():
        kind = "progressive" if label in progressive else "fixed"
        rtp = None if np.isnan(pays) else hits * pays
        rows.append(
            (
                label,
                kind,
                None if np.isnan(pays) else pays,
                hits,
                _one_in(hits),
                hits / p_trigger if p_trigger else 0.0,
                rtp,
            )
        )
    return FeatureTable(
        "hold_prizes",
        "Hold and spin: each prize level's hit rate and return (the progressive pool's "
        "return is in the jackpot rows)",
        (
            "prize",
            "kind",
            "pays_x_bet",
            "hits_per_spin",
            "one_in",
            "hits_per_feature",
            "rtp_contribution",
        ),
        rows,
        ("rtp_contribution",),
    )


# --- Book of Ra: the expanding symbol ---------------------------------------------------------


def expanding_rows(tables: GameTables, lt: LevelTables) -> list[tuple[str, float, float, float]]:
    """(drawn symbol, draw probability, free spins' return with it, mean feature win x bet).

    Per drawn symbol ``d`` the feature's exact moments by trigger count come
    from its own free cycle (as :func:`certify.exact.cycle._free_spin_moments`
    mixes them); its return is ``sum_count P(count) x P(d) x E[F | count, d]``
    over the base game's exact trigger-count distribution.
    """
    from certify.exact.cycle import _expanded_free_cycle, _feature_by_count, bonus_by_bucket

    if not tables.expand_symbols or tables.fs_counted < 0:
        return []
    bonus = bonus_by_bucket(tables, lt)
    base = phase_count_distribution(tables, 0, tables.fs_counted)
    p_trigger = float(base[tables.fs_min :].sum())
    weights = tables.expand_weights / tables.expand_weights.sum()
    out = []
    for d, p in enumerate(weights):
        part = _feature_by_count(tables, _expanded_free_cycle(tables, lt, d), bonus)
        mean = sum(float(base[c]) * ef for c, (ef, _) in part.items() if c < base.shape[0])
        rtp = float(p) * mean / lt.total_bet
        per_trigger = mean / p_trigger / lt.total_bet if p_trigger else 0.0
        out.append((tables.expand_symbols[d], float(p), rtp, per_trigger))
    return out


def expanding_table(rows: list[tuple[str, float, float, float]]) -> FeatureTable:
    """The expanding-symbol table: return per drawn symbol (exact)."""
    return FeatureTable(
        "expanding_symbol",
        "Free spins: return per drawn expanding symbol (exact free cycle per symbol)",
        ("symbol", "draw_probability", "mean_feature_win_x_bet", "rtp_contribution"),
        [(s, p, per, rtp) for s, p, rtp, per in rows],
        ("draw_probability", "rtp_contribution"),
    )


# --- cascades --------------------------------------------------------------------------------

MAX_CASCADE_COMBOS = 4_000_000  # stop combinations played for the cascade tables


def stop_grid(lengths: list[int]) -> np.ndarray:
    """Every stop combination of reels of ``lengths``, one row each (odometer order)."""
    grids = np.meshgrid(*[np.arange(n) for n in lengths], indexing="ij")
    return np.stack([g.ravel() for g in grids], axis=1).astype(np.int64)


def combo_weights(reels: Any, stops: np.ndarray) -> np.ndarray:
    """Each stop combination's weight (product of the reels' stop weights), as int64."""
    weight = np.ones(stops.shape[0], dtype=np.int64)
    for r in range(stops.shape[1]):
        weight = weight * reels.weight[r, stops[:, r]].astype(np.int64)
    return weight


def cascade_sequences(tables: GameTables, lt: LevelTables) -> tuple[np.ndarray, np.ndarray] | None:
    """(weights, play_sequences rows) of every base-game stop combination of a strip cascade.

    None when the game does not cascade by strip or its cycle is beyond
    :data:`MAX_CASCADE_COMBOS`.
    """
    from certify.engine.screens import play_sequences
    from certify.model.screens import cascade_of

    cascade = cascade_of(tables.machine)
    if cascade is None or cascade.refill != "strip":
        return None
    lengths = [int(x) for x in tables.base.length]
    if int(np.prod(lengths, dtype=object)) > MAX_CASCADE_COMBOS:
        return None
    key = ("cascade_sequences", lt.signature)
    cached = tables.prefix_cache.get(key)  # kept with the game's other per-level tables
    if cached is not None and lt.total_bet % cached[2] == 0:
        weights, played, bet = cached
        ratio = lt.total_bet // bet  # levels of one signature: pays in proportion to the bet
        return weights, played * np.array([ratio, ratio, 1, 1, 1], dtype=np.int64)
    stops = stop_grid(lengths)
    played = play_sequences(tables, lt.level_index, stops, 0)
    weights = combo_weights(tables.base, stops)
    if cached is None:
        tables.prefix_cache[key] = (weights, played, lt.total_bet)
    return weights, played


def refill_steps(tables: GameTables, lt: LevelTables) -> FeatureTable | None:
    """A random-refill cascade's :func:`cascade_steps`, from its exact chain (None: no chain).

    Screen k's chance of being shown and its return come from the chain's
    layers (:func:`certify.exact.refill.refill_chain`, base game): its wins x
    its multiplier, and the length prizes of the sequences that end on it.
    """
    from certify.exact.refill import chain_refusal, refill_chain
    from certify.model.screens import cascade_of, random_refill

    if not random_refill(tables.machine) or chain_refusal(tables, math.inf) is not None:
        return None  # the PAR is made of exact figures: the budget admitted them
    cascade = cascade_of(tables.machine)
    mults = list(cascade.multipliers)
    chain = refill_chain(tables, lt, 0, capped=False)
    rows = [
        (k, mults[min(k - 1, len(mults) - 1)], shown, credits / lt.total_bet)
        for k, shown, credits in chain.steps
    ]
    return FeatureTable(
        "cascade_steps",
        "Cascades (random refill): return of each screen of a spin (screen 1 = the spin "
        "itself; its multiplier included), exact over every first screen and every refill "
        "draw (base game)",
        ("screen", "multiplier", "probability_shown", "rtp_contribution"),
        rows,
        ("probability_shown", "rtp_contribution"),
    )


def cascade_table(tables: GameTables, lt: LevelTables, played: tuple) -> FeatureTable:
    """Chain-length distribution and the return of the spins of each length (base game)."""
    weights, out = played
    total = int(tables.base.cycle)
    screens = out[:, 4]
    rows = []
    from certify.model.screens import cascade_of

    cascade = cascade_of(tables.machine)
    mults = list(cascade.multipliers) if cascade is not None else [1]
    chain = cascade is not None and bool(cascade.chain_pays)
    for n in range(1, int(screens.max()) + 1):
        sel = screens == n
        w = int(weights[sel].sum())
        if not w:
            continue
        credits = int((weights[sel] * out[sel, 0]).sum())
        p = w / total
        row = (n, n - 1, mults[min(n - 1, len(mults) - 1)], p, _one_in(p))
        prize = (cascade.chain_pay(n),) if chain else ()
        rows.append((*row, *prize, credits / w / lt.total_bet, credits / total / lt.total_bet))
    return FeatureTable(
        "cascade_lengths",
        "Cascades: screens per spin (1 = no cascade), exact over every stop combination "
        "(base game; the row's return is all its screens' wins"
        + (", and the length's prize x total bet, cascade.chain_pays)" if chain else ")"),
        (
            "screens",
            "cascades",
            "last_multiplier",
            "probability",
            "one_in",
            *(("chain_pays_x_bet",) if chain else ()),
            "mean_win_x_bet",
            "rtp_contribution",
        ),
        rows,
        ("probability", "rtp_contribution"),
    )


# --- full-window pays -------------------------------------------------------------------------


def full_window_table(tables: GameTables, lt: LevelTables, extra_rtp: float) -> FeatureTable | None:
    """Each full-window entry: how often the base window is full of it (exact).

    An ``ANY`` entry owns one target per symbol; its window is full when any
    of them is. With a pool named, the ``jackpot`` column says which.
    """
    from certify.engine.fullwindow import target_owners
    from certify.exact.fullwindow import full_window_stops

    m = tables.machine
    if not m.full_window_pays:
        return None
    rows_stops, alive = full_window_stops(tables, 0)
    weight = combo_weights(tables.base, rows_stops) if rows_stops.shape[0] else np.zeros(0)
    total = int(tables.base.cycle)
    owners = np.array(target_owners(m), dtype=np.int64)
    pools = any(fw.jackpot for fw in m.full_window_pays)
    rows: list[tuple[Any, ...]] = []
    for i, fw in enumerate(m.full_window_pays):
        bits = sum(1 << int(t) for t in np.nonzero(owners == i)[0])
        hit = (alive & np.uint64(bits)) != 0 if alive.size else np.zeros(0, dtype=bool)
        p = int(weight[hit].sum()) / total if weight.size else 0.0
        pool = (fw.jackpot or "",) if pools else ()
        label = fw.symbol if fw.reels is None else f"{fw.symbol} on reels {_reels(fw.reels)}"
        rows.append((label, fw.multiplier, *pool, p, _one_in(p), None))
    columns = ("target", "multiplier", *(("jackpot",) if pools else ()), "probability", "one_in")
    if m.cascade is not None:  # every screen is tested; the line row holds what they add
        return FeatureTable(
            "full_window",
            "Full-window pays: probability of a first screen full of each target (base game,"
            " exact); every screen of a cascade is tested again and its line or ways wins"
            " multiplied, in the line row",
            (*columns, "rtp_contribution"),
            rows,
            ("rtp_contribution",),
        )
    blank = ("",) if pools else ()
    rows.append(("(all targets: what the multipliers add)", None, *blank, None, None, extra_rtp))
    return FeatureTable(
        "full_window",
        "Full-window pays: probability of a window full of each target (base game, exact); "
        "the last row is the return the multipliers add"
        + (" (negative: the windows that pay their pool instead of their lines)" if pools else ""),
        (*columns, "rtp_contribution"),
        rows,
        ("rtp_contribution",),
    )


def _reels(reels: tuple[int, ...]) -> str:
    """Reel numbers as the PAR writes them: ``1-3``, ``2-4``, ``1,3,5``."""
    if list(reels) == list(range(reels[0], reels[-1] + 1)):
        return f"{reels[0]}-{reels[-1]}"
    return ",".join(str(r) for r in reels)


# --- sticky wilds ----------------------------------------------------------------------------


def sticky_tables(tables: GameTables, lt: LevelTables) -> list[FeatureTable]:
    """Sticky wilds: wilds held at the feature's end, and the return of each free spin.

    The chain over held-cell sets of :mod:`certify.exact.sticky` run forwards
    from no held cell: after ``k`` spins, the probability of each held set;
    spin ``k``'s mean win (free-spin multiplier and the bonus it triggers
    included) is that distribution times each set's mean. Mixed over the
    base game's exact trigger counts (each awards its spins), the per-spin
    returns add up to the free spins' return.
    """
    from certify.exact.cycle import bonus_by_bucket
    from certify.exact.sticky import _play, sticky_infeasible
    from certify.model.screens import sticky_symbol

    if sticky_symbol(tables.machine) is None or tables.fs_counted < 0:
        return []
    if sticky_infeasible(tables) is not None:
        return []
    bonus = bonus_by_bucket(tables, lt)
    sets, means, moves = _sticky_chain(tables, lt, bonus, _play)
    base = phase_count_distribution(tables, 0, tables.fs_counted)
    starts = {
        c: float(base[c])
        for c in range(tables.fs_min, min(base.shape[0], tables.fs_spins.shape[0]))
    }
    p_trigger = sum(starts.values())
    longest = max((int(tables.fs_spins[c]) for c in starts), default=0)
    dist = np.zeros(len(sets))
    dist[0] = 1.0
    per_spin = []
    ends = np.zeros(max(bin(h).count("1") for h in sets) + 1)
    for k in range(1, longest + 1):
        played = sum(p for c, p in starts.items() if int(tables.fs_spins[c]) >= k)
        per_spin.append((k, float(dist @ means), played))
        dist = moves.T @ dist
        for c, p in starts.items():
            if int(tables.fs_spins[c]) == k:
                for s, h in enumerate(sets):
                    ends[bin(h).count("1")] += p * dist[s]
    tb = lt.total_bet
    spins = FeatureTable(
        "sticky_spins",
        "Sticky wilds: mean win of the k-th free spin (held wilds accumulate; exact chain)",
        ("free_spin", "probability_played", "mean_win_x_bet", "rtp_contribution"),
        [(k, played, mean / tb, played * mean / tb) for k, mean, played in per_spin],
        ("rtp_contribution",),
    )
    held = FeatureTable(
        "sticky_held",
        "Sticky wilds: wilds held when the feature ends (exact chain)",
        ("held_wilds", "probability_given_trigger", "probability"),
        [
            (n, float(p) / p_trigger if p_trigger else 0.0, float(p))
            for n, p in enumerate(ends)
            if p > 0
        ],
        ("probability_given_trigger",),
    )
    return [held, spins]


def _sticky_chain(
    tables: GameTables, lt: LevelTables, bonus: dict[int, tuple[float, float]], play: Any
) -> tuple[list[int], np.ndarray, np.ndarray]:
    """(held sets, each set's mean spin win, transition matrix), breadth first from none."""
    nb_max = tables.bonus_jmax
    index: dict[int, int] = {0: 0}
    sets = [0]
    rows: list[tuple[float, dict[int, float]]] = []
    queue = [0]
    while queue:
        held = queue.pop(0)
        w, spin, top, nxt = play(tables, lt, held)
        p = w / w.sum()
        j = np.where(
            (tables.bonus_counted >= 0) & (top[:, 1] >= tables.bonus_min),
            np.minimum(top[:, 1], nb_max),
            0,
        )
        eb = np.array([bonus.get(int(v), (0.0, 0.0))[0] for v in range(nb_max + 1)])[j]
        mean = float(np.dot(p, tables.fs_spin_mult * spin.astype(np.float64) + eb))
        move: dict[int, float] = {}
        for h, q in zip(nxt.tolist(), p.tolist(), strict=True):
            if h not in index:
                index[h] = len(index)
                sets.append(h)
                queue.append(h)
            move[index[h]] = move.get(index[h], 0.0) + q
        rows.append((mean, move))
    matrix = np.zeros((len(sets), len(sets)))
    for s, (_, move) in enumerate(rows):
        for t, q in move.items():
            matrix[s, t] = q
    return sets, np.array([m for m, _ in rows]), matrix


def cascade_steps(tables: GameTables, lt: LevelTables, played: tuple) -> FeatureTable:
    """Return of each cascade step: the wins of the k-th screen, its multiplier included.

    Every stop combination is replayed with the sequence cut after ``k``
    screens (``max_screens = k``; a strip refill makes the first ``k``
    screens the same), so screen ``k``'s wins are the difference of the
    totals cut after ``k`` and ``k - 1`` screens (a cut sequence has not
    ended, so its length prize, ``cascade.chain_pays``, is not paid: a prize
    counts in the step of the sequence's last screen). The steps add up to
    the base game's return.
    """
    from certify.engine._screens import play_stops
    from certify.engine.kernel_inputs import game_inputs, level_inputs, reel_inputs
    from certify.engine.screens import screen_inputs
    from certify.model.screens import cascade_of

    key = ("cascade_steps", lt.signature)
    cascade = cascade_of(tables.machine)
    mults = list(cascade.multipliers) if cascade is not None else [1]
    if key not in tables.prefix_cache:  # returns per unit wagered: one per signature
        weights, out = played
        total = int(tables.base.cycle)
        stops = stop_grid([int(x) for x in tables.base.length])
        scr = screen_inputs(tables, lt.level_index)._replace(refill_random=0)
        steps = []
        before = 0
        for k in range(1, int(out[:, 4].max()) + 1):
            # sequences of k screens or fewer are whole; replay only the longer ones
            longer = out[:, 4] > k
            cut = np.zeros((int(longer.sum()), 5), dtype=np.int64)
            if cut.shape[0]:
                play_stops(
                    np.ascontiguousarray(stops[longer]),
                    0,
                    reel_inputs(tables),
                    level_inputs(lt, tables),
                    game_inputs(tables),
                    scr._replace(max_screens=k, chain_pay=np.zeros_like(scr.chain_pay)),
                    lt.scatter_pay,
                    tables.scatter_excl,
                    cut,
                )
            credits = int((weights[~longer] * out[~longer, 0]).sum())
            credits += int((weights[longer] * cut[:, 0]).sum())
            shown = int(weights[out[:, 4] >= k].sum()) / total
            steps.append((k, shown, (credits - before) / total / lt.total_bet))
            before = credits
        tables.prefix_cache[key] = steps
    rows = [
        (k, mults[min(k - 1, len(mults) - 1)], shown, rtp)
        for k, shown, rtp in tables.prefix_cache[key]
    ]
    return FeatureTable(
        "cascade_steps",
        "Cascades: return of each screen of a spin (screen 1 = the spin itself; its "
        "multiplier included), exact over every stop combination (base game)",
        ("screen", "multiplier", "probability_shown", "rtp_contribution"),
        rows,
        ("probability_shown", "rtp_contribution"),
    )
