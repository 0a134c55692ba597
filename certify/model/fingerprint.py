"""Canonical form and fingerprint of a parsed machine, and a diff that names changes.

The canonical form is built from the parsed :class:`~certify.model.schema.Machine`,
never from the file text, so comments, whitespace, key order and the way a
number is written (``"0.010"`` or ``"0.01"``) cannot change it, while every
characteristic (strips, weights, pays, paylines, features, bet, jackpots) does.

Its keys mirror the machine file, so a change is named by the key path an
inspector would look up in the TOML: ``reels.strips[2][17]``, ``pays[4].pays``,
``jackpots[0].contribution``.

Conventions
-----------
- every optional key is present, ``null`` when the model leaves it unset;
- defaults the loader fills in are written out: per-stop ``weights`` are 1 when
  the file omits them, a wild's ``substitutes`` list every regular symbol;
- sets are sorted (a wild's ``substitutes``, a group's members), so the order
  of the ``[symbols]`` table cannot matter; arrays whose order is content
  (strips, paylines, ``[[pays]]``, ``[[jackpots]]``) keep it;
- money and rates (``Decimal``) are fixed-point strings without trailing zeros;
- the source path of the file is not part of the form.
"""

from __future__ import annotations

import dataclasses
import difflib
import hashlib
import json
import re
from decimal import Decimal
from fractions import Fraction
from typing import Any

from certify.kinds import MACHINE
from certify.model.schema import (
    Bonus,
    BonusStage,
    FreeSpins,
    Jackpot,
    LadderStage,
    Machine,
    PayEntry,
    PickStage,
    Rules,
    Symbol,
    WheelStage,
    pay_text,
)

CANONICAL_SCHEMA = MACHINE.schema
ABSENT = "(absent)"
_ABSENT = object()
_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")


def canonical_form(machine: Machine) -> dict[str, Any]:
    """Return the JSON-able canonical form of a parsed machine.

    Parameters
    ----------
    machine : Machine
        A loaded, validated machine.

    Returns
    -------
    dict
        Plain ``dict``/``list``/``str``/``int``/``bool``/``None`` values whose
        keys mirror the machine file (``machine``, ``bet``, ``symbols``,
        ``groups``, ``reels``, ``pays``, ``scatter_pays``, ``free_spins``,
        ``bonus``, ``jackpots``).

    """
    return {
        "schema": CANONICAL_SCHEMA,
        "machine": {
            "id": machine.id,
            "name": machine.name,
            "manufacturer": machine.manufacturer,
            "version": machine.version,
            "instruction_languages": list(machine.instruction_languages),
            "handpay_limit": _money(machine.handpay_limit),
        },
        "bet": {
            "denomination": _money(machine.denomination),
            "currency": machine.currency,
            "bet_levels": list(machine.bet_levels),
            "lines": machine.lines,
            "ways": machine.ways,
            "cost": machine.cost,
            **({"duplicate_lines": "allow"} if machine.duplicate_lines == "allow" else {}),
        },
        "symbols": {s.name: _symbol(s) for s in machine.symbols},
        "groups": {name: sorted(members) for name, members in machine.groups},
        "reels": {
            "rows": machine.rows,
            "evaluation": machine.evaluation,
            "strips": _lists(machine.strips),
            "weights": _weights(machine.strips, machine.weights),
            "paylines": _lists(machine.paylines),
        },
        "pays": [_pay(p) for p in machine.pays],
        "scatter_pays": [
            {
                "symbol": s.symbol,
                "count": s.count,
                "pays": _scatter_value(s.pays),
                **(
                    {}
                    if s.free_spins_pays is None
                    else {"free_spins_pays": _scatter_value(s.free_spins_pays)}
                ),
                **({"bonus": True} if s.bonus else {}),  # only when set: older prints stay
                **_bonus_play(s.bonus_game, s.bonus_plays),
            }
            for s in machine.scatter_pays
        ],
        "free_spins": _free_spins(machine.free_spins),
        "bonus": _bonus(machine.bonus),
        **(
            {"bonus_games": {name: _bonus(game) for name, game in machine.bonus_games}}
            if machine.bonus_games
            else {}
        ),
        "jackpots": [_jackpot(j) for j in machine.jackpots],
        **_rules(machine),
    }


def _symbol(s: Symbol) -> dict[str, Any]:
    """A symbol; the SPEC 3.1a keys only when set."""
    out: dict[str, Any] = {
        "kind": s.kind,
        "multiplier": s.multiplier,
        "substitutes": sorted(s.substitutes),
    }
    for key in ("expands", "scatter", "wild_in_free_spins", "sticky", "plays", "wilds_count"):
        if getattr(s, key):
            out[key] = getattr(s, key)
    if s.expands_chance is not None:
        out["expands_chance"] = list(s.expands_chance)
    if s.reels:
        out["reels"] = list(s.reels)
    if s.consecutive:
        out["consecutive"] = s.consecutive
    if s.multipliers:
        out["multipliers"] = {str(v): w for v, w in s.multipliers}
    if s.window_multiplier != 1:
        out["window_multiplier"] = s.window_multiplier
    if s.full_reel_multipliers:
        out["full_reel_multipliers"] = {str(v): w for v, w in s.full_reel_multipliers}
    if s.counts_as is not None:
        out["counts_as"] = {"symbol": s.counts_as[0], "times": s.counts_as[1]}
    if s.paints is not None:
        p = s.paints
        out["paints"] = {
            "reels": list(p.reels),
            "into": p.into,
            **{k: getattr(p, k) for k in ("left", "right", "up", "down") if getattr(p, k)},
        }
    return out


def _plain(value: Any) -> Any:
    """A dataclass (or tuple of them) as JSON-ready data: Fractions as strings."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if isinstance(value, Fraction | Decimal):
        return str(value)
    return value


def _scatter_value(value: int | Fraction) -> int | str:
    """A scatter pay: its integer, or the decimal string of a fraction of the bet."""
    return value if isinstance(value, int) else pay_text(value)


def _pay(p: PayEntry) -> dict[str, Any]:
    """A pay entry; the SPEC 3.1a keys only when set (older fingerprints stay valid)."""
    out: dict[str, Any] = {
        "combo": list(p.combo),
        "pays": p.pays,
        "pays_by_level": None if p.pays_by_level is None else list(p.pays_by_level),
    }
    if p.anywhere:
        out["anywhere"] = True
    if not p.free_spins_multiplier:
        out["free_spins_multiplier"] = False
    if p.free_spins_pays is not None:
        out["free_spins_pays"] = p.free_spins_pays
    if p.bonus:
        out["bonus"] = True
    return out | _bonus_play(p.bonus_game, p.bonus_plays)


def _bonus_play(game: str, plays: int) -> dict[str, Any]:
    """The game a pay plays and its plays, only where not ``[bonus]`` once."""
    return ({"bonus_game": game} if game else {}) | ({"bonus_plays": plays} if plays != 1 else {})


def _rules(machine: Machine) -> dict[str, Any]:
    """``rules`` (SPEC 3.1a) and the option label of a variant, only where not the default."""
    out: dict[str, Any] = {}
    if machine.rules != Rules():
        r = machine.rules
        out["rules"] = {
            "wild_multiplier": r.wild_multiplier,
            "pure_wild_line": r.pure_wild_line,
            "direction": r.direction,
            "scatter_unit": r.scatter_unit,
            "exclusive_scatters": list(r.exclusive_scatters),
            "win_cap": r.win_cap,
        }
        for key, default in (
            ("both_ways", "sum"),
            ("line_pays", "best"),
            ("leading_wilds", "mixed"),
        ):
            if getattr(r, key) != default:  # only when set: older fingerprints stay
                out["rules"][key] = getattr(r, key)
        if r.spin_multipliers:  # only when set, as above
            out["rules"]["spin_multiplier"] = {str(v): w for v, w in r.spin_multipliers}
    if machine.option_label is not None:
        out["option_label"] = machine.option_label
    for key in ("full_window_pays", "heights", "hold_and_spin", "cascade", "cluster_pays"):
        value = getattr(machine, key)
        if value:
            out[key] = _plain(value)
    cascade = out.get("cascade")
    if cascade is not None and not cascade["chain_pays"]:
        del cascade["chain_pays"]  # unset, as before the key existed: older prints stay
    if cascade is not None and not cascade["trigger_vanishes"]:
        del cascade["trigger_vanishes"]  # the same
    for entry in out.get("full_window_pays", ()):
        for key in ("reels", "jackpot"):  # unset, as before the keys existed: older prints stay
            if entry[key] is None:
                del entry[key]
        reels = entry.get("reels")
        if reels and list(reels) == list(range(1, len(reels) + 1)):
            entry["reels"] = len(reels)  # reels 1 to k print as k, as before arrays existed
        if entry["wilds_count"]:
            del entry["wilds_count"]
    return out


def canonical_json(canonical: dict[str, Any]) -> str:
    """Compact JSON of a canonical form: sorted keys, no spaces, ASCII only."""
    return json.dumps(
        canonical, sort_keys=True, separators=(",", ":"), ensure_ascii=True, allow_nan=False
    )


def fingerprint_of(canonical: dict[str, Any]) -> str:
    """``"sha256:<hex>"`` of an already-built canonical form (e.g. from a certificate)."""
    return "sha256:" + hashlib.sha256(canonical_json(canonical).encode("ascii")).hexdigest()


def fingerprint(machine: Machine) -> str:
    """Return ``"sha256:<hex>"``, the SHA-256 of the machine's canonical JSON.

    Parameters
    ----------
    machine : Machine
        A loaded, validated machine.

    Returns
    -------
    str
        ``"sha256:"`` followed by 64 lower-case hex digits.

    """
    return fingerprint_of(canonical_form(machine))


def diff_canonical(old: Any, new: Any, path: str = "") -> list[str]:
    """Name every difference between two canonical forms by its key path.

    Parameters
    ----------
    old, new : dict
        Canonical forms (as built by :func:`canonical_form` or read back from JSON).
    path : str
        Key path of ``old``/``new`` inside the whole form (``""`` at the top).

    Returns
    -------
    list of str
        One line per change, in key order, e.g.
        ``reels.strips[2][17]: "K" -> "Q"`` or ``pays[4].pays: 50 -> 60``.
        A key or list item on one side only shows as ``(absent)``.

    """
    if isinstance(old, dict) and isinstance(new, dict):
        out: list[str] = []
        for key in sorted(set(old) | set(new)):
            sub = _key_path(path, key)
            if key in old and key in new:
                out.extend(diff_canonical(old[key], new[key], sub))
            else:
                out.append(_change(sub, old.get(key, _ABSENT), new.get(key, _ABSENT)))
        return out
    if isinstance(old, list) and isinstance(new, list):
        if len(old) == len(new):
            return _diff_items(old, new, path)
        return _diff_aligned(old, new, path)
    if old == new and type(old) is type(new):
        return []
    return [_change(path, old, new)]


def _diff_items(old: list, new: list, path: str, start: int = 0) -> list[str]:
    """Item by item (indices from ``start``); items past the shorter list are added/removed."""
    out: list[str] = []
    for i in range(max(len(old), len(new))):
        sub = f"{path}[{start + i}]"
        if i < len(old) and i < len(new):
            out.extend(diff_canonical(old[i], new[i], sub))
        else:
            out.append(
                _change(
                    sub, old[i] if i < len(old) else _ABSENT, new[i] if i < len(new) else _ABSENT
                )
            )
    return out


def _items(n: int) -> str:
    return f"{n} item" if n == 1 else f"{n} items"


def _diff_aligned(old: list, new: list, path: str) -> list[str]:
    """Align lists of different length (a stop added, a pay removed), then name changes.

    Unchanged runs are matched first, so one inserted item is one line, not a
    shifted tail. Changed and removed items carry their index in ``old``,
    inserted ones their index in ``new``.
    """
    out = [f"{path}: {_items(len(old))} -> {_items(len(new))}"]
    matcher = difflib.SequenceMatcher(
        a=[canonical_json(x) for x in old], b=[canonical_json(x) for x in new], autojunk=False
    )
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        n = min(i2 - i1, j2 - j1)
        out.extend(_diff_items(old[i1 : i1 + n], new[j1 : j1 + n], path, i1))
        out.extend(_change(f"{path}[{i}]", old[i], _ABSENT) for i in range(i1 + n, i2))
        out.extend(_change(f"{path}[{j}]", _ABSENT, new[j]) for j in range(j1 + n, j2))
    return out


def _change(path: str, old: Any, new: Any) -> str:
    return f"{path}: {_show(old)} -> {_show(new)}"


def _show(value: Any) -> str:
    if value is _ABSENT:
        return ABSENT
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def _key_path(path: str, key: str) -> str:
    shown = key if _BARE_KEY.match(key) else json.dumps(key, ensure_ascii=False)
    return f"{path}.{shown}" if path else shown


def _money(value: Decimal | None) -> str | None:
    """Write money in fixed point without trailing zeros: ``"0.010"`` -> ``"0.01"``."""
    if value is None:
        return None
    text = format(value.normalize(), "f")
    return "0" if text in ("-0", "") else text


def _lists(rows: tuple[tuple[Any, ...], ...] | None) -> list[list[Any]] | None:
    return None if rows is None else [list(r) for r in rows]


def _weights(
    strips: tuple[tuple[str, ...], ...] | None, weights: tuple[tuple[int, ...], ...] | None
) -> list[list[int]] | None:
    """Per-stop weights, written out as 1 each when the file omits them."""
    if strips is None:
        return None
    if weights is None:
        return [[1] * len(strip) for strip in strips]
    return [list(w) for w in weights]


def _free_spins(fs: FreeSpins | None) -> dict[str, Any] | None:
    if fs is None:
        return None
    return {
        "trigger": {"symbol": fs.trigger.symbol, "count": fs.trigger.count},
        "spins": {str(k): v for k, v in fs.spins},
        "multiplier": fs.multiplier,
        **({"multipliers": {str(v): w for v, w in fs.multipliers}} if fs.multipliers else {}),
        "retrigger": fs.retrigger,
        "max_spins": fs.max_spins,
        "strips": _lists(fs.strips),
        "weights": _weights(fs.strips, fs.weights),
        **({"retrigger_once": True} if fs.retrigger_once else {}),
        **(
            {"retrigger_spins": {str(k): v for k, v in fs.retrigger_spins}}
            if fs.retrigger_spins
            else {}
        ),
        **({"expanding_symbol": dict(fs.expanding_symbol)} if fs.expanding_symbol else {}),
        **({"retrigger_symbol": fs.retrigger_symbol} if fs.retrigger_symbol else {}),
        **(
            {"multiplier_by_count": {str(k): v for k, v in fs.multiplier_by_count}}
            if fs.multiplier_by_count
            else {}
        ),
        **(
            {
                "big_symbol": {
                    "reels": list(fs.big_symbol.reels),
                    "strip": list(fs.big_symbol.strip),
                    "weights": list(fs.big_symbol.weights) if fs.big_symbol.weights else None,
                    **({"covers": dict(fs.big_symbol.covers)} if fs.big_symbol.covers else {}),
                    **(
                        {"columns": {k: list(v) for k, v in fs.big_symbol.columns}}
                        if fs.big_symbol.columns
                        else {}
                    ),
                }
            }
            if fs.big_symbol is not None
            else {}
        ),
        **(
            {
                "options": [
                    {
                        "spins": {str(k): v for k, v in o.spins},
                        "multiplier": o.multiplier,
                        **({"weight": o.weight} if o.weight is not None else {}),
                    }
                    for o in fs.options
                ]
            }
            if fs.options
            else {}
        ),
    }


def _bonus(bonus: Bonus | None) -> dict[str, Any] | None:
    if bonus is None:
        return None
    out: dict[str, Any] = {
        "trigger": {"symbol": bonus.trigger.symbol, "count": bonus.trigger.count}
        if bonus.trigger is not None
        else None,
        "awards": [{"pays": a.pays, "weight": a.weight} for a in bonus.awards],
    }
    if bonus.unit != "total_bet":  # written only when set: older prints stay the same
        out["unit"] = bonus.unit
    if bonus.stages:
        out["stages"] = [_stage(s) for s in bonus.stages]
    return out


def _stage(stage: BonusStage) -> dict[str, Any]:
    """A bonus game's stage as declared (its compiled awards are fingerprinted beside it)."""
    if isinstance(stage, PickStage):
        return {
            "kind": "pick",
            "prizes": ["stop" if p is None else p for p in stage.prizes],
            "picks": stage.picks,
            "safe": stage.safe,
            "match_multiplier": stage.match_multiplier,
        }
    if isinstance(stage, WheelStage):
        return {
            "kind": "wheel",
            "segments": [
                {"pays": s.pays, "again": s.again, "weight": s.weight} for s in stage.segments
            ],
            "spins": stage.spins,
            "max_spins": stage.max_spins,
        }
    if isinstance(stage, LadderStage):
        return {
            "kind": "ladder",
            "rungs": list(stage.rungs),
            "climb": stage.climb,
            "collect": stage.collect,
            "lose": stage.lose,
        }
    return {
        "kind": "multiplier",
        "values": [{"multiplier": m, "weight": w} for m, w in stage.values],
    }


def _jackpot(j: Jackpot) -> dict[str, Any]:
    if j.mystery is not None:
        trigger: dict[str, Any] = {"mystery": _money(j.mystery)}
    else:
        trigger = {
            "combo": None if j.trigger_combo is None else list(j.trigger_combo),
            "min_bet_level": j.min_bet_level,
        }
        if j.keep_pay:  # only when set: older fingerprints stay
            trigger["keep_pay"] = True
    return {
        "id": j.id,
        "kind": j.kind,
        "contribution": _money(j.contribution),
        "reset": _money(j.reset),
        "cap": _money(j.cap),
        "overflow": j.overflow,
        "reserve_rate": _money(j.reserve_rate),
        "link": j.link,
        "trigger": trigger,
    }
