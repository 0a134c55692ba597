from decimal import Decimal

import numpy as np
import pytest

from meters.registry import BY_NAME, METERS, canonical, sas_header, to_credits, to_money


@pytest.mark.parametrize(
    "header, name",
    [
        ("coin_in", "coin_in"),
        ("COIN_IN", "coin_in"),
        ("0000", "coin_in"),
        ("sas_0001", "coin_out"),
        ("SAS:0002", "jackpot_handpaid"),
        ("0x0005", "games_played"),
        ("0006", "games_won"),
        ("0007", "games_lost"),
        ("0024", "coin_drop"),
        ("000b", "bills_in"),
        ("000B", "bills_in"),
        ("prizes_paid", "prizes_paid"),
        ("nonsense", None),
        ("0fff", None),
    ],
)
def test_headers_map_to_canonical_names(header, name):
    assert canonical(header) == name


def test_registry_is_consistent():
    names = [m.name for m in METERS]
    codes = [m.sas for m in METERS if m.sas]
    assert len(set(names)) == len(names) and len(set(codes)) == len(codes)
    assert all(m.unit in ("credits", "games") for m in METERS)
    for required in (
        "coin_in",
        "coin_out",
        "jackpot_handpaid",
        "prizes_paid",
        "coin_drop",
        "physical_coin_in",
        "coins_to_drop",
        "coins_to_hopper",
        "games_played",
        "games_won",
        "games_lost",
        "bills_in",
        "progressive_contrib",
        "progressive_paid",
    ):
        assert required in BY_NAME
    # the codes STANDARDS.md names
    assert {
        BY_NAME[n].sas
        for n in (
            "coin_in",
            "coin_out",
            "jackpot_handpaid",
            "games_played",
            "games_won",
            "games_lost",
            "coin_drop",
        )
    } == {"0000", "0001", "0002", "0005", "0006", "0007", "0024"}


def test_sas_header_round_trips():
    for m in METERS:
        assert canonical(sas_header(m.name)) == m.name


def test_money_conversion_is_exact():
    assert to_credits("12.35", "0.05") == 247
    assert to_credits(Decimal("1.00"), "0.01") == 100
    assert to_money(np.array([247]), 0.05)[0] == pytest.approx(12.35)
