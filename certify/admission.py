"""Whether a machine can be played, and by which path: the one decision every command shares.

``slotcert validate``, ``exact``, ``simulate`` and ``certify`` (and the Python
API and the meter reconciler's theory) all call :func:`admit` before they
build anything, so a model one of them refuses, every one of them refuses,
with the same located errors:

* every bound the engine relies on (:func:`certify.engine.limits.machine_limits`),
  for *each* free-spin option the player may choose (``[[free_spins.options]]``:
  each option is its own game, so each is bounded and played alone);
* a feature this engine does not play (:func:`certify.engine.tables.refuse_unsupported`);
* a strip cascade whose full cycle plays more screens than ``cascade.max_screens``
  (:func:`certify.exact.screens.cascade_cycle_problem`; the probe's work is bounded).

What is not a refusal but is known from the model alone is reported too,
so ``validate`` says what ``exact`` and ``certify`` will say:

* :func:`exact_warnings`: why the exact calculator will refuse the game
  (``exact_infeasible``, the verdict then rests on simulation);
* :func:`award_findings`: a pay entry no spin can pay because a higher
  substituted entry always takes the line (``impossible_award``: certification
  fails it), with the key that fixes it.
"""

from __future__ import annotations

from collections.abc import Iterable

from certify.codes import Code
from certify.engine.limits import machine_limits
from certify.engine.rng import CHUNK_SPINS
from certify.errors import ModelError, Problem
from certify.model.schema import Machine, PayEntry

PURE_WILD_FIX = 'set [rules] pure_wild_line = "wild_award" to pay the wilds\' own entry'
"""The key that fixes a wilds-only entry a substituted entry always outpays."""


def admit(
    machine: Machine,
    warnings: Iterable[Problem] = (),
    chunk_spins: int = CHUNK_SPINS,
    budget_s: float | None = None,
) -> list[Machine]:
    """The machine's playable variants (one per free-spin option), or a ModelError.

    Parameters
    ----------
    machine : Machine
        A parsed machine.
    warnings : iterable of Problem
        The loader's warnings, kept in front of the errors when raising.
    chunk_spins : int
        Spins per simulation chunk (the win bounds scale with it).
    budget_s : float, optional
        Seconds of work the strip-cascade check may take (the exact
        calculator's budget, 60 by default).

    Returns
    -------
    list of Machine
        :meth:`Machine.option_variants`: the machine itself, or one variant per option.

    Raises
    ------
    ModelError
        With every located refusal of every variant (exit 2 on the command line).

    """
    problems = refusals(machine, chunk_spins, budget_s)
    if problems:
        raise ModelError(list(warnings) + problems)
    return machine.option_variants()


def refusals(
    machine: Machine, chunk_spins: int = CHUNK_SPINS, budget_s: float | None = None
) -> list[Problem]:
    """Every located error for which some path refuses ``machine`` (none: it is playable)."""
    variants = machine.option_variants()
    out: list[Problem] = []
    for variant in variants:
        for problem in _variant_refusals(variant, chunk_spins, budget_s):
            labelled = _labelled(problem, variant) if len(variants) > 1 else problem
            if labelled not in out:
                out.append(labelled)
    return out


def _variant_refusals(
    machine: Machine, chunk_spins: int, budget_s: float | None = None
) -> list[Problem]:
    from certify.engine.tables import refuse_unsupported

    try:
        refuse_unsupported(machine)
    except ModelError as exc:
        return list(exc.problems)
    problems = list(machine_limits(machine, chunk_spins).problems)
    if problems or machine.cascade is None:
        return problems
    from certify.exact.screens import cascade_cycle_problem  # plays the cycle: bounds first

    cascade = cascade_cycle_problem(machine, machine.source or machine.id, budget_s=budget_s)
    return [cascade] if cascade is not None else []


def _labelled(problem: Problem, variant: Machine) -> Problem:
    """The problem of one free-spin option, its message naming the option."""
    return Problem(
        problem.file,
        problem.path,
        f"{variant.option_label}: {problem.message}",
        problem.code,
        problem.severity,
    )


def exact_warnings(machine: Machine) -> list[Problem]:
    """Why the exact calculator will refuse a variant, known from the model alone (warnings).

    These are :attr:`certify.engine.limits.Limits.exact` (64-bit sums, the
    capped recursion, the hold-and-spin chain's work, a win cap over
    features); the cycle's size is judged by ``exact`` itself.
    """
    variants = machine.option_variants()
    out: list[Problem] = []
    for variant in variants:
        for p in machine_limits(variant).exact:
            labelled = _labelled(p, variant) if len(variants) > 1 else p
            message = f"{labelled.message}: no exact figures; certification rests on simulation"
            warning = Problem(p.file, p.path, message, Code.EXACT_INFEASIBLE, "warning")
            if warning not in out:
                out.append(warning)
    return out


def beaten_wild_entries(machine: Machine) -> set[int]:
    """Indices of the pay entries :func:`award_findings` reports."""
    if machine.rules.pure_wild_line != "highest" or machine.evaluation != "lines":
        return set()
    return {e.index for e in machine.pays if _beaten_by(machine, e) is not None}


def award_findings(machine: Machine) -> list[Problem]:
    """Pay entries of wilds only that a substituted entry always outpays (``impossible_award``).

    With ``[rules] pure_wild_line = "highest"`` (the default) a line of ``n``
    wilds pays the highest entry it meets: a regular symbol's ``n``-entry the
    wilds substitute for, times the wilds' multiplier, beats the wilds' own
    ``n``-entry when it pays more (or as much and is listed first), so the
    wilds' entry is never paid and certification fails it as
    ``impossible_award``. ``pure_wild_line = "wild_award"`` pays the wilds'
    own entry on such a line instead.
    """
    if machine.rules.pure_wild_line != "highest" or machine.evaluation != "lines":
        return []
    out = []
    for entry in machine.pays:
        beaten = _beaten_by(machine, entry)
        if beaten is None:
            continue
        other, li, theirs, ours = beaten
        out.append(
            Problem(
                machine.source or machine.id,
                f"pays[{entry.index}].combo",
                f"{list(entry.combo)} is never paid: at bet level {machine.bet_levels[li]} a line "
                f"of {len(entry.combo)} wilds pays {list(other.combo)} x the wild multiplier "
                f"({theirs:,} credits) instead of its own {ours:,} (pure_wild_line = "
                f'"highest"); certification fails it as impossible_award; {PURE_WILD_FIX}',
                Code.IMPOSSIBLE_AWARD,
                "warning",
            )
        )
    return out


def _beaten_by(machine: Machine, entry: PayEntry) -> tuple[PayEntry, int, int, int] | None:
    """(the entry that always outpays ``entry``, level index, its pay, ours), or None."""
    names = {s.name: s for s in machine.symbols}
    wild = names.get(entry.combo[0])
    if entry.anywhere or wild is None or wild.kind != "wild" or wild.multipliers:
        return None
    if any(token != wild.name for token in entry.combo):
        return None
    n = len(entry.combo)
    mult = _combined(machine, [wild.multiplier] * n)
    for li, level in enumerate(machine.bet_levels):
        if _is_jackpot(machine, entry, level):
            continue
        ours = entry.credits(li, level)
        for other in machine.pays:
            token = other.combo[0]
            if other.anywhere or len(other.combo) != n or token not in wild.substitutes:
                continue
            if any(t != token for t in other.combo) or _is_jackpot(machine, other, level):
                continue
            theirs = other.credits(li, level) * mult
            if theirs > ours or (theirs == ours and other.index < entry.index):
                return other, li, theirs, ours
    return None


def _combined(machine: Machine, mults: list[int]) -> int:
    """The wild multiplier of a run of wilds (SPEC 3.1a ``wild_multiplier``)."""
    rule = machine.rules.wild_multiplier
    if rule == "max":
        return max(mults, default=1)
    if rule == "sum":
        big = [x for x in mults if x > 1]
        return sum(big) if big else 1
    out = 1
    for x in mults:
        out *= x
    return out


def _is_jackpot(machine: Machine, entry: PayEntry, level: int) -> bool:
    return any(
        jp.trigger_combo == entry.combo and (jp.min_bet_level is None or level >= jp.min_bet_level)
        for jp in machine.jackpots
    )
