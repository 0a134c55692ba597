"""The ``[hold_and_spin]`` block of a machine (SPEC 3.1b): dataclasses and reader.

Cash-on-reels respins: a screen with at least ``trigger.count`` coins starts
the feature; the coins stay locked, each carrying a value (a multiple of the
total bet or a jackpot); every respin, each empty cell shows a coin with
probability ``cell_probability``; a respin that locks a new coin puts the
respins left back to ``respins``; the feature ends when no respin is left or
every cell is locked (which also pays ``full_window``).

:func:`read_hold_and_spin` reads the block through a
:class:`~certify.model.reader.Reader`, recording every problem with its key
path instead of raising.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from certify.codes import Code
from certify.model.reader import Reader, join
from certify.model.schema import HoldAndSpin, HoldValue, Symbol, Trigger

ENGINE_BOUND = (1 << 32) - 1
"""Largest denominator / weight total the engine's bounded draws take exactly."""

_REQUIRED = ("trigger", "respins", "cell_probability", "values")
_OPTIONAL = ("full_window", "jackpots")


def read_hold_and_spin(
    rd: Reader,
    raw: Any,
    symbols: dict[str, Symbol],
    jackpot_ids: set[str],
    where: str = "hold_and_spin",
) -> HoldAndSpin | None:
    """Read and check a ``[hold_and_spin]`` table.

    Parameters
    ----------
    rd : Reader
        Collects the located problems (nothing is raised here).
    raw : Any
        The parsed TOML value, or None when the machine has no such block.
    symbols : dict of str to Symbol
        The machine's symbols (the trigger must name one of kind ``"bonus"``).
    jackpot_ids : set of str
        Ids of the machine's ``[[jackpots]]`` pools: names a value or
        ``full_window`` may use besides the keys of ``jackpots``.
    where : str
        Key path of the block, for the messages.

    Returns
    -------
    HoldAndSpin or None
        None when ``raw`` is None (or not a table: an error). When problems
        were recorded the result holds placeholders where values were wrong:
        the caller raises through ``rd.raise_if_errors()`` before using it.

    """
    if raw is None:
        return None
    t = rd.table(raw, where, _REQUIRED, _OPTIONAL)
    if not isinstance(raw, dict):
        return None
    trigger = Trigger("", 1)  # placeholder: a missing key is already reported
    if "trigger" in t:
        trigger = _trigger(rd, t["trigger"], join(where, "trigger"), symbols)
    respins = rd.integer(t, "respins", where, 1) or 1
    probability = _probability(rd, t, where)
    jackpots = _jackpot_prizes(rd, t, where)
    known = {name for name, _ in jackpots} | set(jackpot_ids)
    values = _values(rd, t, where, known)
    full_window = rd.string(t, "full_window", where, default=None)
    if full_window is not None and full_window not in known:
        rd.error(
            join(where, "full_window"), f'unknown jackpot "{full_window}"', Code.UNKNOWN_JACKPOT
        )
    return HoldAndSpin(trigger, respins, probability, values, full_window, jackpots)


def check_hold_window(
    rd: Reader, hs: HoldAndSpin, cells: int, where: str = "hold_and_spin"
) -> None:
    """Record an error when the trigger needs more coins than the window has cells.

    Parameters
    ----------
    rd : Reader
        Collects the problem.
    hs : HoldAndSpin
        The feature read by :func:`read_hold_and_spin`.
    cells : int
        Cells of the window (rows x reels).
    where : str
        Key path of the block.

    """
    if hs.trigger.count > cells:
        rd.error(
            join(join(where, "trigger"), "count"),
            f"{hs.trigger.count} coins can never show in a window of {cells} cells",
            Code.RANGE,
        )


def _trigger(rd: Reader, raw: Any, where: str, symbols: dict[str, Symbol]) -> Trigger:
    t = rd.table(raw, where, ("symbol", "count"))
    name = t.get("symbol")
    at = join(where, "symbol")
    symbol = symbols.get(name) if isinstance(name, str) else None
    if "symbol" in t and symbol is None:
        rd.error(at, f'unknown symbol "{name}"', Code.UNKNOWN_SYMBOL)
    elif symbol is not None and symbol.kind != "bonus":
        rd.error(at, f"{name!r} is {symbol.kind}; expected bonus", Code.BAD_KIND)
    return Trigger(str(name), rd.integer(t, "count", where, 1) or 1)


def _probability(rd: Reader, t: dict[str, Any], where: str) -> Fraction:
    at = join(where, "cell_probability")
    if "cell_probability" not in t:
        return Fraction(1, 2)
    value = t["cell_probability"]
    number = rd.decimal(value, at)
    if number is None:
        return Fraction(1, 2)
    if not 0 < number < 1:
        rd.error(at, f'must be a probability in (0, 1), got "{value}"', Code.RANGE)
        return Fraction(1, 2)
    p = Fraction(number)
    if p.denominator > ENGINE_BOUND:
        rd.error(
            at,
            f'"{value}" has too many decimal places: the engine draws a cell exactly only '
            "for a denominator below 2**32 (at most 9 decimal places)",
            Code.RANGE,
        )
    return p


def _jackpot_prizes(rd: Reader, t: dict[str, Any], where: str) -> tuple[tuple[str, int], ...]:
    raw = t.get("jackpots", {})
    at = join(where, "jackpots")
    if not isinstance(raw, dict):
        rd.error(at, "must be a table such as {MINI = 10, MAJOR = 100}", Code.TYPE)
        return ()
    out = []
    for name, prize in raw.items():
        out.append((name, rd.check_int(prize, join(at, name), 1) or 1))
    return tuple(out)


def _values(rd: Reader, t: dict[str, Any], where: str, known: set[str]) -> tuple[HoldValue, ...]:
    at_values = join(where, "values")
    out = []
    for i, spec in enumerate(rd.array(t, "values", where) or []):
        at = join(at_values, i)
        v = rd.table(spec, at, ("weight",), ("pays", "jackpot"))
        weight = rd.integer(v, "weight", at, 1) or 1
        if isinstance(spec, dict) and ("pays" in v) == ("jackpot" in v):
            rd.error(at, "needs exactly one of `pays` or `jackpot`", Code.HOLD_VALUE)
            out.append(HoldValue(weight, 1, None))
            continue
        pays = rd.integer(v, "pays", at, 1, default=None)
        jackpot = rd.string(v, "jackpot", at, default=None)
        if jackpot is not None and jackpot not in known:
            rd.error(join(at, "jackpot"), f'unknown jackpot "{jackpot}"', Code.UNKNOWN_JACKPOT)
        if pays is None and jackpot is None:
            pays = 1  # placeholder after a recorded problem
        out.append(HoldValue(weight, pays, jackpot))
    total = sum(v.weight for v in out)
    if total > ENGINE_BOUND:
        rd.error(
            at_values,
            f"weights add up to {total}, above what the engine draws exactly (2**32 - 1)",
            Code.WEIGHT_OVERFLOW,
        )
    return tuple(out)
