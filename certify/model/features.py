"""Read and check the window features of SPEC 3.1a/3.1b (symbols, Book of Ra, full windows).

Symbol keys (``expands``, ``scatter`` on a wild, ``wild_in_free_spins``,
``sticky``), ``[free_spins] expanding_symbol``, ``[[full_window_pays]]`` and
``[reels] heights``; every problem is located.
"""

from __future__ import annotations

from typing import Any

from certify.codes import Code
from certify.model.reader import Reader, join
from certify.model.schema import ANY, FreeSpins, FullWindowPay, PayEntry, Symbol

MAX_CHANCE_DENOMINATOR = 1 << 16  # a drawn mode's chance k/n (it scales stop weights by n)


def symbol_features(rd: Reader, t: dict[str, Any], where: str, kind: str) -> dict[str, Any]:
    """The feature keys of one symbol table, each checked against the symbol's kind."""
    out: dict[str, Any] = {}
    expands = t.get("expands", False)
    if isinstance(expands, dict):
        out["expands_chance"] = _expands_chance(rd, expands, join(where, "expands"))
        expands = False
        if kind != "wild":
            rd.error(
                join(where, "expands"),
                f"only wild symbols take it; this one is {kind}",
                Code.NOT_WILD,
            )
    if expands not in (True, False, "free_spins"):
        rd.error(
            join(where, "expands"),
            f'must be true, false or "free_spins", got {expands!r}',
            Code.TYPE,
        )
    elif expands:
        out["expands"] = "always" if expands is True else "free_spins"
    for key in ("scatter", "wild_in_free_spins", "sticky"):
        if rd.boolean(t, key, where, False):
            out[key] = True
    for key in ("expands", "scatter", "sticky"):
        if out.get(key) and kind != "wild":
            rd.error(
                join(where, key),
                f"only wild symbols take `{key}`; this one is {kind}",
                Code.NOT_WILD,
            )
    out.update(_counting(rd, t, where, kind))
    out.update(_window_factors(rd, t, where))
    if "counts_as" in t:
        out["counts_as"] = _counts_as(rd, t["counts_as"], join(where, "counts_as"), kind)
    if out.get("wild_in_free_spins") and kind not in ("regular", "scatter"):
        rd.error(
            join(where, "wild_in_free_spins"),
            f"only regular and scatter symbols take it; this one is {kind}",
            Code.BAD_KIND,
        )
    return out


def _expands_chance(rd: Reader, raw: dict[str, Any], at: str) -> tuple[int, int] | None:
    """``expands = {chance = [1, 15]}``: the wild fills its reel in a spin drawn with 1/15."""
    t = rd.table(raw, at, ("chance",))
    chance = t.get("chance")
    where = join(at, "chance")
    if not isinstance(chance, list) or len(chance) != 2:
        rd.error(where, "must be [k, n]: k spins in n", Code.TYPE)
        return None
    k, n = (rd.check_int(v, join(where, i), 1) for i, v in enumerate(chance))
    if k is None or n is None:
        return None
    if not k < n <= MAX_CHANCE_DENOMINATOR:
        rd.error(where, f"needs 1 <= k < n <= {MAX_CHANCE_DENOMINATOR}, got [{k}, {n}]", Code.RANGE)
        return None
    return k, n


def _counts_as(rd: Reader, raw: Any, at: str, kind: str) -> tuple[str, int] | None:
    """``counts_as = {symbol = "SC", times = 2}``: each cell counts as ``times`` of it."""
    if kind not in ("scatter", "bonus"):
        rd.error(at, f"only scatter and bonus symbols take it; this one is {kind}", Code.BAD_KIND)
        return None
    t = rd.table(raw, at, ("symbol", "times"), ())
    name = t.get("symbol")
    if not isinstance(name, str):
        rd.error(join(at, "symbol"), "must be a symbol name", Code.TYPE)
        return None
    times = rd.integer(t, "times", at, 1, default=None)
    return (name, times) if times is not None else None


def _window_factors(rd: Reader, t: dict[str, Any], where: str) -> dict[str, Any]:
    """``window_multiplier`` and ``full_reel_multiplier``: a symbol that multiplies the spin.

    ``window_multiplier = 2``: each cell showing the symbol (as landed) multiplies
    the spin's line, ways and scatter wins by 2 (three cells: x8).
    ``full_reel_multiplier = 3`` or ``{2 = 2, 4 = 1, 8 = 1}``: a reel whose every
    cell shows it multiplies them by 3, or by a value drawn for that reel.
    """
    out: dict[str, Any] = {}
    value = rd.integer(t, "window_multiplier", where, 2, default=None)
    if value is not None:
        out["window_multiplier"] = value
    raw = t.get("full_reel_multiplier")
    at = join(where, "full_reel_multiplier")
    if isinstance(raw, dict):
        out["full_reel_multipliers"] = read_drawn_multipliers(rd, raw, at)
    elif raw is not None:
        fixed = rd.integer(t, "full_reel_multiplier", where, 2, default=None)
        if fixed is not None:
            out["full_reel_multipliers"] = ((fixed, 1),)
    return out


def _counting(rd: Reader, t: dict[str, Any], where: str, kind: str) -> dict[str, Any]:
    """``reels``, ``wilds_count``, ``consecutive`` of a scatter or bonus symbol: its count."""
    out: dict[str, Any] = {}
    for key in ("reels", "wilds_count", "consecutive"):
        if key in t and kind not in ("scatter", "bonus"):
            rd.error(
                join(where, key),
                f"only scatter and bonus symbols take `{key}`; this one is {kind}",
                Code.BAD_KIND,
            )
    if rd.boolean(t, "wilds_count", where, False):
        out["wilds_count"] = True
    if "reels" in t:
        out["reels"] = reel_numbers(rd, t["reels"], join(where, "reels"))
    if "consecutive" in t:
        out["consecutive"] = rd.integer(t, "consecutive", where, 1, default=None) or 0
        for key in ("reels", "wilds_count", "counts_as"):
            if key in t:
                rd.error(
                    join(where, key),
                    "a symbol counted on consecutive reels is counted on its own cells only",
                    Code.UNSUPPORTED,
                )
    return out


def reel_numbers(rd: Reader, raw: Any, where: str, n_reels: int = 0) -> tuple[int, ...]:
    """An array of reel numbers (1-based, each once, at most ``n_reels`` where given), sorted."""
    if not isinstance(raw, list):
        rd.error(where, "must be an array of reel numbers", Code.TYPE)
        return ()
    if not raw:
        rd.error(where, "must name at least one reel", Code.TYPE)
        return ()
    checked = [rd.check_int(r, join(where, i), 1) for i, r in enumerate(raw)]
    reels = [r for r in checked if r is not None]
    if len(set(reels)) != len(reels):
        rd.error(where, "names a reel twice", Code.DUPLICATE)
    for i, r in enumerate(reels):
        if n_reels and r > n_reels:
            at = join(where, i)
            rd.error(at, f"must be at most the machine's {n_reels} reels, got {r}", Code.RANGE)
    return tuple(sorted(set(reels)))


def read_drawn_multipliers(rd: Reader, raw: dict[str, Any], at: str) -> tuple[tuple[int, int], ...]:
    """``multiplier = {1 = 1, 2 = 1, 3 = 1}``: multiplier values and their weights.

    A wild's (drawn per reel and spin) or the free spins' (drawn per free spin).
    """
    out = []
    for key, weight in raw.items():
        where = join(at, key)
        if not (key.isascii() and key.isdigit()) or int(key) < 1:
            rd.error(where, f"key must be a multiplier >= 1, got {key!r}", Code.TYPE)
            continue
        w = rd.check_int(weight, where, 1)
        if w is not None:
            out.append((int(key), w))
    if not raw:
        rd.error(at, "must name at least one multiplier, such as {2 = 1, 3 = 1}", Code.TYPE)
    return tuple(sorted(out))


def check_counting_reels(rd: Reader, symbols: dict[str, Symbol], n_reels: int) -> None:
    """Each symbol's ``reels`` are the machine's; each ``counts_as`` names another symbol.

    The symbol ``counts_as`` names is a scatter or bonus symbol other than itself
    and not one counted on consecutive reels; ``consecutive`` is at most the reels.
    """
    for name, sym in symbols.items():
        if sym.consecutive > n_reels:
            rd.error(
                join(join("symbols", name), "consecutive"),
                f"{sym.consecutive} reels, but the machine has {n_reels}",
                Code.RANGE,
            )
        if sym.counts_as is not None:
            target = symbols.get(sym.counts_as[0])
            if target is not None and target.consecutive:
                rd.error(
                    join(join("symbols", name), "counts_as"),
                    f"{target.name} is counted on consecutive reels, its own cells only",
                    Code.UNSUPPORTED,
                )
            if target is None or target.kind not in ("scatter", "bonus") or target.name == name:
                rd.error(
                    join(join(join("symbols", name), "counts_as"), "symbol"),
                    f"must name another scatter or bonus symbol, got {sym.counts_as[0]!r}",
                    Code.BAD_KIND,
                )
        for i, reel in enumerate(sym.reels):
            if reel > n_reels:
                rd.error(
                    join(join(join("symbols", name), "reels"), i),
                    f"reel {reel}, but the machine has {n_reels} reels",
                    Code.RANGE,
                )


def read_expanding_symbol(
    rd: Reader, raw: Any, where: str, symbols: dict[str, Symbol]
) -> tuple[tuple[str, int], ...]:
    """``expanding_symbol = {A = 10, K = 10}``: draw weights of the Book-of-Ra symbol."""
    if raw is None:
        return ()
    if not isinstance(raw, dict) or not raw:
        rd.error(where, "must be a table of symbol = weight, such as {A = 10, K = 12}", Code.TYPE)
        return ()
    out = []
    for name, weight in raw.items():
        at = join(where, name)
        if name not in symbols:
            rd.error(at, f'unknown symbol "{name}"', Code.UNKNOWN_SYMBOL)
        elif symbols[name].kind != "regular":
            rd.error(
                at, f"must be a regular symbol, {name!r} is {symbols[name].kind}", Code.BAD_KIND
            )
        out.append((name, rd.check_int(weight, at, 1) or 1))
    return tuple(out)


def read_full_window_pays(
    rd: Reader,
    raw: Any,
    symbols: dict[str, Symbol],
    groups: dict[str, tuple[str, ...]],
    n_reels: int = 0,
    pools: frozenset[str] = frozenset(),
) -> tuple[FullWindowPay, ...]:
    """``[[full_window_pays]]``: one symbol, group or ANY filling the window multiplies the wins.

    With ``reels = k`` only reels 1 to k must be filled (2 <= k <= the machine's
    reels); with ``reels = [2, 3, 4]`` only those reels (any two or more).
    ``jackpot`` names one of ``pools`` (the ``[[jackpots]]`` ids) that the window
    wins; with it ``multiplier`` may be 0 (the lines are not paid).
    ``wilds_count = false``: a wild cell counts only as itself.
    """
    if raw is None:
        return ()
    if not isinstance(raw, list):
        rd.error("full_window_pays", "must be an array of [[full_window_pays]] tables", Code.TYPE)
        return ()
    out = []
    for i, spec in enumerate(raw):
        where = join("full_window_pays", i)
        t = rd.table(spec, where, ("symbol", "multiplier"), ("reels", "jackpot", "wilds_count"))
        symbol = t.get("symbol")
        if not isinstance(symbol, str) or not (
            symbol == ANY or symbol in symbols or symbol in groups
        ):
            rd.error(
                join(where, "symbol"), f'unknown symbol or group "{symbol}"', Code.UNKNOWN_SYMBOL
            )
        reels = _full_window_reels(rd, t, where, n_reels)
        jackpot = _full_window_pool(rd, t, where, pools)
        multiplier = rd.integer(t, "multiplier", where, 0 if jackpot else 1)
        wilds = t.get("wilds_count", True)
        if not isinstance(wilds, bool):
            rd.error(join(where, "wilds_count"), f"must be true or false, got {wilds!r}", Code.TYPE)
        out.append(
            FullWindowPay(
                str(symbol),
                1 if multiplier is None else multiplier,
                None if reels == tuple(range(1, n_reels + 1)) else reels,
                jackpot,
                wilds is not False,
            )
        )
    return tuple(out)


def _full_window_reels(rd: Reader, t: dict, where: str, n_reels: int) -> tuple[int, ...] | None:
    """The reels a full-window entry judges: ``k`` (reels 1 to k) or an array of reel numbers."""
    if "reels" not in t:
        return None
    raw, at = t["reels"], join(where, "reels")
    if isinstance(raw, list):
        reels = reel_numbers(rd, raw, at, n_reels)
        if len(reels) < 2:
            rd.error(at, "must name at least two reels", Code.RANGE)
        return reels or None
    k = rd.integer(t, "reels", where, 2)
    if k is not None and n_reels and k > n_reels:
        rd.error(at, f"must be at most the machine's {n_reels} reels, got {k}", Code.RANGE)
    return tuple(range(1, k + 1)) if k is not None else None


def _full_window_pool(rd: Reader, t: dict, where: str, pools: frozenset[str]) -> str | None:
    """The ``jackpot`` of a full-window entry: a declared pool id, or None."""
    if "jackpot" not in t:
        return None
    name = rd.string(t, "jackpot", where)
    if name is not None and name not in pools:
        known = ", ".join(sorted(pools)) or "none declared"
        rd.error(
            join(where, "jackpot"),
            f'"{name}" is not a [[jackpots]] id ({known})',
            Code.UNKNOWN_JACKPOT,
        )
        return None
    return name


def read_heights(
    rd: Reader, raw: Any, reels: int, rows: int, evaluation: str
) -> tuple[tuple[tuple[int, int], ...], ...] | None:
    """``[reels] heights``: per reel, the rows it may show and their weights (ways games)."""
    if raw is None:
        return None
    where = "reels.heights"
    if evaluation != "ways":
        rd.error(
            where,
            f"variable heights are for ways games; this is a {evaluation} game",
            Code.RULE_NOT_APPLICABLE,
        )
    if not isinstance(raw, list) or len(raw) != reels:
        rd.error(where, f"needs one table list per reel ({reels})", Code.RAGGED)
        return None
    out = []
    for r, table in enumerate(raw):
        at = join(where, r)
        if not isinstance(table, list) or not table:
            rd.error(at, "must be a non-empty array of {rows = n, weight = w}", Code.TYPE)
            continue
        entries = []
        for i, spec in enumerate(table):
            here = join(at, i)
            t = rd.table(spec, here, ("rows", "weight"))
            n = rd.integer(t, "rows", here, 1) or 1
            if n > rows:
                rd.error(
                    join(here, "rows"),
                    f"{n} is above reels.rows = {rows} (the tallest reel)",
                    Code.RANGE,
                )
            entries.append((n, rd.integer(t, "weight", here, 1) or 1))
        out.append(tuple(entries))
    if out and max(n for table in out for n, _ in table) != rows:
        rd.error("reels.rows", "must equal the tallest height of reels.heights", Code.RANGE)
    return tuple(out)


def check_features(
    rd: Reader,
    symbols: dict[str, Symbol],
    pays: tuple[PayEntry, ...],
    free: FreeSpins | None,
    hold: Any,
    bonus: Any,
) -> None:
    """Located errors for features that need what the game does not have."""
    for s in symbols.values():
        where = join("symbols", s.name)
        if s.expands == "free_spins" and free is None:
            rd.error(join(where, "expands"), "the game has no free spins", Code.RULE_NOT_APPLICABLE)
        if s.wild_in_free_spins and free is None:
            rd.error(
                join(where, "wild_in_free_spins"),
                "the game has no free spins",
                Code.RULE_NOT_APPLICABLE,
            )
        if s.sticky and free is None:
            rd.error(
                join(where, "sticky"),
                "sticky wilds stay during free spins: the game has none",
                Code.RULE_NOT_APPLICABLE,
            )
        if s.sticky and s.scatter:
            rd.error(
                join(where, "sticky"),
                "a sticky wild cannot also be a scatter (it would count again every free spin)",
                Code.UNSUPPORTED,
            )
    sticky = [s.name for s in symbols.values() if s.sticky]
    if len(sticky) > 1:
        rd.error(
            join(join("symbols", sticky[1]), "sticky"),
            f"one sticky wild per game ({sticky[0]!r} is already sticky)",
            Code.UNSUPPORTED,
        )
    if free is not None:
        paying = {e.combo[0] for e in pays if len(set(e.combo)) == 1}
        for name, _ in free.expanding_symbol:
            if name in symbols and name not in paying:
                rd.error(
                    join("free_spins.expanding_symbol", name),
                    f'"{name}" has no line pay to expand',
                    Code.RULE_NOT_APPLICABLE,
                )
    if hold is not None and bonus is not None:
        rd.error(
            "hold_and_spin",
            "a game with both [bonus] and [hold_and_spin] is not supported",
            Code.UNSUPPORTED,
        )


def window_rule_conflicts(symbols: dict[str, Symbol], keys: dict[str, Any]) -> list[str]:
    """The features present that a window rewritten across reels is not played with.

    ``keys``: ``heights``, ``cascade``, ``clusters``, ``hold``, ``full_window``,
    ``expanding_symbol`` (what the machine file has); ``paints`` and
    ``big_symbol`` (``certify/model/paint.py``, ``certify/model/big.py``) refuse them.
    """
    features = [
        (bool(keys.get("heights")), "[reels] heights"),
        (bool(keys.get("cascade")), "[cascade]"),
        (bool(keys.get("clusters")), "[[cluster_pays]]"),
        (bool(keys.get("hold")), "[hold_and_spin]"),
        (bool(keys.get("full_window")), "[[full_window_pays]]"),
        (bool(keys.get("expanding_symbol")), "free_spins.expanding_symbol"),
        (any(x.expands for x in symbols.values()), "expands"),
        (any(x.expands_chance for x in symbols.values()), _CHANCE),
        (any(x.sticky for x in symbols.values()), "sticky"),
        (any(x.wild_in_free_spins for x in symbols.values()), "wild_in_free_spins"),
        (any(x.multipliers for x in symbols.values()), "drawn wild multipliers"),
        (
            any(x.window_multiplier != 1 or x.full_reel_multipliers for x in symbols.values()),
            "window_multiplier / full_reel_multiplier",
        ),
    ]
    return [what for present, what in features if present]


_CHANCE = "expands = {chance}"


def check_expands_chance(rd: Reader, symbols: dict[str, Symbol], keys: dict[str, Any]) -> None:
    """Located errors for wilds that expand in a drawn mode the engines do not play.

    ``keys``: the features present, as :func:`window_rule_conflicts` takes them,
    with ``big_symbol``. Every such wild shares one draw per spin, so they must
    have the same chance.
    """
    chancy = [s for s in symbols.values() if s.expands_chance is not None]
    if not chancy:
        return
    at = join(join("symbols", chancy[0].name), "expands")
    conflicts = [c for c in window_rule_conflicts(symbols, keys) if c != _CHANCE]
    if any(s.paints is not None for s in symbols.values()):
        conflicts.append("paints")
    if keys.get("big_symbol") is not None:
        conflicts.append("free_spins.big_symbol")
    if len({s.expands_chance for s in chancy}) > 1:
        conflicts.append("another wild expanding with another chance (one draw per spin)")
    for what in conflicts:
        rd.error(at, f"a wild expanding by chance is not played with {what}", Code.UNSUPPORTED)
