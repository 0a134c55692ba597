"""Load and validate machine files (``slotcert/machine@1``).

Every rule of SPEC section 3.1 is checked; all problems of a file are
collected and raised together as one :class:`~certify.errors.ModelError`.
"""

from __future__ import annotations

import re
import tomllib
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

from certify.codes import Code
from certify.errors import ModelError, Problem
from certify.kinds import MACHINE
from certify.model.big import check_big_symbol, read_big_symbol
from certify.model.bonusgame import (
    check_line_bonus,
    check_scatter_bonus,
    compile_awards,
    read_stages,
)
from certify.model.features import (
    check_counting_reels,
    check_expands_chance,
    check_features,
    read_drawn_multipliers,
    read_expanding_symbol,
    read_full_window_pays,
    read_heights,
    symbol_features,
)
from certify.model.hold import check_hold_window, read_hold_and_spin
from certify.model.paint import check_paints, read_paint
from certify.model.reader import Reader, join
from certify.model.rules import check_anywhere, check_rules, read_rules
from certify.model.schema import (
    ANY,
    BONUS_UNITS,
    SYMBOL_KINDS,
    Bonus,
    BonusAward,
    FreeSpinOption,
    FreeSpins,
    FullWindowPay,
    Jackpot,
    Machine,
    PayEntry,
    ScatterPay,
    Symbol,
    Trigger,
)
from certify.model.screens import (
    is_screen_game,
    read_cascade,
    read_cluster_pays,
    screen_problems,
)

MACHINE_SCHEMA = MACHINE.schema
MAX_SYMBOLS = 64
_TOP_KEYS = ("schema", "machine", "bet", "symbols", "reels", "pays")
_TOP_OPTIONAL = (
    "groups",
    "scatter_pays",
    "free_spins",
    "bonus",
    "bonus_games",
    "jackpots",
    "rules",
    "full_window_pays",
    "hold_and_spin",
    "cascade",
    "cluster_pays",
)
PAY_KEYS = (
    "pays",
    "pays_by_level",
    "anywhere",
    "free_spins_multiplier",
    "free_spins_pays",
    "bonus",
    "bonus_plays",
)


def read_toml(path: str | Path) -> dict[str, Any]:
    """Parse a TOML file, turning every failure into a located ModelError.

    The file is read through :func:`certify.inputs.read_text`: only a regular
    file (a FIFO or ``/dev/zero`` is refused without blocking or reading),
    at most :data:`~certify.inputs.MODEL_BYTES`.
    """
    from certify.inputs import MODEL_BYTES, UnreadableInput, read_text

    path = Path(path)
    try:
        text = read_text(path, "model", MODEL_BYTES)
    except UnreadableInput as exc:
        if exc.missing or exc.reason.startswith("is "):
            raise ModelError([Problem(str(path), "", exc.reason, Code.MISSING_FILE)]) from None
        raise ModelError([Problem(str(path), "", exc.reason, Code.TOML)]) from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ModelError([Problem(str(path), "", f"not valid TOML: {exc}", Code.TOML)]) from None
    except RecursionError:
        raise ModelError(
            [Problem(str(path), "", "not valid TOML: nested too deeply", Code.TOML)]
        ) from None


def schema_of(path: str | Path) -> str:
    """The ``schema`` string a model file declares (``""`` when absent)."""
    value = read_toml(path).get("schema", "")
    return value if isinstance(value, str) else ""


def load_machine(path: str | Path) -> Machine:
    """Load, validate and return the machine in ``path``.

    Raises
    ------
    ModelError
        With every error found in the file (warnings ride along).

    """
    data = read_toml(path)
    machine, _ = parse_machine(data, str(path))
    return machine


def parse_machine(data: dict[str, Any], file: str) -> tuple[Machine, list[Problem]]:
    """Validate parsed TOML; return the machine and its warnings."""
    rd = Reader(file)
    rd.table(data, "", _TOP_KEYS, _TOP_OPTIONAL)
    if data.get("schema") != MACHINE_SCHEMA and "schema" in data:
        rd.error("schema", f"must be {MACHINE_SCHEMA!r}, got {data.get('schema')!r}", Code.SCHEMA)
    info = _machine_info(rd, data.get("machine", {}))
    bet = _bet(rd, data.get("bet", {}))
    symbols = _symbols(rd, data.get("symbols", {}))
    groups = _groups(rd, data.get("groups", {}), symbols)
    reels = _reels(rd, data.get("reels", {}), symbols, bet)
    check_counting_reels(rd, symbols, len(reels["strips"]))
    rd.raise_if_errors()
    ctx = _Context(symbols, dict(groups), reels["strips"], len(bet["bet_levels"]))
    ctx.evaluation = reels["evaluation"]
    ctx.show_free_strips(data.get("free_spins"))
    rules = read_rules(rd, data.get("rules"), reels["evaluation"])
    pays = _pays(rd, data.get("pays", []), ctx)
    ctx.pay_combos = {e.combo for e in pays}
    scatter = _scatter_pays(rd, data.get("scatter_pays", []), ctx)
    free = _free_spins(rd, data.get("free_spins"), ctx, reels["rows"])
    bonus = _bonus(rd, data.get("bonus"), ctx)
    bonus_games = _bonus_games(rd, data.get("bonus_games"), ctx)
    jackpots = _jackpots(rd, data.get("jackpots", []), ctx, bet["bet_levels"])
    check_rules(rd, rules, pays, scatter, free)
    full_window = read_full_window_pays(
        rd,
        data.get("full_window_pays"),
        symbols,
        dict(groups),
        len(reels["strips"]),
        frozenset(j.id for j in jackpots),
    )
    hold = read_hold_and_spin(rd, data.get("hold_and_spin"), symbols, {j.id for j in jackpots})
    if hold is not None:
        check_hold_window(rd, hold, reels["rows"] * len(reels["strips"]), "hold_and_spin")
    _hold_pools(rd, data.get("jackpots", []), jackpots, hold, full_window)
    check_features(rd, symbols, pays, free, hold, bonus)
    cascade = read_cascade(rd, data.get("cascade"))
    if cascade is not None and cascade.trigger_vanishes and free is None:
        message = "needs [free_spins]: the trigger whose cells vanish"
        rd.error("cascade.trigger_vanishes", message, Code.RULE_NOT_APPLICABLE)
    cells = reels["rows"] * len(reels["strips"])
    clusters = (
        read_cluster_pays(rd, data["cluster_pays"], symbols, cells=cells)
        if "cluster_pays" in data
        else ()
    )
    window_keys = {
        "strips": reels["strips"],
        "rows": reels["rows"],
        "free_strips": free.strips if free is not None else None,
        "heights": reels.get("heights"),
        "cascade": cascade,
        "clusters": clusters,
        "hold": hold,
        "full_window": full_window,
        "expanding_symbol": free.expanding_symbol if free is not None else (),
        "counted": _counted_names(scatter, free, bonus, hold),
        "big_symbol": free.big_symbol if free is not None else None,
        "counted_elsewhere": {
            f.trigger.symbol for f in (bonus, hold) if f is not None and f.trigger is not None
        },
        "sticky": any(s.sticky for s in symbols.values()),
    }
    check_paints(rd, symbols, window_keys)
    check_big_symbol(rd, free.big_symbol if free is not None else None, symbols, window_keys)
    check_retrigger_symbol(rd, free, window_keys, scatter)
    check_expands_chance(rd, symbols, window_keys)
    if reels["evaluation"] == "cluster" and not clusters:
        rd.error("cluster_pays", "a cluster game needs [[cluster_pays]]", Code.MISSING_KEY)
    if clusters and reels["evaluation"] != "cluster":
        rd.error("cluster_pays", 'needs reels.evaluation = "cluster"', Code.RULE_NOT_APPLICABLE)
    rd.raise_if_errors()
    machine = Machine(
        **info,
        **bet,
        symbols=tuple(symbols.values()),
        groups=groups,
        pays=pays,
        scatter_pays=scatter,
        free_spins=free,
        bonus=bonus,
        bonus_games=bonus_games,
        jackpots=jackpots,
        rules=rules,
        full_window_pays=full_window,
        hold_and_spin=hold,
        cascade=cascade,
        cluster_pays=clusters,
        source=file,
        **reels,
    )
    check_line_bonus(rd, machine)
    check_scatter_bonus(rd, machine)
    check_scatter_credits(rd, machine)
    check_count_pays(rd, machine)
    rd.raise_if_errors()
    screen = screen_problems(machine, file)
    if screen:
        raise ModelError(rd.problems + screen)
    return machine, rd.problems


def check_retrigger_symbol(
    rd: Reader, free: FreeSpins | None, keys: dict[str, Any], scatter: tuple
) -> None:
    """Located errors for a ``retrigger_symbol`` the engines do not play.

    The free spins' reel set counts it in the trigger symbol's place, so the
    trigger symbol may not also pay as a scatter or start another feature, and
    the screen games (which count each screen themselves) refuse it.
    """
    if free is None or free.retrigger_symbol is None:
        return
    at = join("free_spins", "retrigger_symbol")
    trigger = free.trigger.symbol
    features = [
        (any(p.symbol == trigger for p in scatter), f"scatter pays of {trigger} (the trigger)"),
        (trigger in keys["counted_elsewhere"], f"{trigger} also starting the bonus or hold"),
        (bool(keys.get("cascade")), "[cascade]"),
        (bool(keys.get("clusters")), "[[cluster_pays]]"),
        (bool(keys.get("hold")), "[hold_and_spin]"),
        (bool(keys.get("expanding_symbol")), "free_spins.expanding_symbol"),
        (keys["sticky"], "sticky"),
        (bool(free.options), "free_spins.options"),
    ]
    for present, what in features:
        if present:
            rd.error(
                at, f"a retrigger by another symbol is not played with {what}", Code.UNSUPPORTED
            )


def _counted_names(scatter: tuple, free: Any, bonus: Any, hold: Any) -> set[str]:
    """The symbols a scatter pay or a feature trigger counts."""
    names = {p.symbol for p in scatter}
    if free is not None and free.retrigger_symbol is not None:
        names.add(free.retrigger_symbol)
    for feature in (free, bonus, hold):
        trigger = getattr(feature, "trigger", None) if feature is not None else None
        if trigger is not None:
            names.add(trigger.symbol)
    return names


def _machine_info(rd: Reader, raw: Any) -> dict[str, Any]:
    path = "machine"
    t = rd.table(
        raw,
        path,
        ("id", "name"),
        ("manufacturer", "version", "instruction_languages", "handpay_limit"),
    )
    langs = rd.array(t, "instruction_languages", path, default=["en"]) or []
    for i, lang in enumerate(langs):
        if not isinstance(lang, str) or not lang:
            rd.error(
                join(join(path, "instruction_languages"), i),
                f'must be a language code such as "en", got {lang!r}',
                Code.TYPE,
            )
    return {
        "id": rd.string(t, "id", path) or "",
        "name": rd.string(t, "name", path) or "",
        "manufacturer": rd.string(t, "manufacturer", path, default="unknown") or "",
        "version": rd.string(t, "version", path, default="1") or "",
        "instruction_languages": tuple(str(x) for x in langs),
        "handpay_limit": rd.money(t, "handpay_limit", path, default=None),
    }


def _bet(rd: Reader, raw: Any) -> dict[str, Any]:
    path = "bet"
    t = rd.table(
        raw,
        path,
        ("denomination", "currency", "bet_levels"),
        ("lines", "ways", "cost", "duplicate_lines"),
    )
    denomination = rd.money(t, "denomination", path)
    if denomination is not None and denomination <= 0:
        rd.error(join(path, "denomination"), f'must be positive, got "{denomination}"', Code.RANGE)
    levels = rd.array(t, "bet_levels", path) or []
    checked = [rd.check_int(v, join(join(path, "bet_levels"), i), 1) for i, v in enumerate(levels)]
    good = [v for v in checked if v is not None]
    if len(good) == len(levels) and any(b <= a for a, b in zip(good, good[1:])):
        rd.error(join(path, "bet_levels"), f"must be strictly increasing, got {good}", Code.ORDER)
    lines = rd.integer(t, "lines", path, 1)
    ways = rd.integer(t, "ways", path, 1)
    cost = rd.integer(t, "cost", path, 1)
    if lines is None and cost is None and not rd.errors:
        rd.error(
            path,
            "needs `lines` (lines games), `ways` and `cost` (ways games) or `cost` (cluster games)",
            Code.MISSING_KEY,
        )
    return {
        "denomination": denomination or Decimal(0),
        "currency": rd.string(t, "currency", path) or "",
        "bet_levels": tuple(good),
        "lines": lines,
        "ways": ways,
        "cost": cost,
        "duplicate_lines": rd.string(t, "duplicate_lines", path, ("refuse", "allow"), "refuse")
        or "refuse",
    }


def _symbols(rd: Reader, raw: Any) -> dict[str, Symbol]:
    if not isinstance(raw, dict) or not raw:
        rd.error("symbols", "must be a non-empty table of symbols", Code.TYPE)
        return {}
    if len(raw) > MAX_SYMBOLS:
        rd.error("symbols", f"at most {MAX_SYMBOLS} symbols, got {len(raw)}", Code.RANGE)
    kinds: dict[str, str] = {}
    for name, spec in raw.items():
        where = join("symbols", name)
        if name == ANY:
            rd.error(where, f"{ANY!r} is reserved for pay combos", Code.RESERVED)
        t = rd.table(
            spec,
            where,
            ("kind",),
            (
                "multiplier",
                "substitutes",
                "expands",
                "scatter",
                "wild_in_free_spins",
                "sticky",
                "reels",
                "wilds_count",
                "window_multiplier",
                "full_reel_multiplier",
                "counts_as",
                "paints",
                "consecutive",
            ),
        )
        kinds[name] = rd.string(t, "kind", where, SYMBOL_KINDS) or "regular"
    symbols = {}
    for name, spec in raw.items():
        where = join("symbols", name)
        t = spec if isinstance(spec, dict) else {}
        mult, subs = 1, ()
        drawn: tuple[tuple[int, int], ...] = ()
        if kinds[name] == "wild":
            if isinstance(t.get("multiplier"), dict):
                drawn = read_drawn_multipliers(rd, t["multiplier"], join(where, "multiplier"))
                mult = max((v for v, _ in drawn), default=1)
            else:
                mult = rd.integer(t, "multiplier", where, 1, default=1) or 1
            subs = _substitutes(rd, t, where, kinds)
        else:
            for key in ("multiplier", "substitutes"):
                if key in t:
                    rd.error(join(where, key), f"only wild symbols take `{key}`", Code.NOT_WILD)
        symbols[name] = Symbol(
            name,
            kinds[name],
            mult,
            subs,
            multipliers=drawn,
            paints=read_paint(rd, t["paints"], where, name) if "paints" in t else None,
            **symbol_features(rd, t, where, kinds[name]),
        )
    return symbols


def _substitutes(rd: Reader, t: dict[str, Any], where: str, kinds: dict[str, str]) -> tuple:
    if "substitutes" not in t:
        return tuple(n for n, k in kinds.items() if k == "regular")
    subs = rd.array(t, "substitutes", where) or []
    for i, sub in enumerate(subs):
        at = join(join(where, "substitutes"), i)
        if not isinstance(sub, str) or sub not in kinds:
            rd.error(at, f'unknown symbol "{sub}"', Code.UNKNOWN_SYMBOL)
        elif kinds[sub] != "regular":
            rd.error(
                at,
                f"a wild substitutes only regular symbols; {sub!r} is {kinds[sub]}",
                Code.BAD_SUBSTITUTE,
            )
    return tuple(s for s in subs if isinstance(s, str))


def _groups(rd: Reader, raw: Any, symbols: dict[str, Symbol]) -> tuple:
    if not isinstance(raw, dict):
        rd.error("groups", "must be a table of symbol lists", Code.TYPE)
        return ()
    groups = []
    for name, members in raw.items():
        where = join("groups", name)
        if name in symbols or name == ANY:
            rd.error(where, f"group name {name!r} clashes with a symbol", Code.RESERVED)
        if not isinstance(members, list) or not members:
            rd.error(where, f"must be a non-empty array of symbols, got {members!r}", Code.TYPE)
            continue
        for i, sym in enumerate(members):
            if not isinstance(sym, str) or sym not in symbols:
                rd.error(join(where, i), f'unknown symbol "{sym}"', Code.UNKNOWN_SYMBOL)
        groups.append((name, tuple(m for m in members if isinstance(m, str))))
    return tuple(groups)


def read_strips(
    rd: Reader, t: dict[str, Any], path: str, symbols: dict[str, Symbol], reels: int | None = None
) -> tuple[tuple | None, tuple | None]:
    """Read ``strips`` and optional ``weights`` under ``path`` (base or feature reels)."""
    strips = rd.array(t, "strips", path) or []
    out = []
    for r, strip in enumerate(strips):
        where = join(join(path, "strips"), r)
        if not isinstance(strip, list) or not strip:
            rd.error(where, "must be a non-empty array of symbols (empty strip)", Code.EMPTY_STRIP)
            continue
        for i, sym in enumerate(strip):
            if not isinstance(sym, str) or sym not in symbols:
                rd.error(join(where, i), f'unknown symbol "{sym}"', Code.UNKNOWN_SYMBOL)
        out.append(tuple(strip))
    if reels is None and strips and len(strips) < 2:
        rd.error(
            join(path, "strips"), f"needs at least 2 reels, got {len(strips)}", Code.REEL_COUNT
        )
    if reels is not None and strips and len(strips) != reels:
        rd.error(
            join(path, "strips"),
            f"must have {reels} reels like the base game, got {len(strips)}",
            Code.REEL_COUNT,
        )
    weights = rd.array(t, "weights", path, default=None)
    if weights is None:
        return tuple(out) or None, None
    wout = []
    if len(weights) != len(strips):
        rd.error(
            join(path, "weights"),
            f"needs one list per reel ({len(strips)}), got {len(weights)}",
            Code.RAGGED,
        )
    for r, (row, strip) in enumerate(zip(weights, strips)):
        where = join(join(path, "weights"), r)
        if not isinstance(row, list) or not isinstance(strip, list) or len(row) != len(strip):
            stops = len(strip) if isinstance(strip, list) else 0
            got = len(row) if isinstance(row, list) else repr(row)
            rd.error(where, f"needs one weight per stop ({stops}), got {got}", Code.RAGGED)
            continue
        wout.append(tuple(rd.check_int(w, join(where, i), 1) or 1 for i, w in enumerate(row)))
    return tuple(out) or None, tuple(wout)


def _reels(rd: Reader, raw: Any, symbols: dict[str, Symbol], bet: dict[str, Any]) -> dict:
    path = "reels"
    t = rd.table(raw, path, ("rows", "strips"), ("weights", "paylines", "evaluation", "heights"))
    rows = rd.integer(t, "rows", path, 1) or 1
    strips, weights = read_strips(rd, t, path, symbols)
    strips = strips or ()
    evaluation = (
        rd.string(t, "evaluation", path, ("lines", "ways", "cluster"), default="lines") or "lines"
    )
    paylines: list[tuple[int, ...]] = []
    if evaluation == "lines":
        allow = bet.get("duplicate_lines") == "allow"
        paylines = _paylines(rd, t, rows, len(strips), bet.get("lines"), allow)
    else:
        if bet.get("duplicate_lines") == "allow":
            rd.error(
                "bet.duplicate_lines",
                f"a {evaluation} game has no paylines to repeat",
                Code.RULE_NOT_APPLICABLE,
            )
        if "paylines" in t:
            rd.error(
                join(path, "paylines"), f"a {evaluation} game has no paylines", Code.WAYS_PAYLINES
            )
        if (
            evaluation == "ways"
            and bet.get("ways") is not None
            and strips
            and bet["ways"] != rows ** len(strips)
        ):
            rd.error(
                "bet.ways",
                f"must be rows^reels = {rows ** len(strips)}, got {bet['ways']}",
                Code.WAYS_COUNT,
            )
        if bet.get("cost") is None:
            rd.error("bet.cost", f"is required for a {evaluation} game", Code.MISSING_KEY)
        if evaluation == "ways" and bet.get("ways") is None:
            rd.error("bet.ways", "is required for a ways game", Code.MISSING_KEY)
    return {
        "rows": rows,
        "strips": strips,
        "weights": weights,
        "evaluation": evaluation,
        "paylines": tuple(paylines),
        "heights": read_heights(rd, t.get("heights"), len(strips), rows, evaluation),
    }


def _paylines(
    rd: Reader, t: dict, rows: int, reels: int, lines: int | None, allow: bool = False
) -> list:
    """The paylines; a repeated line is an error, or a warning under ``duplicate_lines``.

    A repeated line pays each copy (real line tables repeat lines: SPEC 3.1).
    """
    raw = rd.array(t, "paylines", "reels") or []
    seen: dict[tuple, int] = {}
    out = []
    for i, line in enumerate(raw):
        where = join("reels.paylines", i)
        if not isinstance(line, list) or len(line) != reels:
            rd.error(where, f"needs one row per reel ({reels}), got {line!r}", Code.PAYLINE_LENGTH)
            continue
        bad = [
            r for r in line if isinstance(r, bool) or not isinstance(r, int) or not 0 <= r < rows
        ]
        if bad:
            rd.error(where, f"row {bad[0]!r} out of range 0..{rows - 1}", Code.PAYLINE_RANGE)
            continue
        key = tuple(line)
        if key in seen and allow:
            rd.warn(
                where,
                f"repeats reels.paylines[{seen[key]}] {list(key)}: each copy pays "
                '(bet.duplicate_lines = "allow")',
                Code.PAYLINE_DUPLICATE,
            )
        elif key in seen:
            rd.error(
                where,
                f"duplicates reels.paylines[{seen[key]}] {list(key)} "
                '(a line table that repeats lines needs bet.duplicate_lines = "allow")',
                Code.PAYLINE_DUPLICATE,
            )
        seen.setdefault(key, i)
        out.append(key)
    if raw and lines is not None and len(raw) != lines:
        rd.error(
            "reels.paylines", f"has {len(raw)} lines but bet.lines = {lines}", Code.PAYLINE_COUNT
        )
    if lines is None:
        rd.error("bet.lines", "is required for a lines game", Code.MISSING_KEY)
    return out


class _Context:
    """What pay and feature sections are checked against."""

    def __init__(
        self,
        symbols: dict[str, Symbol],
        groups: dict[str, tuple[str, ...]],
        strips: tuple[tuple[str, ...], ...],
        n_levels: int,
    ):
        self.symbols, self.groups, self.strips, self.n_levels = symbols, groups, strips, n_levels
        self.pay_combos: set[tuple[str, ...]] = set()
        self.evaluation = "lines"
        self.shown = [set(strip) for strip in strips]

    def show_free_strips(self, raw_free: Any) -> None:
        """Add the free spins' own strips (as written) to what each reel can show."""
        raw = raw_free.get("strips") if isinstance(raw_free, dict) else None
        big = raw_free.get("big_symbol") if isinstance(raw_free, dict) else None
        if isinstance(big, dict):  # a big symbol shows its strip on the reels it covers
            strip, reels, columns = big.get("strip"), big.get("reels"), big.get("columns")
            shows = list(strip) if isinstance(strip, list) else []
            for cells in columns.values() if isinstance(columns, dict) else []:
                shows += cells if isinstance(cells, list) else []
            names = {s for s in shows if isinstance(s, str) and s in self.symbols}
            for r in reels if isinstance(reels, list) else []:
                if isinstance(r, int) and 1 <= r <= len(self.shown):
                    self.shown[r - 1].update(names)
        if not isinstance(raw, list):
            return
        for shown, strip in zip(self.shown, raw, strict=False):
            if isinstance(strip, list):
                shown.update(s for s in strip if isinstance(s, str) and s in self.symbols)

    def token_ok(self, token: Any) -> bool:
        return isinstance(token, str) and (
            token == ANY or token in self.symbols or token in self.groups
        )

    def matches(self, token: str, symbol: str) -> bool:
        """Whether ``symbol`` on a reel matches pay ``token`` (wilds included)."""
        if token == ANY:
            return True
        members = self.groups.get(token, (token,))
        if symbol in members:
            return True
        sym = self.symbols[symbol]
        return sym.kind == "wild" and any(m in sym.substitutes for m in members)

    def counted(self, name: Any, rd: Reader, where: str, kinds: tuple[str, ...]) -> None:
        if not isinstance(name, str) or name not in self.symbols:
            rd.error(where, f'unknown symbol "{name}"', Code.UNKNOWN_SYMBOL)
        elif self.symbols[name].kind not in kinds and not self.symbols[name].scatter:
            rd.error(
                where,
                f"{name!r} is {self.symbols[name].kind}; expected {' or '.join(kinds)}",
                Code.BAD_KIND,
            )


def _pays(rd: Reader, raw: Any, ctx: _Context) -> tuple[PayEntry, ...]:
    if not isinstance(raw, list):
        rd.error("pays", "must be an array of [[pays]] tables", Code.TYPE)
        return ()
    entries: list[PayEntry] = []
    seen: dict[tuple[tuple[str, ...], bool], int] = {}
    for i, spec in enumerate(raw):
        where = join("pays", i)
        t = rd.table(spec, where, ("combo",), PAY_KEYS)
        anywhere = check_anywhere(rd, t, where, ctx.evaluation)
        multiplied = rd.boolean(t, "free_spins_multiplier", where, True)
        combo = rd.array(t, "combo", where) or []
        ok = True
        for j, token in enumerate(combo):
            if not ctx.token_ok(token):
                rd.error(
                    join(join(where, "combo"), j),
                    f'unknown symbol or group "{token}"',
                    Code.UNKNOWN_SYMBOL,
                )
                ok = False
        if len(combo) > len(ctx.strips):
            rd.error(
                join(where, "combo"),
                f"has {len(combo)} symbols but the machine has {len(ctx.strips)} reels",
                Code.COMBO_TOO_LONG,
            )
            ok = False
        pays, by_level = _pay_value(rd, t, where, ctx.n_levels)
        if ok and combo:
            key = tuple(combo)
            if (key, anywhere) in seen:
                rd.error(
                    join(where, "combo"),
                    f"duplicates pays[{seen[(key, anywhere)]}] {combo}",
                    Code.PAY_DUPLICATE,
                )
            seen.setdefault((key, anywhere), i)
            if not anywhere:
                _warn_impossible(rd, ctx, key, where)
            free_pays = _free_spins_pays(rd, t, where)
            plays_bonus, game, times = _bonus_play(rd, t, where)
            entries.append(
                PayEntry(
                    len(entries),
                    key,
                    pays,
                    by_level,
                    anywhere,
                    multiplied,
                    free_pays,
                    plays_bonus,
                    game,
                    times,
                )
            )
    return tuple(entries)


MAX_BONUS_PLAYS = 1000  # plays of one bonus game by one pay (the kernels count them in a field)
BONUS_GAME_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]{0,39}")


def _bonus_play(rd: Reader, t: dict, where: str) -> tuple[bool, str, int]:
    """A pay entry's ``bonus`` and ``bonus_plays``: (plays a game, its name, the times).

    ``bonus = true`` plays ``[bonus]``; ``bonus = "name"`` plays ``[bonus_games.name]``
    (checked against the file's games once the machine is read); ``bonus_plays``
    the times (independent prizes), 1 by default, only with ``bonus``.
    """
    raw = t.get("bonus", False)
    named = isinstance(raw, str) and BONUS_GAME_NAME.fullmatch(raw) is not None
    if not (named or isinstance(raw, bool)):
        rd.error(
            join(where, "bonus"),
            f"must be true, false or the name of a [bonus_games] entry, got {raw!r}",
            Code.TYPE,
        )
        return False, "", 1
    value, game = (True, str(raw)) if named else (bool(raw), "")
    times = rd.integer(t, "bonus_plays", where, 1, default=None)
    if times is not None and not value:
        rd.error(join(where, "bonus_plays"), "needs `bonus` (the game it plays)", Code.MISSING_KEY)
    if times is not None and times > MAX_BONUS_PLAYS:
        rd.error(
            join(where, "bonus_plays"),
            f"must be at most {MAX_BONUS_PLAYS}, got {times}",
            Code.RANGE,
        )
        times = 1
    return value, game, times or 1


def _free_spins_pays(rd: Reader, t: dict, where: str) -> int | None:
    """``free_spins_pays``: the entry's pay during free spins (per credit, like ``pays``)."""
    value = rd.integer(t, "free_spins_pays", where, 0, default=None)
    if value is not None and "pays_by_level" in t:
        rd.error(
            join(where, "free_spins_pays"),
            "goes with `pays`, not `pays_by_level` (one value per credit of the level)",
            Code.PAY_VALUE,
        )
    return value


def _pay_value(rd: Reader, t: dict, where: str, n_levels: int) -> tuple:
    if ("pays" in t) == ("pays_by_level" in t):
        rd.error(where, "needs exactly one of `pays` or `pays_by_level`", Code.PAY_VALUE)
        return 0, None
    if "pays" in t:
        return rd.integer(t, "pays", where, 0) or 0, None
    values = rd.array(t, "pays_by_level", where) or []
    if len(values) != n_levels:
        rd.error(
            join(where, "pays_by_level"),
            f"needs one value per bet level ({n_levels}), got {len(values)}",
            Code.PAY_VALUE,
        )
    return None, tuple(
        rd.check_int(v, join(join(where, "pays_by_level"), k), 0) or 0 for k, v in enumerate(values)
    )


def _warn_impossible(rd: Reader, ctx: _Context, combo: tuple[str, ...], where: str) -> None:
    for j, token in enumerate(combo):
        if not any(ctx.matches(token, s) for s in ctx.shown[j]):
            rd.warn(
                join(where, "combo"),
                f'{list(combo)} can never occur: nothing on reel {j + 1} matches "{token}"',
                Code.IMPOSSIBLE_COMBO,
            )
            return


def _scatter_pays(rd: Reader, raw: Any, ctx: _Context) -> tuple[ScatterPay, ...]:
    out, seen = [], set()
    for i, spec in enumerate(raw if isinstance(raw, list) else []):
        where = join("scatter_pays", i)
        t = rd.table(
            spec, where, ("symbol", "count", "pays"), ("free_spins_pays", "bonus", "bonus_plays")
        )
        sym = str(t.get("symbol"))
        # a regular or wild symbol too: paid by its count anywhere, as it landed (count pays)
        ctx.counted(t.get("symbol"), rd, join(where, "symbol"), COUNT_PAY_KINDS)
        count = rd.integer(t, "count", where, 1) or 1
        pays = _scatter_value(rd, t.get("pays", 0), join(where, "pays"))
        if (sym, count) in seen:
            rd.error(where, f"duplicates another {sym!r} x{count} scatter pay", Code.PAY_DUPLICATE)
        seen.add((sym, count))
        free = t.get("free_spins_pays")
        free_pays = (
            None if free is None else _scatter_value(rd, free, join(where, "free_spins_pays"))
        )
        plays_bonus, game, times = _bonus_play(rd, t, where)
        out.append(ScatterPay(str(sym), count, pays, free_pays, plays_bonus, game, times))
    return tuple(out)


COUNT_PAY_KINDS = ("scatter", "bonus", "regular", "wild")  # [[scatter_pays]] symbol kinds


def check_count_pays(rd: Reader, machine: Machine) -> None:
    """Located refusals for a regular or wild symbol paid by its count anywhere.

    Such a symbol (CT Caribbean Adventure's free spins: every symbol pays by
    its count) is counted as it landed, one a cell, and still plays on the
    lines; a wild counts as itself only. Not in screen games (their windows
    change between screens: the cells that win vanish), not in an exclusive
    group (``exclusive_scatters`` ranks scatter symbols), not playing a bonus
    game (``unsupported``, located).
    """
    screen = is_screen_game(machine)
    for i, sp in enumerate(machine.scatter_pays):
        sym = machine.symbol(sp.symbol)
        if sym.kind not in ("regular", "wild") or sym.scatter:
            continue
        where = join("scatter_pays", i)
        what = f"{sp.symbol!r} is {sym.kind}: a count pay of a {sym.kind} symbol"
        if screen:
            rd.error(
                join(where, "symbol"),
                f"{what} is not played in screen games (cascade, clusters, sticky wilds); "
                'make it kind = "scatter" if it pays only by its count',
                Code.UNSUPPORTED,
            )
        if sp.symbol in machine.rules.exclusive_scatters:
            rd.error(
                "rules.exclusive_scatters",
                f"{what} is not ranked with the scatters; list scatter symbols only",
                Code.UNSUPPORTED,
            )
        if sp.bonus:
            rd.error(join(where, "bonus"), f"{what} does not play a bonus game", Code.UNSUPPORTED)


MAX_SCATTER_PAY = 10**9  # x the bet: far above any cabinet's; bounds the decimals read


def _scatter_value(rd: Reader, value: Any, where: str) -> int | Fraction:
    """A scatter pay: an integer, or a decimal string for a fraction of the bet (``"0.5"``)."""
    if not isinstance(value, str):
        return rd.check_int(value, where, 0) or 0
    number = rd.decimal(value, where)
    if number is None:
        return 0
    in_range = 0 <= number <= MAX_SCATTER_PAY and (number == 0 or number.adjusted() >= -6)
    exponent = number.normalize().as_tuple().exponent if in_range else 0  # finite: an int
    if not in_range or (isinstance(exponent, int) and exponent < -6):
        rd.error(
            where,
            f"must be 0 to {MAX_SCATTER_PAY} with at most 6 decimals, got {value!r}",
            Code.RANGE,
        )
        return 0
    exact = Fraction(number)
    return int(exact) if exact.denominator == 1 else exact


def check_scatter_credits(rd: Reader, machine: Machine) -> None:
    """A fractional scatter pay must be whole credits at every bet level (located errors)."""
    for i, sp in enumerate(machine.scatter_pays):
        for key, value in (("pays", sp.pays), ("free_spins_pays", sp.free_spins_pays)):
            if not isinstance(value, Fraction):
                continue
            for level in machine.bet_levels:
                bet = machine.scatter_bet(level)
                if (value * bet).denominator != 1:
                    rd.error(
                        join(join("scatter_pays", i), key),
                        f"{float(value):g} x {bet} credits (level {level}) is "
                        f"{float(value * bet):g}: a scatter pays whole credits at every level",
                        Code.PAY_VALUE,
                    )
                    break


def _trigger(rd: Reader, raw: Any, where: str, ctx: _Context, kinds: tuple[str, ...]) -> Trigger:
    t = rd.table(raw, where, ("symbol", "count"))
    ctx.counted(t.get("symbol"), rd, join(where, "symbol"), kinds)
    return Trigger(str(t.get("symbol")), rd.integer(t, "count", where, 1) or 1)


def _free_spins(rd: Reader, raw: Any, ctx: _Context, rows: int) -> FreeSpins | None:
    if raw is None:
        return None
    where = "free_spins"
    t = rd.table(
        raw,
        where,
        ("trigger",),
        (
            "spins",
            "multiplier",
            "retrigger",
            "max_spins",
            "strips",
            "weights",
            "options",
            "expanding_symbol",
            "retrigger_spins",
            "big_symbol",
            "retrigger_symbol",
            "multiplier_by_count",
        ),
    )
    kinds = ("scatter", "bonus", "wild")  # a wild: free spins awarded by wilds anywhere
    trigger = _trigger(rd, t.get("trigger", {}), join(where, "trigger"), ctx, kinds)
    options = _options(rd, t, where, trigger.count)
    spins: list[tuple[int, int]] = []
    if "spins" in t or not options:
        spins = _spins_table(rd, t.get("spins", {}), join(where, "spins"), trigger.count)
    retrigger = t.get("retrigger", False)
    respins = _retrigger_spins(rd, t, where, trigger.count, retrigger)
    retrigger_symbol = _retrigger_symbol(rd, t, where, ctx, kinds)
    largest = max([s for _, s in spins] + [s for o in options for _, s in o.spins], default=0)
    max_spins = rd.integer(t, "max_spins", where, 1, default=None)
    if max_spins is not None and largest and max_spins < largest:
        rd.error(
            join(where, "max_spins"),
            f"{max_spins} is below the largest award {largest}",
            Code.RANGE,
        )
    strips, weights = (None, None)
    if "strips" in t:
        strips, weights = read_strips(rd, t, where, ctx.symbols, len(ctx.strips))
    elif "weights" in t:
        rd.error(join(where, "weights"), "needs free_spins.strips", Code.MISSING_KEY)
    if retrigger not in (True, False, "once"):
        rd.error(
            join(where, "retrigger"), f'must be true, false or "once", got {retrigger!r}', Code.TYPE
        )
    if options and "multiplier" in t:
        rd.error(
            join(where, "multiplier"),
            "each of free_spins.options sets its own multiplier",
            Code.OPTIONS_CONFLICT,
        )
    raw_mult = t.get("multiplier")
    drawn = (
        read_drawn_multipliers(rd, raw_mult, join(where, "multiplier"))
        if isinstance(raw_mult, dict)
        else ()
    )
    return FreeSpins(
        trigger,
        tuple(spins) if spins else (options[0].spins if options else ()),
        1 if drawn else (rd.integer(t, "multiplier", where, 1, default=1) or 1),
        retrigger in (True, "once"),
        max_spins,
        strips,
        weights,
        retrigger_once=retrigger == "once",
        options=tuple(options),
        expanding_symbol=read_expanding_symbol(
            rd, t.get("expanding_symbol"), join(where, "expanding_symbol"), ctx.symbols
        ),
        retrigger_spins=tuple(respins),
        multipliers=drawn,
        big_symbol=read_big_symbol(rd, t["big_symbol"], where, ctx.symbols, len(ctx.strips))
        if "big_symbol" in t
        else None,
        retrigger_symbol=retrigger_symbol,
        multiplier_by_count=_multiplier_by_count(rd, t, where, trigger.count),
    )


def _multiplier_by_count(
    rd: Reader, t: dict[str, Any], where: str, trigger_count: int
) -> tuple[tuple[int, int], ...]:
    """``free_spins.multiplier_by_count``: the feature's multiplier by trigger count.

    A table like ``spins`` (Novomatic Jaguar Moon: ``{3 = 2, 4 = 3, 5 = 4, 6 = 5}``);
    not with a ``multiplier`` or ``options`` of its own (each says what multiplies).
    """
    if "multiplier_by_count" not in t:
        return ()
    at = join(where, "multiplier_by_count")
    for other in ("multiplier", "options"):
        if other in t:
            rd.error(
                at,
                f"free_spins.{other} sets the multiplier too: give one of the two",
                Code.OPTIONS_CONFLICT,
            )
    return tuple(_spins_table(rd, t["multiplier_by_count"], at, trigger_count))


def _retrigger_symbol(
    rd: Reader, t: dict[str, Any], where: str, ctx: _Context, kinds: tuple[str, ...]
) -> str | None:
    """``free_spins.retrigger_symbol``: the symbol whose count retriggers (Rich Girl's wild)."""
    if "retrigger_symbol" not in t:
        return None
    at = join(where, "retrigger_symbol")
    name = t["retrigger_symbol"]
    ctx.counted(name, rd, at, kinds)
    if "retrigger_spins" not in t:
        rd.error(at, "needs free_spins.retrigger_spins (what its counts add)", Code.MISSING_KEY)
    return name if isinstance(name, str) else None


def _retrigger_spins(
    rd: Reader, t: dict[str, Any], where: str, trigger_count: int, retrigger: Any
) -> list[tuple[int, int]]:
    """``free_spins.retrigger_spins``: what a retrigger adds, like ``spins``."""
    if "retrigger_spins" not in t:
        return []
    at = join(where, "retrigger_spins")
    if retrigger not in (True, "once"):
        rd.error(at, 'needs free_spins.retrigger = true or "once"', Code.MISSING_KEY)
        return []
    return _spins_table(rd, t["retrigger_spins"], at, trigger_count, least=0)


def _spins_table(
    rd: Reader, raw: Any, at: str, trigger_count: int, least: int = 1
) -> list[tuple[int, int]]:
    """Spins awarded by trigger count: a table such as {3 = 10, 4 = 15}, or one number.

    ``least`` is the smallest count key and award: 0 in ``retrigger_spins``, where a
    free spin showing none adds spins (``{0 = 1, 2 = 0}``: free games that go on
    until one shows two scatters).
    """
    if isinstance(raw, int) and not isinstance(raw, bool):
        return [(trigger_count, rd.check_int(raw, at, 1) or 1)]
    spins = []
    if not isinstance(raw, dict) or not raw:
        rd.error(at, "must be a table such as {3 = 10, 4 = 15}", Code.TYPE)
        return []
    for key, value in raw.items():
        where = join(at, key)
        if not (key.isascii() and key.isdigit()) or int(key) < least:  # not '²'
            rd.error(where, f"key must be a trigger count, got {key!r}", Code.TYPE)
            continue
        spins.append((int(key), rd.check_int(value, where, least) or least))
    if spins and min(k for k, _ in spins) > trigger_count:
        rd.error(at, f"no spins for the trigger count {trigger_count}", Code.SPINS_MISSING)
    return sorted(spins)


def _options(rd: Reader, t: dict[str, Any], where: str, trigger_count: int) -> list:
    """``[[free_spins.options]]``: the player's choices of spins and multiplier."""
    raw = t.get("options")
    if raw is None:
        return []
    at = join(where, "options")
    if not isinstance(raw, list) or not raw:
        rd.error(at, "must be a non-empty array of [[free_spins.options]] tables", Code.TYPE)
        return []
    out = []
    for i, spec in enumerate(raw):
        here = join(at, i)
        o = rd.table(spec, here, ("spins",), ("multiplier", "weight"))
        spins = _spins_table(rd, o.get("spins", {}), join(here, "spins"), trigger_count)
        multiplier = rd.integer(o, "multiplier", here, 1, default=1) or 1
        weight = rd.integer(o, "weight", here, 1, default=None)
        out.append(FreeSpinOption(tuple(spins), multiplier, weight))
    weighted = [isinstance(spec, dict) and "weight" in spec for spec in raw]
    if any(weighted) and not all(weighted):
        i = weighted.index(False)
        rd.error(
            join(join(at, i), "weight"),
            "missing: either every option has a weight (the machine draws one) or none"
            " (the player chooses)",
            Code.OPTIONS_CONFLICT,
        )
    return out


def _bonus_games(rd: Reader, raw: Any, ctx: _Context) -> tuple[tuple[str, Bonus], ...]:
    """``[bonus_games.NAME]``: bonus games that pay entries play by name (no trigger)."""
    if raw is None:
        return ()
    if not isinstance(raw, dict):
        rd.error("bonus_games", "must be a table of named bonus games", Code.TYPE)
        return ()
    out = []
    for name, spec in raw.items():
        where = join("bonus_games", name)
        if BONUS_GAME_NAME.fullmatch(name) is None:
            rd.error(
                where,
                "a bonus game's name is a letter then up to 39 letters, digits, _ or -",
                Code.TYPE,
            )
            continue
        game = _bonus(rd, spec, ctx, where)
        if game is not None:
            out.append((name, game))
    return tuple(out)


def _bonus(rd: Reader, raw: Any, ctx: _Context, where: str = "bonus") -> Bonus | None:
    if raw is None:
        return None
    named = where != "bonus"  # a [bonus_games] entry: only pay entries play it
    t = rd.table(raw, where, (), ("awards", "stages", "unit") + (() if named else ("trigger",)))
    trigger = (
        _trigger(rd, t["trigger"], join(where, "trigger"), ctx, ("bonus", "scatter"))
        if "trigger" in t
        else None
    )
    unit = rd.string(t, "unit", where, BONUS_UNITS, "total_bet") or "total_bet"
    if ("awards" in t) == ("stages" in t):
        rd.error(
            where,
            "give the prizes as `awards` or as the game's `stages` (one of the two)",
            Code.MISSING_KEY,
        )
        return None
    if "stages" in t:
        stages = read_stages(rd, t["stages"], join(where, "stages"))
        awards = compile_awards(rd, stages, join(where, "stages")) if stages else ()
        return Bonus(trigger, awards, unit, stages)
    written = []
    for i, spec in enumerate(rd.array(t, "awards", where) or []):
        at = join(join(where, "awards"), i)
        a = rd.table(spec, at, ("pays", "weight"))
        written.append(
            BonusAward(rd.integer(a, "pays", at, 0) or 0, rd.integer(a, "weight", at, 1) or 1)
        )
    return Bonus(trigger, tuple(written), unit)


def _jackpots(rd: Reader, raw: Any, ctx: _Context, levels: tuple[int, ...]) -> tuple:
    out: list[Any] = []
    total = Decimal(0)
    for i, spec in enumerate(raw if isinstance(raw, list) else []):
        where = join("jackpots", i)
        t = rd.table(
            spec,
            where,
            ("id", "kind", "contribution", "reset"),
            ("trigger", "cap", "overflow", "reserve_rate", "link"),
        )
        rate = rd.money(t, "contribution", where) or Decimal(0)
        if rate >= 1:
            rd.error(join(where, "contribution"), f'must be in [0, 1), got "{rate}"', Code.RANGE)
        reserve = rd.money(t, "reserve_rate", where, default="0") or Decimal(0)
        total += rate + reserve
        reset = rd.money(t, "reset", where) or Decimal(0)
        cap = rd.money(t, "cap", where, default=None)
        if cap is not None and cap < reset:
            rd.error(join(where, "cap"), f'cap "{cap}" is below the reset "{reset}"', Code.RANGE)
        combo, min_level, mystery, keep_pay = (
            _jackpot_trigger(rd, t["trigger"], where, ctx, levels)
            if "trigger" in t
            else (None, None, None, False)  # won in hold and spin or a full window: _hold_pools
        )
        _jackpot_identity(rd, t, where, [j.id for j in out])
        out.append(
            Jackpot(
                id=rd.string(t, "id", where) or "",
                contribution=rate,
                reset=reset,
                cap=cap,
                kind=rd.string(t, "kind", where, ("standalone", "linked")) or "standalone",
                overflow=rd.string(
                    t, "overflow", where, ("reserve", "next-reset"), default="reserve"
                )
                or "reserve",
                reserve_rate=reserve,
                trigger_combo=combo,
                min_bet_level=min_level,
                mystery=mystery,
                link=rd.string(t, "link", where, default=None),
                keep_pay=keep_pay,
            )
        )
    if total >= 1:
        rd.error(
            "jackpots", f"contributions add up to {total}, at or above 100% of coin-in", Code.RANGE
        )
    return tuple(out)


def _hold_pools(
    rd: Reader, raw: Any, jackpots: tuple, hold: Any, full_window: tuple[FullWindowPay, ...] = ()
) -> None:
    """A pool without a ``trigger`` must be won otherwise (its only trigger).

    Hold and spin may award it (a value or its ``full_window``), or a
    ``[[full_window_pays]]`` entry may name it.
    """
    named = set(hold.jackpot_names()) if hold is not None else set()
    named |= {fw.jackpot for fw in full_window if fw.jackpot}
    for i, jp in enumerate(jackpots):
        spec = raw[i] if isinstance(raw, list) and i < len(raw) else {}
        if isinstance(spec, dict) and "trigger" not in spec and jp.id not in named:
            rd.error(
                join(join("jackpots", i), "trigger"),
                "missing: a pool needs a trigger (combo or mystery) unless"
                " [hold_and_spin] or a [[full_window_pays]] entry awards it",
                Code.MISSING_KEY,
            )


def read_mystery(rd: Reader, t: dict[str, Any], at: str) -> Decimal | None:
    """A mystery trigger: probability per credit wagered, strictly between 0 and 1."""
    p = rd.money(t, "mystery", at)
    if p is not None and not 0 < p < 1:
        rd.error(join(at, "mystery"), f'must be a probability in (0, 1), got "{p}"', Code.RANGE)
    return p


def _jackpot_trigger(
    rd: Reader, raw: Any, where: str, ctx: _Context, levels: tuple[int, ...]
) -> tuple:
    at = join(where, "trigger")
    t = rd.table(raw, at, (), ("combo", "min_bet_level", "mystery", "keep_pay"))
    if ("combo" in t) == ("mystery" in t):
        rd.error(at, "needs exactly one of `combo` or `mystery`", Code.JACKPOT_TRIGGER)
        return None, None, None, False
    keep_pay = rd.boolean(t, "keep_pay", at, False)
    if keep_pay and "mystery" in t:
        rd.error(
            join(at, "keep_pay"), "only a `combo` trigger has a pay to keep", Code.JACKPOT_TRIGGER
        )
    min_level = rd.integer(t, "min_bet_level", at, 1, default=None)
    if min_level is not None and min_level not in levels:
        rd.error(
            join(at, "min_bet_level"),
            f"{min_level} is not one of bet.bet_levels {list(levels)}",
            Code.RANGE,
        )
    if "mystery" in t:
        return None, min_level, read_mystery(rd, t, at), False
    combo = tuple(rd.array(t, "combo", at) or [])
    for j, token in enumerate(combo):
        if not ctx.token_ok(token):
            rd.error(
                join(join(at, "combo"), j),
                f'unknown symbol or group "{token}"',
                Code.UNKNOWN_SYMBOL,
            )
    if combo and all(ctx.token_ok(x) for x in combo) and combo not in ctx.pay_combos:
        rd.error(
            join(at, "combo"),
            f"{list(combo)} is not one of the [[pays]] combos; a jackpot replaces a line pay",
            Code.JACKPOT_TRIGGER,
        )
    return combo, min_level, None, bool(keep_pay)


def _jackpot_identity(rd: Reader, t: dict, where: str, seen: list[str]) -> None:
    """Jackpot ids are unique; a linked pool names its link, a standalone one does not."""
    if t.get("id") in seen:
        rd.error(
            join(where, "id"),
            f'"{t.get("id")}" duplicates another jackpot id',
            Code.JACKPOT_DUPLICATE,
        )
    if t.get("kind") == "linked" and "link" not in t:
        rd.error(
            join(where, "link"),
            "is required for a linked jackpot (the id of its models/links group)",
            Code.MISSING_KEY,
        )
    if t.get("kind", "standalone") == "standalone" and "link" in t:
        rd.error(
            join(where, "link"),
            f"a standalone jackpot has no link, got {t.get('link')!r}",
            Code.JACKPOT_LINK,
        )
