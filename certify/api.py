"""The Python entry point: load a model, compute its exact figures, simulate it, certify it.

Every function takes a path (``str`` or :class:`~pathlib.Path`) or an object
already loaded, and returns a result object with ``to_dict()`` (plain JSON-able
data, the same fields as the command line's ``--json``) and ``to_frame()`` (a
:class:`pandas.DataFrame`, one row per bet level, bet or machine). Errors are
the command line's: :class:`~certify.errors.ModelError` (with every located
problem of a file), :class:`~certify.errors.UsageError`.

>>> import slotcert
>>> run = slotcert.simulate("models/machines/ref-5x3-20.toml", spins=100_000, seed=1)
>>> run.to_frame()[["level", "rtp", "std_error"]]  # doctest: +SKIP

``import slotcert`` re-exports this module and adds the meter reconciler
(:func:`slotcert.reconcile_meters`) and certificate writing
(:func:`slotcert.write_certificates`), which live in the ``meters`` and
``reports`` packages (``certify`` imports neither).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from certify.bounds import MAX_COUNT, MAX_EXACT_BUDGET_S, MAX_SEED  # shared with the command line
from certify.errors import InputError, ModelError, UsageError
from certify.model import files
from certify.verdicts import Verdict, worst

if TYPE_CHECKING:  # pandas is imported by to_frame() only
    import pandas as pd

    from certify.batch import Certification
    from certify.model.jurisdiction import Jurisdiction
    from certify.model.schema import Machine

PathLike = str | Path

__all__ = [
    "BatchResult",
    "CertificationResult",
    "ExactResult",
    "ModelError",
    "SimulationRun",
    "UsageError",
    "certify",
    "exact",
    "kind_of",
    "load",
    "load_jurisdiction",
    "load_machine",
    "InputError",
    "simulate",
    "simulation_row",
]


def _frame(rows: list[dict[str, Any]]) -> pd.DataFrame:
    import pandas as pd

    return pd.DataFrame(rows)


# -- loading ---------------------------------------------------------------------------------


def kind_of(path: PathLike) -> str:
    """The kind a model file declares: ``machine``, ``jurisdiction``, ``link``, ``table`` or ''."""
    return files.kind_of(path)[0]


def load(path: PathLike) -> Any:
    """Load and validate any model file; return its typed, frozen object.

    Returns
    -------
    Machine, Jurisdiction, Link or Table
        By the file's ``schema`` key (``slotcert/machine@1`` ...).

    Raises
    ------
    ModelError
        With every problem of the file (file, key path, value).

    """
    return files.load_model(path)


def load_machine(path: PathLike) -> Machine:
    """Load a machine file (``slotcert/machine@1``); a one-line UsageError for another kind."""
    from certify.model import load_machine as _load

    files.expect_kind(path, "machine")
    return _load(path)


def load_jurisdiction(path: PathLike) -> Jurisdiction:
    """Load a jurisdiction file (``slotcert/jurisdiction@1``)."""
    from certify.model import load_jurisdiction as _load

    files.expect_kind(path, "jurisdiction")
    return _load(path)


def _machine(model: PathLike | Machine) -> Machine:
    from certify.model.schema import Machine

    return model if isinstance(model, Machine) else load_machine(model)


# -- exact -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class ExactResult:
    """Exact figures of a machine (per bet level) or a table game (per bet).

    ``data`` is the document ``slotcert exact MODEL --json`` prints.
    """

    data: dict[str, Any]

    @property
    def is_table(self) -> bool:
        """Whether this is a table game's result (``bets``) rather than a machine's."""
        return "bets" in self.data

    @property
    def rtp(self) -> dict[Any, float | None]:
        """Return by bet level (machines) or by bet name (table games)."""
        if self.is_table:
            return {b["bet"]: b["rtp"] for b in self.data["bets"]}
        return {lvl["level"]: (lvl["exact"] or {}).get("rtp") for lvl in self.data["bet_levels"]}

    def to_dict(self) -> dict[str, Any]:
        """The JSON document (a copy is not made: do not modify it)."""
        return self.data

    def to_frame(self) -> pd.DataFrame:
        """One row per bet level (rtp, base_rtp, hit_frequency, variance, ...) or per bet."""
        if self.is_table:
            return _frame([dict(b) for b in self.data["bets"]])
        rows = []
        for lvl in self.data["bet_levels"]:
            row: dict[str, Any] = {"level": lvl["level"], "total_bet": lvl["total_bet"]}
            ex = lvl["exact"]
            if ex is not None:
                row.update({k: v for k, v in ex.items() if k != "awards"})
                row["awards"] = len(ex.get("awards", []))
            rows.append(row)
        return _frame(rows)

    def awards_frame(self) -> pd.DataFrame:
        """One row per (bet level, award): combo, pays, probability, one_in (machines)."""
        rows = []
        for lvl in self.data.get("bet_levels", []):
            for award in (lvl["exact"] or {}).get("awards", []):
                rows.append(
                    {"level": lvl["level"], **award, "combo": " ".join(award.get("combo", []))}
                )
        return _frame(rows)


def exact(model: PathLike | Machine, *, budget_s: float | None = None) -> ExactResult:
    """Exact return, hit frequency, variance and award odds of a machine or table game.

    Parameters
    ----------
    model : path or Machine
        A machine or table file, or a loaded :class:`~certify.model.Machine`.
    budget_s : float, optional
        Seconds of work a screen game's full cycle may take before it is refused
        (``--budget``; 60 by default).

    """
    from certify.model.schema import Machine

    if not isinstance(model, Machine):
        if files.expect_kind(model, "machine", "table") == "table":
            from certify.tables import exact_report

            return ExactResult(exact_report(model))
    from certify.exact.report import exact_report as machine_report

    _check_budget(budget_s, "budget_s")
    return ExactResult(machine_report(_machine(model), budget_s=budget_s))


def _check_budget(budget: Any, name: str) -> None:
    """A UsageError unless ``budget`` is None or a number of seconds in (0, a week]."""
    number = isinstance(budget, int | float) and not isinstance(budget, bool)
    if budget is not None and not (number and 0 < budget <= MAX_EXACT_BUDGET_S):
        raise UsageError(f"{name}={budget!r} must be seconds above 0, at most a week (604800)")


# -- simulate --------------------------------------------------------------------------------


def simulation_row(
    result: Any, level: int, level_index: int, seed: int, confidence: float
) -> dict[str, Any]:
    """The JSON row of one simulated bet level (``slotcert simulate --json``)."""
    from certify.stats import interval

    low, high = interval(result.rtp, result.std_error, confidence)
    return {
        "level": level,
        "total_bet": result.total_bet,
        "spins": result.spins,
        "seed": seed,
        "stream": level_index,
        "rtp": result.rtp,
        "std_error": result.std_error,
        "ci": [low, high],
        "hit_frequency": result.hit_frequency,
        "max_win": result.max_win,
        "free_spins_triggers": result.fs_triggers,
        "bonus_triggers": result.bonus_triggers,
    }


def simulation_document(machine: Any, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The ``slotcert simulate --json`` document of simulated rows.

    A game with free-spin options has one row per option and level (each
    row's ``option`` names it): ``bet_levels`` are then the rows of the
    option of the lowest simulated return (the option certification judges
    the machine by) and ``free_spin_options`` holds every option's rows, as
    ``slotcert exact`` does.
    """
    doc: dict[str, Any] = {"machine": {"id": machine.id, "name": machine.name}}
    options: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        if "option" in row:
            options.setdefault(row["option"], []).append(dict(row))
    if not options:
        return {**doc, "bet_levels": [dict(row) for row in rows]}
    worst = min(options.values(), key=lambda part: min(r["rtp"] for r in part))
    return {
        **doc,
        "bet_levels": worst,
        "free_spin_options": [{"option": k, "bet_levels": v} for k, v in options.items()],
    }


@dataclass(frozen=True)
class SimulationRun:
    """A Monte Carlo run: one row per simulated bet level, and the merged engine results.

    A game with free-spin options is simulated once per option (each is a
    game of its own, SPEC 3.1a): ``levels`` then holds one row per option and
    level, each naming its ``option``, and ``rtp`` is the lowest return of
    the options at each level (see :func:`simulation_document`).
    """

    machine_id: str
    machine_name: str
    confidence: float
    levels: tuple[dict[str, Any], ...]
    results: tuple[Any, ...] = field(repr=False, default=())

    @property
    def rtp(self) -> dict[int, float]:
        """Simulated return by bet level (of a game with options: the lowest option's)."""
        out: dict[int, float] = {}
        for row in self.levels:
            out[row["level"]] = min(out.get(row["level"], row["rtp"]), row["rtp"])
        return out

    @property
    def options(self) -> dict[str, dict[int, float]]:
        """Simulated return by free-spin option and bet level (empty without options)."""
        out: dict[str, dict[int, float]] = {}
        for row in self.levels:
            if "option" in row:
                out.setdefault(row["option"], {})[row["level"]] = row["rtp"]
        return out

    def to_dict(self) -> dict[str, Any]:
        """The document ``slotcert simulate --json`` prints."""
        doc = simulation_document(_Named(self.machine_id, self.machine_name), list(self.levels))
        return doc

    def to_frame(self) -> pd.DataFrame:
        """One row per bet level; ``ci`` split into ``ci_low`` and ``ci_high``."""
        rows = []
        for row in self.levels:
            flat = {k: v for k, v in row.items() if k != "ci"}
            flat["ci_low"], flat["ci_high"] = row["ci"]
            rows.append(flat)
        return _frame(rows)


@dataclass(frozen=True)
class _Named:
    """The id and name of a machine, for :func:`simulation_document`."""

    id: str
    name: str


def _whole(value: Any, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def check_run(spins: Any, seed: Any, chunk_spins: Any, confidence: Any) -> None:
    """The checks of the command line's argument types, for the API: a UsageError if not met."""
    if not _whole(spins, 1, MAX_COUNT):
        raise UsageError(f"spins={spins!r} must be a whole number from 1 to 10^15")
    if not _whole(seed, 0, MAX_SEED):
        raise UsageError(
            f"seed={seed!r} must be a whole number from 0 to 2^128 - 1 "
            "(a run is reproduced from its seed, so it has to be given)"
        )
    if chunk_spins is not None and not _whole(chunk_spins, 1, MAX_COUNT):
        raise UsageError(f"chunk_spins={chunk_spins!r} must be a whole number from 1 to 10^15")
    if not isinstance(confidence, int | float) or not 0.5 <= confidence < 1:
        raise UsageError(f"confidence={confidence!r} must be in [0.5, 1)")


def check_checkpoint_folder(path: PathLike, name: str = "checkpoint") -> None:
    """A UsageError when ``path`` exists and is not a folder (a checkpoint is a folder)."""
    where = Path(path)
    if where.exists() and not where.is_dir():
        raise UsageError(f"{name}={str(path)!r} is not a folder (a checkpoint is a folder)")


def simulate(
    model: PathLike | Machine,
    spins: int,
    seed: int,
    *,
    level: int | None = None,
    confidence: float = 0.99,
    chunk_spins: int | None = None,
    checkpoint: PathLike | None = None,
    workers: int | None = None,
    scheduler: str | None = None,
    device: str = "cpu",
) -> SimulationRun:
    """Simulate ``spins`` spins of every bet level (or of ``level``) with ``seed``.

    The figures depend only on ``seed`` and ``chunk_spins`` (default 2^20),
    never on threads, ``workers`` (a local Dask cluster), ``scheduler`` (a
    Dask scheduler address) or ``device`` (``"cpu"``, or ``"cuda"``: an NVIDIA
    GPU, bit-identical; a UsageError without one or for a game it does not
    play). With ``checkpoint`` (a folder) finished chunks are recorded and a
    rerun resumes from them.
    """
    from certify.admission import admit
    from certify.checkpoint import CheckpointDir
    from certify.engine import compile_machine
    from certify.engine import simulate as run
    from certify.engine.rng import CHUNK_SPINS
    from certify.runners import open_runner

    check_run(spins, seed, chunk_spins, confidence)
    if checkpoint is not None:
        check_checkpoint_folder(checkpoint)
    machine = _machine(model)
    if level is not None and level not in machine.bet_levels:
        raise UsageError(f"level={level} is not one of {list(machine.bet_levels)}")
    chunk = CHUNK_SPINS if chunk_spins is None else chunk_spins
    variants = admit(machine, chunk_spins=chunk)  # the refusals of validate, per option
    store = (
        None
        if checkpoint is None
        else CheckpointDir(checkpoint, seed, chunk, per_machine=len(variants) > 1)
    )
    rows, results = [], []
    with open_runner(scheduler, workers, store, device) as runner:
        for variant in variants:  # each free-spin option is a game of its own
            tables = compile_machine(variant)
            if device == "cuda":
                from certify.engine.gpu import refuse

                refuse(tables, str(model) if isinstance(model, str | Path) else "")
            for li, lv in enumerate(machine.bet_levels):
                if level is not None and lv != level:
                    continue
                res = run(tables, li, spins, seed, stream=li, chunk_spins=chunk, runner=runner)
                row = simulation_row(res, lv, li, seed, confidence)
                if chunk_spins is not None:
                    row["chunk_spins"] = chunk
                if variant.option_label:
                    row["option"] = variant.option_label
                rows.append(row)
                results.append(res)
    return SimulationRun(machine.id, machine.name, confidence, tuple(rows), tuple(results))


# -- certify ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class CertificationResult:
    """The certification of one machine file (``certification`` is None if it was invalid)."""

    path: str
    certification: Certification | None
    error: str | None = None

    @property
    def machine_id(self) -> str | None:
        """The machine's id (None for an unreadable file)."""
        return self.certification.machine.id if self.certification else None

    @property
    def verdict(self) -> str:
        """``pass``, ``fail``, ``inconclusive``, ``error``, or ``invalid`` (a bad file)."""
        return self.certification.verdict if self.certification else Verdict.INVALID

    @property
    def reason(self) -> str | None:
        """Why the verdict, in one line with returns in percent; an invalid file's error.

        ``exact return 73.88% < minimum 80.00% at level 1``.
        """
        return self.certification.reason if self.certification else self.error

    def levels(self) -> list[dict[str, Any]]:
        """Per bet level: exact and simulated return, interval, verdict and its reason."""
        cert = self.certification
        if cert is None:
            return []
        out = []
        for lc in cert.levels:
            ex, sim = lc.exact, lc.simulation
            out.append(
                {
                    "level": lc.level,
                    "total_bet": lc.total_bet,
                    "exact_rtp": None if ex is None else ex.rtp + lc.jackpot_rtp,
                    "exact_base_rtp": None if ex is None else ex.rtp,
                    "jackpot_rtp": lc.jackpot_rtp,
                    "hit_frequency": None if ex is None else ex.hit_frequency,
                    "sim_spins": None if sim is None else sim.spins,
                    "sim_rtp": None if sim is None else sim.rtp,
                    "sim_std_error": None if sim is None else sim.std_error,
                    "sim_ci": None if lc.sim_ci is None else list(lc.sim_ci),
                    "verdict": None if lc.verdict is None else lc.verdict.verdict,
                    "reason": None if lc.verdict is None else lc.verdict.reason,
                }
            )
        return out

    def to_dict(self) -> dict[str, Any]:
        """Path, machine id, verdict, per-level figures and findings (JSON-able)."""
        cert = self.certification
        return {
            "path": self.path,
            "machine_id": self.machine_id,
            "verdict": self.verdict,
            "reason": self.reason,
            "error": self.error,
            "bet_levels": self.levels(),
            "findings": []
            if cert is None
            else [
                {"severity": f.severity, "code": f.code, "message": f.message}
                for f in cert.findings
            ],
        }

    def to_frame(self) -> pd.DataFrame:
        """One row per bet level."""
        return _frame([{"machine_id": self.machine_id, **row} for row in self.levels()])


@dataclass(frozen=True)
class BatchResult:
    """Certifications of several machine files under one jurisdiction."""

    jurisdiction: Jurisdiction
    spins: int
    seed: int
    machines: tuple[CertificationResult, ...]
    lab: dict[str, Any] = field(default_factory=dict)  # the issuing lab; empty: drafts
    sign_key: Path | None = None  # the Ed25519 private key file that signs the certificates
    issued: datetime | None = None  # the issue time the certificates carry (UTC)

    @property
    def draft(self) -> bool:
        """No laboratory named (``lab``/``lab_config``): the certificates are drafts."""
        from certify.lab import is_draft

        return is_draft(self.lab)

    @property
    def verdict(self) -> str:
        """The worst verdict of the batch (an invalid file counts as ``error``)."""
        verdicts = [
            m.verdict if m.verdict != Verdict.INVALID else Verdict.ERROR for m in self.machines
        ]
        return worst(verdicts)

    @property
    def exit_code(self) -> int:
        """``slotcert certify``'s exit code: 0 pass, 1 fail/inconclusive/error, 2 bad file."""
        if any(m.verdict == Verdict.INVALID for m in self.machines):
            return 2
        return 0 if all(m.verdict == Verdict.PASS for m in self.machines) else 1

    def __iter__(self):
        """The machines, in file order."""
        return iter(self.machines)

    def to_dict(self) -> dict[str, Any]:
        """Jurisdiction, plan and one entry per machine."""
        return {
            "jurisdiction": self.jurisdiction.id,
            "spins": self.spins,
            "seed": self.seed,
            "verdict": self.verdict,
            "machines": [m.to_dict() for m in self.machines],
        }

    def to_frame(self) -> pd.DataFrame:
        """One row per machine: verdict, lowest exact and simulated return, error."""
        rows = []
        for m in self.machines:
            levels = m.levels()
            exact_rtps = [r["exact_rtp"] for r in levels if r["exact_rtp"] is not None]
            sim_rtps = [r["sim_rtp"] for r in levels if r["sim_rtp"] is not None]
            rows.append(
                {
                    "path": m.path,
                    "machine_id": m.machine_id,
                    "verdict": m.verdict,
                    "reason": m.reason,
                    "min_exact_rtp": min(exact_rtps) if exact_rtps else None,
                    "min_sim_rtp": min(sim_rtps) if sim_rtps else None,
                    "error": m.error,
                }
            )
        return _frame(rows)


def _files(paths: PathLike | Iterable[PathLike]) -> list[Path]:
    items = [paths] if isinstance(paths, str | Path) else list(paths)
    return files.machine_files([str(p) for p in items])


def certify(
    paths: PathLike | Sequence[PathLike],
    jurisdiction: PathLike | Jurisdiction,
    spins: int,
    seed: int,
    *,
    lab: str | None = None,
    lab_config: PathLike | None = None,
    sign_key: PathLike | None = None,
    device: str = "cpu",
    exact_budget_s: float | None = None,
) -> BatchResult:
    """Certify machine files (folders: every machine in them) against a jurisdiction.

    ``device="cuda"`` simulates on an NVIDIA GPU (the same figures; a
    UsageError without one). One bad file does not stop the others: it comes
    back with verdict ``invalid`` and its error (so does a game
    ``device="cuda"`` does not play). Nothing is written; see
    :func:`slotcert.write_certificates` for certificates, HTML and PAR files.

    Parameters
    ----------
    paths : path or list of paths
        Machine files, or folders of model files.
    jurisdiction : path or Jurisdiction
        The rules certified against.
    spins, seed : int
        Spins per simulated bet level (0: exact only) and the seed.
    lab : str, optional
        The issuing laboratory's name (``--lab``); with neither ``lab`` nor
        ``lab_config`` the certificates written are drafts.
    lab_config : path, optional
        The lab's TOML file (``--lab-config``): name, id, accreditation, address, contact.
    sign_key : path, optional
        An Ed25519 PEM private key (``--sign-key``): the certificates written are signed.
    device : {"cpu", "cuda"}
        Where the chunks are simulated (``--device``).
    exact_budget_s : float, optional
        Seconds of work a screen game's exact cycle may take (``--exact-budget``; 60).

    Raises
    ------
    UsageError
        For a negative ``spins``.
    InputError
        For a lab file or signing key that cannot be read (before any machine is certified).

    """
    from datetime import UTC, datetime

    from certify.lab import load_lab
    from certify.model.jurisdiction import Jurisdiction
    from certify.runners import open_runner

    if not _whole(spins, 0, MAX_COUNT):
        raise UsageError(f"spins={spins!r} must be a whole number from 0 to 10^15")
    if not _whole(seed, 0, MAX_SEED):
        raise UsageError(f"seed={seed!r} must be a whole number from 0 to 2^128 - 1")
    _check_budget(exact_budget_s, "exact_budget_s")
    issuer = load_lab(lab, lab_config)
    key = None if sign_key is None else Path(sign_key)
    if key is not None and not key.is_file():
        raise InputError(f"{key}: cannot read signing key: no such file")
    rules = (
        jurisdiction if isinstance(jurisdiction, Jurisdiction) else load_jurisdiction(jurisdiction)
    )
    results = []
    with open_runner(None, None, None, device) as runner:
        for path in _files(paths):
            run = (spins, seed, device, runner, exact_budget_s)
            results.append(_certify_file(path, rules, *run))
    issued = datetime.now(UTC).replace(microsecond=0)
    return BatchResult(rules, spins, seed, tuple(results), issuer, key, issued)


def _certify_file(
    path: Path,
    rules: Any,
    spins: int,
    seed: int,
    device: str,
    runner: Any,
    budget_s: float | None = None,
) -> CertificationResult:
    """One file of :func:`certify`: its certification, or its error."""
    from certify.batch import certify_machine, load_for_certification

    try:
        files.expect_kind(path, "machine")
        machine, warnings = load_for_certification(path)
        if device == "cuda" and spins > 0:
            from certify.engine.gpu import refuse_machine

            refuse_machine(machine, str(path))
        cert = certify_machine(
            machine, rules, spins, seed, None, warnings, runner=runner, budget_s=budget_s
        )
        return CertificationResult(str(path), cert)
    except ModelError as exc:
        n = len(exc.problems)
        first = exc.problems[0] if exc.problems else ""
        error = f"{n} problem{'s' if n != 1 else ''}: {first}"
        return CertificationResult(str(path), None, error)
    except UsageError as exc:
        return CertificationResult(str(path), None, str(exc))
