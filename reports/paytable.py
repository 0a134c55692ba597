"""The pay-glass: what the machine must display to the player (Portaria 1441/95, n.º 10-13).

Machine identification, credit and bet values in money, every winning sequence
with its prize in credits and money at each bet level, scatter pays, free-spin
and bonus rules, how prizes are paid (by the machine, or by the cashier against
a voucher above the model's ``handpay_limit``) and the jackpot rules, in
Portuguese and in each of the model's ``instruction_languages``.

:func:`pay_glass` builds plain data; :func:`render_pay_glass` renders it to an
HTML fragment with the report's templates.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction

from certify.codes import Code
from certify.errors import ModelError
from certify.model.schema import (
    ANY,
    BigSymbol,
    Bonus,
    BonusStage,
    FullWindowPay,
    Jackpot,
    LadderStage,
    Machine,
    PayEntry,
    PickStage,
    WheelStage,
    pay_text,
)
from reports.translations import REFERENCE, Translation, missing_language, translation


@dataclass(frozen=True)
class Cell:
    """One prize at one bet level; ``handpaid`` when above the hand-pay limit."""

    text: str
    handpaid: bool = False


@dataclass(frozen=True)
class Row:
    """A winning sequence (its tokens) and its prize at each bet level."""

    sequence: tuple[str, ...]
    cells: tuple[Cell, ...]


@dataclass(frozen=True)
class Section:
    """A heading with paragraphs, an optional list and an optional prize table."""

    heading: str
    paragraphs: tuple[str, ...] = ()
    items: tuple[str, ...] = ()
    columns: tuple[str, ...] = ()
    rows: tuple[Row, ...] = ()


@dataclass(frozen=True)
class Glass:
    """The pay-glass in one language."""

    lang: str
    language_name: str
    title: str
    facts: tuple[tuple[str, str], ...]
    sections: tuple[Section, ...]
    footnotes: tuple[str, ...] = field(default=())


def glass_languages(machine: Machine) -> list[str]:
    """Portuguese first, then the machine's instruction languages, without repeats.

    Raises
    ------
    ModelError
        Naming ``machine.instruction_languages[i]`` for a language without a table.

    """
    problems = []
    for i, code in enumerate(machine.instruction_languages):
        try:
            translation(code)
        except ModelError as exc:
            if exc.problems and exc.problems[0].code == Code.NO_TRANSLATION:
                exc = ModelError(
                    [
                        missing_language(
                            code,
                            machine.source or machine.id,
                            f"machine.instruction_languages[{i}]",
                        )
                    ]
                )
            problems.extend(exc.problems)
    if problems:
        raise ModelError(problems)
    return list(dict.fromkeys((REFERENCE, *machine.instruction_languages)))


def pay_glass(machine: Machine) -> list[Glass]:
    """Build the pay-glass of ``machine`` in every language it must be shown in."""
    return [glass_in(machine, translation(code)) for code in glass_languages(machine)]


def render_pay_glass(machine: Machine) -> str:
    """Render the pay-glass as an HTML fragment (one ``<section>`` per language)."""
    from reports.templating import environment

    return environment().get_template("paytable.html.j2").render(glasses=pay_glass(machine))


def glass_in(machine: Machine, tr: Translation) -> Glass:
    """Build the pay-glass of ``machine`` in one language."""
    g = _Glass(machine, tr)
    sections = [g.bets()] + ([g.sequences()] if machine.pays else [])
    if machine.evaluation == "lines":
        sections.append(g.paylines())
    if machine.scatter_pays:
        sections.append(g.scatters())
    if machine.free_spins is not None:
        sections.append(g.free_spins())
    for name, _ in machine.bonus_laws:  # [bonus], then each [bonus_games] entry
        sections.append(g.bonus(name))
    features = g.features()
    if features.paragraphs or features.rows:
        sections.append(features)
    if machine.jackpots:
        sections.append(g.jackpots())
    sections.append(g.payment())
    facts = (
        (tr.t("machine_id"), machine.id),
        (tr.t("machine_name"), machine.name),
        (tr.t("manufacturer"), machine.manufacturer),
        (tr.t("denomination"), g.money(machine.denomination)),
    )
    notes = (tr.t("handpay_mark"),) if g.any_handpaid else ()
    return Glass(tr.code, tr.name, tr.t("title"), facts, tuple(sections), notes)


class _Glass:
    """Builds the sections of one language's pay-glass."""

    def __init__(self, machine: Machine, tr: Translation):
        self.m, self.tr = machine, tr
        exponent = machine.denomination.normalize().as_tuple().exponent
        self.places = max(2, -exponent if isinstance(exponent, int) else 2)
        self.any_handpaid = False

    def money(self, amount: Decimal) -> str:
        return self.tr.money(amount, self.m.currency, self.places)

    def credits_cell(self, credits: int) -> Cell:
        amount = self.m.denomination * credits
        limit = self.m.handpay_limit
        handpaid = limit is not None and amount > limit
        self.any_handpaid |= handpaid
        mark = " †" if handpaid else ""
        return Cell(
            self.tr.t("cell", credits=self.tr.number(credits), money=self.money(amount)) + mark,
            handpaid,
        )

    def level_columns(self) -> tuple[str, ...]:
        key = "column_level_lines" if self.m.evaluation == "lines" else "column_level_ways"
        return tuple(
            self.tr.t(key, level=lv, money=self.money(self.total_money(lv)))
            for lv in self.m.bet_levels
        )

    def total_money(self, level: int) -> Decimal:
        return self.m.denomination * self.m.total_bet(level)

    def bets(self) -> Section:
        m, tr = self.m, self.tr
        items = []
        for lv in m.bet_levels:
            values = {
                "level": lv,
                "credits": tr.number(m.total_bet(lv)),
                "money": self.money(self.total_money(lv)),
            }
            if m.evaluation == "lines":
                items.append(tr.t("bet_lines", lines=m.lines, **values))
            elif m.evaluation == "cluster":
                items.append(tr.t("bet_cluster", cost=m.cost, **values))
            else:
                items.append(tr.t("bet_ways", ways=m.ways, cost=m.cost, **values))
        return Section(tr.t("bet_values"), items=tuple(items))

    def sequences(self) -> Section:
        m, tr = self.m, self.tr
        rule = tr.t("rule_lines" if m.evaluation == "lines" else "rule_ways")
        paragraphs = [rule, *self.line_rules(), *self.wild_rules(), *self.group_rules()]
        rows = tuple(Row(self.marked(p), self.pay_cells(p)) for p in m.pays)
        return Section(
            tr.t("winning_sequences"),
            tuple(paragraphs),
            columns=(tr.t("sequence"), *self.level_columns()),
            rows=rows,
        )

    def pay_cells(self, entry: PayEntry) -> tuple[Cell, ...]:
        cells = []
        for k, lv in enumerate(self.m.bet_levels):
            jackpot = self.jackpot_for(entry.combo, lv)
            if jackpot is None:
                cells.append(self.credits_cell(entry.credits(k, lv)))
            elif jackpot.keep_pay:  # the prize and the pool
                paid, pool = self.credits_cell(entry.credits(k, lv)), self.jackpot_cell(jackpot)
                cells.append(Cell(f"{paid.text} + {pool.text}", paid.handpaid or pool.handpaid))
            else:
                cells.append(self.jackpot_cell(jackpot))
        return tuple(cells)

    def jackpot_for(self, combo: tuple[str, ...], level: int) -> Jackpot | None:
        for jackpot in self.m.jackpots:
            if jackpot.trigger_combo == combo and level >= (jackpot.min_bet_level or 0):
                return jackpot
        return None

    def jackpot_cell(self, jackpot: Jackpot) -> Cell:
        handpaid = self.jackpot_handpaid(jackpot)
        self.any_handpaid |= handpaid
        return Cell(self.tr.t("jackpot_cell", id=jackpot.id) + (" †" if handpaid else ""), handpaid)

    def jackpot_handpaid(self, jackpot: Jackpot) -> bool:
        limit = self.m.handpay_limit
        return limit is not None and jackpot.reset > limit

    def tokens(self, combo: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(self.tr.t("any_symbol") if tok == ANY else tok for tok in combo)

    def _full_window_shows(self, fw: FullWindowPay) -> str:
        """What a full-window entry needs, in words: the window or its reels, and the wilds."""
        symbol = self.tokens((fw.symbol,))[0]
        if fw.reels is None:
            shows = self.tr.t("full_window_all", symbol=symbol)
        else:
            reels = ", ".join(str(r) for r in fw.reels)
            shows = self.tr.t("full_window_reels", reels=reels, symbol=symbol)
        return shows + self.tr.t("full_window_wilds" if fw.wilds_count else "full_window_own")

    def marked(self, entry: PayEntry) -> tuple[str, ...]:
        """An entry's tokens, marked ◊ (anywhere on the line), ‡ (not multiplied in free spins)."""
        marks = ("◊" if entry.anywhere else "") + ("" if entry.free_spins_multiplier else "‡")
        tokens = self.tokens(entry.combo)
        return (*tokens[:-1], tokens[-1] + (" " + marks if marks else ""))

    def line_rules(self) -> list[str]:
        """The rules of real games (SPEC 3.1a) that change how lines pay, in words."""
        m, tr = self.m, self.tr
        out = []
        if m.rules.direction == "both":
            better = m.rules.both_ways == "better"
            out.append(tr.t("rule_both_ways_better" if better else "rule_both_ways"))
        if m.rules.line_pays == "longest":
            out.append(tr.t("rule_line_pays_longest"))
        if m.rules.leading_wilds == "one_kind":
            out.append(tr.t("rule_leading_wilds_one_kind"))
        if m.rules.pure_wild_line == "wild_award":
            out.append(tr.t("rule_wild_award"))
        for symbol in dict.fromkeys(e.combo[0] for e in m.pays if e.anywhere):
            out.append(tr.t("anywhere_rule", symbol=symbol))
        if any(not e.free_spins_multiplier for e in m.pays):
            out.append(tr.t("unmultiplied_rule"))
        if m.rules.win_cap is not None:
            out.append(tr.t("win_cap", cap=tr.number(m.rules.win_cap)))
        return out

    def wild_rules(self) -> list[str]:
        out = []
        key = {"max": "wild_multiplier_max", "sum": "wild_multiplier_sum"}.get(
            self.m.rules.wild_multiplier, "wild_multiplier"
        )
        for sym in self.m.symbols:
            if sym.kind != "wild":
                continue
            out.append(self.tr.t("wild", symbol=sym.name, members=", ".join(sym.substitutes)))
            if sym.multipliers:
                total = sum(w for _, w in sym.multipliers)
                values = ", ".join(f"x{v} ({100 * w / total:.2f}%)" for v, w in sym.multipliers)
                out.append(self.tr.t("wild_drawn", symbol=sym.name, values=values))
            elif sym.multiplier > 1:
                out.append(self.tr.t(key, symbol=sym.name, multiplier=sym.multiplier))
        return out

    def group_rules(self) -> list[str]:
        used = {tok for p in self.m.pays for tok in p.combo}
        return [
            self.tr.t("group", name=name, members=", ".join(members))
            for name, members in self.m.groups
            if name in used
        ]

    def paylines(self) -> Section:
        first: dict[tuple[int, ...], int] = {}
        items = []
        for i, line in enumerate(self.m.paylines):
            rows = "-".join(str(r + 1) for r in line)
            if line in first:  # bet.duplicate_lines = "allow": the copy pays too
                items.append(
                    self.tr.t("payline_repeat", number=i + 1, rows=rows, first=first[line])
                )
            else:
                first[line] = i + 1
                items.append(self.tr.t("payline", number=i + 1, rows=rows))
        return Section(self.tr.t("paylines"), items=tuple(items))

    def scatters(self) -> Section:
        tr, m = self.tr, self.m
        symbols = list(dict.fromkeys(s.symbol for s in m.scatter_pays))
        counts = {sym: [s.count for s in m.scatter_pays if s.symbol == sym] for sym in symbols}
        rows = tuple(
            Row(
                (self.count_label(s.symbol, s.count, counts[s.symbol]),),
                tuple(self.credits_cell(s.credits(m.scatter_bet(lv))) for lv in m.bet_levels),
            )
            for s in m.scatter_pays
        )
        rule = "scatter_rule_line_bet" if m.rules.scatter_unit == "line_bet" else "scatter_rule"
        paragraphs = [tr.t(rule, symbol=s) for s in symbols]
        paragraphs += self.counting_rules(symbols)
        if m.rules.exclusive_scatters:
            paragraphs.append(
                tr.t("exclusive_scatters", symbols=", ".join(m.rules.exclusive_scatters))
            )
        return Section(
            tr.t("scatter_pays"),
            tuple(paragraphs),
            columns=(tr.t("sequence"), *self.level_columns()),
            rows=rows,
        )

    def count_label(self, symbol: str, count: int, counts: list[int]) -> str:
        """``N or more SC`` for the highest count, else ``N SC`` or ``N to M SC`` up to the next."""
        if count >= max(counts):
            return self.tr.t("scatter_sequence", count=count, symbol=symbol)
        last = min(c for c in counts if c > count) - 1
        if last > count:
            return self.tr.t("scatter_sequence_range", count=count, last=last, symbol=symbol)
        return self.tr.t("scatter_sequence_exact", count=count, symbol=symbol)

    def counting_rules(self, names: list[str]) -> list[str]:
        """How each symbol is counted, where not on every cell: its reels, wilds counting."""
        out = []
        for name in names:
            sym = self.m.symbol(name)
            if sym.reels:
                reels = ", ".join(str(r) for r in sym.reels)
                out.append(self.tr.t("counted_on_reels", symbol=name, reels=reels))
            if sym.wilds_count:
                out.append(self.tr.t("wilds_count_as", symbol=name))
            if sym.consecutive:
                out.append(self.tr.t("counted_consecutive", symbol=name, least=sym.consecutive))
            if sym.kind in ("regular", "wild") and not sym.scatter:  # a count pay
                entries = [s for s in self.m.scatter_pays if s.symbol == name]
                free_only = all(s.pays == 0 and s.free_spins_pays is not None for s in entries)
                key = "count_pays_free_spins" if free_only else "count_pays"
                out.append(self.tr.t(key, symbol=name))
            for double in self.m.symbols:
                if double.counts_as is not None and double.counts_as[0] == name:
                    times = double.counts_as[1]
                    out.append(self.tr.t("counts_as", double=double.name, times=times, symbol=name))
        return out

    def free_spins_pays(self) -> str:
        """``A A A: 50; 3 S: 5 x total bet`` for the entries that pay otherwise in free spins."""
        m, tr = self.m, self.tr
        items = [
            tr.t("free_spins_pay", sequence=" ".join(self.tokens(e.combo)), pays=e.free_spins_pays)
            for e in m.pays
            if e.free_spins_pays is not None
        ]
        unit = "_line_bet" if m.rules.scatter_unit == "line_bet" else ""
        items += [
            tr.t(
                "free_spins_scatter_pay" + unit,
                sequence=self.count_label(
                    s.symbol, s.count, [x.count for x in m.scatter_pays if x.symbol == s.symbol]
                ),
                pays=pay_text(s.free_pays),
            )
            for s in m.scatter_pays
            if s.free_spins_pays is not None
        ]
        return "; ".join(items)

    def spin_awards(self, table: tuple[tuple[int, int], ...], symbol: str = "") -> str:
        """``3 SC: 10 free spins; 4 or more SC: 15 free spins`` for a spins-by-count table.

        The counts are of ``symbol`` (the trigger's by default).
        """
        fs = self.m.free_spins
        assert fs is not None
        counts = [c for c, _ in table]
        return "; ".join(
            self.tr.t(
                "free_spins_award" if s else "free_spins_award_none",
                spins=s,
                sequence=self.count_label(symbol or fs.trigger.symbol, c, counts),
            )
            for c, s in table
        )

    def free_spins(self) -> Section:
        tr, fs = self.tr, self.m.free_spins
        assert fs is not None
        awards = self.spin_awards(fs.spins)
        text = [
            tr.t(
                "free_spins_trigger",
                count=fs.trigger.count,
                symbol=fs.trigger.symbol,
                awards=awards,
            )
        ]
        if fs.options:
            choices = [
                tr.t("free_spins_option", spins=o.spins[0][1], multiplier=o.multiplier)
                for o in fs.options
            ]
            key = "free_spins_options"
            if fs.options_drawn:
                total = sum(o.weight or 0 for o in fs.options)
                choices = [
                    tr.t("free_spins_option_drawn", option=c, weight=o.weight, total=total)
                    for c, o in zip(choices, fs.options, strict=True)
                ]
                key = "free_spins_options_drawn"
            text = [
                tr.t(
                    "free_spins_trigger",
                    count=fs.trigger.count,
                    symbol=fs.trigger.symbol,
                    awards=tr.t(key, options="; ".join(choices)),
                )
            ]
        elif fs.multipliers:
            values = self.drawn_values(fs.multipliers)
            text.append(tr.t("free_spins_multiplier_drawn", multipliers=values))
        elif fs.multiplier_by_count:
            counts = [c for c, _ in fs.multiplier_by_count]
            values = "; ".join(
                tr.t(
                    "free_spins_multiplier_award",
                    sequence=self.count_label(fs.trigger.symbol, c, counts),
                    multiplier=v,
                )
                for c, v in fs.multiplier_by_count
            )
            text.append(tr.t("free_spins_multiplier_by_count", multipliers=values))
        elif fs.multiplier > 1:
            text.append(tr.t("free_spins_multiplier", multiplier=fs.multiplier))
        retrigger = "free_spins_retrigger_once" if fs.retrigger_once else "free_spins_retrigger"
        text.append(tr.t(retrigger if fs.retrigger else "free_spins_no_retrigger"))
        if fs.trigger.symbol not in {s.symbol for s in self.m.scatter_pays}:
            text += self.counting_rules([fs.trigger.symbol])
        free_pays = self.free_spins_pays()
        if free_pays:
            text.append(tr.t("free_spins_pays", prizes=free_pays))
        if fs.retrigger_spins:
            text.append(
                tr.t(
                    "free_spins_retrigger_awards",
                    awards=self.spin_awards(fs.retrigger_spins, fs.retriggered_by),
                )
            )
        if fs.max_spins is not None:
            text.append(tr.t("free_spins_max", spins=fs.max_spins))
        if fs.strips is not None:
            text.append(tr.t("free_spins_strips"))
        if fs.big_symbol is not None:
            big = fs.big_symbol
            covered = ", ".join(str(r) for r in big.reels)
            shown = ", ".join(dict.fromkeys(big.strip))
            text.append(tr.t("big_symbol", reels=covered, symbols=shown))
            text += self.big_symbol_rules(big)
        return Section(tr.t("free_spins"), tuple(text))

    def big_symbol_rules(self, big: BigSymbol) -> list[str]:
        """The big symbols covering fewer reels, and the cells some show, in words."""
        text = []
        by_cover: dict[int, list[str]] = {}
        for name, n in big.covers:
            by_cover.setdefault(n, []).append(name)
        for n, names in sorted(by_cover.items()):
            reels = ", ".join(str(r) for r in big.reels[:n])
            text.append(self.tr.t("big_symbol_covers", symbols=", ".join(names), reels=reels))
        for name, cells in big.columns:
            text.append(self.tr.t("big_symbol_column", symbol=name, cells=", ".join(cells)))
        return text

    def spin_multiplier(self) -> list[str]:
        """The multiplier each paid spin draws (``[rules] spin_multiplier``), in words."""
        table = self.m.rules.spin_multipliers
        if not table:
            return []
        return [self.tr.t("spin_multiplier_drawn", multipliers=self.drawn_values(table))]

    def drawn_values(self, table: tuple[tuple[int, int], ...]) -> str:
        """``x1 (24 in 27); x3 (1 in 27)`` for a table of value = weight drawn by weight."""
        total = sum(w for _, w in table)
        return "; ".join(
            self.tr.t("free_spins_option_drawn", option=f"x{v}", weight=w, total=total)
            for v, w in table
        )

    def window_factors(self) -> list[str]:
        """The symbols that multiply the game by what the reels show, in words."""
        tr, out = self.tr, []
        for s in self.m.symbols:
            if s.window_multiplier != 1:
                out.append(tr.t("window_multiplier", symbol=s.name, multiplier=s.window_multiplier))
            table = s.full_reel_multipliers
            if len(table) == 1:
                out.append(tr.t("full_reel_multiplier", symbol=s.name, multiplier=table[0][0]))
            elif table:
                values = self.drawn_values(table)
                out.append(tr.t("full_reel_multiplier_drawn", symbol=s.name, multipliers=values))
            if s.paints is not None:
                p = s.paints
                reels = ", ".join(str(r) for r in p.reels)
                offsets = {k: getattr(p, k) for k in ("left", "right", "up", "down")}
                out.append(tr.t("paints", symbol=s.name, reels=reels, into=p.into, **offsets))
        return out

    def symbol_rules(self) -> list[str]:
        """What each symbol does to the window (expands, a wild scatter, sticky), in words."""
        tr = self.tr
        text: list[str] = []
        for s in self.m.symbols:
            if s.expands:
                key = "expands" if s.expands == "always" else "expands_free_spins"
                text.append(tr.t(key, symbol=s.name))
            if s.expands_chance is not None:
                k, n = s.expands_chance
                text.append(tr.t("expands_chance", symbol=s.name, k=k, n=n))
            for key in ("scatter", "wild_in_free_spins", "sticky"):
                if getattr(s, key):
                    text.append(tr.t("wild_scatter" if key == "scatter" else key, symbol=s.name))
        return text

    def features(self) -> Section:
        """The window features and the features over several screens, in words."""
        m, tr = self.m, self.tr
        text = self.symbol_rules()
        text += self.spin_multiplier()
        text += self.window_factors()
        fs = m.free_spins
        if fs is not None and fs.expanding_symbol:
            names = ", ".join(name for name, _ in fs.expanding_symbol)
            text.append(tr.t("expanding_symbol", symbols=names))
        for fw in m.full_window_pays:
            shows = self._full_window_shows(fw)
            if fw.jackpot and fw.multiplier == 0:
                text.append(tr.t("full_window_pool_only", shows=shows, jackpot=fw.jackpot))
                continue
            key = "full_window" if m.cascade is None else "full_window_screen"
            text.append(tr.t(key, shows=shows, multiplier=fw.multiplier))
            if fw.jackpot:
                text.append(tr.t("full_window_pool", jackpot=fw.jackpot))
        if m.heights is not None:
            sizes = [n for reel in m.heights for n, _ in reel]
            text.append(tr.t("heights", low=min(sizes), high=max(sizes)))
        if m.cascade is not None:
            mults = ", ".join(f"x{k}" for k in m.cascade.multipliers)
            text.append(tr.t("cascade", multipliers=mults))
            if m.cascade.trigger_vanishes and m.free_spins is not None:
                t = m.free_spins.trigger
                text.append(tr.t("cascade_trigger_vanishes", count=t.count, symbol=t.symbol))
            chain = m.cascade.chain_pays
            for i, (screens, pays) in enumerate(chain):
                last = i == len(chain) - 1
                text.append(
                    tr.t("chain_pays_more" if last else "chain_pays", screens=screens, pays=pays)
                )
        hs = m.hold_and_spin
        if hs is not None:
            text.append(
                tr.t(
                    "hold_and_spin",
                    count=hs.trigger.count,
                    symbol=hs.trigger.symbol,
                    respins=hs.respins,
                )
            )
            if hs.full_window:
                text.append(tr.t("hold_full", jackpot=hs.full_window))
            if hs.jackpots:
                prizes = ", ".join(f"{name} {tr.number(x)} x" for name, x in hs.jackpots)
                text.append(tr.t("hold_jackpots", prizes=prizes))
        rows: tuple[Row, ...] = ()
        if m.evaluation == "cluster":
            text.insert(0, tr.t("cluster_rule"))
            rows = tuple(
                Row(
                    (tr.t("cluster_sequence", size=c.size, symbol=c.symbol),),
                    tuple(self.credits_cell(c.pays * m.total_bet(lv)) for lv in m.bet_levels),
                )
                for c in m.cluster_pays
            )
        columns = (tr.t("sequence"), *self.level_columns()) if rows else ()
        return Section(tr.t("features"), tuple(text), columns=columns, rows=rows)

    def bonus(self, name: str = "") -> Section:
        """A bonus game (``name``: a ``[bonus_games]`` entry, "" ``[bonus]``), what plays it."""
        tr, m = self.tr, self.m
        bonus = dict(m.bonus_laws)[name]
        line = bonus.unit == "line_bet"
        starts = []
        for e in m.pays:
            if e.bonus and e.bonus_game == name:
                key = "bonus_line_start_free" if m.free_spins_show(e.combo) else "bonus_line_start"
                key += "_times" if e.bonus_plays > 1 else ""
                starts.append(tr.t(key, combo=" ".join(e.combo), times=e.bonus_plays))
        for sp in m.scatter_pays:
            if sp.bonus and sp.bonus_game == name:
                key = "bonus_scatter_start" + ("_times" if sp.bonus_plays > 1 else "")
                starts.append(tr.t(key, count=sp.count, symbol=sp.symbol, times=sp.bonus_plays))
        title = tr.t("bonus_named", name=name) if name else tr.t("bonus")
        if bonus.stages:
            return Section(title, (*starts, *self.bonus_game_rules(bonus)))
        law = m.bonus_law(name)
        rows = tuple(
            Row(
                (tr.t("bonus_award_line" if line else "bonus_award", pays=a),),
                tuple(self.credits_cell(a * m.law_bet(law, lv)) for lv in m.bet_levels),
            )
            for a in sorted({award.pays for award in bonus.awards})
        )
        if bonus.trigger is not None:
            key = "bonus_trigger_line" if line else "bonus_trigger"
            text = [tr.t(key, count=bonus.trigger.count, symbol=bonus.trigger.symbol)]
        else:
            text = [tr.t("bonus_prizes_line" if line else "bonus_prizes")]
        return Section(
            title,
            (*starts, *text),
            columns=(tr.t("award"), *self.level_columns()),
            rows=rows,
        )

    def bonus_game_rules(self, bonus: Bonus) -> list[str]:
        """The bonus game's rules, stage by stage, then its largest and average prize."""
        tr = self.tr
        unit = tr.t("bonus_unit_line" if bonus.unit == "line_bet" else "bonus_unit_total")
        t = bonus.trigger
        if t is not None:
            out = [tr.t("bonus_game", count=t.count, symbol=t.symbol, unit=unit)]
        else:
            out = [tr.t("bonus_game_rules", unit=unit)]
        for stage in bonus.stages:
            out += self.bonus_stage_rules(stage)
        total = sum(a.weight for a in bonus.awards)
        mean = Fraction(sum(a.pays * a.weight for a in bonus.awards), total)
        largest = max(a.pays for a in bonus.awards)
        shown = Decimal(mean.numerator) / Decimal(mean.denominator)
        out.append(
            tr.t("bonus_largest", pays=tr.number(largest), mean=tr.number(shown, 2), unit=unit)
        )
        return out

    def bonus_stage_rules(self, stage: BonusStage) -> list[str]:
        """One stage of a bonus game in the player's words."""
        tr = self.tr
        if isinstance(stage, PickStage):
            prizes = ", ".join(tr.number(p) for p in stage.prizes if p is not None)
            stops = stage.prizes.count(None)
            if stage.picks is None:
                out = [tr.t("bonus_pick_until", prizes=prizes, stops=stops)]
            else:
                out = [tr.t("bonus_pick", picks=stage.picks, prizes=prizes)]
                out += [tr.t("bonus_pick_stop")] if stops else []
            if stage.safe:
                one = stage.safe == 1
                out.append(
                    tr.t("bonus_pick_safe_one" if one else "bonus_pick_safe", safe=stage.safe)
                )
            if stage.match_multiplier > 1:
                out.append(tr.t("bonus_pick_match", multiplier=stage.match_multiplier))
            return out
        if isinstance(stage, WheelStage):
            total = sum(s.weight for s in stage.segments)
            segments = ", ".join(
                tr.t(
                    "bonus_segment_again" if s.again else "bonus_segment",
                    pays=tr.number(s.pays),
                    again=s.again,
                    weight=s.weight,
                    total=total,
                )
                for s in stage.segments
            )
            key = "bonus_wheel_one" if stage.spins == 1 else "bonus_wheel"
            out = [tr.t(key, spins=stage.spins, segments=segments)]
            if stage.max_spins is not None and stage.max_spins > stage.spins:
                out.append(tr.t("bonus_wheel_cap", max_spins=stage.max_spins))
            return out
        if isinstance(stage, LadderStage):
            total = stage.climb + stage.collect + stage.lose
            return [
                tr.t(
                    "bonus_ladder" if stage.lose else "bonus_ladder_safe",
                    rungs=", ".join(tr.number(r) for r in stage.rungs),
                    climb=stage.climb,
                    collect=stage.collect,
                    lose=stage.lose,
                    total=total,
                )
            ]
        total = sum(w for _, w in stage.values)
        values = ", ".join(
            tr.t("bonus_multiplier_value", multiplier=v, weight=w, total=total)
            for v, w in stage.values
        )
        return [tr.t("bonus_multiplier", values=values)]

    def jackpots(self) -> Section:
        return Section(
            self.tr.t("jackpots"), tuple(p for j in self.m.jackpots for p in self.jackpot_rules(j))
        )

    def jackpot_rules(self, j: Jackpot) -> list[str]:
        tr = self.tr
        values = {"id": j.id, "rate": tr.percent(j.contribution), "reset": self.money(j.reset)}
        if j.kind == "linked":
            out = [tr.t("jackpot_linked", link=j.link or j.id, **values)]
        else:
            out = [tr.t("jackpot_standalone", **values)]
        if j.cap is not None:
            out.append(tr.t("jackpot_cap", cap=self.money(j.cap)))
        if j.mystery is not None:
            out.append(tr.t("jackpot_mystery"))
        elif j.trigger_combo is not None:
            key = "jackpot_combo_kept" if j.keep_pay else "jackpot_combo"
            out.append(tr.t(key, combo=" ".join(self.tokens(j.trigger_combo))))
        hs = self.m.hold_and_spin
        if hs is not None and j.id in hs.jackpot_names():
            out.append(tr.t("jackpot_hold", id=j.id))
        if j.min_bet_level is not None:
            out.append(
                tr.t(
                    "jackpot_min_level",
                    level=j.min_bet_level,
                    money=self.money(self.total_money(j.min_bet_level)),
                )
            )
        if self.jackpot_handpaid(j):
            out.append(tr.t("jackpot_payment"))
        return out

    def payment(self) -> Section:
        tr, limit = self.tr, self.m.handpay_limit
        text = [tr.t("pay_machine")]
        if limit is not None:
            text.append(tr.t("pay_cashier_limit", limit=self.money(limit)))
        else:
            text.append(tr.t("pay_cashier_default"))
        text.append(tr.t("records"))
        return Section(tr.t("payment"), tuple(text))
