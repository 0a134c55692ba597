"""``slotcert outcomes record``: a log of the engine's own play, with a fault when asked.

Games are played on the engine's stream scheme (:func:`certify.engine.rng.chunk_states`:
chunk ``i`` of seed ``s`` is ``SeedSequence(s, spawn_key=(0, i))``, ``RECORD_CHUNK``
games a chunk) with the engine's draws (one bounded draw per reel, the bonus
table, the Book-of-Ra symbol) and scored by the simulation's evaluation
(:func:`certify.outcomes.kernels.record_games`). The faults (SPEC 10):

- ``pay``: the most frequent pay entry (by the exact award frequencies) pays
  one credit per line more than the model;
- ``bias``: the middle reel shows its first stop, instead of what it drew, with
  that stop's own probability (so it lands there about twice as often);
- ``serial``: each reel keeps its previous base stop with probability 1/16;
- ``feature``: every free-spin award is one spin longer than the model's.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import numpy as np

from certify.engine.rng import chunk_states
from certify.errors import UsageError
from certify.outcomes import kernels as k
from certify.outcomes.kernel_records import Fault, GameRows
from certify.outcomes.logs import PHASES, log_format
from certify.outcomes.model import ReplayModel, replay_model
from certify.outputs import atomic_path

FAULTS = ("pay", "bias", "serial", "feature")
RECORD_CHUNK = 1 << 16
SERIAL_P = 1 / 16


def _refuse(rm: ReplayModel) -> None:
    m = rm.machine
    if rm.not_replayed:
        raise UsageError(f"{m.id}: record does not play {rm.not_replayed}")
    if m.hold_and_spin is not None:
        raise UsageError(f"{m.id}: record does not play hold and spin")


def pay_fault_entry(rm: ReplayModel, level_index: int) -> int:
    """The pay entry the ``pay`` fault pays wrongly: the most frequent one."""
    from certify.exact import compute_exact

    exact = compute_exact(rm.tables)
    if exact is None:
        return 0
    probs = {
        a.combo: a.probability
        for a in exact.levels[level_index].awards
        if a.kind in ("line", "ways")
    }
    return max(
        range(len(rm.machine.pays)), key=lambda e: probs.get(tuple(rm.machine.pays[e].combo), 0.0)
    )


def _wrong_pay(rm: ReplayModel, entry: int) -> ReplayModel:
    m = rm.machine
    pays = list(m.pays)
    e = pays[entry]
    pays[entry] = dataclasses.replace(
        e,
        pays=None if e.pays is None else e.pays + 1,
        pays_by_level=None if e.pays_by_level is None else tuple(p + 1 for p in e.pays_by_level),
    )
    return replay_model(dataclasses.replace(m, pays=tuple(pays)))


def record_outcomes(
    model: Any,
    spins: int,
    seed: int,
    out: str | Path,
    fault: str | None = None,
    level: int | None = None,
) -> dict[str, Any]:
    """Play ``spins`` paid games of ``model`` and write their log to ``out``.

    The format follows the file name (``.csv``, ``.jsonl``, ``.parquet``).
    Returns a summary (games, rows, the fault and what it changed).
    """
    from certify.outcomes.verify import _machine_model

    rm = _machine_model(model)
    _refuse(rm)
    if fault is not None and fault not in FAULTS:
        raise UsageError(f"--fault {fault!r}: expected one of {', '.join(FAULTS)}")
    value = rm.level_values[0] if level is None else level
    if value not in rm.level_values:
        raise UsageError(f"--level {value} is not a bet level of {rm.machine.id}")
    li = rm.level_values.index(value)
    summary: dict[str, Any] = {
        "model": rm.machine.id,
        "games": spins,
        "seed": seed,
        "level": value,
        "fault": fault,
    }
    play = rm
    if fault == "pay":
        entry = pay_fault_entry(rm, li)
        play = _wrong_pay(rm, entry)
        summary["entry"] = " ".join(rm.machine.pays[entry].combo)
    code, reel, stop, p = 0, 0, 0, 0.0
    if fault == "bias":
        code, reel = 1, rm.reel_count // 2
        w = rm.weights["base"][reel]
        p = float(w[0] / w.sum())
        summary |= {"reel": reel + 1, "stop": 0, "probability": p}
    elif fault == "serial":
        code, p = 2, SERIAL_P
    elif fault == "feature":
        code = 3
    fault_args = (code, reel, stop, int(round(p * 2**32)))
    path = Path(out)
    kind = log_format(path)
    with atomic_path(path) as tmp:
        rows = _write(play, rm, li, value, spins, seed, fault_args, tmp, kind)
    summary["rows"] = rows
    return summary


def _chunks(play: ReplayModel, li: int, spins: int, seed: int, fault_args: tuple) -> Any:
    """Yield row arrays (stops, phase, game, win, drawn) of whole games, chunk by chunk."""
    lk = play.level(play.level_values[li])
    prev = np.full(play.reel_count, -1, dtype=np.int64)
    code, reel, stop, p32 = fault_args
    fault = Fault(code, reel, stop, p32, prev)  # prev: carried from call to call
    first_game = 0
    n_chunks = -(-spins // RECORD_CHUNK)
    for c in range(n_chunks):
        games = min(RECORD_CHUNK, spins - c * RECORD_CHUNK)
        state = chunk_states(seed, c, 1)[0].copy()
        cap = 3 * games + 64
        while games > 0:
            stops = np.zeros((cap, play.reel_count), dtype=np.int64)
            phase, game, win, drawn = (np.zeros(cap, dtype=np.int64) for _ in range(4))
            rows, done = k.record_games(
                state,
                games,
                play.reels,
                lk.prefix,
                lk.inputs,
                play.game,
                play.ways,
                play.extras,
                fault,
                GameRows(stops, phase, game, win, drawn),
            )
            if done == 0:
                cap *= 2
                continue
            yield stops[:rows], phase[:rows], game[:rows] + first_game, win[:rows], drawn[:rows]
            first_game += done
            games -= done


def _write(
    play: ReplayModel,
    rm: ReplayModel,
    li: int,
    value: int,
    spins: int,
    seed: int,
    fault_args: tuple,
    tmp: Path,
    kind: str,
) -> int:
    import pyarrow as pa

    total = 0
    writer: Any = None
    names = play.expand_names
    try:
        for stops, phase, game, win, drawn in _chunks(play, li, spins, seed, fault_args):
            screen = _screens(game)
            cols: dict[str, Any] = {
                "machine_id": pa.array([rm.machine.id] * game.shape[0]),
                "game": pa.array(game),
                "screen": pa.array(screen),
                "phase": pa.array([PHASES[p] for p in phase]),
                "level": pa.array(np.full(game.shape[0], value)),
            }
            for r in range(stops.shape[1]):
                cols[f"stop_{r + 1}"] = pa.array(stops[:, r], mask=stops[:, r] < 0)
            cols["win"] = pa.array(win)
            if names:
                cols["choice"] = pa.array([names[d] if d >= 0 else None for d in drawn])
            table = pa.table(cols)
            writer = _append(writer, table, tmp, kind)
            total += table.num_rows
    finally:
        if writer is not None and kind != "jsonl":
            writer.close()
        elif writer is not None:
            writer.close()
    if writer is None:
        tmp.write_text("")
    return total


def _screens(game: np.ndarray) -> np.ndarray:
    start = np.ones(game.shape[0], dtype=bool)
    start[1:] = game[1:] != game[:-1]
    idx = np.arange(game.shape[0])
    first = np.maximum.accumulate(np.where(start, idx, 0))
    return idx - first


def _append(writer: Any, table: Any, tmp: Path, kind: str) -> Any:
    import json

    if kind == "parquet":
        import pyarrow.parquet as pq

        writer = writer or pq.ParquetWriter(tmp, table.schema)
        writer.write_table(table, row_group_size=1 << 20)
    elif kind == "csv":
        import pyarrow.csv as pcsv

        writer = writer or pcsv.CSVWriter(tmp, table.schema)
        writer.write_table(table)
    else:
        writer = writer or open(tmp, "w", encoding="utf-8")  # noqa: SIM115 - closed by _write
        for row in table.to_pylist():
            writer.write(json.dumps({key: v for key, v in row.items() if v is not None}) + "\n")
    return writer
