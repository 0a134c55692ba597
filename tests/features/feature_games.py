"""Small random games for each window feature of SPEC 3.1a/3.1b (hypothesis strategies).

Every game is 3 reels of 2-3 stops (2 rows unless the feature needs another
shape), small enough for the twin's full-cycle brute force; each strategy
turns on one feature and draws the rest (pays, multipliers, free spins).
"""

from __future__ import annotations

import tomllib

from hypothesis import strategies as st

from certify.model.loader import parse_machine
from certify.model.schema import Machine

R = "{kind = 'regular'}"
LINES = "lines = 2"
PAYLINES = "paylines = [[0, 0, 0], [1, 0, 1]]"


def machine_of(
    strips,
    symbols: dict[str, str],
    table: str,
    extra: str = "",
    rows: int = 2,
    bet: str = LINES,
    reels: str = PAYLINES,
) -> Machine:
    """Parse a machine from its parts (TOML fragments)."""
    strip_text = ", ".join("[" + ", ".join(f'"{s}"' for s in strip) + "]" for strip in strips)
    symbol_text = "\n".join(f"{n} = {spec}" for n, spec in symbols.items())
    text = f"""
schema = "slotcert/machine@1"
[machine]
id = "FEATURE-PROPERTY"
name = "feature property"
[bet]
denomination = "0.01"
currency = "EUR"
{bet}
bet_levels = [1, 2]
[symbols]
{symbol_text}
[reels]
rows = {rows}
strips = [{strip_text}]
{reels}
{table}
{extra}
"""
    machine, _ = parse_machine(tomllib.loads(text.replace("'", '"')), "<feature property>")
    return machine


def pays_of(entries) -> str:
    """``[[pays]]`` tables from (combo, pays) pairs."""
    out = []
    for combo, pay in entries:
        tokens = ", ".join(f'"{t}"' for t in combo)
        out.append(f"[[pays]]\ncombo = [{tokens}]\npays = {pay}\n")
    return "".join(out)


def strips_of(draw, symbols, rows: int = 2, size=(2, 3)):
    return [
        draw(st.lists(st.sampled_from(symbols), min_size=size[0], max_size=size[1]))
        for _ in range(3)
    ]


def with_symbols(draw, strips, names):
    """The strips with each of ``names`` inserted on a drawn reel (so the feature shows)."""
    for name in names:
        strip = strips[draw(st.integers(0, len(strips) - 1))]
        strip.insert(draw(st.integers(0, len(strip))), name)
    return strips


def free_spins_of(
    draw, trigger: str, retrigger: bool = True, extra: str = "", most: int = 2
) -> str:
    """A ``[free_spins]`` table triggered by 2 ``trigger`` anywhere (1 to ``most`` spins)."""
    spins = draw(st.integers(1, most))
    again = draw(st.booleans()) if retrigger else False
    return (
        f"[free_spins]\ntrigger = {{symbol = '{trigger}', count = 2}}\n"
        f"spins = {{2 = {spins}, 3 = {spins + 1}}}\n"
        f"multiplier = {draw(st.integers(1, 3))}\nretrigger = {str(again).lower()}\n"
        f"max_spins = 6\n{extra}"
    )


def base_pays(draw):
    return [
        (["A", "A"], draw(st.integers(0, 3))),
        (["A", "A", "A"], draw(st.integers(1, 12))),
        (["B", "B", "B"], draw(st.integers(1, 8))),
    ]


@st.composite
def expanding_games(draw):
    """A wild with ``expands = true`` or ``"free_spins"`` (free spins then present)."""
    mode = draw(st.sampled_from(["true", "'free_spins'"]))
    mult = draw(st.integers(1, 2))
    symbols = {"A": R, "B": R, "S": "{kind = 'scatter'}"}
    symbols["W"] = f"{{kind = 'wild', multiplier = {mult}, expands = {mode}}}"
    strips = with_symbols(draw, strips_of(draw, ["A", "B", "W", "S"], size=(1, 3)), ["W"])
    fs = mode != "true" or draw(st.booleans())
    extra = free_spins_of(draw, "S") if fs else ""
    extra += "[[scatter_pays]]\nsymbol = 'S'\ncount = 2\npays = 1\n"
    return machine_of(strips, symbols, pays_of(base_pays(draw)), extra)


@st.composite
def wild_scatter_games(draw):
    """A wild that is also the scatter (pays, and optionally triggers free spins)."""
    symbols = {"A": R, "B": R, "BK": "{kind = 'wild', scatter = true}"}
    strips = strips_of(draw, ["A", "B", "BK"])
    extra = f"[[scatter_pays]]\nsymbol = 'BK'\ncount = 2\npays = {draw(st.integers(1, 4))}\n"
    if draw(st.booleans()):
        extra += free_spins_of(draw, "BK")
    return machine_of(strips, symbols, pays_of(base_pays(draw)), extra)


@st.composite
def wild_in_free_spins_games(draw):
    """A regular symbol X that plays as a wild in free spins (beside an optional x2 wild)."""
    symbols = {"A": R, "B": R, "X": "{kind = 'regular', wild_in_free_spins = true}"}
    symbols["S"] = "{kind = 'scatter'}"
    names = ["A", "B", "X", "S"]
    if draw(st.booleans()):
        symbols["W"] = "{kind = 'wild', multiplier = 2}"
        names.append("W")
    strips = with_symbols(draw, strips_of(draw, names, size=(1, 3)), ["S", "S", "X"])
    table = base_pays(draw) + [(["X", "X", "X"], draw(st.integers(1, 6)))]
    return machine_of(strips, symbols, pays_of(table), free_spins_of(draw, "S"))


@st.composite
def book_games(draw):
    """Book of Ra: the wild-scatter BK triggers; one of A, B drawn expands in free spins."""
    symbols = {"A": R, "B": R, "X": R, "BK": "{kind = 'wild', scatter = true}"}
    strips = with_symbols(draw, strips_of(draw, ["A", "B", "X", "BK"], size=(1, 3)), ["BK", "BK"])
    wa, wb = draw(st.integers(1, 5)), draw(st.integers(1, 5))
    table = [
        (["A", "A"], draw(st.integers(1, 3))),
        (["A", "A", "A"], draw(st.integers(2, 12))),
        (["B", "B", "B"], draw(st.integers(1, 8))),
        (["X", "X", "X"], draw(st.integers(1, 4))),
    ]
    extra = f"[[scatter_pays]]\nsymbol = 'BK'\ncount = 2\npays = {draw(st.integers(1, 3))}\n"
    extra += free_spins_of(draw, "BK", extra=f"expanding_symbol = {{A = {wa}, B = {wb}}}\n")
    return machine_of(strips, symbols, pays_of(table), extra)


@st.composite
def heights_games(draw):
    """A 3-reel ways game whose reels show 1-3 rows drawn per spin by weight (its wild
    plain, x2 or expanding over the rows its reel shows)."""
    wild = draw(
        st.sampled_from(
            [
                "{kind = 'wild'}",
                "{kind = 'wild', multiplier = 2}",
                "{kind = 'wild', expands = true}",
            ]
        )
    )
    symbols = {"A": R, "B": R, "W": wild, "S": "{kind = 'scatter'}"}
    strips = strips_of(draw, ["A", "B", "W", "S"], size=(2, 3))
    tables = [
        draw(st.lists(st.tuples(st.integers(1, 3), st.integers(1, 3)), min_size=1, max_size=2))
        for _ in range(3)
    ]
    tables = [list(dict(t).items()) for t in tables]  # one weight per height
    rows = max(n for t in tables for n, _ in t)
    heights = ", ".join(
        "[" + ", ".join(f"{{rows = {n}, weight = {w}}}" for n, w in t) + "]" for t in tables
    )
    reels = f"evaluation = 'ways'\nheights = [{heights}]"
    extra = "[[scatter_pays]]\nsymbol = 'S'\ncount = 2\npays = 1\n"
    if draw(st.booleans()):
        extra += free_spins_of(draw, "S")
    bet = f"ways = {rows**3}\ncost = 1"
    return machine_of(strips, symbols, pays_of(base_pays(draw)), extra, rows, bet, reels)


@st.composite
def full_window_games(draw):
    """``[[full_window_pays]]`` on a symbol, a group or ANY (1 or 2 rows, x1-x2 wild)."""
    rows = draw(st.integers(1, 2))
    mult = draw(st.integers(1, 2))
    symbols = {"A": R, "B": R, "C": R, "W": f"{{kind = 'wild', multiplier = {mult}}}"}
    strips = strips_of(draw, ["A", "B", "C", "W"], size=(1, 3))
    entries = draw(
        st.lists(
            st.tuples(st.sampled_from(["A", "AB", "ANY"]), st.integers(2, 5)),
            min_size=1,
            max_size=2,
            unique_by=lambda e: e[0],
        )
    )
    extra = "[groups]\nAB = ['A', 'B']\n" + "".join(
        f"[[full_window_pays]]\nsymbol = '{s}'\nmultiplier = {m}\n" for s, m in entries
    )
    table = base_pays(draw) + [(["C", "C", "C"], draw(st.integers(1, 5)))]
    reels = PAYLINES if rows == 2 else "paylines = [[0, 0, 0]]"
    bet = LINES if rows == 2 else "lines = 1"
    return machine_of(strips, symbols, pays_of(table), extra, rows, bet, reels)


@st.composite
def sticky_games(draw):
    """A sticky wild in free spins (1 row, no retrigger): the sequence is enumerated."""
    mult = draw(st.integers(1, 2))
    symbols = {"A": R, "B": R, "S": "{kind = 'scatter'}"}
    symbols["W"] = f"{{kind = 'wild', multiplier = {mult}, sticky = true}}"
    strips = with_symbols(draw, strips_of(draw, ["A", "B", "W", "S"], size=(1, 2)), "SSW")
    extra = free_spins_of(draw, "S", retrigger=False, most=3)
    return machine_of(
        strips, symbols, pays_of(base_pays(draw)), extra, 1, "lines = 1", "paylines = [[0, 0, 0]]"
    )


@st.composite
def full_window_pool_games(draw):
    """``[[full_window_pays]]`` entries that win jackpot pools, x0 to x3, free spins or not.

    Lines (1 or 2 rows) or ways; an x1-x2 wild; a scatter S that pays and may start
    free spins (retriggers included); two pools, each entry naming one or none; wilds
    counting as the symbol or not (``wilds_count``).
    """
    ways = draw(st.booleans())
    rows = 2 if ways else draw(st.integers(1, 2))
    mult = draw(st.integers(1, 2))
    symbols = {"A": R, "B": R, "C": R, "S": "{kind = 'scatter'}"}
    symbols["W"] = f"{{kind = 'wild', multiplier = {mult}}}"
    strips = with_symbols(draw, strips_of(draw, ["A", "B", "C", "W"], size=(1, 3)), ["S", "S"])
    entries = draw(
        st.lists(
            st.tuples(
                st.sampled_from(["A", "AB", "ANY", "C"]),
                st.integers(0, 3),
                st.sampled_from(["P1", "P2", None]),
                st.booleans(),
            ),
            min_size=1,
            max_size=3,
            unique_by=lambda e: e[0],
        )
    )
    extra = "[groups]\nAB = ['A', 'B']\n"
    for pool in ("P1", "P2"):
        extra += (
            f"[[jackpots]]\nid = '{pool}'\nkind = 'standalone'\n"
            "contribution = '0.01'\nreset = '10.00'\ntrigger = {mystery = '0.000001'}\n"
        )
    for s, m, pool, wilds in entries:
        pool = pool or ("P1" if m == 0 else None)  # x0 needs a pool
        named = f"jackpot = '{pool}'\n" if pool else ""
        named += "" if wilds else "wilds_count = false\n"
        extra += f"[[full_window_pays]]\nsymbol = '{s}'\nmultiplier = {m}\n{named}"
    extra += "[[scatter_pays]]\nsymbol = 'S'\ncount = 2\npays = 1\n"
    if draw(st.booleans()):
        extra += free_spins_of(draw, "S")
    table = pays_of(base_pays(draw) + [(["C", "C", "C"], draw(st.integers(1, 5)))])
    if ways:
        ways_bet = "ways = 8\ncost = 1"
        return machine_of(strips, symbols, table, extra, 2, ways_bet, "evaluation = 'ways'")
    bet, reels = (LINES, PAYLINES) if rows == 2 else ("lines = 1", "paylines = [[0, 0, 0]]")
    return machine_of(strips, symbols, table, extra, rows, bet, reels)


@st.composite
def drawn_option_games(draw):
    """Free spins whose option (spins and multiplier) the machine draws by weight, or
    whose multiplier is drawn for each free spin (``multiplier = {v = w}``).

    Lines (2 rows) or ways; an x1-x2 wild, expanding or not; a scatter S that pays
    and triggers (2 anywhere); 2-3 options of 1-3 spins and x1-x3, weights 1-4;
    retriggers or not (with their own award or not), on the free spins' own
    strips or not.
    """
    ways = draw(st.booleans())
    symbols = {"A": R, "B": R, "S": "{kind = 'scatter'}"}
    expands = draw(st.sampled_from(["", ", expands = true"]))
    symbols["W"] = f"{{kind = 'wild', multiplier = {draw(st.integers(1, 2))}{expands}}}"
    names = ["A", "B", "W"]
    strips = with_symbols(draw, strips_of(draw, names, size=(1, 2)), ["S", "S"])
    again = draw(st.booleans())
    extra = "[[scatter_pays]]\nsymbol = 'S'\ncount = 2\npays = 1\n"
    extra += (
        "[free_spins]\ntrigger = {symbol = 'S', count = 2}\n"
        f"retrigger = {str(again).lower()}\nmax_spins = 6\n"
    )
    if again and draw(st.booleans()):
        extra += f"retrigger_spins = {draw(st.integers(1, 2))}\n"
    if draw(st.booleans()):
        own = with_symbols(draw, strips_of(draw, names, size=(1, 2)), ["S"])
        extra += "strips = [" + ", ".join(repr(s) for s in own) + "]\n"
    if draw(st.booleans()):  # a multiplier drawn for each free spin instead of options
        n = draw(st.integers(1, 3))
        values = draw(st.lists(st.integers(1, 5), min_size=1, max_size=3, unique=True))
        table = ", ".join(f"{v} = {draw(st.integers(1, 4))}" for v in values)
        extra += f"spins = {n}\nmultiplier = {{{table}}}\n"
    for _ in range(0 if "multiplier =" in extra else draw(st.integers(2, 3))):
        n = draw(st.integers(1, 3))
        spins = draw(st.sampled_from([str(n), f"{{2 = {n}, 3 = {n + 1}}}"]))
        extra += (
            f"[[free_spins.options]]\nspins = {spins}\n"
            f"multiplier = {draw(st.integers(1, 3))}\nweight = {draw(st.integers(1, 4))}\n"
        )
    table = pays_of(base_pays(draw) + [(["W", "W", "W"], draw(st.integers(1, 20)))])
    if ways:
        return machine_of(
            strips, symbols, table, extra, 2, "ways = 8\ncost = 1", "evaluation = 'ways'"
        )
    return machine_of(strips, symbols, table, extra)


@st.composite
def mixed_games(draw):
    """Several window features at once, lines or ways, free spins on their own strips or not.

    An expanding x1-x2 wild, a wild-scatter, a ``wild_in_free_spins`` symbol and
    (lines games) the Book-of-Ra symbol, each present or not (the wild-scatter
    expanding or not), ways games with variable heights or not, under random rules
    of real games (``[rules]``).
    """
    ways = draw(st.booleans())
    symbols = {"A": R, "B": R, "S": "{kind = 'scatter'}"}
    names = ["A", "B", "S"]
    fs = draw(st.booleans())
    expands = draw(
        st.sampled_from(["", ", expands = true"] + ([", expands = 'free_spins'"] if fs else []))
    )
    symbols["W"] = f"{{kind = 'wild', multiplier = {draw(st.integers(1, 2))}{expands}}}"
    names.append("W")
    if draw(st.booleans()):
        grows = draw(st.sampled_from(["", ", expands = true"]))
        symbols["BK"] = f"{{kind = 'wild', scatter = true{grows}}}"
        names.append("BK")
    if fs and draw(st.booleans()):
        symbols["X"] = "{kind = 'regular', wild_in_free_spins = true}"
        names.append("X")
    strips = with_symbols(draw, strips_of(draw, names, size=(1, 2)), names[2:])
    extra = "".join(
        f"[[scatter_pays]]\nsymbol = '{s}'\ncount = 2\npays = {draw(st.integers(1, 3))}\n"
        for s in ("S", "BK")
        if s in symbols
    )
    if fs:
        book = not ways and draw(st.booleans())
        more = f"expanding_symbol = {{A = {draw(st.integers(1, 3))}, B = 2}}\n" if book else ""
        if draw(st.booleans()):
            own = strips_of(draw, names, size=(2, 3))
            more += "strips = [" + ", ".join(repr(s) for s in own) + "]\n"
        trigger = draw(st.sampled_from(["S", "BK"] if "BK" in symbols else ["S"]))
        extra += free_spins_of(draw, trigger, extra=more)
    table = pays_of(base_pays(draw) + [(["W", "W", "W"], draw(st.integers(1, 20)))])
    extra += rules_of(draw, ways)
    if ways:
        return machine_of(strips, symbols, table, extra, 2, "ways = 8\ncost = 1", ways_reels(draw))
    return machine_of(strips, symbols, table, extra)


def rules_of(draw, ways: bool) -> str:
    """A ``[rules]`` table of SPEC 3.1a drawn at random (lines rules only in lines games)."""
    rules = {"scatter_unit": draw(st.sampled_from(["total_bet", "line_bet"]))}
    if not ways:
        rules["wild_multiplier"] = draw(st.sampled_from(["product", "max", "sum"]))
        rules["pure_wild_line"] = draw(st.sampled_from(["highest", "wild_award"]))
        rules["direction"] = draw(st.sampled_from(["left", "both"]))
    return "[rules]\n" + "".join(f"{k} = '{v}'\n" for k, v in rules.items())


def ways_reels(draw) -> str:
    """``evaluation = 'ways'``, with per-reel heights of 1 or 2 rows or without."""
    if not draw(st.booleans()):
        return "evaluation = 'ways'"
    tables = [f"[{{rows = 1, weight = {draw(st.integers(1, 3))}}}, {{rows = 2, weight = 1}}]"] * 3
    return "evaluation = 'ways'\nheights = [" + ", ".join(tables) + "]"
