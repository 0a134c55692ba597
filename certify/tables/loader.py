"""Load ``slotcert/table@1`` files: the parts every table game shares.

The game-specific sections are read by :mod:`certify.tables.roulette`,
:mod:`certify.tables.fantan` and :mod:`certify.tables.duel`; every problem of
a file is collected by one :class:`~certify.model.reader.Reader` and raised
once as a :class:`~certify.errors.ModelError`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from certify.codes import Code
from certify.model.loader import read_toml
from certify.model.reader import Reader, join
from certify.tables.duel import parse_duel
from certify.tables.fantan import parse_fantan
from certify.tables.roulette import parse_roulette
from certify.tables.schema import KINDS, TABLE_SCHEMA, Game, Simulation, Table

_SECTIONS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "roulette": (("wheel", "bets"), ("limits", "simulation")),
    "fantan": (("rules", "bets"), ("simulation",)),
    "three_card_poker": (("deck", "rules", "bets"), ("simulation", "capital")),
    "pai_kao": (("tiles", "rules", "bets"), ("simulation", "capital")),
}


def load_table(path: str | Path) -> Table:
    """Load, validate and return the table game in ``path``.

    Parameters
    ----------
    path : str or Path
        A ``slotcert/table@1`` TOML file.

    Returns
    -------
    Table
        The frozen game; warning-level findings are in ``Table.warnings``.

    Raises
    ------
    ModelError
        With every error (and warning) found in the file.

    """
    file = str(path)
    data = read_toml(path)
    rd = Reader(file)
    game = _game(rd, data.get("game"))
    required, optional = _SECTIONS.get(
        game.kind, ((), tuple(k for v in _SECTIONS.values() for k in v[0] + v[1]))
    )
    rd.table(data, "", ("schema", "game", *required), optional)
    if "schema" in data and data["schema"] != TABLE_SCHEMA:
        rd.error("schema", f"must be {TABLE_SCHEMA!r}, got {data['schema']!r}", Code.SCHEMA)
    simulation = _simulation(rd, data.get("simulation", {}))
    parse = _parser(game.kind)
    table = parse(rd, data, game) if parse else None
    _unique_names(rd, data.get("bets"))
    rd.raise_if_errors()
    assert table is not None
    return replace(table, simulation=simulation, warnings=tuple(rd.problems))


def _unique_names(rd: Reader, raw: Any) -> None:
    """A bet's name identifies it in reports: two bets may not share one."""
    seen: dict[str, int] = {}
    for i, spec in enumerate(raw if isinstance(raw, list) else []):
        name = spec.get("name") if isinstance(spec, dict) else None
        if isinstance(name, str) and name in seen:
            rd.error(
                join(join("bets", i), "name"),
                f"{name!r} is already the name of bets[{seen[name]}]",
                Code.DUPLICATE_NAME,
            )
        elif isinstance(name, str):
            seen[name] = i


_PARSERS: dict[str, Callable[[Reader, dict[str, Any], Game], Table]] = {
    "roulette": parse_roulette,
    "fantan": parse_fantan,
    "three_card_poker": parse_duel,
    "pai_kao": parse_duel,
}


def _parser(kind: str) -> Callable[[Reader, dict[str, Any], Game], Table] | None:
    return _PARSERS.get(kind)


def _game(rd: Reader, raw: Any) -> Game:
    if raw is None:  # reported once, as a missing top-level key
        return Game("", "", "", "")
    t = rd.table(raw, "game", ("id", "name", "kind", "source"))
    return Game(
        id=rd.string(t, "id", "game") or "",
        name=rd.string(t, "name", "game") or "",
        kind=rd.string(t, "kind", "game", KINDS) or "",
        source=rd.string(t, "source", "game") or "",
    )


def _simulation(rd: Reader, raw: Any) -> Simulation:
    t = rd.table(raw, "simulation", (), ("rounds", "seed", "chunks"))
    default = Simulation()
    return Simulation(
        rounds=rd.integer(t, "rounds", "simulation", 1, default.rounds) or 1,
        seed=rd.integer(t, "seed", "simulation", 0, default.seed) or 0,
        chunks=rd.integer(t, "chunks", "simulation", 1, default.chunks) or 1,
    )
