"""The [cascade] and [[cluster_pays]] readers: values, defaults and located errors."""

from __future__ import annotations

import pytest
from test_cascade_hand import hand_machine

from certify.exact.screens import cascade_cycle_problem, check_cascade_cycle
from certify.model.reader import Reader
from certify.model.schema import Symbol
from certify.model.screens import (
    Cascade,
    ClusterPay,
    read_cascade,
    read_cluster_pays,
)

SYMBOLS = {
    "A": Symbol("A", "regular"),
    "W": Symbol("W", "wild", 1, ("A",)),
    "S": Symbol("S", "scatter"),
}


def test_read_cascade_values_and_defaults():
    rd = Reader("x.toml")
    c = read_cascade(rd, {"refill": "random", "multipliers": [1, 2, 5], "max_screens": 20})
    assert c == Cascade("random", (1, 2, 5), 20)
    assert c.multiplier(0) == 1 and c.multiplier(7) == 5
    assert read_cascade(rd, {"refill": "strip"}) == Cascade("strip", (1,), 50)
    assert read_cascade(rd, None) is None
    assert rd.problems == []


@pytest.mark.parametrize(
    ("raw", "path", "code"),
    [
        ({"refill": "gravity"}, "cascade.refill", "choice"),
        ({}, "cascade.refill", "missing_key"),
        ({"refill": "strip", "multipliers": []}, "cascade.multipliers", "type"),
        ({"refill": "strip", "multipliers": [1, 0]}, "cascade.multipliers[1]", "range"),
        ({"refill": "strip", "multipliers": [1.5]}, "cascade.multipliers[0]", "type"),
        ({"refill": "strip", "max_screens": 0}, "cascade.max_screens", "range"),
        ({"refill": "strip", "speed": 2}, "cascade.speed", "unknown_key"),
        ("strip", "cascade", "type"),
    ],
)
def test_read_cascade_errors(raw, path, code):
    rd = Reader("x.toml")
    read_cascade(rd, raw)
    assert [(p.path, p.code) for p in rd.errors] == [(path, code)]
    assert str(rd.errors[0]).startswith(f"x.toml: {path}: ")


def test_read_cluster_pays():
    rd = Reader("x.toml")
    raw = [{"symbol": "A", "size": 5, "pays": 2}, {"symbol": "W", "size": 3, "pays": 1}]
    assert read_cluster_pays(rd, raw, SYMBOLS) == (ClusterPay("A", 5, 2), ClusterPay("W", 3, 1))
    assert rd.problems == []


@pytest.mark.parametrize(
    ("raw", "path", "code"),
    [
        ([{"symbol": "Z", "size": 5, "pays": 1}], "cluster_pays[0].symbol", "unknown_symbol"),
        ([{"symbol": "S", "size": 5, "pays": 1}], "cluster_pays[0].symbol", "bad_kind"),
        ([{"symbol": "A", "size": 1, "pays": 1}], "cluster_pays[0].size", "range"),
        ([{"symbol": "A", "size": 3, "pays": 0}], "cluster_pays[0].pays", "range"),
        ([{"symbol": "A", "size": 3}], "cluster_pays[0].pays", "missing_key"),
        ([{"symbol": "A", "size": 3, "pays": 1, "x": 1}], "cluster_pays[0].x", "unknown_key"),
        (
            [{"symbol": "A", "size": 3, "pays": 1}, {"symbol": "A", "size": 3, "pays": 2}],
            "cluster_pays[1]",
            "duplicate",
        ),
        ([], "cluster_pays", "type"),
    ],
)
def test_read_cluster_pays_errors(raw, path, code):
    rd = Reader("x.toml")
    read_cluster_pays(rd, raw, SYMBOLS)
    assert [(p.path, p.code) for p in rd.errors] == [(path, code)]


def test_cluster_size_above_the_window_is_a_warning():
    rd = Reader("x.toml")
    read_cluster_pays(rd, [{"symbol": "A", "size": 10, "pays": 1}], SYMBOLS, cells=9)
    assert [(p.path, p.severity) for p in rd.problems] == [("cluster_pays[0].size", "warning")]


def test_cascade_cycle_check():
    assert check_cascade_cycle(hand_machine()) == 4
    assert cascade_cycle_problem(hand_machine(max_screens=4), "x.toml") is None
    problem = cascade_cycle_problem(hand_machine(max_screens=3), "x.toml")
    assert problem is not None
    assert str(problem) == (
        "x.toml: cascade.max_screens: a cycle of 4 screens exceeds 3; "
        "raise cascade.max_screens to 4"
    )


def test_screen_problems_name_what_is_not_played():
    import dataclasses

    from certify.engine.screens import screen_problems
    from certify.model.schema import Rules

    m = hand_machine()
    assert screen_problems(m) == []
    both = dataclasses.replace(m, rules=Rules(direction="both"))
    assert [p.path for p in screen_problems(both, "x.toml")] == ["rules.direction"]
    anywhere = dataclasses.replace(
        m, pays=(dataclasses.replace(m.pays[0], anywhere=True), m.pays[1])
    )
    assert [p.path for p in screen_problems(anywhere)] == ["pays[0].anywhere"]
    assert screen_problems(dataclasses.replace(m, cascade=None)) == []


def test_cycle_check_of_random_refill_and_endless_cascades():
    import dataclasses

    from games import lines_data, machine_of

    m = hand_machine()
    assert check_cascade_cycle(dataclasses.replace(m, cascade=Cascade("random", (1,), 5))) is None
    endless = machine_of(
        lines_data([["A"], ["A", "A"], ["A"]], 2, [[0, 0, 0]], [(["A", "A", "A"], 1)]),
        Cascade("strip", (1,), 5),
    )
    assert check_cascade_cycle(endless) == 10 * 5 + 100
    problem = cascade_cycle_problem(endless, "x.toml")
    assert problem is not None and problem.message == (
        "a cycle of at least 150 screens (it may never end) exceeds 5; "
        "change the strips so that every sequence ends"
    )
