"""State merging (:mod:`certify.exact.statedp`) equals the full cycle, bucket by bucket.

The independent reference is the full-cycle odometer
(:func:`certify.exact.cycle.walk_cycle`), which visits every stop combination
and shares no code with the state-merging kernels beyond scoring one spin's
scatter pays and its bucket. Integers (weights, credit sums, hits, award
counts) must be equal; sums of squares equal to float rounding.
"""

from __future__ import annotations

import numpy as np
import pytest
from bounds_models import as_ways, machine, three_reels
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rules import test_rules_property as rules_property
from testpaths import DATA, MACHINES

from certify.engine.kernel_inputs import reel_sets
from certify.engine.screens import is_screen_game
from certify.engine.tables import GameTables, compile_machine
from certify.exact import cycle, statedp
from certify.exact.factorised import ways_factorised
from certify.model.loader import load_machine

SHIPPED = sorted(p for p in MACHINES.glob("*.toml"))


def _pair(tables: GameTables, level_index: int, phase: int, capped: bool = True):
    lt = tables.levels[level_index]
    reels = reel_sets(tables)[0 if phase == 0 else len(reel_sets(tables)) - 1]
    score = cycle.spin_score(tables, lt, phase)
    if not capped:
        score = score._replace(cap=0)
    full = cycle.walk_cycle(tables, reels, lt, phase, score)
    *out, run = statedp.state_cycle(tables, reels, lt, phase, score)
    return full, cycle._buckets(tables, *out), run


def _assert_equal(full, merged) -> None:
    assert merged.total == full.total
    assert np.array_equal(merged.w, full.w)
    assert merged.wb == full.wb
    assert np.array_equal(merged.hit, full.hit)
    assert np.array_equal(merged.awards, full.awards)
    np.testing.assert_allclose(merged.wb2, full.wb2, rtol=1e-12, atol=0)


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_shipped_models_equal_full_cycle(path):
    """Every shipped model the full cycle plays (screen games excepted), base and free spins."""
    m = load_machine(path)
    if is_screen_game(m):
        pytest.skip("screen game: its own screen-by-screen enumeration")
    tables = compile_machine(m)
    for phase in (0, 1):
        full, merged, run = _pair(tables, 0, phase)
        _assert_equal(full, merged)
        assert run.states[0] == 1 and len(run.states) == m.reels


def test_compute_exact_same_figures_either_way(monkeypatch):
    """The reference game's whole exact result is the same by either method (figures to 1e-12)."""
    m = load_machine(MACHINES / "ref-5x3-20.toml")
    monkeypatch.setattr(statedp, "DP_FROM", 1 << 62)
    full = cycle.compute_exact(compile_machine(m))
    monkeypatch.setattr(statedp, "DP_FROM", 0)
    merged = cycle.compute_exact(compile_machine(m))
    assert full is not None and merged is not None
    assert (full.method, merged.method) == ("full-cycle", "state-merging")
    for a, b in zip(full.levels, merged.levels, strict=True):
        for name in ("rtp", "hit_frequency", "variance", "fs_probability", "line_rtp"):
            assert getattr(b, name) == pytest.approx(getattr(a, name), rel=1e-12)
        assert [x.probability for x in b.awards] == pytest.approx(
            [x.probability for x in a.awards], rel=1e-12
        )


def test_feasibility_judges_the_states(monkeypatch):
    """Beyond ``max_cycle`` stop combinations a merged game is judged on its transitions.

    classic-3r-1: 3 reels (the states after reels 1 and 2 are few), so a
    bound below its stop combinations but above the run's transitions accepts
    it; a bound below the transitions refuses it with the reason.
    """
    monkeypatch.setattr(statedp, "DP_FROM", 0)
    tables = compile_machine(load_machine(MACHINES / "classic-3r-1.toml"))
    size = cycle.enumerated_size(tables)
    assert cycle.exact_infeasible(tables, max_cycle=size // 2) is None
    work = tables.prefix_cache[("statedp", 0, 0, 0)][1].work
    assert work < size // 2
    tables = compile_machine(load_machine(MACHINES / "classic-3r-1.toml"))
    reason = cycle.exact_infeasible(tables, max_cycle=work - 1)
    assert reason is not None and "state-merging" in reason


@st.composite
def small_games(draw):
    """Random small lines or ways games: wilds (x2), a scatter that pays, free spins, a cap."""
    ways = draw(st.booleans())
    n_reels = draw(st.sampled_from([3, 4]))
    rows = draw(st.sampled_from([1, 2, 3] if ways else [1, 2]))
    alphabet = "ABWS"
    strips = [
        draw(st.lists(st.sampled_from(alphabet), min_size=1, max_size=5)) for _ in range(n_reels)
    ]
    weighted = draw(st.booleans())
    weights = [[draw(st.integers(1, 9)) for _ in s] for s in strips] if weighted else None
    pays = [(["A"] * 3, draw(st.integers(1, 20))), (["B"] * 3, draw(st.integers(1, 20)))]
    if n_reels > 3:
        pays.append((["A"] * n_reels, draw(st.integers(1, 50))))
    if not ways:
        pays.append((["B", "B"] + ["ANY"] * (n_reels - 2), draw(st.integers(1, 5))))
    symbols = {
        "A": {"kind": "regular"},
        "B": {"kind": "regular"},
        "W": {"kind": "wild", "multiplier": draw(st.sampled_from([1, 2]))},
        "S": {"kind": "scatter"},
    }
    lines = [[0] * n_reels]
    if rows == 2 and not ways:
        lines = draw(st.sampled_from([[[0] * n_reels], [[0] * n_reels, [1] * n_reels]]))
    extra: dict = {"scatter_pays": [{"symbol": "S", "count": 2, "pays": draw(st.integers(0, 3))}]}
    feature = draw(st.sampled_from(["none", "free", "cap"]))
    if feature == "free":
        extra["free_spins"] = {
            "trigger": {"symbol": "S", "count": 2},
            "spins": {"2": 3, "3": 5},
            "multiplier": 2,
        }
    elif feature == "cap":
        extra["rules"] = {"win_cap": draw(st.integers(1, 30))}
    data = three_reels(strips, weights, pays=pays, rows=rows, paylines=lines, symbols=symbols)
    data["machine"]["id"] = "RANDOM"
    if ways:
        as_ways(data)
    data.update(extra)
    return data


@settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(small_games())
def test_random_small_games_equal_full_cycle(data):
    """Lines or ways, 3-4 reels, weighted or not, wilds x1/x2, scatter, free spins or a cap."""
    tables = compile_machine(machine(data))
    for phase in (0, 1):
        for capped in (True, False):
            full, merged, _ = _pair(tables, 0, phase, capped)
            _assert_equal(full, merged)
    statedp.forget(tables)
    old = statedp.PARALLEL_FROM
    statedp.PARALLEL_FROM = 1  # every step split over two threads, the halves merged
    try:
        full, merged, _ = _pair(tables, 0, 0)
    finally:
        statedp.PARALLEL_FROM = old
    _assert_equal(full, merged)


def test_ways_kernel_settles_families_like_the_full_cycle():
    """A family's shorter entry pays only when its longer one does not (small_ways.toml)."""

    tables = compile_machine(load_machine(DATA / "small_ways.toml"))
    for phase in (0, 1):
        full, merged, _ = _pair(tables, 0, phase)
        _assert_equal(full, merged)


def _assert_factorised(tables: GameTables) -> None:
    """Per-reel factorisation == the full cycle: weights, credit sums, squares, award counts."""
    for phase in (0, 1):
        lt = tables.levels[0]
        reels = reel_sets(tables)[0 if phase == 0 else len(reel_sets(tables)) - 1]
        full = cycle.walk_cycle(tables, reels, lt, phase, cycle.spin_score(tables, lt, phase))
        fact = ways_factorised(tables, lt, phase)
        assert fact is not None
        assert fact.total == full.total
        assert fact.w == [int(x) for x in full.w]
        assert fact.wb == full.wb
        assert fact.awards == [int(x) for x in full.awards]
        np.testing.assert_allclose(np.array(fact.wb2, dtype=float), full.wb2, rtol=1e-12, atol=0)


@pytest.mark.parametrize("path", [DATA / "small_ways.toml", MACHINES / "ways-243.toml"], ids=str)
def test_ways_factorised_equals_full_cycle(path):
    _assert_factorised(compile_machine(load_machine(path)))


@settings(
    max_examples=40,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(small_games())
def test_random_ways_factorised_equals_full_cycle(data):
    """Random small ways games (lines games drawn are skipped; caps do not factorise)."""
    if data["reels"].get("evaluation") != "ways" or "rules" in data:
        return
    _assert_factorised(compile_machine(machine(data)))


def test_states_beyond_memory_fall_back_or_refuse(monkeypatch):
    """A state table beyond ``MAX_STATE_WORDS``: the full cycle if small, else a located refusal."""
    path = MACHINES / "classic-3r-1.toml"
    monkeypatch.setattr(statedp, "DP_FROM", 1 << 62)
    walked = cycle.compute_exact(compile_machine(load_machine(path)))
    monkeypatch.setattr(statedp, "DP_FROM", 0)
    monkeypatch.setattr(statedp, "MAX_STATE_WORDS", 1)
    fallen = cycle.compute_exact(compile_machine(load_machine(path)))
    assert walked is not None and fallen is not None
    assert [lv.rtp for lv in fallen.levels] == [lv.rtp for lv in walked.levels]
    tables = compile_machine(load_machine(path))
    reason = cycle.exact_infeasible(tables, max_cycle=10)
    assert reason is not None and "state words by reel" in reason


@settings(
    max_examples=40,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(rules_property.rule_games())
def test_rules_of_real_games_equal_full_cycle(m):
    """The rules of real games (SPEC 3.1a: wild multiplier modes, wilds-only lines, both ways,
    anywhere entries, exclusive scatters, win cap, free spins with unmultiplied entries)."""
    tables = compile_machine(m)
    for phase in (0, 1):
        for capped in (True, False):
            full, merged, _ = _pair(tables, len(tables.levels) - 1, phase, capped)
            _assert_equal(full, merged)


def test_certificate_names_the_method():
    """The certificate's ``exact_method``: state merging for the reference game, else the cycle."""
    from certify.batch import certify_machine
    from certify.model.jurisdiction import load_jurisdiction
    from reports.certificate import build_certificate

    pt = load_jurisdiction(MACHINES.parent / "jurisdictions" / "pt.toml")
    ref = build_certificate(certify_machine(load_machine(MACHINES / "ref-5x3-20.toml"), pt, 0, 1))
    assert ref["exact_method"] == "state-merging"
    small = build_certificate(certify_machine(load_machine(DATA / "tiny_lines.toml"), pt, 0, 1))
    assert small["exact_method"] == "full-cycle"
