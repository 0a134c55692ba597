"""Replay a log piece by piece: payouts, feature order, the tallies of the statistical tests.

:class:`Replay` takes the pieces of :mod:`certify.outcomes.logs` file by file.
It keeps back the last game of a piece until the next piece (a game is never
split), quarantines what cannot be verified (another level when ``--level``
is given, a bet level the model lacks, stops beyond a strip, duplicates),
scores every base and free screen with the simulation's evaluation
(:func:`certify.outcomes.kernels.replay_screens`), walks the features in log
order (:func:`certify.outcomes.kernels.check_sequence`) and adds what the
statistical tests need (:class:`certify.outcomes.tally.StopTally`, per-level
game totals).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from certify.outcomes import kernels as k
from certify.outcomes.kernel_records import ReplayOut
from certify.outcomes.logs import PHASES, Piece, Reasons
from certify.outcomes.model import ReplayModel
from certify.outcomes.tally import StopTally

LIST_MAX = 1_000_000  # mismatch and quarantine rows kept for the CSV files (all are counted)

FEATURE_MESSAGES = {
    k.F_START: "the game does not start with a base screen",
    k.F_BASE_AGAIN: "a second base screen in one game",
    k.F_FREE_UNAWARDED: "a free screen beyond the free spins awarded (or with none awarded)",
    k.F_BONUS_UNTRIGGERED: "a bonus round no screen triggered",
    k.F_RESPIN_UNTRIGGERED: "a respin without a hold-and-spin trigger",
    k.F_FREE_SHORT: "the game ended with free spins of its award unplayed",
    k.F_BONUS_MISSING: "a triggered bonus round was not played",
    k.F_HOLD_MISSING: "a triggered hold and spin was not played",
}


@dataclass
class LevelTally:
    """Whole games of one bet level: the return, hit and trigger counts."""

    level: int
    total_bet: int
    games: int = 0
    paid: int = 0
    hits: int = 0
    fs_triggers: int = 0
    bonus_triggers: int = 0
    base_screens: int = 0
    classes: Any = None  # summed kernel award counters (prefix classes, entries)
    awards: Any = None


@dataclass
class Replay:
    """The state of a verification across pieces and files."""

    model: ReplayModel
    only_level: int | None = None
    rows_in: int = 0
    verified: int = 0
    quarantined: int = 0
    skipped_level: int = 0
    truncated: int = 0
    out_of_strip: int = 0
    mismatch_count: int = 0
    payout_mismatches: int = 0
    feature_findings: int = 0
    not_replayed: Counter = field(default_factory=Counter)
    mismatches: list[dict] = field(default_factory=list)
    quarantine: list[tuple[str, int, str]] = field(default_factory=list)
    levels: dict[int, LevelTally] = field(default_factory=dict)
    tallies: dict[str, StopTally] = field(default_factory=dict)
    _seen: dict[int, tuple[np.ndarray, np.ndarray]] = field(default_factory=dict)
    _carry: Piece | None = None

    def __post_init__(self) -> None:
        self.tallies = {name: StopTally(w) for name, w in self.model.weights.items()}
        self.machine_names: dict[int, str] = {}

    # -- pieces ----------------------------------------------------------------------------------

    def add_piece(self, piece: Piece) -> None:
        """Take the next piece of a file (pieces of one file in order)."""
        self.rows_in += piece.rows_in
        self._quarantine(piece.quarantine.source, piece.quarantine.lines, piece.quarantine.reasons)
        piece = self._admit(piece)
        if self._carry is not None:
            piece = _concat(self._carry, piece)
            self._carry = None
        if not piece.last and piece.line.shape[0]:
            starts = _starts(piece)
            cut = int(np.flatnonzero(starts)[-1])
            self._carry = piece.take(np.arange(piece.line.shape[0]) >= cut)
            piece = piece.take(np.arange(piece.line.shape[0]) < cut)
        self._games(piece, file_end=piece.last)
        if piece.last:
            for tally in self.tallies.values():
                tally.end_file()

    def _quarantine(self, source: str, lines: Any, reasons: Any) -> None:
        n = len(lines)
        self.quarantined += n
        room = LIST_MAX - len(self.quarantine)
        if room > 0:
            self.quarantine.extend(
                zip([source] * min(n, room), list(lines)[:room], list(reasons)[:room])
            )

    def _admit(self, piece: Piece) -> Piece:
        """Rows of the selected level, of a level of the model, with stops on their strips."""
        n = piece.line.shape[0]
        if n == 0:
            return piece
        keep = np.ones(n, dtype=bool)
        if self.only_level is not None:
            other = piece.level != self.only_level
            self.skipped_level += int(other.sum())
            keep &= ~other
        reasons = Reasons(n)
        reasons.bad |= ~keep
        levels = np.array(self.model.level_values)
        lv = piece.level
        reasons.set(~_isin(lv, levels), lambda i: f"level {lv[i]} is not a bet level of the model")
        for name, phase in ((self.model.set_names[0], 0), (self.model.set_names[1], 1)):
            rows = piece.phase == phase
            for r, n_stops in enumerate(self.tallies[name].lengths):
                beyond = rows & (piece.stops[:, r] >= n_stops) & ~reasons.bad
                if beyond.any():
                    col = piece.stops[:, r]
                    reasons.set(
                        beyond,
                        lambda i, r=r, col=col, name=name, n_stops=n_stops: (
                            f"stop_{r + 1} = {col[i]} is beyond strip {r + 1} of the {name} "
                            f"reels ({n_stops} stops)"
                        ),
                    )
                    self.out_of_strip += int(beyond.sum())
        bad = reasons.bad & keep
        if bad.any():
            self._quarantine(
                piece.source,
                piece.line[bad].tolist(),
                [reasons.text[int(i)] for i in np.flatnonzero(bad)],
            )
        return piece.take(~reasons.bad)

    # -- whole games ------------------------------------------------------------------------------

    def _games(self, piece: Piece, file_end: bool) -> None:
        if piece.line.shape[0] == 0:
            return
        piece = self._drop_duplicates(piece)
        n = piece.line.shape[0]
        if n == 0:
            return
        self.verified += n
        starts = _starts(piece)
        m = self.model
        screen = (piece.phase <= 1) & (piece.step == 0)
        scored = screen & (m.not_replayed == "")
        drawn = self._drawn(piece)
        compare = scored & ~((piece.phase == 1) & (drawn < 0) & bool(m.expand_names))
        self._count_not_replayed(piece, screen, scored, compare)
        expected = np.zeros(n, dtype=np.int64)
        packed = np.zeros(n, dtype=np.uint64)
        for level in _distinct(piece.level):
            rows = piece.level == level
            self._score(int(level), piece, rows & scored, drawn, expected, packed)
        finding = np.zeros(n, dtype=np.int64)
        trigger = np.zeros(n, dtype=np.int64)
        close = np.zeros(n, dtype=np.int64)
        state = np.zeros(6, dtype=np.int64)
        checked = m.not_replayed == ""
        if checked:
            k.check_sequence(
                starts,
                piece.phase,
                scored,
                packed,
                m.game,
                bool(m.tables.hold_on),
                state,
                finding,
                close,
                trigger,
            )
        open_end = bool(state[0] > 0 or state[3] > 0 or state[4] == 1)
        truncated_game = file_end and open_end
        if open_end and not file_end:
            close[-1] = (
                k.F_FREE_SHORT
                if state[0] > 0
                else (k.F_BONUS_MISSING if state[3] > 0 else k.F_HOLD_MISSING)
            )
        if truncated_game:
            self.truncated += 1
        self._payouts(piece, starts, compare, expected)
        self._features(piece, starts, finding, close)
        self._stops(piece, screen)
        self._returns(piece, starts, trigger, drop_last=truncated_game)

    def _drawn(self, piece: Piece) -> np.ndarray:
        """The expanding symbol of each free screen (Book of Ra) from ``choice``, else -1."""
        n = piece.line.shape[0]
        drawn = np.full(n, -1, dtype=np.int64)
        names = self.model.expand_names
        if names and piece.choice is not None:
            index = {name: i for i, name in enumerate(names)}
            drawn = np.array(
                [index.get(str(c), -1) if c is not None else -1 for c in piece.choice],
                dtype=np.int64,
            )
        return drawn

    def _count_not_replayed(
        self, piece: Piece, screen: np.ndarray, scored: np.ndarray, compare: np.ndarray
    ) -> None:
        m = self.model
        cascade = (piece.phase <= 1) & (piece.step > 0)
        respin = piece.phase == PHASES.index("respin")
        for rows, reason in (
            (
                cascade,
                "cascade steps after the first screen (the log does not show the fallen symbols)",
            ),
            (
                respin,
                "hold-and-spin respins (the log does not show the locked coins and their values)",
            ),
            (screen & ~scored, m.not_replayed),
            (
                scored & ~compare,
                "free screens of an expanding-symbol feature without the drawn symbol (choice)",
            ),
        ):
            c = int(rows.sum())
            if c:
                self.not_replayed[reason] += c

    def _score(
        self,
        level: int,
        piece: Piece,
        rows: np.ndarray,
        drawn: np.ndarray,
        expected: np.ndarray,
        packed: np.ndarray,
    ) -> None:
        if not rows.any():
            return
        m = self.model
        lk = m.level(level)
        idx = np.flatnonzero(rows)
        stops = np.ascontiguousarray(piece.stops[idx])
        fs_of = piece.phase[idx].astype(np.int64)
        if m.machine.free_spins is None:
            fs_of[:] = 0  # a free row of a game without free spins: a feature finding
        n = idx.shape[0]
        blocks = (n + k.BLOCK - 1) // k.BLOCK
        tally = self._level(level)
        n_classes = 2 * lk.px.n_classes
        n_slots = 2 * (lk.award_keys.shape[0] + 1)
        out_win = np.zeros(n, dtype=np.int64)
        out_packed = np.zeros(n, dtype=np.uint64)
        out_classes = np.zeros((blocks, n_classes), dtype=np.int64)
        out_awards = np.zeros((blocks, n_slots), dtype=np.int64)
        k.replay_screens(
            stops,
            fs_of,
            drawn[idx],
            m.reels,
            lk.prefix,
            lk.inputs,
            m.game,
            m.ways,
            m.extras,
            ReplayOut(out_win, out_packed, out_classes, out_awards),
        )
        expected[idx] = out_win
        packed[idx] = out_packed
        tally.classes = out_classes.sum(axis=0) + (0 if tally.classes is None else tally.classes)
        tally.awards = out_awards.sum(axis=0) + (0 if tally.awards is None else tally.awards)
        tally.base_screens += int((fs_of == 0).sum())

    def _level(self, level: int) -> LevelTally:
        if level not in self.levels:
            lk = self.model.level(level)
            self.levels[level] = LevelTally(level, lk.total_bet)
        return self.levels[level]

    # -- findings ---------------------------------------------------------------------------------

    def _payouts(
        self, piece: Piece, starts: np.ndarray, compare: np.ndarray, expected: np.ndarray
    ) -> None:
        wrong = compare & (expected != piece.win)
        bonus_rows = piece.phase == PHASES.index("bonus")
        bad_bonus = np.zeros_like(wrong)
        for level in _distinct(piece.level[bonus_rows]):
            rows = bonus_rows & (piece.level == level)
            pays = self.model.level(int(level)).bonus_pays
            if pays.size:
                bad_bonus |= rows & ~np.isin(piece.win, pays)
        cap = {
            lv: self.model.tables.levels[self.model.level(int(lv)).index].cap
            for lv in _distinct(piece.level)
        }
        if any(cap.values()):
            wrong = self._capped(piece, starts, compare, expected, wrong, cap)
        for i in np.flatnonzero(wrong):
            self._finding(
                piece,
                starts,
                int(i),
                "payout",
                int(expected[i]),
                f"paid {int(piece.win[i])}, the model pays {int(expected[i])}",
            )
        for i in np.flatnonzero(bad_bonus):
            self._finding(
                piece,
                starts,
                int(i),
                "payout",
                None,
                f"bonus award {int(piece.win[i])} is not in the model's bonus table",
            )
        self.payout_mismatches += int(wrong.sum() + bad_bonus.sum())

    def _capped(
        self,
        piece: Piece,
        starts: np.ndarray,
        compare: np.ndarray,
        expected: np.ndarray,
        wrong: np.ndarray,
        cap: dict,
    ) -> np.ndarray:
        """Games whose replayed total exceeds the win cap: their total must be the cap."""
        first = np.flatnonzero(starts)
        game_of = np.cumsum(starts) - 1
        model_total = np.add.reduceat(np.where(compare, expected, piece.win), first)
        paid_total = np.add.reduceat(piece.win, first)
        caps = np.array([cap[int(lv)] for lv in piece.level[first]])
        capped = (caps > 0) & (model_total > caps)
        wrong = wrong & ~capped[game_of]
        last = np.append(first[1:], piece.line.shape[0]) - 1
        for g in np.flatnonzero(capped & (paid_total != caps)):
            self._finding(
                piece,
                starts,
                int(last[g]),
                "payout",
                int(caps[g]),
                f"the game paid {int(paid_total[g])} in all; its win is capped at {int(caps[g])}",
            )
            self.payout_mismatches += 1
        return wrong

    def _features(
        self, piece: Piece, starts: np.ndarray, finding: np.ndarray, close: np.ndarray
    ) -> None:
        for codes in (finding, close):
            for i in np.flatnonzero(codes):
                self._finding(
                    piece, starts, int(i), "feature", None, FEATURE_MESSAGES[int(codes[i])]
                )
                self.feature_findings += 1

    def _finding(
        self,
        piece: Piece,
        starts: np.ndarray,
        i: int,
        kind: str,
        expected: int | None,
        message: str,
    ) -> None:
        self.mismatch_count += 1
        if len(self.mismatches) >= LIST_MAX:
            return
        first = int(np.flatnonzero(starts[: i + 1])[-1])
        stops = piece.stops[i]
        self.mismatches.append(
            {
                "source": piece.source,
                "line": int(piece.line[i]),
                "machine_id": self.machine_names.get(int(piece.machine[i]), ""),
                "game": int(piece.game[i]),
                "screen": int(piece.screen[i]) if piece.screen[i] >= 0 else i - first,
                "phase": PHASES[int(piece.phase[i])],
                "kind": kind,
                "stops": "-".join(str(int(s)) for s in stops) if (stops >= 0).all() else "",
                "expected": "" if expected is None else expected,
                "paid": int(piece.win[i]),
                "message": message,
            }
        )

    # -- duplicates -------------------------------------------------------------------------------

    def _drop_duplicates(self, piece: Piece) -> Piece:
        """Quarantine a row repeating an earlier one, and a game seen earlier in the log."""
        import pandas as pd

        n = piece.line.shape[0]
        dup = np.zeros(n, dtype=bool)
        starts = _starts(piece)
        order = np.zeros(n, dtype=bool)  # a screen (or cascade step) not after the one before
        order[1:] = ~starts[1:] & (
            (piece.screen[1:] < piece.screen[:-1])
            | ((piece.screen[1:] == piece.screen[:-1]) & (piece.step[1:] <= piece.step[:-1]))
        )
        if (piece.screen >= 0).any() and order.any():
            block = np.cumsum(starts) - 1
            suspect = np.isin(block, block[order])
            frame = pd.DataFrame(piece.stops[suspect])
            for name in ("machine", "game", "phase", "step", "screen"):
                frame[name] = getattr(piece, name)[suspect]
            dup[suspect] = frame.duplicated().to_numpy() & (piece.screen[suspect] >= 0)
        first = np.flatnonzero(starts)
        again = self._seen_before(piece.machine[first], piece.game[first])
        block_again = again[np.cumsum(starts) - 1]
        reasons = Reasons(n)
        reasons.set(
            dup, "a duplicate of an earlier row (same machine, game, phase, step, screen and stops)"
        )
        reasons.set(block_again, "its game was already seen earlier in the log")
        if not reasons.bad.any():
            return piece
        self._quarantine(piece.source, piece.line[reasons.bad].tolist(), reasons.texts())
        return piece.take(~reasons.bad)

    def _seen_before(self, machines: np.ndarray, games: np.ndarray) -> np.ndarray:
        """Per game block: was its (machine, game) seen before? Then remember them all.

        Kept as sorted intervals of game numbers per machine: a log numbering its
        games in order keeps one interval, whatever its length.
        """
        out = np.zeros(games.shape[0], dtype=bool)
        codes = _distinct(machines)
        for code in codes:
            rows = None if len(codes) == 1 else np.flatnonzero(machines == code)
            g = games if rows is None else games[rows]
            lo, hi = self._seen.get(int(code), (np.zeros(0, np.int64), np.zeros(0, np.int64)))
            at = np.searchsorted(lo, g, side="right") - 1
            inside = (at >= 0) & (g <= (hi[np.maximum(at, 0)] if hi.size else g - 1))
            repeat = np.zeros(g.shape[0], dtype=bool)
            if g.shape[0] > 1 and not (g[1:] > g[:-1]).all():  # numbered in order: no repeat
                order = np.argsort(g, kind="stable")
                repeat[order[1:]] = g[order[1:]] == g[order[:-1]]
            out[slice(None) if rows is None else rows] = inside | repeat
            u = g if g.shape[0] < 2 or (g[1:] > g[:-1]).all() else np.unique(g)
            brk = np.flatnonzero(np.diff(u) != 1)
            new_lo = np.concatenate([lo, u[np.concatenate([[0], brk + 1])]])
            new_hi = np.concatenate([hi, u[np.concatenate([brk, [u.shape[0] - 1]])]])
            self._seen[int(code)] = _merge_intervals(new_lo, new_hi)
        return out

    # -- what the statistics need -----------------------------------------------------------------

    def _stops(self, piece: Piece, screen: np.ndarray) -> None:
        for phase in (0, 1):
            rows = screen & (piece.phase == phase)
            if rows.any():
                self.tallies[self.model.set_names[phase]].add(piece.stops[rows])
        # base and free screens of one reel set stay in log order
        if self.model.set_names[0] == self.model.set_names[1]:
            return

    def _returns(
        self, piece: Piece, starts: np.ndarray, trigger: np.ndarray, drop_last: bool
    ) -> None:
        first = np.flatnonzero(starts)
        total = np.add.reduceat(piece.win, first)
        trig = np.bitwise_or.reduceat(trigger, first)
        level = piece.level[first]
        if drop_last:
            total, trig, level = total[:-1], trig[:-1], level[:-1]
        for lv in _distinct(level):
            rows = level == lv
            t = self._level(int(lv))
            t.games += int(rows.sum())
            t.paid += int(total[rows].sum())
            t.hits += int(((total[rows] > 0) | (trig[rows] != 0)).sum())
            t.fs_triggers += int(((trig[rows] & 1) != 0).sum())
            t.bonus_triggers += int(((trig[rows] & 2) != 0).sum())


def _distinct(values: np.ndarray) -> list[int]:
    """The distinct values of an array (most logs hold one level and one machine: no sort)."""
    if values.shape[0] == 0:
        return []
    if (values == values[0]).all():
        return [int(values[0])]
    return [int(v) for v in np.unique(values)]


def _isin(values: np.ndarray, allowed: np.ndarray) -> np.ndarray:
    """``np.isin`` without its sort when every value is the first allowed one."""
    if values.shape[0] and (values == values[0]).all():
        return np.full(values.shape[0], bool(np.isin(values[0], allowed)))
    return np.isin(values, allowed)


def _starts(piece: Piece) -> np.ndarray:
    """Rows that open a game: the first, and each whose machine or game differs from the last."""
    n = piece.line.shape[0]
    out = np.ones(n, dtype=bool)
    if n > 1:
        out[1:] = (piece.game[1:] != piece.game[:-1]) | (piece.machine[1:] != piece.machine[:-1])
    return out


def _merge_intervals(lo: np.ndarray, hi: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    order = np.argsort(lo, kind="stable")
    lo, hi = lo[order], hi[order]
    reach = np.maximum.accumulate(hi)
    new = np.ones(lo.shape[0], dtype=bool)
    new[1:] = lo[1:] > reach[:-1] + 1
    group = np.cumsum(new) - 1
    out_lo = lo[new]
    out_hi = np.zeros(out_lo.shape[0], dtype=np.int64)
    np.maximum.at(out_hi, group, hi)
    return out_lo, out_hi


def _concat(a: Piece, b: Piece) -> Piece:
    cat = np.concatenate
    choice = None
    if a.choice is not None or b.choice is not None:
        choice = cat(
            [
                a.choice if a.choice is not None else np.full(a.line.shape[0], None, dtype=object),
                b.choice if b.choice is not None else np.full(b.line.shape[0], None, dtype=object),
            ]
        )
    return Piece(
        b.source,
        cat([a.line, b.line]),
        cat([a.machine, b.machine]),
        cat([a.game, b.game]),
        cat([a.phase, b.phase]),
        cat([a.step, b.step]),
        cat([a.screen, b.screen]),
        cat([a.level, b.level]),
        cat([a.stops, b.stops]),
        cat([a.win, b.win]),
        choice,
        b.quarantine,
        b.rows_in,
        b.last,
    )
