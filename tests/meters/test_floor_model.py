"""One floor model read by one reader: the reconciler and the jackpot ledger agree on its rules."""

from __future__ import annotations

from decimal import Decimal

import pytest
from testpaths import ROOT

from certify.errors import InputError
from meters.floor import FloorRow, PoolEntry, load_floor, read_floor
from meters.ledger import load_book

DATA = ROOT / "tests" / "jackpots" / "data"
LINKS = ROOT / "models" / "links"
MODEL = ROOT / "models" / "machines" / "jackpot-5x3.toml"
HEAD = "machine_id,model,bet_level,denomination,jackpot_pools,theoretical_rtp,sigma,digits\n"


def write(tmp_path, body: str, name: str = "floor.csv"):
    path = tmp_path / name
    path.write_text(HEAD + body, encoding="utf-8")
    return path


def test_rows_are_typed(tmp_path):
    rows = read_floor(write(tmp_path, "A,,,0.05,local=0.01|link=0.005,0.92,5,8\n"))
    assert rows == [
        FloorRow(
            line=2,
            machine_id="A",
            model_ref="",
            model=None,
            bet_level=None,
            denomination=Decimal("0.05"),
            theoretical_rtp=Decimal("0.92"),
            sigma=Decimal("5"),
            pools=(PoolEntry("local", Decimal("0.01")), PoolEntry("link", Decimal("0.005"))),
            digits=8,
        )
    ]


def test_ledger_accepts_the_bar_separator_as_the_reconciler_does(tmp_path):
    """``|`` and ``;`` give the same book (the ledger's reader used to refuse ``|``)."""
    text = (DATA / "floor.csv").read_text(encoding="utf-8")
    text = text.replace("../../../models/", f"{ROOT}/models/").replace("tiny-", f"{DATA}/tiny-")
    (tmp_path / "semi.csv").write_text(text, encoding="utf-8")
    (tmp_path / "bars.csv").write_text(text.replace(";", "|"), encoding="utf-8")
    assert "|" in (tmp_path / "bars.csv").read_text(encoding="utf-8")
    semi = load_book(tmp_path / "semi.csv", [LINKS])
    bar = load_book(tmp_path / "bars.csv", [LINKS])
    assert len(semi.pools) == 7
    assert {k: p.rates for k, p in bar.pools.items()} == {k: p.rates for k, p in semi.pools.items()}


@pytest.mark.parametrize(
    "row, message",
    [
        ("3", "digits=3 must be in [4, 15]"),
        ("16", "digits=16 must be in [4, 15]"),
        ("x", "digits='x' is not a decimal number"),
    ],
)
def test_both_readers_check_the_digits_range(tmp_path, row, message):
    """The ledger's reader used to take an unusable ``digits`` as the default width."""
    floor = write(tmp_path, f"A,{MODEL},5,0.01,local-mega,,,{row}\n")
    for read in (load_floor, lambda p: load_book(p, [])):
        with pytest.raises(InputError) as info:
            read(floor)
        assert str(info.value) == f"{floor}: line 2: {message}"


@pytest.mark.parametrize(
    "row, message",
    [
        ("A,MODEL,5,0,local-mega", "denomination='0' must be a positive decimal"),
        (",MODEL,5,0.01,local-mega", "machine_id is empty"),
        ("A,MODEL,9,0.01,local-mega", "bet_level=9 is not one of"),
        ("A,nope.toml,5,0.01,local-mega", "model='nope.toml': no such model file"),
        ("A,MODEL,5,0.01,nope", "jackpot pool 'nope' is not a jackpot of model"),
        ("A,MODEL,5,0.01,local-mega=1.5", "each rate must be in [0, 1)"),
    ],
)
def test_both_readers_refuse_the_same_rows(tmp_path, row, message):
    floor = write(tmp_path, row.replace("MODEL", str(MODEL)) + ",,,\n")
    for read in (load_floor, lambda p: load_book(p, [])):
        with pytest.raises(InputError, match=r"floor\.csv: line 2: ") as info:
            read(floor)
        assert message in str(info.value)


def test_a_duplicate_machine_is_named_by_its_line(tmp_path):
    floor = write(tmp_path, f"A,{MODEL},5,0.01,local-mega,,,\nA,{MODEL},5,0.01,local-mega,,,\n")
    with pytest.raises(InputError, match=r"line 3: machine_id 'A' appears more than once"):
        load_book(floor, [])


def test_pool_rate_from_the_model(tmp_path):
    """``local-mega`` alone: the model's contribution (plus its reserve for the ledger)."""
    from certify.model import load_machine

    jp = next(j for j in load_machine(MODEL).jackpots if j.id == "local-mega")
    (row,) = read_floor(write(tmp_path, f"A,{MODEL},5,0.01,local-mega,,,\n"))
    assert row.pool_rate(row.pools[0]) == jp.contribution
    assert row.pool_rate(row.pools[0], reserve=True) == jp.contribution + jp.reserve_rate


def test_column_wise_floor_with_currency_equals_row_by_row(tmp_path, monkeypatch):
    """Oracle: the row-by-row reading of the same file (the fast path must agree, currency too)."""
    import pandas as pd

    import meters.floor as floor_module

    path = tmp_path / "floor.csv"
    path.write_text(
        HEAD.strip() + ",currency\nA,,,0.05,x=0.01|y=0.02,0.92,5,,EUR\nB,,,1,,0.9,3,12,\n",
        encoding="utf-8",
    )
    fast = load_floor(path)
    assert list(fast["currency"]) == ["EUR", ""]
    monkeypatch.setattr(floor_module, "_plain_floor", lambda raw, digits: None)
    pd.testing.assert_frame_equal(fast, load_floor(path), check_exact=True)


def test_a_model_row_takes_the_model_currency():
    from certify.model import load_machine

    (row,) = read_floor(DATA / "floor.csv", convert=None)[:1]
    assert row.currency == load_machine(MODEL).currency != ""
