"""``slotcert outcomes verify``: whether the machine is the model (SPEC 10).

:func:`verify_outcomes` reads the logs piece by piece (:mod:`~certify.outcomes.logs`),
replays them (:mod:`~certify.outcomes.replay`), runs the statistical tests
(:mod:`~certify.outcomes.stattests`, and SP 800-22 on ``--raw``:
:mod:`~certify.outcomes.nist`) with Holm's correction over the family, and
returns an :class:`OutcomeResult` (``to_dict`` is ``outcomes.json``,
``to_frame`` the tests as a table); :func:`certify.outcomes.report.write_outputs`
writes the files.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from certify.errors import InputError, UsageError
from certify.kinds import OUTCOMES
from certify.outcomes import stattests as st
from certify.outcomes.logs import LogReader
from certify.outcomes.model import ReplayModel, replay_model
from certify.outcomes.replay import Replay

if TYPE_CHECKING:
    import pandas as pd

SCHEMA = OUTCOMES.schema
ANOTHER_MODEL_SHARE = 0.1  # rows with stops beyond the strips above this share: another model


@dataclass
class OutcomeResult:
    """What a verification found (``to_dict()`` is ``outcomes.json``)."""

    model_id: str
    alpha: float
    verdict: str
    rows_in: int
    verified: int
    quarantined: int
    skipped_level: int
    mismatch_count: int
    truncated: int
    not_replayed: dict[str, int]
    tests: list[dict[str, Any]]
    uniformity: dict[str, Any]
    returns: list[dict[str, Any]]
    awards: list[dict[str, Any]]
    mismatches: list[dict[str, Any]] = field(repr=False)
    quarantine: list[tuple[str, int, str]] = field(repr=False)
    stops: dict[str, Any] = field(repr=False, default_factory=dict)

    @property
    def passed(self) -> bool:
        """Every test passed and every screen was paid as the model pays it."""
        return self.verdict == "pass"

    def to_dict(self) -> dict[str, Any]:
        """The ``outcomes.json`` document."""
        return {
            "schema": SCHEMA,
            "model": self.model_id,
            "alpha": self.alpha,
            "verdict": self.verdict,
            "rows_in": self.rows_in,
            "verified": self.verified,
            "quarantined": self.quarantined,
            "skipped_level": self.skipped_level,
            "mismatches": self.mismatch_count,
            "truncated": self.truncated,
            "not_replayed": self.not_replayed,
            "tests": self.tests,
            "uniformity": self.uniformity,
            "returns": self.returns,
            "awards": self.awards,
        }

    def to_frame(self) -> pd.DataFrame:
        """The tests, one row each (name, kind, reel set, reel, statistic, df, p-value, verdict)."""
        import pandas as pd

        return pd.DataFrame(self.tests)


def _machine_model(model: Any) -> ReplayModel:
    if isinstance(model, ReplayModel):
        return model
    from certify.api import load_machine
    from certify.model.schema import Machine

    return replay_model(model if isinstance(model, Machine) else load_machine(model))


def verify_outcomes(
    logs: Sequence[str | Path] | str | Path,
    model: Any,
    out: str | Path | None = None,
    level: int | None = None,
    alpha: float = 0.01,
    raw: str | Path | None = None,
    piece_rows: int | None = None,
) -> OutcomeResult:
    """Verify outcome logs against a certified machine model (SPEC 10).

    Parameters
    ----------
    logs : path or paths
        CSV, JSON lines or Parquet logs, one row per screen.
    model : path, Machine or ReplayModel
        The certified machine file (or it loaded / compiled for replay).
    out : path, optional
        Write ``outcomes.json``, ``mismatches.csv``, ``quarantine.csv`` and
        ``report.html`` there.
    level : int, optional
        Keep only the rows of this bet level (the value, as in ``bet_levels``).
    alpha : float
        Family-wise significance level (Holm).
    raw : path, optional
        Raw generator output (unsigned 32-bit words) for the SP 800-22 tests.
    piece_rows : int, optional
        Rows read at a time (default :data:`certify.outcomes.logs.PIECE_ROWS`).

    Returns
    -------
    OutcomeResult

    Raises
    ------
    InputError
        A log that cannot be used (missing column, another model's reel count
        or strips, unreadable file).

    """
    if not 0 < alpha < 1:
        raise UsageError(f"--alpha {alpha} must lie between 0 and 1")
    paths = [Path(logs)] if isinstance(logs, (str, Path)) else [Path(p) for p in logs]
    rm = _machine_model(model)
    if level is not None and level not in rm.level_values:
        raise UsageError(
            f"--level {level} is not a bet level of {rm.machine.id} ({list(rm.level_values)})"
        )
    replay = Replay(rm, level)
    reader = LogReader(rm.reel_count, piece_rows) if piece_rows else LogReader(rm.reel_count)
    for path in paths:
        if not path.exists():
            raise InputError(f"{path}: no such log file")
        for piece in reader.pieces(path):
            replay.machine_names = {v: k for k, v in reader.machines.items()}
            replay.add_piece(piece)
    admitted = replay.rows_in - replay.skipped_level
    if replay.out_of_strip and replay.out_of_strip > ANOTHER_MODEL_SHARE * max(admitted, 1):
        raise InputError(
            f"{replay.out_of_strip} of {admitted} rows have stops beyond the strips of "
            f"{rm.machine.id}: a log of another model?"
        )
    result = _result(rm, replay, alpha, Path(raw) if raw else None)
    if out is not None:
        from certify.outcomes.report import write_outputs

        write_outputs(result, Path(out))
    return result


# -- the family of tests ---------------------------------------------------------------------


def _entry(name: str, kind: str, reel_set: str | None, reel: int | None, r: st.TestResult) -> dict:
    return {
        "name": name,
        "kind": kind,
        "reel_set": reel_set,
        "reel": reel,
        "statistic": _num(r.statistic),
        "df": _num(r.df),
        "p_value": _num(r.p_value),
    }


def _num(x: float) -> float | None:
    return None if x is None or (isinstance(x, float) and math.isnan(x)) else float(x)


def stop_tests(replay: Replay) -> list[dict]:
    """Goodness of fit, G, serial, independence, runs and gap tests of every reel set."""
    out = []
    for name, t in replay.tallies.items():
        if sum(int(c.sum()) for c in t.counts) == 0:
            continue
        for r, w in enumerate(t.weights):
            p = w / w.sum()
            reel = r + 1
            out.append(
                _entry("chi-square", "stops", name, reel, st.goodness_of_fit(t.counts[r], p))
            )
            out.append(_entry("G-test", "stops", name, reel, st.g_test(t.counts[r], p)))
            pf = t.folded(r)
            out.append(
                _entry(
                    "serial pairs", "serial", name, reel, st.pair_independence(t.serial[r], pf, pf)
                )
            )
            if r + 1 < len(t.weights):
                res = st.pair_independence(t.neighbour[r], pf, t.folded(r + 1))
                out.append(_entry(f"reels {reel} and {reel + 1}", "independence", name, reel, res))
            out.append(
                _entry(
                    "runs",
                    "runs",
                    name,
                    reel,
                    st.runs_test(int(t.runs[r]), t.runs_mean[r], t.runs_var[r]),
                )
            )
            out.append(_entry("gap", "gap", name, reel, st.gap_test(t.gaps[r], t.p_a[r])))
    return out


def _exact(rm: ReplayModel) -> Any:
    if not hasattr(rm, "_exact"):
        from certify.exact import compute_exact

        try:
            rm._exact = compute_exact(rm.tables)  # type: ignore[attr-defined]
        except Exception:  # noqa: BLE001 - a model the exact calculator refuses: no return tests
            rm._exact = None  # type: ignore[attr-defined]
    return rm._exact  # type: ignore[attr-defined]


def return_tests(rm: ReplayModel, replay: Replay) -> tuple[list[dict], list[dict]]:
    """Return, hit frequency and trigger rates of each level's whole games vs exact figures."""
    exact = _exact(rm)
    tests, rows = [], []
    for value, t in sorted(replay.levels.items()):
        if t.games == 0:
            continue
        le = exact.levels[rm.level(value).index] if exact is not None else None
        rtp = t.paid / (t.games * t.total_bet)
        row: dict[str, Any] = {"level": value, "games": t.games, "rtp": rtp}
        if le is not None:
            half = 2.5758293035489 * le.sigma / math.sqrt(t.games)
            row |= {"exact_rtp": le.rtp, "rtp_low": le.rtp - half, "rtp_high": le.rtp + half}
            res = st.mean_test(t.paid / t.total_bet, t.games, le.rtp, le.sigma)
            tests.append(_entry(f"return at level {value}", "return", None, None, res))
            for label, count, p in (
                ("hit frequency", t.hits, le.hit_frequency),
                (
                    "free-spin trigger rate",
                    t.fs_triggers,
                    le.fs_probability if rm.machine.free_spins else None,
                ),
                (
                    "bonus trigger rate",
                    t.bonus_triggers,
                    le.bonus_probability
                    if (rm.machine.bonus or rm.machine.hold_and_spin)
                    else None,
                ),
            ):
                if p is None:
                    continue
                low, high = st.proportion_interval(count, t.games)
                row[label] = {"observed": count / t.games, "exact": p, "low": low, "high": high}
                tests.append(
                    _entry(
                        f"{label} at level {value}",
                        "return",
                        None,
                        None,
                        st.proportion_test(count, t.games, p),
                    )
                )
        rows.append(row)
    return tests, rows


def award_counts(rm: ReplayModel, replay: Replay) -> list[dict]:
    """Each pay entry's count on base screens vs its exact expectation (reported, not judged)."""
    exact = _exact(rm)
    out = []
    for value, t in sorted(replay.levels.items()):
        if t.classes is None or t.base_screens == 0:
            continue
        lk = rm.level(value)
        n_keys = lk.award_keys.shape[0]
        n_classes = lk.px.n_classes
        keys = t.awards[1 : n_keys + 1] + t.classes[:n_classes] @ lk.px.class_entries
        per_entry = keys @ lk.award_keys
        probs = {}
        if exact is not None:
            le = exact.levels[lk.index]
            probs = {a.combo: a.probability for a in le.awards if a.kind in ("line", "ways")}
        for e, pay in enumerate(rm.machine.pays):
            count = int(per_entry[e])
            low, high = st.proportion_interval(count, t.base_screens)
            p = probs.get(tuple(pay.combo))
            out.append(
                {
                    "level": value,
                    "combo": " ".join(pay.combo),
                    "count": count,
                    "expected": None if p is None else p * t.base_screens,
                    "low": low * t.base_screens,
                    "high": high * t.base_screens,
                }
            )
    return out


def raw_entries(raw: Path) -> list[dict]:
    """One family entry per SP 800-22 test of the raw file."""
    from certify.outcomes.nist import raw_tests

    out = []
    for t in raw_tests(raw):
        e = _entry(
            t.name,
            "raw",
            None,
            None,
            st.TestResult(t.passed / t.sequences, float(t.sequences), t.family_p),
        )
        e |= {
            "sequences": t.sequences,
            "passed": t.passed,
            "proportion_low": t.proportion_low,
            "proportion_ok": t.proportion_ok,
            "uniformity_p": _num(t.uniformity_p),
        }
        out.append(e)
    return out


def _result(rm: ReplayModel, replay: Replay, alpha: float, raw: Path | None) -> OutcomeResult:
    family = stop_tests(replay)
    returns, return_rows = return_tests(rm, replay)
    family += returns
    if raw is not None:
        family += raw_entries(raw)
    adjusted = st.holm([np.nan if e["p_value"] is None else e["p_value"] for e in family])
    for e, a in zip(family, adjusted):
        e["p_holm"] = _num(a)
        e["verdict"] = (
            "fail"
            if (not math.isnan(a) and a < alpha)
            else ("pass" if not math.isnan(a) else "not run")
        )
    exact_checks = [
        {
            "name": "payout replay",
            "kind": "payout",
            "reel_set": None,
            "reel": None,
            "statistic": replay.payout_mismatches,
            "df": None,
            "p_value": None,
            "p_holm": None,
            "verdict": "fail" if replay.payout_mismatches else "pass",
        },
        {
            "name": "feature order",
            "kind": "feature",
            "reel_set": None,
            "reel": None,
            "statistic": replay.feature_findings,
            "df": None,
            "p_value": None,
            "p_holm": None,
            "verdict": "fail" if replay.feature_findings else "pass",
        },
    ]
    tests = exact_checks + family
    uni = st.uniformity([e["p_value"] for e in family if e["p_value"] is not None])
    verdict = "fail" if any(t["verdict"] == "fail" for t in tests) else "pass"
    return OutcomeResult(
        model_id=rm.machine.id,
        alpha=alpha,
        verdict=verdict,
        rows_in=replay.rows_in,
        verified=replay.verified,
        quarantined=replay.quarantined,
        skipped_level=replay.skipped_level,
        mismatch_count=replay.mismatch_count,
        truncated=replay.truncated,
        not_replayed=dict(replay.not_replayed),
        tests=tests,
        uniformity={
            "test": "Kolmogorov-Smirnov vs U(0,1)",
            "statistic": _num(uni.statistic),
            "n": _num(uni.df),
            "p_value": _num(uni.p_value),
            "judged": False,
        },
        returns=return_rows,
        awards=award_counts(rm, replay),
        mismatches=replay.mismatches,
        quarantine=replay.quarantine,
        stops={
            name: {
                "counts": [c.tolist() for c in t.counts],
                "weights": [w.tolist() for w in t.weights],
            }
            for name, t in replay.tallies.items()
        },
    )


def iter_paths(values: Iterable[str]) -> list[Path]:
    """The log paths of the command line."""
    return [Path(v) for v in values]
