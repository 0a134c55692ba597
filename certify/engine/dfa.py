"""Compile a lines pay table into a deterministic automaton over reel symbols.

Reading one payline from reel 1 is a walk through the automaton: the state
after reel ``d`` holds the pay entries whose first ``d`` tokens still match
(with the product of the multipliers of the wilds that substituted so far)
and the best entry already complete. The kernels then evaluate a line with
one table lookup per reel, whatever the groups, ``ANY`` tokens, wilds and
multipliers of the pay table; a state with no live entry is settled.

A wild multiplies a line win when it stands in for another symbol; a wild
that matches its own literal token (``W W W``) does not multiply.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from certify.model.schema import ANY, Machine

# (entry index, multiplier so far) for each live entry, plus the best complete entry
_State = tuple[int, tuple[tuple[int, int], ...], int, int]


@dataclass(frozen=True)
class LineAutomaton:
    """Transition table and settled values of a lines pay table at one bet level.

    Attributes
    ----------
    trans : ndarray (n_states, n_symbols) int32
        Next state after reading a symbol.
    live : ndarray (n_states,) bool
        Whether some entry can still complete from this state.
    best_entry : ndarray (n_states,) int32
        The highest complete entry (-1 for none).
    best_mult : ndarray (n_states,) int64
        Wild multiplier of that entry.
    win : ndarray (n_states,) int64
        ``credits[best_entry] * best_mult`` (0 for none).

    """

    trans: np.ndarray
    live: np.ndarray
    best_entry: np.ndarray
    best_mult: np.ndarray
    win: np.ndarray


def token_match(machine: Machine, token: str, symbol: str) -> tuple[bool, int]:
    """Whether ``symbol`` matches ``token``, and the multiplier it brings."""
    if token == ANY:
        return True, 1
    members = machine.group(token) or (token,)
    if symbol in members:
        return True, 1
    sym = machine.symbol(symbol)
    if sym.kind == "wild" and any(m in sym.substitutes for m in members):
        return True, sym.multiplier
    return False, 1


def build_line_automaton(
    machine: Machine, credits: list[int], rank: list[int] | None = None
) -> LineAutomaton:
    """Build the automaton for pay ``credits`` (one per pay entry, at one level).

    ``rank`` (default: the credits) decides which matching entry a line pays;
    a jackpot combination ranks above everything yet pays 0 credits on the line.
    """
    rank = list(credits) if rank is None else rank
    names = [s.name for s in machine.symbols]
    match = _match_table(machine, names)
    start: _State = (0, tuple((e.index, 1) for e in machine.pays), -1, 0)
    ids: dict[_State, int] = {start: 0}
    order = [start]
    rows: list[list[int]] = []
    i = 0
    while i < len(order):
        state = order[i]
        rows.append(
            [_intern(_step(state, s, machine, match, rank), ids, order) for s in range(len(names))]
        )
        i += 1
    trans = np.array(rows, dtype=np.int32)
    live = np.array([bool(s[1]) for s in order])
    best_entry = np.array([s[2] for s in order], dtype=np.int32)
    best_mult = np.array([s[3] for s in order], dtype=np.int64)
    win = np.array([credits[s[2]] * s[3] if s[2] >= 0 else 0 for s in order], dtype=np.int64)
    return LineAutomaton(trans, live, best_entry, best_mult, win)


def _match_table(machine: Machine, names: list[str]) -> dict[tuple[int, int, int], int]:
    """(entry, position, symbol id) -> multiplier, for matching cells only."""
    table = {}
    for entry in machine.pays:
        for pos, token in enumerate(entry.combo):
            for sid, name in enumerate(names):
                ok, mult = token_match(machine, token, name)
                if ok:
                    table[(entry.index, pos, sid)] = mult
    return table


def _step(state: _State, sid: int, machine: Machine, match: dict, rank: list[int]) -> _State:
    depth, alive, best, best_mult = state
    if not alive:
        return (-1, (), best, best_mult)  # settled: one absorbing state per outcome
    best_win = rank[best] * best_mult if best >= 0 else -1
    still = []
    for entry, mult in alive:
        m = match.get((entry, depth, sid))
        if m is None:
            continue
        mult *= m
        if len(machine.pays[entry].combo) == depth + 1:
            win = rank[entry] * mult
            if win > best_win or (win == best_win and best >= 0 and entry < best):
                best, best_mult, best_win = entry, mult, win
        else:
            still.append((entry, mult))
    if not still:
        return (-1, (), best, best_mult)
    return (depth + 1, tuple(still), best, best_mult)


def _intern(state: _State, ids: dict[_State, int], order: list[_State]) -> int:
    if state not in ids:
        ids[state] = len(order)
        order.append(state)
    return ids[state]
