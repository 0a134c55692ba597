"""The certificate JSON (``slotcert/certificate@1``) of a certified machine.

Keys are sorted on output; everything that varies between identical runs
(run time, host, date) lives under ``run`` so golden comparisons can drop it.
"""

from __future__ import annotations

import json
import os
import platform
from pathlib import Path
from typing import Any

import numpy as np

from certify import __version__
from certify.batch import Certification, LevelCertification
from certify.engine.rng import CHUNK_SPINS
from certify.model.fingerprint import canonical_form, fingerprint_of
from certify.outputs import write_text
from certify.stats import z_value

CERTIFICATE_SCHEMA = "slotcert/certificate@1"


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
        "simulation_plan": {
            "spins": cert.spins,
            "seed": cert.seed,
            "chunk_spins": CHUNK_SPINS,
            "rng": "xoshiro256** per chunk, SeedSequence(seed, (level, chunk))",
        },
        "exact_method": "full-cycle" if cert.exact_cycle else None,
        "exact_cycle": cert.exact_cycle,
        "bet_levels": [_level(lc, cert.seed, conf) for lc in cert.levels],
        "awards": [a for lc in cert.levels for a in _awards(lc)],
        "findings": [
            {"severity": f.severity, "code": f.code, "message": f.message} for f in cert.findings
        ],
        "run": {
            "runtime_s": round(cert.runtime_s, 3),
            "python": platform.python_version(),
            "threads": os.environ.get("NUMBA_NUM_THREADS", str(os.cpu_count())),
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
        exact = {
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
    }


def _awards(lc: LevelCertification) -> list[dict[str, Any]]:
    if lc.exact is None:
        return []
    out = []
    for a in lc.exact.awards:
        one_in = a.one_in if np.isfinite(a.one_in) else None
        out.append(
            {
                "level": lc.level,
                "kind": a.kind,
                "combo": list(a.combo),
                "pays": a.pays,
                "probability": a.probability,
                "one_in": one_in,
                "rtp_contribution": a.pays * a.probability / lc.total_bet
                if a.kind in ("line", "ways", "scatter")
                else None,
            }
        )
    return out


def write_json(data: dict[str, Any], path: Path) -> None:
    """Write JSON with sorted keys, atomically (:mod:`certify.outputs`)."""
    write_text(path, json.dumps(data, indent=2, sort_keys=True, allow_nan=False) + "\n")
