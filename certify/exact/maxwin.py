"""The largest win of one paid spin, and how often wins fall below or far above the bet.

Exact where every stop combination is evaluated (lines games without free
spins of at most :data:`MAX_WIN_COMBOS` combinations, the bonus's award
values included; strip cascades without features, every screen played by
:func:`certify.engine.screens.play_sequences`): the maximum, its probability
and the exact win distribution's thresholds (a win smaller than the bet,
"losses disguised as wins"; at least 10x, 100x, 1000x the bet).

Elsewhere an **upper bound** with its reason, built from exact per-part
maxima that need not fall on one spin: the sum over lines of each line's
largest win (its automaton's reachable states, wild multipliers included; x
the largest full-window multiplier), or over ways families of each entry's
credits x the product of its largest ways per reel; the largest scatter pay of
every counted symbol; the largest bonus award; a hold-and-spin feature with
every cell locked at the largest fixed coin value plus the full-window prize;
free spins x the most spins they can play (the cap, or the largest award
without retriggers) x the largest free spin. Uncapped retriggers have no
finite bound; screen games are not bounded here. The expanding symbol adds
its largest pay on every line (its credits by reels shown) to each free spin.
Jackpot pools are aside (their own rows).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from certify.engine.kernel_inputs import phase_sets, reel_sets
from certify.engine.tables import GameTables, LevelTables, ReelSet, pool_ids, ways_sums
from certify.exact.parfeatures import cascade_sequences, combo_weights, stop_grid

MAX_WIN_COMBOS = 2_000_000  # distinct stop combinations enumerated for the exact maximum win
THRESHOLDS = (10, 100, 1000)  # "at least N x the bet"


@dataclass(frozen=True)
class MaxWin:
    """The largest win of one paid spin and its probability, or a bound, or why neither.

    ``exact`` False: ``credits`` is an upper bound (``probability`` None) and
    ``reason`` says how it was bounded. ``thresholds``: the exact win
    distribution's ``(label, probability)`` rows where every combination was
    evaluated.
    """

    credits: int | None
    probability: float | None
    reason: str = ""
    exact: bool = True
    thresholds: list[tuple[str, float]] = field(default_factory=list)


def max_win(tables: GameTables, lt: LevelTables) -> MaxWin:
    """Exact maximum win per paid spin where it is enumerated, else a bound with its reason.

    Drawn free-spin options: the largest of the options' bounds (a feature
    with free spins is never enumerated).
    """
    fs = tables.machine.free_spins
    if fs is not None and fs.options_drawn:
        from certify.engine.tables import compile_machine

        variants = [compile_machine(v) for v in tables.machine.option_machines()]
        wins = [max_win(t, t.levels[lt.level_index]) for t in variants]
        return max(wins, key=lambda w: -1 if w.credits is None else w.credits)
    enumerated = _enumerated(tables, lt)
    if enumerated is not None:
        return enumerated
    return bound(tables, lt)


def _enumerated(tables: GameTables, lt: LevelTables) -> MaxWin | None:
    from certify.model.screens import cascade_of, is_screen_game

    features = tables.fs_counted >= 0 or tables.hold_on or bool(tables.expand_symbols)
    if features or tables.line_bonus_tag:  # lines that play the bonus: bounded below
        return None
    if is_screen_game(tables.machine):
        if tables.bonus_counted >= 0 or cascade_of(tables.machine) is None:
            return None
        played = cascade_sequences(tables, lt)
        if played is None:
            return None
        weights, out = played
        totals = out[:, 0] if lt.cap <= 0 else np.minimum(out[:, 0], lt.cap)
        return _from_totals(tables, lt, totals, weights, np.zeros(totals.shape[0], bool), {0: 1.0})
    if tables.is_ways or tables.full_window_mult.size:
        return None
    lengths = [int(x) for x in tables.base.length]
    if int(np.prod(lengths, dtype=object)) > MAX_WIN_COMBOS:
        return None
    return _lines_enumerated(tables, lt, lengths)


def _lines_enumerated(tables: GameTables, lt: LevelTables, lengths: list[int]) -> MaxWin:
    """Every stop combination of a lines game: automaton per line, scatters, bonus awards.

    A game that paints blocks (``paints``) enumerates each part of the base game.
    """
    sets = reel_sets(tables)
    parts = [_set_totals(tables, lt, sets[ps], stop_grid(lengths)) for ps in phase_sets(tables, 0)]
    total, triggered, weights = (np.concatenate([p[i] for p in parts]) for i in range(3))
    # each bonus award value with its probability given a trigger
    awards: dict[int, float] = {0: 1.0}
    if tables.bonus_counted >= 0:
        bonus_w = np.diff(np.concatenate([[0], tables.bonus_weight_cum]))
        awards = {}
        for pays, w in zip(lt.bonus_pay, bonus_w, strict=True):
            awards[int(pays)] = awards.get(int(pays), 0.0) + int(w) / int(bonus_w.sum())
    return _from_totals(tables, lt, total, weights, triggered, awards, _spin_multipliers(tables))


def _set_totals(
    tables: GameTables, lt: LevelTables, reels: ReelSet, stops: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(win, bonus triggered, weight) of every stop row of one reel set."""
    step, _, win1, _ = lt.finishing
    total = np.zeros(stops.shape[0], dtype=np.int64)
    for line in tables.paylines:
        state = np.zeros(stops.shape[0], dtype=np.int64)
        for r, row in enumerate(line):
            state = step[state, reels.window[r, stops[:, r], int(row)]]
        total += win1[state]
    triggered = np.zeros(stops.shape[0], dtype=bool)
    reel_index = np.arange(stops.shape[1])[None, :]
    taken = np.zeros(stops.shape[0], dtype=bool)  # an exclusive scatter already paid
    excl = [int(x) for x in tables.scatter_excl]
    for c in range(len(tables.counted_names)):
        count = reels.counted[c, reel_index, stops].sum(axis=1)
        pay = lt.scatter_pay[c, count]
        if c < len(excl) and excl[c]:
            pay = np.where(taken, 0, pay)
            taken |= pay > 0
        total += pay
        if c == tables.bonus_counted:
            triggered = count >= tables.bonus_min
    if reels.factor is not None:  # what the reels show multiplies the spin
        total = total * np.prod(reels.factor[reel_index, stops], axis=1)
    if lt.cap > 0:  # the win cap (exact only without features, so no bonus here)
        total = np.minimum(total, lt.cap)
    return total, triggered, combo_weights(reels, stops)


def _spin_multipliers(tables: GameTables) -> dict[int, float]:
    """The multiplier a paid spin draws for its own win, by value: probability ({1: 1})."""
    weights = tables.base_each_weights
    return {
        int(v): int(w) / int(weights.sum())
        for v, w in zip(tables.base_each_mult, weights, strict=True)
    }


def _from_totals(
    tables: GameTables,
    lt: LevelTables,
    total: np.ndarray,
    weight: np.ndarray,
    triggered: np.ndarray,
    awards: dict[int, float],
    mults: dict[int, float] | None = None,
) -> MaxWin:
    """Maximum, its probability and the thresholds from every combination's win.

    ``mults``: the multiplier the paid spin draws for its own win (not the bonus
    award), value: probability; None is x1.
    """
    cycle = float(tables.base.cycle)
    mults = mults or {1: 1.0}
    plain = total[~triggered]
    top = max(mults) * max(
        int(plain.max()) if plain.size else -1,
        int(total[triggered].max()) if triggered.any() else -1,
    )
    if triggered.any():
        top = max(top, max(mults) * int(total[triggered].max()) + max(awards))

    def share(test: Callable[[np.ndarray], np.ndarray]) -> float:
        """P(test(win)) over the cycle, bonus awards mixed in (test takes a win array)."""
        p = 0.0
        for m, pm in mults.items():
            won = total * m
            p += pm * float(weight[~triggered & test(won)].sum()) / cycle
            for value, q in awards.items():
                if triggered.any():
                    p += pm * q * float(weight[triggered & test(won + value)].sum()) / cycle
        return p

    tb = lt.total_bet
    rows = [("win > 0 and < bet", share(lambda x: (x > 0) & (x < tb)))]
    for n in THRESHOLDS:
        rows.append((f"win >= {n}x bet", share(_at_least(n * tb))))
    return MaxWin(top, share(lambda x: x == top), "", True, rows)


def _at_least(credits: int) -> Callable[[np.ndarray], np.ndarray]:
    def test(x: np.ndarray) -> np.ndarray:
        return x >= credits

    return test


# --- bounds ----------------------------------------------------------------------------------


def bound(tables: GameTables, lt: LevelTables) -> MaxWin:
    """An upper bound of one paid spin's win with its reason, or only the reason."""
    from certify.model.screens import is_screen_game

    if is_screen_game(tables.machine):
        return MaxWin(
            None,
            None,
            "screen game: the maximum of a sequence of screens is not bounded here",
            False,
        )
    base, how = _phase_bound(tables, lt, 0)
    parts = [how]
    if tables.base_each_mult.shape[0] > 1:  # a multiplier drawn for the paid spin
        base *= int(tables.base_each_mult.max())
        parts.append("x the largest multiplier a paid spin draws")
    if tables.base.factor is not None:  # what the reels show multiplies the spin
        base *= int(np.prod(tables.base.factor.max(axis=1), dtype=object))
        parts.append("x the largest factor each reel can show")
    total = base + _bonus_bound(tables, lt)
    lines_bonus = 0
    if tables.line_bonus_tag:  # every line may play the bonus, in the base game and free spins
        m = tables.machine
        off = tables.law_off
        top = [int(lt.law_pay[off[k] : off[k + 1]].max()) for k in range(off.shape[0] - 1)]
        by_line = [e.bonus_plays * top[m.bonus_law(e.bonus_game)] for e in m.pays if e.bonus]
        lines_bonus = tables.paylines.shape[0] * max(by_line, default=0)
        lines_bonus += sum(
            s.bonus_plays * top[m.bonus_law(s.bonus_game)] for s in m.scatter_pays if s.bonus
        )
        total += lines_bonus
        who = "line and scatter entry" if m.scatter_bonus_entries else "line"
        parts.append(f"every {who} playing the bonus at its largest award")
    if tables.fs_counted >= 0:
        spins = _most_free_spins(tables)
        if spins is None:
            return MaxWin(
                None, None, "free spins retrigger without a cap: no finite maximum", False
            )
        free, _ = _phase_bound(tables, lt, 1)
        if tables.free.factor is not None:
            free *= int(np.prod(tables.free.factor.max(axis=1), dtype=object))
        if tables.expand_symbols:  # the drawn symbol's expansion pays on every line
            free += int(lt.expand_pay.max(initial=0))
            parts.append("the expanding symbol's largest pay on every line")
        mult = 1 if tables.fs_own_pays else int(tables.fs_mult * tables.fs_each_mult.max())
        mult *= int(tables.fs_count_mult.max())  # the largest count's (1 when not by count)
        total += spins * (mult * free + _bonus_bound(tables, lt) + lines_bonus)
        parts.append(f"{spins} free spins x the largest free spin")
    if tables.bonus_counted >= 0:
        parts.append(
            "the largest bonus award" if not tables.hold_on else "every cell at the largest coin"
        )
    reason = "upper bound (" + "; ".join(parts) + "; these need not fall on one spin)"
    return MaxWin(int(total), None, reason, False)


def _phase_bound(tables: GameTables, lt: LevelTables, phase: int) -> tuple[int, str]:
    """:func:`_spin_bound` of a phase: its reel set, or the largest of a painted game's parts."""
    sets = reel_sets(tables)
    return max(_spin_bound(tables, lt, sets[ps], phase) for ps in phase_sets(tables, phase))


def _spin_bound(tables: GameTables, lt: LevelTables, reels: ReelSet, phase: int) -> tuple[int, str]:
    """Largest line or ways win plus scatter pay of one spin of ``reels``, bounded."""
    scatter = lt.scatter_pay if phase == 0 else lt.scatter_pay_fs
    sc = int(sum(int(scatter[c].max(initial=0)) for c in range(scatter.shape[0])))
    if tables.is_ways:
        credits = lt.credits if phase == 0 or not tables.fs_own_pays else lt.credits_fs
        return _ways_bound(tables, reels, credits) + sc, "each ways family's largest win"
    lines = sum(_line_max(lt, reels, line, int(lt.start[phase])) for line in tables.paylines)
    mult = max(1, int(tables.full_window_mult.max())) if tables.full_window_mult.size else 1
    if lt.cap > 0:
        return min(lines * mult + sc, lt.cap), "the win cap"
    return lines * mult + sc, "each line's largest win"


def _line_max(lt: LevelTables, reels: ReelSet, line: np.ndarray, start: int) -> int:
    """The largest win one payline can show: its automaton over every reachable state."""
    states = {start}
    for reel, row in enumerate(line):
        shown = {int(reels.window[reel, s, int(row)]) for s in range(int(reels.length[reel]))}
        states = {int(lt.trans[q][sym]) if lt.live[q] else q for q in states for sym in shown}
    return max(int(lt.state_win[q]) for q in states)


def _ways_bound(tables: GameTables, reels: ReelSet, credits: np.ndarray) -> int:
    ways = ways_sums(reels.window, tables.ways_match)  # [reel, stop, entry]
    best: dict[int, int] = {}
    for e in range(len(tables.machine.pays)):
        n = int(tables.entry_len[e])
        prod = 1
        for r in range(n):
            prod *= int(ways[r, : int(reels.length[r]), e].max(initial=0))
        fam = int(tables.ways_family[e])
        best[fam] = max(best.get(fam, 0), int(credits[e]) * prod)
    return sum(best.values())


def _bonus_bound(tables: GameTables, lt: LevelTables) -> int:
    if tables.bonus_counted < 0:
        return 0
    if not tables.hold_on:
        return int(lt.bonus_pay.max(initial=0))
    hs = tables.machine.hold_and_spin
    assert hs is not None  # hold_on: the machine has the feature
    progressive = pool_ids(tables.machine)
    prizes = dict(hs.jackpots)
    values = [
        (0 if v.jackpot in progressive else prizes.get(v.jackpot, 0))
        if v.jackpot is not None
        else (v.pays or 0)
        for v in hs.values
    ]
    full = 0
    if hs.full_window is not None and hs.full_window not in progressive:
        full = prizes[hs.full_window]
    cells = tables.machine.rows * tables.machine.reels
    return (cells * max(values, default=0) + full) * lt.total_bet


def _most_free_spins(tables: GameTables) -> int | None:
    if tables.fs_retrigger:
        return int(tables.fs_max) if tables.fs_max else None
    most = int(tables.fs_spins.max(initial=0))
    return min(most, int(tables.fs_max)) if tables.fs_max else most
