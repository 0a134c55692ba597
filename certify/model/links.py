"""Superjackpot groups (``slotcert/link@1``): machines sharing one pool.

Machines of one or several casinos form a collective prize (Portaria 1441/95
n.º 4). A link file declares the pool (contribution, reset, cap, overflow, reserve
rate, trigger) and its members: which machine (``machine_id``) of which model
(a machine file, or a model id found in the machines folder) plays at which
bet level in which casino. Every problem of the file is collected and raised
at once as a :class:`~certify.errors.ModelError`, each naming the file, the key
path and the value.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any

from certify.codes import Code
from certify.errors import ModelError
from certify.kinds import LINK
from certify.model.loader import read_mystery, read_toml
from certify.model.reader import Reader, join
from certify.model.schema import Machine

LINK_SCHEMA = LINK.schema
_TOP_REQUIRED = ("schema", "id", "currency", "contribution", "reset", "trigger", "members")
_TOP_OPTIONAL = ("name", "cap", "overflow", "reserve_rate", "same_model")
_MEMBER_REQUIRED = ("machine_id", "model", "bet_level", "casino")
_MEMBER_OPTIONAL = ("location", "spins_per_day")


@dataclass(frozen=True)
class Member:
    """One machine of a superjackpot group.

    ``machine`` is the member's loaded model; ``spins_per_day`` its play rate
    (None when the file does not say: the simulation then assumes equal play).
    """

    index: int
    machine_id: str
    casino: str
    location: str
    model_ref: str
    machine: Machine
    bet_level: int
    spins_per_day: float | None = None

    @property
    def stake(self) -> Decimal:
        """Money wagered per spin: total bet at the member's level x denomination."""
        return self.machine.total_bet(self.bet_level) * self.machine.denomination

    @property
    def credits_per_spin(self) -> int:
        """Credits wagered per spin at the member's bet level."""
        return self.machine.total_bet(self.bet_level)


@dataclass(frozen=True)
class Link:
    """A parsed, validated superjackpot group."""

    id: str
    name: str
    currency: str
    contribution: Decimal
    reset: Decimal
    members: tuple[Member, ...]
    cap: Decimal | None = None
    overflow: str = "reserve"
    reserve_rate: Decimal = Decimal(0)
    same_model: bool = True
    trigger_combo: tuple[str, ...] | None = None
    min_bet_level: int | None = None
    mystery: Decimal | None = None
    source: str = ""

    def member(self, machine_id: str) -> Member | None:
        """The member with ``machine_id``, or None."""
        for m in self.members:
            if m.machine_id == machine_id:
                return m
        return None


def load_link(path: str | Path, machines_dir: str | Path | None = None) -> Link:
    """Load, validate and return the superjackpot group in ``path``.

    Parameters
    ----------
    path : str or Path
        A ``slotcert/link@1`` file.
    machines_dir : str or Path, optional
        Where members given by model id are looked up (default: the
        ``machines`` folder next to the link file's folder, i.e.
        ``models/machines`` for ``models/links/x.toml``).

    Raises
    ------
    ModelError
        With every problem found, each naming the file, key path and value.

    """
    path = Path(path)
    folder = Path(machines_dir) if machines_dir is not None else path.parent.parent / "machines"
    return parse_link(read_toml(path), str(path), path.parent, folder)


def parse_link(data: dict[str, Any], file: str, base: Path, machines_dir: Path) -> Link:
    """Validate a parsed link file; model files resolve against ``base`` then the cwd."""
    rd = Reader(file)
    rd.table(data, "", _TOP_REQUIRED, _TOP_OPTIONAL)
    if "schema" in data and data.get("schema") != LINK_SCHEMA:
        rd.error("schema", f"must be {LINK_SCHEMA!r}, got {data.get('schema')!r}", Code.SCHEMA)
    rate = rd.money(data, "contribution", "")
    if rate is not None and rate >= 1:
        rd.error("contribution", f'must be in [0, 1), got "{rate}"', Code.RANGE)
    reserve = rd.money(data, "reserve_rate", "", default="0")
    if reserve is not None and reserve >= 1:
        rd.error("reserve_rate", f'must be in [0, 1), got "{reserve}"', Code.RANGE)
    reset = rd.money(data, "reset", "")
    cap = rd.money(data, "cap", "", default=None)
    if cap is not None and reset is not None and cap < reset:
        rd.error("cap", f'cap "{cap}" is below the reset "{reset}"', Code.CAP_BELOW_RESET)
    combo, min_level, mystery = _trigger(rd, data.get("trigger"))
    members = _members(rd, data.get("members"), base, machines_dir)
    link = Link(
        id=rd.string(data, "id", "") or "",
        name=rd.string(data, "name", "", default=None) or "",
        currency=rd.string(data, "currency", "") or "",
        contribution=rate or Decimal(0),
        reset=reset or Decimal(0),
        members=tuple(members),
        cap=cap,
        overflow=rd.string(data, "overflow", "", ("reserve", "next-reset"), default="reserve")
        or "reserve",
        reserve_rate=reserve or Decimal(0),
        same_model=rd.boolean(data, "same_model", "", True),
        trigger_combo=combo,
        min_bet_level=min_level,
        mystery=mystery,
        source=file,
    )
    _check_group(rd, link, declared=not rd.errors)
    rd.raise_if_errors()
    return link


def _trigger(rd: Reader, raw: Any) -> tuple:
    """``trigger = {combo = [...], min_bet_level = L}`` or ``{mystery = "p"}``."""
    at = "trigger"
    if raw is None:  # reported as a missing key
        return None, None, None
    t = rd.table(raw, at, (), ("combo", "min_bet_level", "mystery"))
    if t and ("combo" in t) == ("mystery" in t):
        rd.error(at, "needs exactly one of `combo` or `mystery`", Code.JACKPOT_TRIGGER)
        return None, None, None
    min_level = rd.integer(t, "min_bet_level", at, 1, default=None)
    if "mystery" in t:
        return None, min_level, read_mystery(rd, t, at)
    combo = rd.array(t, "combo", at) or []
    for j, token in enumerate(combo):
        if not isinstance(token, str) or not token:
            rd.error(
                join(join(at, "combo"), j),
                f"must be a symbol or group name, got {token!r}",
                Code.TYPE,
            )
    return tuple(str(x) for x in combo) or None, min_level, None


def _members(rd: Reader, raw: Any, base: Path, machines_dir: Path) -> list[Member]:
    if not isinstance(raw, list) or not raw:
        if raw is not None:
            rd.error("members", "must be a non-empty array of [[members]] tables", Code.TYPE)
        return []
    cache: dict[str, Machine | None] = {}
    out: list[Member] = []
    seen: dict[str | None, int] = {}
    for i, spec in enumerate(raw):
        where = join("members", i)
        t = rd.table(spec, where, _MEMBER_REQUIRED, _MEMBER_OPTIONAL)
        mid = rd.string(t, "machine_id", where)
        if mid is not None and mid in seen:
            rd.error(
                join(where, "machine_id"),
                f'"{mid}" is already members[{seen[mid]}]',
                Code.DUPLICATE_MEMBER,
            )
        seen.setdefault(mid, i)
        ref = rd.string(t, "model", where)
        level = rd.integer(t, "bet_level", where, 1)
        rate = t.get("spins_per_day")
        if rate is not None and (
            isinstance(rate, bool) or not isinstance(rate, int | float) or not rate > 0
        ):
            rd.error(
                join(where, "spins_per_day"), f"must be a positive number, got {rate!r}", Code.RANGE
            )
            rate = None
        casino = rd.string(t, "casino", where)
        location = rd.string(t, "location", where, default=None) or ""
        if ref is None:
            continue
        if ref not in cache:
            cache[ref] = _resolve_model(rd, ref, join(where, "model"), base, machines_dir)
        machine = cache[ref]
        if machine is None or level is None or mid is None:
            continue
        if level not in machine.bet_levels:
            rd.error(
                join(where, "bet_level"),
                f"{level} is not one of the bet levels "
                f'{list(machine.bet_levels)} of model "{machine.id}"',
                Code.RANGE,
            )
            continue
        out.append(
            Member(
                i,
                mid,
                casino or "",
                location,
                ref,
                machine,
                level,
                float(rate) if rate is not None else None,
            )
        )
    return out


def _resolve_model(
    rd: Reader, ref: str, where: str, base: Path, machines_dir: Path
) -> Machine | None:
    """Load a member's model: a machine file path, or a model id in ``machines_dir``."""
    from certify.model.loader import MACHINE_SCHEMA, parse_machine

    if ref.endswith(".toml") or "/" in ref:
        candidates = [base / ref, Path(ref)]
        path = next((p for p in candidates if p.is_file()), None)
    else:
        path = None
        for file in sorted(machines_dir.glob("*.toml")) if machines_dir.is_dir() else []:
            try:
                data = read_toml(file)
            except ModelError:
                continue
            info = data.get("machine")
            if (
                data.get("schema") == MACHINE_SCHEMA
                and isinstance(info, dict)
                and info.get("id") == ref
            ):
                path = file
                break
    if path is None and (ref.endswith(".toml") or "/" in ref):
        rd.error(where, f'no machine file "{ref}" (relative to {base})', Code.UNKNOWN_MEMBER)
        return None
    if path is None:
        rd.error(
            where,
            f'no machine file or model id "{ref}" (looked in {machines_dir})',
            Code.UNKNOWN_MEMBER,
        )
        return None
    try:
        machine, _ = parse_machine(read_toml(path), str(path))
    except ModelError as exc:
        rd.error(where, f'"{ref}" is not a valid machine: {exc.problems[0]}', Code.MEMBER_INVALID)
        return None
    return machine


def _check_group(rd: Reader, link: Link, declared: bool = True) -> None:
    """Group rules: one model and stake when required, contributions, trigger, currency.

    ``declared``: also compare the members' own ``[[jackpots]]`` entries for
    this link (skipped when the group's keys are already in error).
    """
    first = link.members[0] if link.members else None
    models_seen: set[str] = set()
    for m in link.members:
        where = join("members", m.index)
        if m.machine.currency != link.currency:
            rd.error(
                join(where, "model"),
                f'model "{m.machine.id}" plays in '
                f"{m.machine.currency}, the group in {link.currency}",
                Code.CURRENCY,
            )
        if link.same_model and first is not None and m is not first:
            _check_same(rd, link, first, m)
        _check_level(rd, link, m)
        if m.machine.id not in models_seen:
            models_seen.add(m.machine.id)
            _check_contributions(rd, link, m)
            _check_trigger(rd, link, m)
            if declared:
                _check_declared(rd, link, m)


def _check_same(rd: Reader, link: Link, first: Member, m: Member) -> None:
    from certify.model.fingerprint import fingerprint

    where = join("members", m.index)
    ref = f"members[{first.index}]"
    if m.machine.id != first.machine.id:
        rd.error(
            join(where, "model"),
            f'model "{m.machine.id}" differs from {ref} model '
            f'"{first.machine.id}"; same_model = true requires one model',
            Code.DIFFERENT_MODEL,
        )
        return
    mine, theirs = fingerprint(m.machine), fingerprint(first.machine)
    if mine != theirs:
        rd.error(
            join(where, "model"),
            f'model "{m.machine.id}" ({mine[:19]}) is not the '
            f"same model as {ref} ({theirs[:19]}); same_model = true requires one model",
            Code.DIFFERENT_MODEL,
        )
        return
    if m.stake != first.stake:
        rd.error(
            join(where, "bet_level"),
            f"stake {_money(m)} per spin differs from {ref} "
            f"stake {_money(first)}; same_model = true requires the same stakes",
            Code.DIFFERENT_STAKE,
        )


def _money(m: Member) -> str:
    cents = m.stake.quantize(Decimal("0.01"))
    stake = f"{cents}" if cents == m.stake else f"{m.stake.normalize():f}"
    return (
        f"{stake} {m.machine.currency} (level {m.bet_level} x {m.machine.bet_unit} x "
        f"{m.machine.denomination})"
    )


def _check_contributions(rd: Reader, link: Link, m: Member) -> None:
    own = sum(
        (j.contribution + j.reserve_rate for j in m.machine.jackpots if j.link != link.id),
        Decimal(0),
    )
    group = link.contribution + link.reserve_rate
    if own + group >= 1:
        rd.error(
            join("members", m.index),
            f'model "{m.machine.id}" contributes {own} of '
            f"coin-in to its own jackpots plus {group} to this group: {own + group}, "
            "at or above 100%",
            Code.CONTRIBUTION_TOTAL,
        )


def _check_level(rd: Reader, link: Link, m: Member) -> None:
    if link.min_bet_level is not None and m.bet_level < link.min_bet_level:
        rd.error(
            join(join("members", m.index), "bet_level"),
            f"{m.bet_level} is below "
            f"trigger.min_bet_level {link.min_bet_level}: the jackpot can never be won "
            "on this machine",
            Code.IMPOSSIBLE_TRIGGER,
        )


def _check_trigger(rd: Reader, link: Link, m: Member) -> None:
    """The trigger combination is a pay of the model and can occur (once per model)."""
    name = f'members[{m.index}] model "{m.machine.id}"'
    combo = link.trigger_combo
    if combo is None:
        return
    shown = "[" + ", ".join(f'"{t}"' for t in combo) + "]"
    if combo not in {e.combo for e in m.machine.pays}:
        rd.error(
            "trigger.combo",
            f"{shown} is not one of the [[pays]] combos of {name}; a jackpot replaces a line pay",
            Code.JACKPOT_TRIGGER,
        )
        return
    for j, token in enumerate(combo):
        if not any(token_matches(m.machine, token, s) for s in set(m.machine.strips[j])):
            rd.error(
                "trigger.combo",
                f'{shown} can never occur on {name}: nothing on reel {j + 1} matches "{token}"',
                Code.IMPOSSIBLE_TRIGGER,
            )
            return


def token_matches(machine: Machine, token: str, symbol: str) -> bool:
    """Whether ``symbol`` on a reel matches a pay ``token`` (groups and wilds included)."""
    from certify.model.schema import ANY

    if token == ANY:
        return True
    members = machine.group(token) or (token,)
    if symbol in members:
        return True
    sym = machine.symbol(symbol)
    return sym.kind == "wild" and any(x in sym.substitutes for x in members)


_SAME_FIELDS = (
    "contribution",
    "reset",
    "cap",
    "overflow",
    "reserve_rate",
    "trigger_combo",
    "min_bet_level",
    "mystery",
)


def _check_declared(rd: Reader, link: Link, m: Member) -> None:
    """A member's own ``[[jackpots]]`` entry for this link must say what the group says."""
    where = join(join("members", m.index), "model")
    declared = [(i, j) for i, j in enumerate(m.machine.jackpots) if j.link == link.id]
    if not declared:
        if link.trigger_combo is not None:
            rd.error(
                where,
                f'model "{m.machine.id}" has no [[jackpots]] entry with link = '
                f'"{link.id}"; a combo trigger must replace that line\'s pay on the '
                "machine",
                Code.LINK_UNDECLARED,
            )
        return
    i, jp = declared[0]
    for name in _SAME_FIELDS:
        mine, group = getattr(jp, name), getattr(link, name)
        if mine != group:
            rd.error(
                where,
                f'model "{m.machine.id}" declares jackpots[{i}].{name} = '
                f'{_show(mine)} for link "{link.id}", the group says {_show(group)}',
                Code.LINK_MISMATCH,
            )


def _show(value: Any) -> str:
    if isinstance(value, Decimal):
        return f'"{value:f}"'
    if isinstance(value, tuple):
        return "[" + ", ".join(f'"{t}"' for t in value) + "]"
    return "none" if value is None else repr(value)
