"""How cost grows: exact time and simulation speed against strips, reels, lines and ways.

Games are generated here (:func:`synthetic`: a wild, a scatter that pays and
triggers 10 free spins x2, four high and five low symbols, strips drawn from
a fixed seed), so the table measures the engine, not a model file.

Run: ``python -m benchmarks.cost_growth`` (the whole table, several
minutes on 2 cores: the simulation builds its prefix tables per game),
``--quick`` (a few rows), ``--spins N`` (simulation spins per row),
``--factorised`` (only the ways factorisation's table), ``--screens`` (only
the screen games' table: cascades, clusters, sticky wilds; ``--real`` adds
the two published cascade games of ``tests/data/published``, 7.3e7 and
9.4e7 starts, and CT Sugar Town of ``tests/data/real``, 1.0e9 starts).
Columns: the exact method and its time (kernels are compiled on small games
first), the states after each reel, and simulated spins per
second on every numba thread; for screen games, the measured screens a
start shows, the work units (:func:`certify.exact.screens.screen_work`) and
the time they predict at ``SCREEN_RATE`` beside the time taken.
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from certify.engine import compile_machine, simulate
from certify.exact import compute_exact
from certify.exact.cycle import enumerated_size
from certify.model import load_machine
from certify.model.loader import parse_machine
from certify.model.schema import Machine

HIGH, LOW = ("H1", "H2", "H3", "H4"), ("L1", "L2", "L3", "L4", "L5")
# symbol -> relative frequency on a strip (wild and scatter rare, lows common)
MIX = {"W": 2, "S": 2, "H1": 4, "H2": 5, "H3": 6, "H4": 7, "L1": 10, "L2": 11, "L3": 12}
MIX |= {"L4": 13, "L5": 14}


def _strip(rng: random.Random, stops: int) -> list[str]:
    names = list(MIX)
    return rng.choices(names, weights=[MIX[n] for n in names], k=stops)


def _paylines(rng: random.Random, n: int, reels: int, rows: int) -> list[list[int]]:
    lines: list[list[int]] = [[r] * reels for r in range(rows)][:n]
    while len(lines) < n:
        line = [rng.randrange(rows) for _ in range(reels)]
        if line not in lines:
            lines.append(line)
    return lines


def _pays(reels: int) -> list[dict[str, Any]]:
    out = []
    for rank, name in enumerate(HIGH + LOW):
        base = 40 - 4 * rank
        for n in range(3, reels + 1):
            out.append({"combo": [name] * n, "pays": base * (n - 2) ** 2 // 4 + 1})
    return out


def synthetic(
    reels: int = 5,
    rows: int = 3,
    stops: int = 64,
    lines: int | None = 20,
    free_spins: bool = True,
    seed: int = 1,
    cascade: bool = False,
) -> Machine:
    """A generated game: ``lines`` paylines, or ways when ``lines`` is None; a strip cascade."""
    rng = random.Random(seed)
    symbols: dict[str, Any] = {n: {"kind": "regular"} for n in HIGH + LOW}
    symbols["W"] = {"kind": "wild"}
    symbols["S"] = {"kind": "scatter"}
    data: dict[str, Any] = {
        "schema": "slotcert/machine@1",
        "machine": {"id": f"SYN-{reels}x{rows}-{stops}-{lines or 'ways'}", "name": "Synthetic"},
        "symbols": symbols,
        "reels": {"rows": rows, "strips": [_strip(rng, stops) for _ in range(reels)]},
        "pays": _pays(reels),
        "scatter_pays": [{"symbol": "S", "count": 3, "pays": 2}],
    }
    if lines is None:
        data["reels"]["evaluation"] = "ways"
        data["bet"] = {"denomination": "0.01", "currency": "EUR", "ways": rows**reels}
        data["bet"] |= {"cost": 25, "bet_levels": [1]}
    else:
        data["reels"]["paylines"] = _paylines(rng, lines, reels, rows)
        data["bet"] = {"denomination": "0.01", "currency": "EUR", "lines": lines}
        data["bet"]["bet_levels"] = [1]
    if cascade:
        data["cascade"] = {"refill": "strip", "multipliers": [1, 2, 3], "max_screens": 50}
    if free_spins:
        data["free_spins"] = {
            "trigger": {"symbol": "S", "count": 3},
            "spins": {"3": 10},
            "multiplier": 2,
        }
    machine, _ = parse_machine(data, f"{data['machine']['id']}.toml")
    return machine


def exact_seconds(machine: Machine) -> tuple[float, str, int, str]:
    """(seconds, method, stop combinations, states after each reel) of the exact figures."""
    tables = compile_machine(machine)
    start = time.perf_counter()
    result = compute_exact(tables)
    elapsed = time.perf_counter() - start
    if result is None:
        return elapsed, "refused", enumerated_size(tables), ""
    runs = [
        v[1]
        for k, v in tables.prefix_cache.items()
        if isinstance(k, tuple) and k[:3] == ("statedp", 0, 0)
    ]
    states = "/".join(str(s) for s in runs[0].states[1:]) if runs else ""
    return elapsed, result.method, enumerated_size(tables), states


def spins_per_second(machine: Machine, spins: int) -> float:
    """Simulated spins per second (all numba threads), after one warm-up run."""
    tables = compile_machine(machine)
    simulate(tables, 0, spins // 16, 1)
    start = time.perf_counter()
    simulate(tables, 0, spins, 2)
    return spins / (time.perf_counter() - start)


def rows_of(quick: bool) -> list[tuple[str, Any]]:
    """(label, machine) of every row of the table."""
    from benchmarks.measure import MACHINES

    out: list[tuple[str, Any]] = []
    for stops in (32, 64, 128, 256):
        out.append((f"5x3 20 lines, {stops} stops", lambda s=stops: synthetic(5, 3, s, 20)))
    for reels in (3, 6):
        out.append((f"{reels}x3 20 lines, 64 stops", lambda r=reels: synthetic(r, 3, 64, 20)))
    out.append(("6x4 20 lines, 100 stops", lambda: synthetic(6, 4, 100, 20)))
    for lines in (1, 50, 100):
        out.append((f"5x4 {lines} lines, 64 stops", lambda n=lines: synthetic(5, 4, 64, n)))
    for label, shape in (("243", (5, 3)), ("1024", (5, 4)), ("4096", (6, 4))):
        out.append((f"{label} ways, 64 stops", lambda sh=shape: synthetic(sh[0], sh[1], 64, None)))
    out.append(
        ("heights-4r.toml (variable heights)", lambda: load_machine(MACHINES / "heights-4r.toml"))
    )
    out.append(("ref-5x3-20.toml", lambda: load_machine(MACHINES / "ref-5x3-20.toml")))
    if quick:
        out = [out[1], out[3], out[10], out[-1]]
    return out


def table(quick: bool, spins: int) -> list[str]:
    """The measured table, one line per game."""
    for n_lines in (5, None):  # compile the kernels outside the timings: full cycle, states
        compute_exact(synthetic(3, 3, 8, n_lines))
        compute_exact(synthetic(5, 3, 32, n_lines))
    head = (
        "| game | stop combinations | exact method | exact s | states after reels 1.. | spins/s |"
    )
    lines = [head, "|---|---:|---|---:|---|---:|"]
    for label, make in rows_of(quick):
        m = make()
        seconds, method, size, states = exact_seconds(m)
        rate = spins_per_second(m, spins) if spins else float("nan")
        lines.append(
            f"| {label} | {size:.3g} | {method} | {seconds:.2f} | {states} | {rate / 1e6:.1f}M |"
        )
        print(lines[-1], flush=True)
    return lines


def factorised_table() -> list[str]:
    """Ways games: the per-reel factorisation's time (moments, award odds) and the whole exact."""
    from certify.exact.factorised import ways_factorised

    ways_factorised(*_first_level(synthetic(3, 3, 8, None)))  # compile scatter_win
    lines = ["| ways game | factorised moments s (base + free) | whole exact s | method |"]
    lines.append("|---|---:|---:|---|")
    for label, shape in (("243", (5, 3)), ("1024", (5, 4)), ("4096", (6, 4))):
        m = synthetic(shape[0], shape[1], 64, None)
        tables, lt = _first_level(m)
        start = time.perf_counter()
        for phase in (0, 1):
            ways_factorised(tables, lt, phase)
        seconds = time.perf_counter() - start
        whole, method, _, _ = exact_seconds(m)
        lines.append(f"| {label} ways, 64 stops | {seconds:.3f} | {whole:.2f} | {method} |")
        print(lines[-1], flush=True)
    return lines


def cluster_game(reels: int, rows: int, stops: int, seed: int = 1) -> Machine:
    """A generated cluster game with a strip cascade (groups of 4+ pay)."""
    rng = random.Random(seed)
    names = ["W", "H1", "H2", "L1", "L2", "L3"]
    weights = [1, 3, 4, 6, 7, 8]
    data: dict[str, Any] = {
        "schema": "slotcert/machine@1",
        "machine": {"id": f"SYN-CLUSTER-{reels}x{rows}-{stops}", "name": "Synthetic clusters"},
        "symbols": {n: {"kind": "wild" if n == "W" else "regular"} for n in names},
        "reels": {
            "rows": rows,
            "evaluation": "cluster",
            "strips": [rng.choices(names, weights=weights, k=stops) for _ in range(reels)],
        },
        "bet": {"denomination": "0.01", "currency": "EUR", "cost": 20, "bet_levels": [1]},
        "pays": [],
        "cluster_pays": [
            {"symbol": n, "size": size, "pays": (6 - i) * (size - 3)}
            for i, n in enumerate(names[1:])
            for size in (4, 6, 9)
        ],
        "cascade": {"refill": "strip", "multipliers": [1, 2], "max_screens": 50},
    }
    machine, _ = parse_machine(data, f"{data['machine']['id']}.toml")
    return machine


def screen_rows(real: bool) -> list[tuple[str, Any]]:
    """(label, machine) of the screen games' table, small sizes unless ``real``."""
    from benchmarks.measure import MACHINES

    out: list[tuple[str, Any]] = []
    for stops in (8, 12, 16, 20):
        out.append(
            (
                f"cascade 5x3 30 lines, {stops} stops",
                lambda s=stops: synthetic(5, 3, s, 30, False, cascade=True),
            )
        )
    out.append(
        ("cascade 5x4 100 lines, 16 stops", lambda: synthetic(5, 4, 16, 100, False, cascade=True))
    )
    out.append(
        ("cascade 243 ways, 12 stops", lambda: synthetic(5, 3, 12, None, False, cascade=True))
    )
    for stops in (4, 6):
        out.append((f"cluster 5x5 cascade, {stops} stops", lambda s=stops: cluster_game(5, 5, s)))
    out.append(("cascade-5x3-10.toml", lambda: load_machine(MACHINES / "cascade-5x3-10.toml")))
    out.append(("cluster-7x7.toml", lambda: load_machine(MACHINES / "cluster-7x7.toml")))
    if real:
        from pathlib import Path

        data = Path(__file__).parents[1] / "tests" / "data"
        for folder, name in (
            ("published", "ct_win_storm"),
            ("published", "ct_burning_brilliants"),
            ("real", "ct_sugar_town"),
        ):
            path = data / folder / f"{name}.toml"
            out.append((f"{name}.toml", lambda p=path: load_machine(p)))
    return out


def screen_seconds(machine: Machine, real: bool) -> tuple[float, str]:
    """(seconds, method or refusal) of a screen game's exact figures.

    The real games (``real``) are timed on their first bet level's base cycle
    (:func:`certify.exact.screens.screen_cycle`): one run, the work the
    prediction's rate describes.
    """
    from certify.exact.screens import screen_cycle, screen_infeasible_reason

    tables = compile_machine(machine)
    start = time.perf_counter()
    if real:
        screen_cycle(tables, tables.levels[0], 0)
        return time.perf_counter() - start, "base cycle"
    result = compute_exact(tables)
    elapsed = time.perf_counter() - start
    if result is None:
        return elapsed, f"refused: {screen_infeasible_reason(tables)}"[:60]
    return elapsed, result.method


def screens_table(real: bool = False) -> list[str]:
    """Screen games: combinations, measured screens a start, work, predicted and taken seconds."""
    from certify.exact.screens import SCREEN_RATE, screen_work

    compute_exact(synthetic(3, 3, 4, 5, False, cascade=True))  # compile outside the timings
    compute_exact(synthetic(3, 3, 4, None, False, cascade=True))
    compute_exact(cluster_game(3, 3, 3))
    head = (
        "| screen game | stop combinations | screens a start | work units | predicted s "
        "| exact s | method |"
    )
    lines = [head, "|---|---:|---:|---:|---:|---:|---|"]
    for label, make in screen_rows(real):
        m = make()
        work = screen_work(compile_machine(m), measure=True)
        big = real and label.startswith("ct_")
        seconds, method = screen_seconds(m, big)
        per_run = work.total / work.runs if big else work.total
        lines.append(
            f"| {label} | {work.combinations:.3g} | {work.screens:.2f} | {per_run:.3g} | "
            f"{per_run / SCREEN_RATE:.2f} | {seconds:.2f} | {method} |"
        )
        print(lines[-1], flush=True)
    return lines


def _first_level(m: Machine) -> tuple:
    tables = compile_machine(m)
    return tables, tables.levels[0]


def main(argv: list[str] | None = None) -> int:
    """Print the table (markdown)."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.cost_growth")
    parser.add_argument("--quick", action="store_true", help="four rows only")
    parser.add_argument("--spins", type=int, default=1 << 24, help="simulated spins per row")
    parser.add_argument(
        "--factorised", action="store_true", help="only the ways factorisation's table"
    )
    parser.add_argument("--screens", action="store_true", help="only the screen games' table")
    parser.add_argument(
        "--real", action="store_true", help="with --screens: the three real cascade games"
    )
    args = parser.parse_args(argv)
    if args.factorised:
        factorised_table()
        return 0
    if args.screens:
        screens_table(args.real)
        return 0
    table(args.quick, args.spins)
    factorised_table()
    screens_table()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
