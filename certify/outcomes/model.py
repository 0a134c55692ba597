"""The certified model as outcome verification reads it: kernel inputs and stop weights.

One :class:`ReplayModel` per machine: the engine's compiled tables (the same
``compile_machine`` the simulation uses), each bet level's kernel inputs built
when first needed, and the weight of every stop of every reel set, which the
stop tests compare the log with.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from certify.engine.kernel_inputs import (
    game_inputs,
    level_inputs,
    prefix_inputs,
    prefix_tables,
    reel_inputs,
)
from certify.engine.screens import is_screen_game
from certify.engine.simulate import extras_flag, ways_flag
from certify.engine.tables import GameTables, compile_machine
from certify.model.schema import Machine


@dataclass
class LevelKernel:
    """The kernel inputs of one bet level."""

    index: int
    level: int
    total_bet: int
    inputs: Any  # LevelInputs
    prefix: Any  # PrefixInputs
    px: Any  # PrefixTables (class_entries for the award counts)
    award_keys: np.ndarray
    bonus_pays: np.ndarray  # distinct credits a bonus round may pay


@dataclass
class ReplayModel:
    """A machine compiled for replay.

    Attributes
    ----------
    set_names : (base name, free name): the reel set of base and free screens
        (``"free"`` only when the free spins have strips of their own).
    weights : reel set name -> list of per-reel stop weights (strip order).
    not_replayed : why no screen of this game can be replayed ('' when they can).

    """

    machine: Machine
    tables: GameTables
    reels: Any
    game: Any
    ways: int | None
    extras: int | None
    set_names: tuple[str, str]
    weights: dict[str, list[np.ndarray]]
    not_replayed: str
    expand_names: tuple[str, ...]
    _levels: dict[int, LevelKernel] = field(default_factory=dict)

    @property
    def reel_count(self) -> int:
        """Reels of the machine (stop columns of its log)."""
        return self.machine.reels

    @property
    def level_values(self) -> tuple[int, ...]:
        """The bet levels as the log writes them."""
        return tuple(self.machine.bet_levels)

    def level(self, value: int) -> LevelKernel:
        """The kernel inputs of bet level ``value`` (built once)."""
        if value not in self._levels:
            li = self.machine.bet_levels.index(value)
            lt = self.tables.levels[li]
            px = prefix_tables(self.tables, li)
            self._levels[value] = LevelKernel(
                li,
                value,
                lt.total_bet,
                level_inputs(lt, self.tables),
                prefix_inputs(px),
                px,
                lt.award_keys,
                np.unique(lt.bonus_pay) if self.machine.bonus else np.zeros(0, np.int64),
            )
        return self._levels[value]


def _weights(strips: tuple, weights: Any) -> list[np.ndarray]:
    return [
        np.array(weights[r] if weights else [1] * len(s), dtype=np.float64)
        for r, s in enumerate(strips)
    ]


def replay_model(machine: Machine | GameTables) -> ReplayModel:
    """Compile ``machine`` for replay (the simulation's tables and inputs)."""
    tables = machine if isinstance(machine, GameTables) else compile_machine(machine)
    m = tables.machine
    fs = m.free_spins
    own = fs is not None and fs.own_reels
    weights = {"base": _weights(m.strips, m.weights)}
    if fs is not None and fs.own_reels:
        weights["free"] = _weights(*fs.played_strips(m.strips, m.weights))
    reason = ""
    if is_screen_game(m):
        reason = "screens of a cascade, cluster or sticky-wild game (played on the screen grid)"
    elif m.heights is not None:
        reason = "reels of variable height (the log does not say each reel's height)"
    elif any(len(s.full_reel_multipliers) > 1 for s in m.symbols):
        reason = "reels filled by a symbol that draws a multiplier (the log does not say the draw)"
    elif any(s.multipliers for s in m.symbols):
        reason = "wilds with drawn multipliers (the log does not say each reel's draw)"
    elif fs is not None and fs.options_drawn:
        reason = "free-spin options drawn at the feature's start (the log does not say which)"
    elif fs is not None and fs.multipliers:
        reason = "a multiplier drawn for each free spin (the log does not say each draw)"
    elif fs is not None and fs.multiplier_by_count:
        reason = "free spins multiplied by their trigger's count (a free spin is replayed alone)"
    elif m.rules.spin_multipliers:
        reason = "a multiplier drawn for each paid spin (the log does not say each draw)"
    elif any(s.expands_chance for s in m.symbols):
        reason = "wilds expanding in a mode drawn for each spin (the log does not say the mode)"
    elif m.line_bonus_entries:
        reason = "lines that play the bonus game (the log does not say each line's prize)"
    elif m.scatter_bonus_entries:
        reason = "scatter pays that play the bonus game (the log does not say each prize)"
    return ReplayModel(
        machine=m,
        tables=tables,
        reels=reel_inputs(tables),
        game=game_inputs(tables),
        ways=ways_flag(tables),
        extras=extras_flag(tables),
        set_names=("base", "free" if own else "base"),
        weights=weights,
        not_replayed=reason,
        expand_names=tuple(tables.expand_symbols),
    )
