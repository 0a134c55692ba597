"""Certify machines: exact figures, simulation, verdicts and findings per bet level.

This module computes; writing certificates and reports is the ``reports``
package's job.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from certify.admission import PURE_WILD_FIX, admit, beaten_wild_entries
from certify.codes import Code
from certify.engine import SimulationResult, compile_machine, simulate
from certify.engine import _kernels as k
from certify.engine.simulate import run_chunks
from certify.engine.tables import GameTables
from certify.errors import UsageError
from certify.exact import ExactResult, LevelExact, compute_exact, exact_refusal
from certify.exact.contributions import (
    LevelContributions,
    MaxWin,
    feature_contributions,
    level_contributions,
    max_win,
    per_entry_applies,
    simulated_contributions,
)
from certify.exact.decompose import mean_return
from certify.jackpot_return import PoolReturn, jackpot_rtp, level_pools
from certify.model.jurisdiction import Jurisdiction
from certify.model.loader import MACHINE_SCHEMA, parse_machine, read_toml
from certify.model.schema import Machine
from certify.percent import pct, points
from certify.stats import LevelVerdict, interval, level_verdict
from certify.verdicts import SEVERITY_ORDER, Verdict, worst

ProgressFn = Callable[[str, int, SimulationResult], None]

TRACE_POINTS = 2048  # convergence points kept per level (certificate and plot)


@dataclass(frozen=True)
class Finding:
    """A certification finding with a stable code."""

    severity: str  # error | warning | info
    code: str
    message: str


@dataclass
class LevelCertification:
    """Figures and verdict of one bet level."""

    level_index: int
    level: int
    total_bet: int
    exact: LevelExact | None
    decomposed_rtp: float | None
    jackpot_rtp: float
    simulation: SimulationResult | None
    stream: int
    convergence: list[tuple[int, float, float, float]]
    verdict: LevelVerdict | None = None
    sim_ci: tuple[float, float] | None = None  # the simulation's interval, set by the verdict
    contributions: LevelContributions | None = None  # exact PAR rows (None without exact)
    trace: list[tuple[int, float, float]] = field(default_factory=list)  # (spins, rtp, std_error)
    pools: list[PoolReturn] = field(default_factory=list)  # jackpot return, pool by pool
    max_win: MaxWin | None = None  # exact largest win of a paid spin (jackpots aside), if known


@dataclass
class Certification:
    """Everything certification found about one machine."""

    machine: Machine
    jurisdiction: Jurisdiction
    spins: int
    seed: int
    levels: list[LevelCertification]
    findings: list[Finding] = field(default_factory=list)
    verdict: str = Verdict.ERROR
    runtime_s: float = 0.0
    exact_cycle: int | None = None
    exact_method: str | None = None  # full-cycle, state-merging (ExactResult.method)
    options: list[Certification] = field(default_factory=list)  # one per free-spin option
    reason: str = ""  # why the verdict, in one line (verdict_reason)


def load_for_certification(path: str | Path) -> tuple[Machine, list[Finding]]:
    """Load a machine (the file read once), keeping its validation warnings as findings.

    Raises
    ------
    UsageError
        When the file declares another kind of model.

    """
    data = read_toml(path)
    if data.get("schema") != MACHINE_SCHEMA:
        raise UsageError(f"{path}: not a machine model (schema {data.get('schema', '')!r})")
    machine, problems = parse_machine(data, str(path))
    return machine, [Finding("warning", p.code, str(p)) for p in problems]


def certify_machine(
    machine: Machine,
    jurisdiction: Jurisdiction,
    spins: int,
    seed: int,
    progress: ProgressFn | None = None,
    warnings: list[Finding] | None = None,
    runner: Any = None,
    budget_s: float | None = None,
) -> Certification:
    """Certify every bet level of ``machine`` under ``jurisdiction``.

    ``runner`` says where simulation chunks run (see :mod:`certify.runners`);
    the default is the numba kernel in this process. Figures do not depend on it.
    ``budget_s``: seconds of work a screen game's exact cycle may take (default
    :data:`certify.bounds.EXACT_BUDGET_S`).
    A game whose free spins offer the player a choice (``[[free_spins.options]]``)
    is certified once per option; the worst option governs (a player may always
    choose it): its figures are the machine's, every option is in ``options``.
    """
    variants = admit(machine, [], budget_s=budget_s)  # the refusals exact and simulate share
    run = (jurisdiction, spins, seed, progress, warnings, runner, budget_s)
    if len(variants) == 1:
        return _certify_variant(machine, *run)
    certs = [_certify_variant(v, *run) for v in variants]
    worst_cert = max(certs, key=_badness)
    return dataclasses.replace(
        worst_cert,
        machine=machine,
        options=certs,
        runtime_s=sum(c.runtime_s for c in certs),
    )


def _contributions(
    tables: GameTables, lt: Any, level_exact: LevelExact | None
) -> LevelContributions | None:
    """The PAR sheet's rows of a level: per entry where that method applies, else per part."""
    if level_exact is None:
        return None
    if per_entry_applies(tables):
        return level_contributions(tables, lt)
    return feature_contributions(tables, lt, level_exact)


def _badness(cert: Certification) -> tuple[int, float]:
    """Order of options: the worse verdict, then the lower return at the worst level."""
    figures = [lc.exact.rtp for lc in cert.levels if lc.exact] + [
        lc.simulation.rtp for lc in cert.levels if not lc.exact and lc.simulation is not None
    ]
    return SEVERITY_ORDER.index(cert.verdict), -min(figures, default=0.0)


def _certify_variant(
    machine: Machine,
    jurisdiction: Jurisdiction,
    spins: int,
    seed: int,
    progress: ProgressFn | None,
    warnings: list[Finding] | None,
    runner: Any,
    budget_s: float | None = None,
) -> Certification:
    """Certify one machine (or one free-spin option of it)."""
    started = time.perf_counter()
    tables = compile_machine(machine)
    refused = exact_refusal(tables, budget_s)
    exact = None if refused else compute_exact(tables, budget_s=budget_s)
    cert = Certification(
        machine,
        jurisdiction,
        spins,
        seed,
        [],
        list(warnings or []),
        exact_cycle=exact.cycle if exact else None,
        exact_method=exact.method if exact else None,
    )
    if exact is None:
        cert.findings.append(
            Finding(
                "warning",
                Code.EXACT_INFEASIBLE,
                f"the exact calculator refuses this game ({refused}); "
                "the verdict rests on simulation",
            )
        )
    if spins == 0:
        cert.findings.append(
            Finding(
                "warning",
                Code.EXACT_ONLY,
                "exact-only certification (--spins 0): no simulation was run, so the "
                "engine's agreement with the exact figures was not checked"
                if exact is not None
                else "no simulation was run (--spins 0) and the cycle is too large "
                "to enumerate: nothing supports a verdict",
            )
        )
    sims = _simulate_levels(tables, spins, seed, float(jurisdiction.confidence), progress, runner)
    for lt in tables.levels:
        level_exact = exact.levels[lt.level_index] if exact else None
        sim, stream, conv, trace = sims[lt.signature]
        sim = _rescaled(sim, lt.total_bet)
        cert.levels.append(
            LevelCertification(
                lt.level_index,
                lt.level,
                lt.total_bet,
                level_exact,
                mean_return(tables, lt),
                jackpot_rtp(machine, lt.level_index, level_exact),
                sim,
                stream,
                conv,
                contributions=_contributions(tables, lt, level_exact)
                or simulated_contributions(tables, lt, sim, float(jurisdiction.confidence)),
                trace=trace,
                pools=level_pools(machine, lt.level_index, level_exact),
                max_win=max_win(tables, lt) if level_exact else None,
            )
        )
    _judge(cert, exact)
    cert.runtime_s = time.perf_counter() - started
    return cert


def _simulate_levels(
    tables: GameTables,
    spins: int,
    seed: int,
    confidence: float,
    progress: ProgressFn | None,
    runner: Any,
) -> dict[tuple, tuple]:
    """One simulation per distinct level signature (the first level's index is its stream).

    A runner with ``concurrent = True`` (a Dask cluster) gets every level's
    chunks at once, so the levels share the cluster instead of queueing.
    """
    firsts: dict[tuple, int] = {}
    for lt in tables.levels:
        firsts.setdefault(lt.signature, lt.level_index)
    conf = confidence
    if not getattr(runner, "concurrent", False) or len(firsts) < 2:
        starting = getattr(progress, "level", None)  # a Progress: one bar (log line) per level
        out = {}
        for k, (sig, li) in enumerate(firsts.items()):
            if starting is not None and spins > 0:
                starting(k + 1, len(firsts), tables.levels[li].level, spins)
            out[sig] = _simulate_level(tables, li, spins, seed, conf, progress, runner)
        return out
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=len(firsts)) as pool:
        futures = {
            sig: pool.submit(_simulate_level, tables, li, spins, seed, conf, progress, runner)
            for sig, li in firsts.items()
        }
        return {sig: future.result() for sig, future in futures.items()}


def _simulate_level(
    tables: GameTables,
    level_index: int,
    spins: int,
    seed: int,
    confidence: float,
    progress: ProgressFn | None,
    runner: Any = None,
) -> tuple:
    conv: list[tuple[int, float, float, float]] = []
    trace: list[tuple[int, float, float]] = []
    chunks = PerChunk(runner)
    before = [0, 0]  # spins and credits won before the chunk just merged

    def step(result: SimulationResult) -> None:
        points = _chunk_points(chunks.last, before, result)
        for n, rtp, se in points + [(result.spins, result.rtp, result.std_error)]:
            low, high = interval(rtp, se, confidence)
            conv.append((n, rtp, low, high))
            trace.append((n, rtp, se))
        before[:] = [result.spins, result.total_win]
        if progress is not None:
            progress(tables.machine.id, spins, result)

    if spins <= 0:
        return None, level_index, conv, trace
    sim = simulate(
        tables, level_index, spins, seed, stream=level_index, progress=step, runner=chunks
    )
    return sim, level_index, _thinned(conv), _thinned(trace)


def _thinned(points: list, most: int = TRACE_POINTS) -> list:
    """At most ``most`` points of a trace, evenly spread, the last one kept."""
    if len(points) <= most:
        return points
    step = len(points) / most
    picked = [points[int(i * step)] for i in range(most - 1)]
    return picked + [points[-1]]


def _chunk_points(
    stats: np.ndarray | None, before: list[int], result: SimulationResult
) -> list[tuple[int, float, float]]:
    """(spins, rtp, std error) inside the chunk just merged: after each 1/16 of its spins.

    The standard error of a point inside a chunk uses the run's standard
    deviation per spin as estimated at the chunk's end (the kernel keeps the
    partial wins, not their squares).
    """
    if stats is None or not np.isfinite(result.variance):
        return []
    row = stats[0]
    n = int(row[k.OUT_SPINS])
    sd = float(np.sqrt(result.variance))
    out = []
    for part in range(k.N_PARTS - 1):
        inside = n * (part + 1) // k.N_PARTS
        if inside == 0:
            continue
        spins = before[0] + inside
        rtp = (before[1] + int(row[k.OUT_PARTS + part])) / (spins * result.total_bet)
        out.append((spins, rtp, sd / float(np.sqrt(spins))))
    return out


class PerChunk:
    """A runner that hands :func:`simulate` one chunk at a time, for a fine convergence trace.

    ``simulate`` reports its running result after each batch it merges, and a
    batch is 16 chunks or more in this process (10M spins: one point). This
    runner computes the same batches (in this process as ``simulate`` would,
    or on ``inner``, a cluster or checkpointing runner) and yields each
    chunk's row on its own, so the trace has a point every chunk (2^20 spins)
    while the kernel calls, the merge order and so every figure stay the same.
    """

    def __init__(self, inner: Any = None) -> None:
        self.inner = inner
        self.concurrent = getattr(inner, "concurrent", False)
        self.last: np.ndarray | None = None  # the statistics row of the chunk yielded last

    def batches(
        self, tables: GameTables, level_index: int, seed: int, stream: int, sizes: Any, batch: int
    ) -> Any:
        """Yield ``(first chunk, one chunk's run_chunks outputs)`` in chunk order."""
        if self.inner is None:
            import numba

            batch = max(batch, 8 * numba.get_num_threads())
            source: Any = (
                (
                    first,
                    run_chunks(
                        tables, level_index, seed, first, sizes[first : first + batch], stream
                    ),
                )
                for first in range(0, sizes.shape[0], batch)
            )
        else:
            source = self.inner.batches(tables, level_index, seed, stream, sizes, batch)
        for first, arrays in source:
            for i in range(arrays[0].shape[0]):
                self.last = arrays[0][i : i + 1]
                yield first + i, tuple(a[i : i + 1] for a in arrays)


def _rescaled(sim: SimulationResult | None, total_bet: int) -> SimulationResult | None:
    """A shared simulation seen at another level whose pays scale with the bet."""
    if sim is None or sim.total_bet == total_bet:
        return sim
    ratio = total_bet // sim.total_bet if total_bet % sim.total_bet == 0 else None
    if ratio is None:
        return sim
    return SimulationResult(
        total_bet,
        sim.n_awards,
        sim.spins,
        sim.total_win * ratio,
        sim.sum_sq * ratio * ratio,
        sim.hits,
        sim.max_win * ratio,
        sim.fs_triggers,
        sim.bonus_triggers,
        sim.fs_spins,
        sim.award_counts.copy(),
        sim.histogram.copy(),
    )


def _judge(cert: Certification, exact: ExactResult | None) -> None:
    j = cert.jurisdiction
    minimum, conf = float(j.min_rtp), float(j.confidence)
    for lc in cert.levels:
        sim = lc.simulation
        jack = lc.jackpot_rtp if j.jackpot_counts_toward_minimum else 0.0
        lc.verdict = level_verdict(
            minimum,
            conf,
            lc.exact.rtp if lc.exact else None,
            lc.exact.sigma if lc.exact else None,
            sim.rtp if sim else None,
            sim.std_error if sim else None,
            sim.spins if sim else 0,
            jack,
        )
        if sim is not None:
            lc.sim_ci = interval(sim.rtp, sim.std_error, conf)
        _level_findings(cert, lc)
    _machine_findings(cert)
    verdicts = [lc.verdict.verdict for lc in cert.levels if lc.verdict]
    if any(f.severity == "error" for f in cert.findings):
        verdicts.append(Verdict.FAIL)
    cert.verdict = worst(verdicts)
    cert.reason = verdict_reason(cert)


def verdict_reason(cert: Certification) -> str:
    """Why a machine got its verdict, in one line with returns in percent.

    The first level with the machine's verdict names it and its figure against
    the minimum (``exact return 73.88% < minimum 80.00% at level 1``); a pass
    names its lowest level; a failure that comes from a finding (an award that
    can never occur, a return that drops) names the finding.

    Parameters
    ----------
    cert : Certification
        A judged certification.

    Returns
    -------
    str
        One line; empty when no level was judged.

    """
    judged = [lc for lc in cert.levels if lc.verdict is not None]
    if not judged:
        return ""
    if cert.verdict == Verdict.PASS:
        counts = cert.jurisdiction.jackpot_counts_toward_minimum
        lowest = min(judged, key=lambda lc: _counted_return(lc, counts))
        return f"lowest: {lowest.verdict.reason} at level {lowest.level}"  # type: ignore[union-attr]
    same = [lc for lc in judged if lc.verdict.verdict == cert.verdict]  # type: ignore[union-attr]
    if not same:  # the levels pass; an error-level finding fails the machine
        found = next(f for f in cert.findings if f.severity == "error")
        return f"{found.code}: {found.message}"
    first = same[0]
    more = (
        f" (and {len(same) - 1} more level{'s' if len(same) > 2 else ''})" if len(same) > 1 else ""
    )
    return f"{first.verdict.reason} at level {first.level}{more}"  # type: ignore[union-attr]


def _free_spin_awards(lc: LevelCertification) -> dict[tuple[str, tuple[str, ...]], float]:
    """(kind, combo) -> occurrences per paid spin of the awards the free spins pay.

    An entry the base reels never show may be paid by the free spins' own
    reels or pays: it can occur, as often as the feature shows it.
    """
    fs = lc.contributions.free_spins if lc.contributions is not None else None
    rows = fs.rows if fs is not None else []
    out: dict[tuple[str, tuple[str, ...]], float] = {}
    for r in rows:
        if (r.probability or 0.0) > 0:
            out[r.kind, r.combo] = out.get((r.kind, r.combo), 0.0) + (r.probability or 0.0)
    return out


def _counted_return(lc: LevelCertification, jackpots_count: bool) -> float:
    if lc.exact is not None:
        return lc.exact.rtp + (lc.jackpot_rtp if jackpots_count else 0.0)
    return lc.simulation.rtp if lc.simulation is not None else float("inf")


def _level_findings(cert: Certification, lc: LevelCertification) -> None:
    add = cert.findings.append
    ex = lc.exact
    if ex is not None and lc.decomposed_rtp is not None:
        if abs(ex.rtp - lc.decomposed_rtp) > 1e-9 * max(1.0, abs(ex.rtp)):
            add(
                Finding(
                    "error",
                    Code.EXACT_MISMATCH,
                    f"level {lc.level}: full cycle "
                    f"{ex.rtp!r} != per-reel decomposition {lc.decomposed_rtp!r}",
                )
            )
    rtp = ex.rtp if ex else (lc.simulation.rtp if lc.simulation else None)
    if rtp is not None and rtp > 1.0:
        add(
            Finding(
                "warning",
                Code.RTP_ABOVE_100,
                f"level {lc.level}: return {pct(rtp)} is above 100% of the amounts played",
            )
        )
    if ex is None:
        return
    odds = cert.jurisdiction.min_award_odds
    beaten = {cert.machine.pays[i].combo for i in beaten_wild_entries(cert.machine)}
    free = _free_spin_awards(lc)
    for award in ex.awards:
        name = " ".join(award.combo)
        one_in = award.one_in
        if award.probability <= 0 and (award.kind, award.combo) in free:
            one_in = 1.0 / free[award.kind, award.combo]  # only the free spins pay it
        elif award.probability <= 0:
            fix = PURE_WILD_FIX if award.kind == "line" and award.combo in beaten else None
            add(
                Finding(
                    "error",
                    Code.IMPOSSIBLE_AWARD,
                    f"level {lc.level}: advertised award {award.kind} [{name}] can never occur"
                    + (f" (a substituted entry always outpays it): {fix}" if fix else ""),
                )
            )
            continue
        if odds and one_in > odds:
            add(
                Finding(
                    "error",
                    Code.AWARD_TOO_RARE,
                    f"level {lc.level}: award {award.kind} "
                    f"[{name}] occurs 1 in {one_in:,.0f}, rarer than 1 in {odds:,}",
                )
            )


def _machine_findings(cert: Certification) -> None:
    drop = cert.jurisdiction.max_rtp_drop_per_level
    if drop is None:
        return
    figures = [
        (lc.level, lc.exact.rtp if lc.exact else lc.simulation.rtp)  # type: ignore[union-attr]
        for lc in cert.levels
        if lc.exact or lc.simulation
    ]
    for (l1, r1), (l2, r2) in zip(figures, figures[1:]):
        if r1 - r2 > float(drop):
            cert.findings.append(
                Finding(
                    "error",
                    Code.RTP_DROP,
                    f"return drops from {pct(r1, 4)} at level {l1} to {pct(r2, 4)} at "
                    f"level {l2}, more than {points(float(drop), 4)}",
                )
            )
