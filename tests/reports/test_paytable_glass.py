"""The pay-glass: money at each bet level, payment rules, languages (PT always)."""

from __future__ import annotations

import dataclasses
import string
import tomllib
from decimal import Decimal

import pytest

from certify.errors import ModelError
from certify.model.schema import Jackpot, ScatterPay
from reports.paytable import glass_languages, pay_glass, render_pay_glass
from reports.translations import I18N_DIR, available_languages, translation

NBSP = "\u00a0"


def _texts(glass) -> str:
    parts = [glass.title, *(f"{a}: {b}" for a, b in glass.facts), *glass.footnotes]
    for s in glass.sections:
        parts += [s.heading, *s.paragraphs, *s.items, *s.columns]
        parts += [
            " ".join(r.sequence) + " | " + " | ".join(c.text for c in r.cells) for r in s.rows
        ]
    return "\n".join(parts)


def test_portuguese_first_then_instruction_languages(small_machine):
    assert glass_languages(small_machine) == ["pt", "en"]
    both = dataclasses.replace(small_machine, instruction_languages=("es", "pt", "en"))
    assert glass_languages(both) == ["pt", "es", "en"]


def test_missing_language_is_a_clear_error(small_machine):
    klingon = dataclasses.replace(small_machine, instruction_languages=("en", "tlh"))
    with pytest.raises(ModelError) as err:
        pay_glass(klingon)
    (problem,) = err.value.problems
    assert problem.path == "machine.instruction_languages[1]"
    assert "'tlh'" in problem.message and "reports/i18n/tlh.toml" in problem.message


@pytest.mark.parametrize("code", ["../pt", "PT", ""])
def test_language_code_cannot_reach_outside_the_tables(code):
    with pytest.raises(ModelError):
        translation(code)


@pytest.mark.parametrize("code", available_languages())
def test_every_table_is_complete(code):
    tr = translation(code)
    reference = tomllib.loads((I18N_DIR / "pt.toml").read_text(encoding="utf-8"))["text"]
    assert set(tr.text) == set(reference)
    for key, text in tr.text.items():
        assert _fields(text) == _fields(reference[key]), key


def _fields(text: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(text) if f}


def test_prizes_in_credits_and_money_at_each_level(small_machine):
    pt, en = pay_glass(small_machine)
    text_pt, text_en = _texts(pt), _texts(en)
    assert "Número de identificação: TEST-3X3-5" in text_pt
    assert "Valor do crédito: 0,05 EUR" in text_pt
    assert "5 linhas × 5 créd. por linha = 25 créd. = 1,25 EUR" in text_pt
    assert "A A A | 50 créd. = 2,50 EUR | 100 créd. = 5,00 EUR | 250 créd. = 12,50 EUR" in text_pt
    assert (
        f"CH CH CH | 100 créd. = 5,00 EUR | 200 créd. = 10,00 EUR | 1{NBSP}000 créd. = "
        f"50,00 EUR" in text_pt
    )
    assert "CH CH any | 3 cr. = 0.15 EUR | 6 cr. = 0.30 EUR | 15 cr. = 0.75 EUR" in text_en
    assert "3 or more SC | 25 cr. = 1.25 EUR" in text_en


def test_jackpot_replaces_its_combo_from_its_min_level(small_machine):
    _, en = pay_glass(small_machine)
    text = _texts(en)
    assert "W W W | 500 cr. = 25.00 EUR | 1,000 cr. = 50.00 EUR | jackpot “super-lisboa” †" in text
    assert "Only awarded at bet level 5 or higher (1.25 EUR or more per spin)." in text
    assert "1% of the amounts played" in text and "Maximum prize: 5,000.00 EUR." in text


def test_hand_pay_above_the_limit(small_machine):
    pt, _ = pay_glass(small_machine)
    text = _texts(pt)
    assert "Os prémios de valor superior a 100,00 EUR são pagos pelo caixa da sala" in text
    assert f"2{NBSP}500 créd. = 125,00 EUR †" in text
    assert "† pago pelo caixa da sala, mediante guia." in text
    no_limit = dataclasses.replace(small_machine, handpay_limit=None)
    text = _texts(pay_glass(no_limit)[0])
    assert "†" not in text
    assert "Quando o valor de um prémio não permita o pagamento pela máquina" in text


def test_only_the_highest_count_reads_or_more(small_machine):
    """A count with the next key above it reads ``N SC``; a gap before the next key
    reads ``N to M SC`` (4 SC award the 3-count's 8 spins: "the largest key at or
    below the count"), and an award of 0 reads "no more free spins"."""
    scatters = (ScatterPay("SC", 3, 2), ScatterPay("SC", 4, 10), ScatterPay("SC", 5, 50))
    fs = dataclasses.replace(small_machine.free_spins, spins=((3, 8), (5, 20)))
    machine = dataclasses.replace(small_machine, scatter_pays=scatters, free_spins=fs)
    text = _texts(pay_glass(machine)[1])
    assert "\n3 SC | 10 cr." in text and "\n4 SC | 50 cr." in text
    assert "\n5 or more SC | 250 cr." in text
    assert "3 to 4 SC: 8 free spins; 5 or more SC: 20 free spins." in text
    fs = dataclasses.replace(fs, retrigger=True, retrigger_spins=((0, 1), (2, 0)))
    text = _texts(pay_glass(dataclasses.replace(machine, free_spins=fs))[1])
    assert "A retrigger adds: 0 to 1 SC: 1 free spins; 2 or more SC: no more free spins." in text


def test_standalone_mystery_jackpot_and_ways_game(small_machine):
    jackpot = Jackpot(
        id="mini",
        kind="standalone",
        contribution=Decimal("0.0125"),
        reset=Decimal("50.00"),
        mystery=Decimal("1e-6"),
    )
    ways = dataclasses.replace(
        small_machine,
        evaluation="ways",
        lines=None,
        paylines=(),
        ways=27,
        cost=10,
        jackpots=(jackpot,),
        free_spins=None,
        bonus=None,
        scatter_pays=(),
    )
    pt, en = pay_glass(ways)
    text = _texts(en)
    assert "27 ways: 5 × 10 cr. = 50 cr. = 2.50 EUR" in text
    assert "level 5 (bet 2.50 EUR)" in text and "Amounts shown are per way." in text
    assert "1.25% of the amounts played on this machine" in text
    assert "(mystery jackpot)" in text and "Paylines" not in text
    assert "1,25%" in _texts(pt)


def test_fragment_renders_and_escapes(small_machine):
    evil = dataclasses.replace(small_machine, id="<b>X</b>")
    html = render_pay_glass(evil)
    assert html.count('<section class="glass"') == 2
    assert "<b>X</b>" not in html and "&lt;b&gt;X&lt;/b&gt;" in html
