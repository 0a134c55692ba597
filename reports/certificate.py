"""The certificate JSON (``slotcert/certificate@1``) of a certified machine.

Keys are sorted on output; everything that varies between identical runs
lives under ``run`` (run time, host) and ``certificate`` (the issue date and
the certificate number made from it, added by ``slotcert certify``, see
:mod:`reports.signing`), so comparisons can drop those two.
"""

from __future__ import annotations

import json
import os
import platform
from pathlib import Path
from typing import Any

import numpy as np

from certify import __version__, compiler
from certify.batch import Certification, LevelCertification
from certify.engine.rng import CHUNK_SPINS
from certify.exact.contributions import METHOD as CONTRIBUTION_METHOD
from certify.exact.contributions import Contribution, multiplier_value
from certify.kinds import CERTIFICATE
from certify.model.fingerprint import canonical_form, fingerprint_of
from certify.outputs import write_text
from certify.stats import z_value

CERTIFICATE_SCHEMA = CERTIFICATE.schema


def build_certificate(cert: Certification) -> dict[str, Any]:
    """The certificate of ``cert`` as a JSON-ready dictionary."""
    m, j = cert.machine, cert.jurisdiction
    canonical = canonical_form(m)
    conf = float(j.confidence)
    options = {"free_spin_options": _options(cert, conf)} if cert.options else {}
    return {
        **options,
        "schema": CERTIFICATE_SCHEMA,
        "tool": {"name": "slotcert", "version": __version__},
        "machine": {
            "id": m.id,
            "name": m.name,
            "manufacturer": m.manufacturer,
            "version": m.version,
            "source": m.source,
            "fingerprint": fingerprint_of(canonical),
            "canonical": canonical,
        },
        "jurisdiction": {
            "id": j.id,
            "name": j.name,
            "min_rtp": float(j.min_rtp),
            "confidence": conf,
            "jackpot_counts_toward_minimum": j.jackpot_counts_toward_minimum,
            "min_award_odds": j.min_award_odds,
        },
        "verdict": cert.verdict,
        "verdict_reason": cert.reason,
        "simulation_plan": {
            "mode": "exact-only" if cert.spins == 0 else "exact and simulation",
            "spins": cert.spins,
            "seed": cert.seed,
            "chunk_spins": CHUNK_SPINS,
            "rng": "xoshiro256** per chunk, SeedSequence(seed, (level, chunk))",
        },
        "exact_method": (cert.exact_method or "full-cycle") if cert.exact_cycle else None,
        "exact_cycle": cert.exact_cycle,
        "bet_levels": [_level(lc, cert.seed, conf) for lc in cert.levels],
        "awards": [a for lc in cert.levels for a in _awards(lc, m)],
        "findings": [
            {"severity": f.severity, "code": f.code, "message": f.message} for f in cert.findings
        ],
        "run": {
            "runtime_s": round(cert.runtime_s, 3),
            "python": platform.python_version(),
            "threads": os.environ.get("NUMBA_NUM_THREADS", str(os.cpu_count())),
            "compiler": compiler.describe(),
        },
    }


def _options(cert: Certification, conf: float) -> list[dict[str, Any]]:
    """Each free-spin option the player may choose, certified as its own return."""
    out = []
    for option in cert.options:
        fs = option.machine.free_spins
        assert fs is not None
        out.append(
            {
                "option": option.machine.option_label,
                "spins": {str(k): v for k, v in fs.spins},
                "multiplier": fs.multiplier,
                "verdict": option.verdict,
                "governs": option.levels is cert.levels,
                "bet_levels": [_level(lc, cert.seed, conf) for lc in option.levels],
            }
        )
    return out


def _level(lc: LevelCertification, seed: int, conf: float) -> dict[str, Any]:
    ex, sim = lc.exact, lc.simulation
    exact = None
    if ex is not None:
        mw = lc.max_win
        exact = {
            "standard_deviation": ex.sigma,
            "max_win_x_bet": None
            if mw is None or mw.credits is None
            else mw.credits / lc.total_bet,
            "max_win_probability": None if mw is None else mw.probability,
            "max_win_note": "" if mw is None else mw.reason or "exact (jackpots aside)",
            "max_win_exact": None if mw is None or mw.credits is None else mw.exact,
            "win_probabilities": None
            if mw is None or not mw.thresholds
            else [{"event": e, "probability": p} for e, p in mw.thresholds],
            "rtp": ex.rtp + lc.jackpot_rtp,
            "base_rtp": ex.rtp,
            "jackpot_rtp": lc.jackpot_rtp,
            "line_rtp": ex.line_rtp,
            "scatter_rtp": ex.scatter_rtp,
            "free_spins_rtp": ex.free_spins_rtp,
            "bonus_rtp": ex.bonus_rtp,
            "decomposed_base_rtp": lc.decomposed_rtp,
            "hit_frequency": ex.hit_frequency,
            "variance": ex.variance,
            "sigma": ex.sigma,
            "volatility_index": ex.volatility_index(conf),
            "free_spins_probability": ex.fs_probability,
            "bonus_probability": ex.bonus_probability,
        }
    simulation = None
    if sim is not None and sim.spins:
        low, high = lc.sim_ci or (float("nan"), float("nan"))
        simulation = {
            "spins": sim.spins,
            "seed": seed,
            "stream": lc.stream,
            "rtp": sim.rtp,
            "std_error": sim.std_error,
            "ci": [low, high],
            "z": z_value(conf),
            "hit_frequency": sim.hit_frequency,
            "max_win": sim.max_win,
            "free_spins_triggers": sim.fs_triggers,
            "bonus_triggers": sim.bonus_triggers,
            "win_histogram": [int(x) for x in np.asarray(sim.histogram)],
            "convergence": [[n, rtp, se] for n, rtp, se in lc.trace],
        }
    v = lc.verdict
    return {
        "level": lc.level,
        "total_bet": lc.total_bet,
        "exact": exact,
        "simulation": simulation,
        "verdict": v.verdict if v else "error",
        "reason": v.reason if v else "",
        "more_spins": v.more_spins if v else None,
        "par": _par(lc),
    }


def _row(level: int, c: Contribution) -> dict[str, Any]:
    one_in = 1.0 / c.probability if c.probability else None
    row = {
        "level": level,
        "section": c.section,
        "kind": c.kind,
        "combo": list(c.combo),
        "pays": c.pays,
        "multiplier": multiplier_value(c.multiplier),
        "probability": c.probability,
        "one_in": one_in,
        "rtp_contribution": c.rtp,
        "source": c.source,
    }
    if c.ci is not None:
        row["ci"] = list(c.ci)
    return row


def _par(lc: LevelCertification) -> dict[str, Any] | None:
    """Feature tables of one level: free spins by component, bonus awards, jackpot pools."""
    pc, ex = lc.contributions, lc.exact
    if pc is None or ex is None:
        return None
    fs = pc.free_spins
    return {
        "method": CONTRIBUTION_METHOD,
        "total_rtp": ex.rtp + lc.jackpot_rtp,
        "tables": [t.to_dict() for t in pc.tables],
        "free_spins": None
        if fs is None
        else {
            "trigger_probability": fs.trigger_probability,
            "expected_spins_per_trigger": fs.spins_per_trigger,
            "free_spins_per_spin": fs.expected_spins,
            "free_spin_mean_win": fs.spin_mean / lc.total_bet,
            "rtp": fs.rtp,
            "rows": [_row(lc.level, r) for r in fs.rows],
        },
        "bonus": None
        if not pc.bonus_awards
        else {
            "trigger_probability": pc.bonus_trigger_probability,
            "rtp": float(sum(r.rtp for r in pc.bonus_awards)),
            "awards": [_row(lc.level, r) for r in pc.bonus_awards],
        },
        "jackpots": [
            {
                "pool": p.pool,
                "eligible": p.eligible,
                "exact": p.exact,
                "hit_probability": p.hit_probability if np.isfinite(p.hit_probability) else None,
                "contribution": p.contribution,
                "reset_funding": p.reset_funding,
                "rtp": p.rtp,
            }
            for p in lc.pools
        ],
    }


def _bonus_event(machine: Any, awards: list[Contribution]) -> tuple[str, ...]:
    """The combo the bonus row names: its trigger, or the smallest pay that plays a game."""
    hs = machine.hold_and_spin
    if hs is not None:
        return (hs.trigger.symbol,) * hs.trigger.count
    return machine.bonus_combo or min((a.combo for a in awards), default=())


def _awards(lc: LevelCertification, machine: Any) -> list[dict[str, Any]]:
    """The level's award table: every pay and scatter entry, then one row per feature.

    Each row's ``rtp_contribution`` is its exact share of the return (wild
    multipliers, ways, free-spin multiplier included, see
    :mod:`certify.exact.contributions`); per level the rows add up to the
    certified return (base game + jackpots) to floating-point rounding.
    """
    pc, ex = lc.contributions, lc.exact
    if pc is None:
        return []
    out = []
    for c in pc.base:  # probabilities: the decomposition's (equal to the cycle's, tested)
        out.append(_row(lc.level, c))
    if ex is None:  # a simulation-only game: its rows are the simulation's
        return out
    if getattr(ex, "win_cap_rtp", 0.0):
        out.append(_row(lc.level, Contribution("base", "win_cap", (), None, None, ex.win_cap_rtp)))
        out[-1]["one_in"] = None
    fs = pc.free_spins
    if fs is not None and machine.free_spins is not None:
        trig = machine.free_spins.trigger
        out.append(
            _row(
                lc.level,
                Contribution(
                    "free_spins",
                    "free_spins",
                    (trig.symbol,) * trig.count,
                    None,
                    fs.trigger_probability,
                    fs.rtp,
                ),
            )
        )
    if machine.bonus_laws or machine.hold_and_spin is not None:
        out.append(
            _row(
                lc.level,
                Contribution(
                    "bonus",
                    "hold_and_spin" if machine.hold_and_spin is not None else "bonus",
                    _bonus_event(machine, pc.bonus_awards),
                    None,
                    pc.bonus_trigger_probability,
                    float(sum(r.rtp for r in pc.bonus_awards)),
                ),
            )
        )
    for p, jp in zip(lc.pools, machine.jackpots, strict=True):
        combo = _pool_event(machine, jp)
        prob = p.hit_probability if np.isfinite(p.hit_probability) else None
        out.append(
            {
                "level": lc.level,
                "section": "jackpot",
                "kind": "jackpot",
                "combo": combo,
                "pays": None,
                "probability": prob,
                "one_in": 1.0 / prob if prob else None,
                "rtp_contribution": p.rtp,
                "pool": p.pool,
            }
        )
    return out


def _pool_event(machine: Any, jp: Any) -> list[str]:
    """What wins a pool, as the PAR's event: its combo, ``mystery``, full windows, hold and spin."""
    if jp.trigger_combo:
        return list(jp.trigger_combo)
    symbols = [fw.symbol for fw in machine.full_window_pays if fw.jackpot == jp.id]
    full = ["full_window", *symbols] if symbols else []
    if jp.mystery is not None:
        return ["mystery", *full]
    held = machine.hold_and_spin is not None and jp.id in machine.hold_and_spin.jackpot_names()
    return [*full, *(["hold_and_spin"] if held or not full else [])]


def write_json(data: dict[str, Any], path: Path) -> None:
    """Write JSON with sorted keys, atomically (:mod:`certify.outputs`)."""
    write_text(path, json.dumps(data, indent=2, sort_keys=True, allow_nan=False) + "\n")
