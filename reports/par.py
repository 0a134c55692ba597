"""The PAR sheet as data: sections of rows built from a certificate and its machine.

One builder feeds the CSV (:mod:`reports.parcsv`: the award table), the Excel
workbook (:mod:`reports.parxlsx`: every section, one sheet per section and
award tables one sheet per level) and the HTML report.

Award table (per bet level, in this order): every pay entry (line or ways),
every scatter pay, one row per feature (free spins, bonus) and per jackpot
pool, then a ``total`` row. ``rtp_contribution`` is the row's exact share
of the return (wild multipliers, ways counts, free-spin multiplier and the
scatter unit included; a feature row carries the whole feature, its parts are
in the feature tables); summed per level it gives the certified return (base
game + jackpots). The ``total`` row leaves ``rtp_contribution`` empty so
that the sum stays the return; its ``cumulative_rtp`` (the running sum down
the level's rows) is the certified return, stated again in
``certified_rtp``.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from certify.model.schema import Machine
from reports.parfigures import feature_table_sections, figure_sections
from reports.sections import Section

AWARD_COLUMNS = (
    "level",
    "section",
    "kind",
    "combo",
    "pays",
    "multiplier",
    "probability",
    "one_in",
    "rtp_contribution",
    "cumulative_rtp",
    "certified_rtp",
    "source",
    "ci_low",
    "ci_high",
)


def award_rows(certificate: dict[str, Any]) -> list[tuple[Any, ...]]:
    """The award table of every level, a total row closing each level."""
    levels = {lv["level"]: lv for lv in certificate.get("bet_levels") or []}
    out: list[tuple[Any, ...]] = []
    by_level: dict[Any, list[dict[str, Any]]] = {}
    for award in certificate.get("awards") or []:
        by_level.setdefault(award["level"], []).append(award)
    for level, awards in by_level.items():
        running = 0.0
        for a in awards:
            contribution = a.get("rtp_contribution")
            running += contribution or 0.0
            ci = a.get("ci") or [None, None]
            out.append(
                (
                    level,
                    a.get("section", ""),
                    a["kind"],
                    " ".join(a["combo"]),
                    a.get("pays"),
                    a.get("multiplier"),
                    a.get("probability"),
                    a.get("one_in"),
                    contribution,
                    running,
                    None,
                    a.get("source", "exact"),
                    ci[0],
                    ci[1],
                )
            )
        out.append(_total_row(levels.get(level) or {}, level, running))
    return out


def _total_row(lv: dict[str, Any], level: Any, running: float) -> tuple[Any, ...]:
    """The closing row of a level: the certified (exact) return, else the simulated one."""
    exact = lv.get("exact") or {}
    if exact:
        hit, total, source, ci = exact.get("hit_frequency"), exact.get("rtp"), "exact", None
    else:  # a simulation-only game: its rows are the simulation's
        sim = lv.get("simulation") or {}
        hit, total, source = sim.get("hit_frequency"), sim.get("rtp"), "simulation"
        ci = sim.get("ci")
    ci = ci or [None, None]
    return (
        level,
        "total",
        "total",
        "",
        None,
        None,
        hit,
        1 / hit if hit else None,
        None,
        running,
        total,
        source,
        ci[0],
        ci[1],
    )


def _reel_sections(machine: Machine) -> list[Section]:
    sets = [("base", machine.strips, machine.weights)]
    fs = machine.free_spins
    if fs is not None and fs.own_reels:
        sets.append(("free_spins", *fs.played_strips(machine.strips, machine.weights)))
    stops: list[tuple[Any, ...]] = []
    counts: list[tuple[Any, ...]] = []
    n_reels = machine.reels
    for name, strips, weights in sets:
        for r, strip in enumerate(strips):
            for s, symbol in enumerate(strip):
                w = weights[r][s] if weights else 1
                stops.append((name, r + 1, s, symbol, w))
        for sym in machine.symbols:
            per_reel = []
            per_weight = []
            for r, strip in enumerate(strips):
                per_reel.append(sum(1 for x in strip if x == sym.name))
                per_weight.append(
                    sum(
                        (weights[r][s] if weights else 1)
                        for s, x in enumerate(strip)
                        if x == sym.name
                    )
                )
            counts.append((name, sym.name, sym.kind, "stops", *per_reel))
            if weights:
                counts.append((name, sym.name, sym.kind, "weight", *per_weight))
        counts.append((name, "(all)", "", "stops", *(len(s) for s in strips)))
        if weights:
            counts.append((name, "(all)", "", "weight", *(sum(w) for w in weights)))
    return [
        Section(
            "reels",
            "Reel strips, stop by stop",
            ("reel_set", "reel", "stop", "symbol", "weight"),
            stops,
        ),
        Section(
            "symbols",
            "Symbol counts per reel",
            ("reel_set", "symbol", "kind", "counted", *(f"reel_{r + 1}" for r in range(n_reels))),
            counts,
        ),
    ]


def _number(value: int | Fraction) -> int | float:
    """A pay for the PAR's cells: its integer, or a fraction of the bet as its decimal."""
    return value if isinstance(value, int) else float(value)


def _pay_table(machine: Machine) -> Section:
    levels = machine.bet_levels
    rows: list[tuple[Any, ...]] = []
    for e in machine.pays:
        per_level = [e.credits(i, lv) for i, lv in enumerate(levels)]
        rows.append((f"pays[{e.index}]", machine.evaluation, " ".join(e.combo), e.pays, *per_level))
        if e.free_spins_pays is not None:
            free = [e.free_credits(i, lv) for i, lv in enumerate(levels)]
            kind = f"{machine.evaluation} in free spins (before their multiplier)"
            rows.append(
                (
                    f"pays[{e.index}].free_spins_pays",
                    kind,
                    " ".join(e.combo),
                    e.free_spins_pays,
                    *free,
                )
            )
    unit = "line bet" if machine.rules.scatter_unit == "line_bet" else "total bet"
    for i, sp in enumerate(machine.scatter_pays):
        rows.append(
            (
                f"scatter_pays[{i}]",
                f"scatter (x {unit})",
                f"{sp.count} x {sp.symbol}",
                _number(sp.pays),
                *[sp.credits(machine.scatter_bet(lv)) for lv in levels],
            )
        )
        if sp.free_spins_pays is not None:
            rows.append(
                (
                    f"scatter_pays[{i}].free_spins_pays",
                    f"scatter in free spins (x {unit}, before their multiplier)",
                    f"{sp.count} x {sp.symbol}",
                    _number(sp.free_spins_pays),
                    *[sp.credits(machine.scatter_bet(lv), free=True) for lv in levels],
                )
            )
    return Section(
        "paytable",
        "Pay table (credits per line or way; scatter: x total bet)",
        ("entry", "kind", "combo", "pays", *(f"credits_level_{lv}" for lv in levels)),
        rows,
    )


def _drawn(table: tuple[tuple[int, int], ...]) -> str:
    """``x2 (1/2), x3 (1/2)`` for a table of value = weight drawn by weight."""
    total = sum(w for _, w in table)
    return ", ".join(f"x{v} ({w}/{total})" for v, w in table)


def _free_multiplier(fs: Any) -> Any:
    """The free spins' multiplier, or the table drawn for each free spin."""
    if not fs.multipliers:
        return fs.multiplier
    return "drawn each spin: " + _drawn(fs.multipliers)


def _feature_sections(certificate: dict[str, Any], machine: Machine) -> list[Section]:
    out = []
    fs = machine.free_spins
    if fs is not None:
        rules = [
            ("trigger", f"{fs.trigger.count}+ x {fs.trigger.symbol} anywhere"),
            ("multiplier", _free_multiplier(fs)),
            ("retrigger", "yes" if fs.retrigger else "no"),
            ("max_spins", fs.max_spins if fs.max_spins else "no cap"),
            ("own strips", "yes" if fs.strips is not None else "no (base strips)"),
        ]
        if fs.big_symbol is not None:
            big = fs.big_symbol
            covered = ", ".join(str(r) for r in big.reels)
            shown = ", ".join(dict.fromkeys(big.strip))
            rules.append((f"big symbol on reels {covered}", f"drawn from its strip: {shown}"))
            rules += [
                (f"big {name} covers reels", ", ".join(str(r) for r in big.reels[:n]))
                for name, n in big.covers
            ]
            rules += [(f"big {name} shows", ", ".join(cells)) for name, cells in big.columns]
        rules += [(f"spins for {count} x {fs.trigger.symbol}", spins) for count, spins in fs.spins]
        rules += [
            (f"a retrigger with {count} x {fs.retriggered_by} adds", spins)
            for count, spins in fs.retrigger_spins
        ]
        out.append(Section("free_spins", "Free spins: rules", ("rule", "value"), rules))
        rows: list[tuple[Any, ...]] = []
        for lv in certificate.get("bet_levels") or []:
            par = (lv.get("par") or {}).get("free_spins")
            if not par:
                continue
            rows.append(
                (
                    lv["level"],
                    "feature",
                    "trigger",
                    "",
                    None,
                    par["trigger_probability"],
                    1 / par["trigger_probability"] if par["trigger_probability"] else None,
                    par["rtp"],
                )
            )
            for r in par["rows"]:
                rows.append(
                    (
                        lv["level"],
                        "in free spins",
                        r["kind"],
                        " ".join(r["combo"]),
                        r["pays"],
                        r["probability"],
                        r["one_in"],
                        r["rtp_contribution"],
                    )
                )
        if rows:
            out.append(
                Section(
                    "free_spins_return",
                    "Free spins: return by component (per paid spin; pays with the multiplier)",
                    (
                        "level",
                        "part",
                        "kind",
                        "combo",
                        "pays",
                        "probability",
                        "one_in",
                        "rtp_contribution",
                    ),
                    rows,
                    ("rtp_contribution",),
                )
            )
    for k, (name, bonus) in enumerate(machine.bonus_laws):
        total = sum(a.weight for a in bonus.awards)
        table = [(i, a.pays, a.weight, a.weight / total) for i, a in enumerate(bonus.awards)]
        title = f"Bonus game {name!r}" if name else "Bonus"
        out.append(
            Section(
                f"bonus_{k}" if name else "bonus",  # short: a worksheet's name (31 characters)
                f"{title}: {_bonus_start(machine, name)}, "
                f"awards (x {bonus.unit.replace('_', ' ')}) and weights"
                + (" (the exact prize law of the bonus game's stages)" if bonus.stages else ""),
                ("award", "pays", "weight", "probability_given_trigger"),
                table,
                ("probability_given_trigger",),
            )
        )
    return out


def _bonus_start(machine: Machine, name: str = "") -> str:
    """What starts a bonus game: its trigger count, and the pays that play it (and how often)."""
    bonus = dict(machine.bonus_laws)[name]
    starts = [f"{bonus.trigger.count}+ x {bonus.trigger.symbol}"] if bonus.trigger else []

    def times(plays: int) -> str:
        return f" ({plays} plays)" if plays > 1 else ""

    starts += [
        f"a line of {' '.join(e.combo)}{times(e.bonus_plays)}"
        for e in machine.pays
        if e.bonus and e.bonus_game == name
    ]
    starts += [
        f"{sp.count}+ x {sp.symbol} paying{times(sp.bonus_plays)}"
        for sp in machine.scatter_pays
        if sp.bonus and sp.bonus_game == name
    ]
    return " or ".join(starts)


def _level_section(certificate: dict[str, Any]) -> Section:
    conf = (certificate.get("jurisdiction") or {}).get("confidence")
    rows = []
    for lv in certificate.get("bet_levels") or []:
        ex = lv.get("exact") or {}
        sim = lv.get("simulation") or {}
        ci = sim.get("ci") or [None, None]
        rows.append(
            (
                lv["level"],
                lv["total_bet"],
                ex.get("rtp"),
                ex.get("base_rtp"),
                ex.get("jackpot_rtp"),
                ex.get("line_rtp"),
                ex.get("scatter_rtp"),
                ex.get("free_spins_rtp"),
                ex.get("bonus_rtp"),
                ex.get("hit_frequency"),
                ex.get("variance"),
                ex.get("sigma"),
                ex.get("volatility_index"),
                conf,
                ex.get("max_win_x_bet"),
                ex.get("max_win_probability"),
                1 / ex["max_win_probability"] if ex.get("max_win_probability") else None,
                ex.get("max_win_note"),
                ex.get("max_win_exact"),
                sim.get("spins"),
                sim.get("seed"),
                sim.get("rtp"),
                sim.get("std_error"),
                ci[0],
                ci[1],
                sim["max_win"] / lv["total_bet"] if sim.get("max_win") is not None else None,
                lv.get("verdict"),
            )
        )
    return Section(
        "levels",
        "Figures per bet level (exact; simulation)",
        (
            "level",
            "total_bet",
            "rtp",
            "base_rtp",
            "jackpot_rtp",
            "line_rtp",
            "scatter_rtp",
            "free_spins_rtp",
            "bonus_rtp",
            "hit_frequency",
            "variance",
            "standard_deviation",
            "volatility_index",
            "confidence",
            "max_win_x_bet",
            "probability_max_win",
            "one_in",
            "max_win_note",
            "max_win_exact",
            "sim_spins",
            "sim_seed",
            "sim_rtp",
            "sim_std_error",
            "sim_ci_low",
            "sim_ci_high",
            "sim_max_win_x_bet",
            "verdict",
        ),
        rows,
        (
            "rtp",
            "base_rtp",
            "jackpot_rtp",
            "line_rtp",
            "scatter_rtp",
            "free_spins_rtp",
            "bonus_rtp",
            "hit_frequency",
            "sim_rtp",
            "sim_std_error",
            "sim_ci_low",
            "sim_ci_high",
        ),
    )


def _spin_multiplier_row(machine: Machine) -> list[tuple[str, str]]:
    """The multiplier each paid spin draws, where the game has one (``[rules]``)."""
    table = machine.rules.spin_multipliers
    if not table:
        return []
    total = sum(w for _, w in table)
    mean = Fraction(sum(v * w for v, w in table), total)
    return [("multiplier drawn each paid spin", f"{_drawn(table)}; mean {float(mean):.6g}")]


def _window_factor_rows(machine: Machine) -> list[tuple[str, str]]:
    """The symbols that multiply the spin by what the reels show (one row each)."""
    rows = []
    for s in machine.symbols:
        if s.window_multiplier != 1:
            rows.append((f"{s.name} multiplies the spin", f"x{s.window_multiplier} per cell"))
        if s.full_reel_multipliers:
            drawn = _drawn(s.full_reel_multipliers)
            rows.append((f"a reel full of {s.name} multiplies the spin", drawn))
        if s.expands_chance is not None:
            k, n = s.expands_chance
            rows.append((f"{s.name} expands", f"in a mode each spin draws with chance {k}/{n}"))
        if s.paints is not None:
            p = s.paints
            block = f"{p.left} left, {p.right} right, {p.up} up, {p.down} down"
            reels = ", ".join(str(r) for r in p.reels)
            rows.append((f"{s.name} paints {p.into}", f"on reels {reels}: {block} (not scatters)"))
    return rows


def _summary(certificate: dict[str, Any], machine: Machine) -> Section:
    ident = certificate.get("certificate") or {}
    plan = certificate.get("simulation_plan") or {}
    jur = certificate.get("jurisdiction") or {}
    game = f"{machine.reels} reels x {machine.rows} rows, " + (
        f"{machine.lines} lines"
        if machine.evaluation == "lines"
        else f"{machine.ways} ways, cost {machine.cost}"
    )
    rows = [
        ("machine", f"{machine.id} — {machine.name}"),
        ("manufacturer", machine.manufacturer),
        ("version", machine.version),
        ("fingerprint", (certificate.get("machine") or {}).get("fingerprint")),
        ("game", game),
        ("credit", f"{machine.denomination} {machine.currency}"),
        *_spin_multiplier_row(machine),
        *_window_factor_rows(machine),
        ("certificate", ident.get("number")),
        ("issued (UTC)", ident.get("issued_utc")),
        ("lab", (ident.get("lab") or {}).get("name")),
        ("jurisdiction", jur.get("name") or jur.get("id")),
        ("minimum return", jur.get("min_rtp")),
        ("confidence", jur.get("confidence")),
        ("verdict", certificate.get("verdict")),
        ("exact method", certificate.get("exact_method")),
        ("contribution method", _method(certificate)),
        ("mode", plan.get("mode")),
        ("simulation spins per level", plan.get("spins")),
        ("seed", plan.get("seed")),
        ("tool", f"slotcert {(certificate.get('tool') or {}).get('version', '')}"),
    ]
    return Section("summary", "PAR sheet", ("item", "value"), rows)


def _options_section(certificate: dict[str, Any]) -> Section | None:
    """The free-spin options the player chooses from, each certified as its own return."""
    options = certificate.get("free_spin_options") or []
    if not options:
        return None
    rows = []
    for o in options:
        spins = ", ".join(f"{count}: {n}" for count, n in o["spins"].items())
        for lv in o["bet_levels"]:
            ex = lv.get("exact") or {}
            sim = lv.get("simulation") or {}
            rows.append(
                (
                    o["option"],
                    spins,
                    o["multiplier"],
                    lv["level"],
                    ex.get("rtp"),
                    ex.get("free_spins_rtp"),
                    ex.get("hit_frequency"),
                    ex.get("sigma"),
                    sim.get("rtp"),
                    lv.get("verdict"),
                    "yes" if o["governs"] else "no",
                )
            )
    return Section(
        "free_spin_options",
        "Free-spin options (the player chooses; the worst governs the verdict)",
        (
            "option",
            "spins by trigger count",
            "multiplier",
            "level",
            "rtp",
            "free_spins_rtp",
            "hit_frequency",
            "standard_deviation",
            "simulated_rtp",
            "verdict",
            "governs",
        ),
        rows,
        ("rtp", "free_spins_rtp", "hit_frequency", "simulated_rtp"),
    )


def _method(certificate: dict[str, Any]) -> str | None:
    for lv in certificate.get("bet_levels") or []:
        if lv.get("par"):
            return str(lv["par"].get("method"))
    return None


def par_sections(certificate: dict[str, Any], machine: Machine) -> list[Section]:
    """Every section of the PAR sheet, award tables one per bet level."""
    sections = [_summary(certificate, machine), _level_section(certificate)]
    rows = award_rows(certificate)
    for level in dict.fromkeys(r[0] for r in rows):
        sections.append(
            Section(
                f"awards_level_{level}",
                f"Awards at bet level {level}",
                AWARD_COLUMNS,
                [r for r in rows if r[0] == level],
                ("rtp_contribution", "cumulative_rtp", "certified_rtp"),
            )
        )
    sections += figure_sections(certificate)
    sections.append(_pay_table(machine))
    sections += _feature_sections(certificate, machine)
    sections += feature_table_sections(certificate)
    options = _options_section(certificate)
    if options is not None:
        sections.append(options)
    sections += _reel_sections(machine)
    return sections
