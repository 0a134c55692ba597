"""Jackpot ledger money to the cent: a sub-cent remainder is carried forward, never dropped.

Hand-made floor: one JACKPOT-5X3 at level 5 with a denomination of 0.025 EUR
a credit and its standalone "local-mega" at rate 0.01 (reset 150.00 EUR,
models/machines/jackpot-5x3.toml). Readings of ``progressive_contrib``
(credits): 0, 1625, 1635; ``coin_in`` 0, 162500, 163500 (rate x coin_in
matches, no finding).

By hand:

- day 1: 1625 x 0.025 = 40.625 EUR contributed; captive 150.00 + 40.625 =
  190.625: shown 190.62, 0.005 carried.
- the pool is won for 190.62 (what could be shown and paid) on day 1.5: the
  0.005 stays in the pool, which is seeded again with 150.00.
- day 2: 10 x 0.025 = 0.25 EUR more. Captive = seeded 300.00 +
  contributions 40.875 - paid 190.62 = 150.255: shown 150.25, 0.005 carried
  (the remainder of day 1, carried through the hit).
"""

from __future__ import annotations

import csv
import json
from decimal import Decimal

from testpaths import ROOT

from certify.cli import main
from meters.ledger import compute_ledger, load_book, read_hits, read_readings, shown_row, to_cents

MODEL = ROOT / "models" / "machines" / "jackpot-5x3.toml"


def files(tmp_path, hit: bool = True):
    floor = tmp_path / "floor.csv"
    floor.write_text(
        "machine_id,model,bet_level,denomination,jackpot_pools\n"
        f"A,{MODEL},5,0.025,local-mega=0.01\n",
        encoding="utf-8",
    )
    dump = tmp_path / "dump.csv"
    dump.write_text(
        "machine_id,read_at,coin_in,progressive_contrib\n"
        "A,2026-03-01T00:00:00+00:00,0,0\n"
        "A,2026-03-02T00:00:00+00:00,162500,1625\n"
        "A,2026-03-03T00:00:00+00:00,163500,1635\n",
        encoding="utf-8",
    )
    hits = tmp_path / "hits.csv"
    hits.write_text(
        "pool_id,machine_id,hit_at,amount\n"
        + ("local-mega,A,2026-03-02T12:00:00+00:00,190.62\n" if hit else ""),
        encoding="utf-8",
    )
    return floor, dump, hits


def test_to_cents_splits_exactly():
    assert to_cents(Decimal("40.625")) == (Decimal("40.62"), Decimal("0.005"))
    assert to_cents(Decimal("160.00")) == (Decimal("160.00"), Decimal("0.00"))
    assert to_cents(Decimal("-0.001")) == (Decimal("-0.01"), Decimal("0.009"))  # never negative


def test_remainder_carried_through_a_hit(tmp_path):
    floor, dump, hits = files(tmp_path)
    book = load_book(floor)
    readings, _, _ = read_readings([dump])
    ledger = compute_ledger(book, readings, read_hits(hits, book)[0], [])
    (row,) = ledger.rows
    assert row["captive"] == Decimal("150.255")  # exact, in memory
    assert row["contributions"] == Decimal("40.875")
    shown = shown_row(row)
    assert (shown["captive"], shown["remainder_carried"]) == (Decimal("150.25"), Decimal("0.005"))
    assert shown["seeded"] - shown["paid"] + shown["contributions"] == shown["captive"]
    assert shown["contributions"] == Decimal("40.87")  # 40.875 less the 0.005 carried
    assert ledger.remainder == Decimal("0.005")


def test_before_the_hit_the_pool_shows_its_cents(tmp_path):
    floor, dump, hits = files(tmp_path, hit=False)
    book = load_book(floor)
    readings, _, _ = read_readings([dump])
    from meters.ledger import as_time

    ledger = compute_ledger(book, readings, [], [], as_time("2026-03-02T00:00:00+00:00"))
    shown = shown_row(ledger.rows[0])
    assert (shown["captive"], shown["contributions"], shown["remainder_carried"]) == (
        Decimal("190.62"),
        Decimal("40.62"),
        Decimal("0.005"),
    )


def test_ledger_command_shows_cents_and_reports_the_remainder(tmp_path, capsys):
    floor, dump, hits = files(tmp_path)
    out = tmp_path / "out"
    args = ["jackpots", "ledger", str(dump), "--floor", str(floor), "--hits", str(hits)]
    assert main([*args, "--out", str(out)]) == 0
    (row,) = list(csv.DictReader((out / "ledger.csv").open(encoding="utf-8")))
    assert (row["captive"], row["contributions"], row["paid"], row["remainder_carried"]) == (
        "150.25",
        "40.87",
        "190.62",
        "0.005",
    )
    for key in ("seeded", "contributions", "paid", "captive", "reset"):
        assert len(row[key].split(".")[1]) == 2, (key, row[key])  # to the cent
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert (summary["captive_total"], summary["remainder_carried"]) == ("150.255", "0.005")
    assert "sub-cent remainder carried 0.005" in capsys.readouterr().out


def test_period_ledger_carries_the_remainder_from_period_to_period(tmp_path):
    """Daily periods of the floor above (readings at 00:00 UTC on 1, 2 and 3 March).

    By hand: period to 2 March: contributions 40.625 -> 40.62 shown, captive
    190.62, 0.005 carried. Period to 3 March: 0.005 carried in, 0.25
    contributed (10 credits x 0.025), the hit paid 190.62 and the pool seeded
    again (150.00): captive 150.255 -> 150.25 shown, 0.005 carried on; shown
    contributions 40.62 + 0.25 = 40.87 (the cumulative shown figure), and
    150.25 + 0.005 = 150.255 exactly.
    """
    floor, dump, hits = files(tmp_path)
    out = tmp_path / "out"
    args = ["jackpots", "ledger", str(dump), "--floor", str(floor), "--hits", str(hits)]
    assert main([*args, "--period", "D", "--out", str(out)]) == 0
    rows = list(csv.DictReader((out / "ledger-periods.csv").open(encoding="utf-8")))
    got = [
        (r["period_end"][:10], r["remainder_in"], r["contributions"], r["paid"], r["hits"])
        + (r["captive"], r["remainder_carried"])
        for r in rows
    ]
    assert got == [
        ("2026-03-02", "0.00", "40.62", "0.00", "0", "190.62", "0.005"),
        ("2026-03-03", "0.005", "0.25", "190.62", "1", "150.25", "0.005"),
    ]
    assert sum(Decimal(r["contributions"]) for r in rows) == Decimal("40.87")


def test_bad_period_is_a_usage_error(tmp_path, capsys):
    floor, dump, hits = files(tmp_path)
    args = ["jackpots", "ledger", str(dump), "--floor", str(floor), "--period", "M"]
    assert main([*args, "--out", str(tmp_path / "o")]) == 2
    assert "period='M'" in capsys.readouterr().err
