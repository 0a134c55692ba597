"""Banked player-vs-banker games: three-card poker and Mahjong Pai Kao.

Reads ``[deck]`` (poker) or ``[tiles]`` (Pai Kao), ``[rules]``, ``[[bets]]``
and the optional ``[capital]`` study, and turns a table into its hand space
(every hand of the deck with its key, see :mod:`certify.tables.hands`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from certify.codes import Code
from certify.model.reader import Reader, join
from certify.tables import hands as hk
from certify.tables.fields import array_of_tables, capital, commission, ratio, section
from certify.tables.schema import Bet, Game, Table

POKER_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
PAIKAO_FACES = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "white")
SEED_SEATS = {"three_card_poker": 8, "pai_kao": 10}
HAND_SIZE = {"three_card_poker": 3, "pai_kao": 2}


@dataclass(frozen=True)
class DuelSpace:
    """Every hand of a game's deck with its key and banker-advantage zero flag."""

    n_cards: int
    size: int
    hands: np.ndarray
    keys: np.ndarray
    zero: np.ndarray


def parse_duel(rd: Reader, data: dict[str, Any], game: Game) -> Table:
    """Read a three-card poker or Pai Kao file."""
    poker = game.kind == "three_card_poker"
    deck = _poker_deck(rd, data) if poker else _tiles(rd, data)
    rules = section(
        rd,
        data,
        "rules",
        ("commission", "banker_wins_zero"),
        () if poker else ("banker_wins_equal",),
    )
    seats = deck.pop("seats")
    if seats and seats != SEED_SEATS[game.kind]:
        rd.warn(
            "deck.seats" if poker else "tiles.seats",
            f"{seats} seats; the seed deals to {SEED_SEATS[game.kind]}",
            Code.SEATS,
        )
    bets = tuple(_bets(rd, array_of_tables(rd, data, "bets")))
    return Table(
        game=game,
        bets=bets,
        commission=commission(rd, rules),
        seats=seats,
        banker_wins_zero=rd.boolean(rules, "banker_wins_zero", "rules", True),
        banker_wins_equal=rd.boolean(rules, "banker_wins_equal", "rules", True),
        capital=capital(rd, data.get("capital"), seats),
        **deck,
    )


def _poker_deck(rd: Reader, data: dict[str, Any]) -> dict[str, Any]:
    t = section(rd, data, "deck", ("ranks", "suits", "figures", "seats"))
    ranks = _names(rd, t, "ranks", "deck", POKER_RANKS, ordered=False, code=Code.DECK)
    suits = _strings(rd, t.get("suits"), "deck.suits")
    if "suits" in t and (len(suits) != 4 or len(set(suits)) != 4):
        rd.error("deck.suits", f"must name 4 different suits, got {suits}", Code.DECK)
    figures = _strings(rd, t.get("figures"), "deck.figures")
    if "figures" in t and sorted(figures) != sorted(("J", "Q", "K")):
        rd.error(
            "deck.figures",
            f"must be J, Q and K (Portaria 14/96/M art. 6), got {figures}",
            Code.DECK,
        )
    if ranks and ranks != POKER_RANKS:
        rd.warn(
            "deck.ranks",
            f"order {ranks} differs from the annex (A lowest ... K highest)",
            Code.RANK_ORDER,
        )
    seats = rd.integer(t, "seats", "deck", 2) or 0
    if seats * 3 > 52:
        rd.error("deck.seats", f"{seats} seats need {seats * 3} cards; the deck has 52", Code.RANGE)
    return {"deck": ranks, "suits": tuple(suits), "seats": seats}


def _tiles(rd: Reader, data: dict[str, Any]) -> dict[str, Any]:
    t = section(rd, data, "tiles", ("faces", "copies", "seats"))
    faces = _names(rd, t, "faces", "tiles", PAIKAO_FACES, ordered=True, code=Code.TILES)
    copies = rd.integer(t, "copies", "tiles", 2) or 2
    if copies != 2:
        rd.warn(
            "tiles.copies",
            f"{copies} copies of each face; the seed has 20 tiles in 10 pairs (2 of each)",
            Code.TILES,
        )
    seats = rd.integer(t, "seats", "tiles", 2) or 0
    if seats * 2 > copies * 10:
        rd.error(
            "tiles.seats",
            f"{seats} seats need {seats * 2} tiles; there are {copies * 10}",
            Code.RANGE,
        )
    return {"deck": faces, "copies": copies, "seats": seats}


def _names(
    rd: Reader,
    t: dict[str, Any],
    key: str,
    path: str,
    known: tuple[str, ...],
    ordered: bool,
    code: Code,
) -> tuple[str, ...]:
    if key not in t:
        return ()
    values = _strings(rd, t[key], join(path, key))
    if sorted(values) != sorted(known) or (ordered and tuple(values) != known):
        rd.error(
            join(path, key),
            f"must be {', '.join(known)}{' in this order' if ordered else ''}, got {values}",
            code,
        )
        return ()
    return tuple(values)


def _strings(rd: Reader, raw: Any, where: str) -> list[str]:
    if raw is None:  # missing: reported by Reader.table
        return []
    if not isinstance(raw, list) or not all(isinstance(v, str) for v in raw):
        rd.error(where, f"must be an array of strings, got {raw!r}", Code.TYPE)
        return []
    return list(raw)


def _bets(rd: Reader, raw: list[Any]) -> list[Bet]:
    bets = []
    for i, spec in enumerate(raw):
        where = join("bets", i)
        t = rd.table(spec, where, ("name", "side", "pays"))
        name = rd.string(t, "name", where)
        side = rd.string(t, "side", where, ("player", "banker"))
        pays = ratio(rd, t.get("pays"), join(where, "pays")) if "pays" in t else None
        if name and side and pays is not None:
            if pays != 1:
                rd.warn(
                    join(where, "pays"),
                    f"{t['pays']!r}: the seeds pay even money",
                    Code.PAYS_DIFFER,
                )
            bets.append(Bet(name=name, type=side, pays=pays, side=side))
    return bets


def duel_space(table: Table) -> DuelSpace:
    """The hand space of a three-card poker or Pai Kao table."""
    if table.game.kind == "three_card_poker":
        n_cards = len(table.deck) * len(table.suits)
        hands = hk.all_hands(n_cards, 3)
        points, figure = hk.poker_card_arrays(table.deck, ("J", "Q", "K"), len(table.suits))
        keys, zero = hk.poker_keys(hands, points, figure)
    else:
        n_cards = len(table.deck) * table.copies
        hands = hk.all_hands(n_cards, 2)
        keys, zero = hk.paikao_keys(hands, table.copies)
    return DuelSpace(n_cards, hands.shape[1], hands, keys.astype(np.int64), zero)
