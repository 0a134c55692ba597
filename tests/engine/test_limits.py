"""Nothing wraps: every bound of certify.engine.limits, each with its smallest reproducer.

Each model here made the engine or the exact calculator give a wrong figure,
crash, hang or say "valid" before the bounds existed (issue 15, issue 16
item 1); now it is either computed right or refused with a located error.
"""

from __future__ import annotations

import time

import numpy as np
import pytest
from bounds_models import machine, sixteen_counted, three_reels, write
from testpaths import DATA, MACHINES

from certify.cli import main
from certify.engine import compile_machine, simulate
from certify.engine.limits import machine_limits
from certify.errors import ModelError
from certify.exact import compute_exact
from certify.exact.cycle import exact_infeasible
from certify.exact.decompose import mean_return
from certify.exact.report import exact_report
from certify.model import load_machine

AB = [["A", "B"]] * 3
SPINS = 1 << 18


def _within(res, truth: float, z: float = 5.0) -> bool:
    return abs(res.rtp - truth) <= z * max(res.std_error, 1e-12)


def _refused(data: dict, path: str, text: str) -> None:
    with pytest.raises(ModelError) as exc:
        compile_machine(machine(data))
    hits = [p for p in exc.value.problems if p.path == path and text in p.message]
    assert hits and hits[0].file == "m.toml", [str(p) for p in exc.value.problems]


# -- the draw's range: totals of 2^32 or more -------------------------------------------------


def test_weights_3e9_draw_right():
    """3e9 / 3e9 weights, A A A pays 4: truth 0.50 (the 32-bit draw gave 1.926)."""
    m = machine(three_reels(AB, [[3_000_000_000] * 2] * 3))
    res = simulate(m, 0, SPINS, 1)
    assert _within(res, 0.5), (res.rtp, res.std_error)


def test_weights_2_32_minus_1_draw_right():
    """2^32 - 1 each, A A A pays 8: truth 1.0 (the draw gave 8.0 +/- 0)."""
    m = machine(three_reels(AB, [[(1 << 32) - 1] * 2] * 3, pays=[(["A", "A", "A"], 8)]))
    res = simulate(m, 0, SPINS, 2)
    assert res.std_error > 0 and _within(res, 1.0), (res.rtp, res.std_error)


def test_totals_2_34_do_not_hang_and_draw_right():
    """Totals of 2^34 (P(A) = 1/4): the draw looped for ever; truth 64 / 64 = 1.0."""
    m = machine(three_reels(AB, [[1 << 33, 3 << 33]] * 3, pays=[(["A", "A", "A"], 64)]))
    start = time.perf_counter()
    res = simulate(m, 0, SPINS, 3)
    assert time.perf_counter() - start < 60
    assert _within(res, 1.0), (res.rtp, res.std_error)


def test_bonus_weights_past_2_32_draw_right():
    """A bonus table with weights shifted by 2^32 hung; now simulation agrees with exact."""
    data = three_reels(
        [["A", "BN"]] * 3,
        symbols={"A": {"kind": "regular"}, "BN": {"kind": "bonus"}},
        pays=[(["A", "A", "A"], 1)],
        bonus={
            "trigger": {"symbol": "BN", "count": 3},
            "awards": [{"pays": 1, "weight": (1 << 32) + 1}, {"pays": 9, "weight": (1 << 32) + 3}],
        },
    )
    m = machine(data)
    exact = compute_exact(m).levels[0].rtp
    assert exact == pytest.approx(0.125 + 0.125 * 5, rel=1e-6)
    assert _within(simulate(m, 0, SPINS, 4), exact)


def test_narrow_draws_unchanged():
    """Totals below 2^32 draw exactly as before the wide draw existed (figures recorded
    with the previous engine, commit c90ef87). ``small_ways.toml`` left this list when
    ways games on uniform strips moved to the group draw (issue 16): a different use of
    the stream, checked stop by stop against the twin in ``test_engine_vs_twin.py``."""
    expected = {
        MACHINES / "classic-3r-1.toml": (974869, 23866645.0, 325201, 800, 0),
        DATA / "small_features.toml": (310695965, 302901792851.0, 1018626, 3541, 2651317),
    }
    for path, figures in expected.items():
        r = simulate(load_machine(path), 0, (1 << 20) + 5, 7)
        assert (r.total_win, r.sum_sq, r.hits, r.max_win, r.fs_spins) == figures, path


def test_weight_total_past_int64_refused():
    """Weights 2^62: a reel's total 2^63 does not fit the cumulative weights."""
    _refused(three_reels(AB, [[1 << 62] * 2] * 3), "reels.weights[0]", "2^63 - 1")


def test_huge_weights_exact_refuses_with_location_simulation_runs():
    """(6e9)^3 weighted combinations x a win overflow the exact int64 sums: exact refuses."""
    m = machine(three_reels(AB, [[3_000_000_000] * 2] * 3))
    tables = compile_machine(m)
    reason = exact_infeasible(tables)
    assert reason is not None and "m.toml: reels.weights:" in reason
    assert compute_exact(tables) is None


# -- the largest win of one spin -------------------------------------------------------------


def _one_stop(pays: int, levels=(1,)) -> dict:
    return three_reels(
        [["A"]] * 3,
        rows=2,
        paylines=[[0, 0, 0], [1, 1, 1]],
        pays=[(["A", "A", "A"], pays)],
        levels=list(levels),
    )


def test_win_2_62_refused(tmp_path, capsys):
    """2 lines of 2^62: simulate segfaulted, exact printed a negative rtp with exit 0."""
    _refused(_one_stop(1 << 62), "pays[0]", "one spin can win")
    path = write(tmp_path, _one_stop(1 << 62))
    for argv in (["validate"], ["exact"], ["simulate", "--spins", "10", "--seed", "1"]):
        assert main([*argv, str(path)]) == 2, argv
        err = capsys.readouterr().err
        assert f"{path}: pays[0]: at bet level 1 one spin can win" in err, err


def test_win_1e12_at_level_1e6_refused():
    """1e12 x level 1e6 x 2 lines fits one int64, not a chunk's sum: wrong figures before."""
    _refused(_one_stop(10**12, levels=(10**6,)), "pays[0]", "chunk of 1,048,576 spins")


def test_largest_win_within_bound_runs():
    """Just under the bound the engine runs, and exact and simulation agree exactly."""
    limit = ((1 << 63) - 1) // (1 << 20) // 2
    m = machine(_one_stop(limit))
    assert compute_exact(m).levels[0].rtp == pytest.approx(limit, rel=1e-12)
    assert simulate(m, 0, 1 << 20, 1).total_win == 2 * limit << 20


def test_histogram_edge_past_int64_refused():
    _refused(_one_stop(1, levels=(1 << 43,)), "bet.bet_levels[0]", "histogram")


# -- integers beyond int64 --------------------------------------------------------------------


@pytest.mark.parametrize(
    "change, path",
    [
        (lambda d: d["pays"][0].update(pays=1 << 70), "pays[0].pays"),
        (lambda d: d["bet"].update(bet_levels=[1 << 64]), "bet.bet_levels[0]"),
        (lambda d: d["reels"].update(weights=[[1 << 64, 1]] * 3), "reels.weights[0][0]"),
    ],
)
def test_integers_beyond_int64_located(tmp_path, capsys, change, path):
    data = three_reels(AB)
    change(data)
    _refused(data, path, "does not fit a 64-bit integer")
    file = write(tmp_path, data)
    assert main(["validate", str(file)]) == 2
    assert f"{file}: {path}: " in capsys.readouterr().err


def test_wild_multiplier_2_40_refused():
    data = three_reels(
        AB,
        symbols={
            "A": {"kind": "regular"},
            "B": {"kind": "regular"},
            "W": {"kind": "wild", "multiplier": 1 << 40},
        },
    )
    data["reels"]["strips"] = [["A", "B", "W"]] * 3
    _refused(data, "pays[0]", "one spin can win")


# -- window, counted symbols: validate agrees with the engine ----------------------------------


def test_validate_refuses_what_the_engine_refuses(tmp_path, capsys):
    big = three_reels(AB, rows=100_000)
    crowded = sixteen_counted()
    for data, path in ((big, "reels.rows"), (crowded, "scatter_pays")):
        file = write(tmp_path, data)
        assert main(["validate", str(file)]) == 2
        assert f"{file}: {path}: " in capsys.readouterr().err


# -- free spins -------------------------------------------------------------------------------


def _free_spins(**fs) -> dict:
    return three_reels(
        [["S", "A"], ["A", "B"], ["A", "B"]],
        weights=[[4, 1], [1, 1], [1, 1]],
        symbols={"A": {"kind": "regular"}, "B": {"kind": "regular"}, "S": {"kind": "scatter"}},
        free_spins={"trigger": {"symbol": "S", "count": 1}, **fs},
    )


def test_endless_retrigger_refused(tmp_path, capsys):
    """12.8 new spins per free spin, uncapped: validate said valid, simulate never returned."""
    data = _free_spins(spins={"1": 16}, retrigger=True)
    assert machine_limits(machine(data)).retrigger_ratio == pytest.approx(12.8)
    _refused(data, "free_spins.retrigger", "12.8 new spins (>= 1)")
    file = write(tmp_path, data)
    assert main(["validate", str(file)]) == 2
    assert "the feature never ends on average; set free_spins.max_spins" in (
        capsys.readouterr().err
    )


def test_retrigger_ratio_is_exact():
    """rho = sum over counts >= trigger of P(count) x spins, from the convolved counts."""
    data = _free_spins(spins={"1": 1}, retrigger=True)
    data["free_spins"]["strips"] = [["S", "A", "A", "A"], ["S", "A"], ["A"]]
    data["free_spins"]["spins"] = {"1": 1, "2": 3}
    # P(1 S) = 1/4 x 1/2 + 3/4 x 1/2 = 1/2, P(2 S) = 1/8: rho = 1/2 + 3/8
    assert machine_limits(machine(data)).retrigger_ratio == pytest.approx(7 / 8, abs=0)


def test_feature_too_long_refused():
    """2^40 free spins without retrigger (and no free-spin win to bound): a practical hang."""
    data = _free_spins(spins={"1": 1 << 40})
    _refused(data, "free_spins.spins", "the engine plays at most 4,294,967,296 per feature")


def test_scatter_win_located():
    data = three_reels(
        [["A", "S"]] * 3,
        symbols={"A": {"kind": "regular"}, "S": {"kind": "scatter"}},
        scatter_pays=[
            {"symbol": "S", "count": 2, "pays": 5},
            {"symbol": "S", "count": 3, "pays": 10**13},
        ],
    )
    _refused(data, "scatter_pays[1].pays", "scatter S 10,000,000,000,000")


def test_trigger_count_beyond_int64_located():
    data = _free_spins(spins={"1": 3})
    data["free_spins"]["trigger"]["count"] = 1 << 64
    data["free_spins"]["spins"] = {str(1 << 64): 3}
    _refused(data, "free_spins.trigger.count", "does not fit a 64-bit integer")


def test_cap_1e6_exact_refused_simulation_runs(tmp_path, capsys):
    """A cap of 1e6 died with MemoryError in exact: now refused with a reason, simulated."""
    data = _free_spins(spins={"1": 2}, retrigger=True, max_spins=1_000_000)
    data["reels"]["weights"][0] = [1, 49]  # P(trigger) = 1/50: short features
    m = machine(data)
    tables = compile_machine(m)
    start = time.perf_counter()
    reason = exact_infeasible(tables)
    assert "m.toml: free_spins.max_spins: a cap of 1,000,000 spins" in reason
    assert compute_exact(tables) is None
    assert mean_return(tables, tables.levels[0]) is None
    assert exact_report(m)["machine"]["exact_infeasible"] == reason
    assert time.perf_counter() - start < 30
    res = simulate(tables, 0, 1 << 12, 5)
    assert res.fs_triggers > 0 and res.max_win <= machine_limits(m).max_spin_win[0]
    file = write(tmp_path, data)
    assert main(["exact", str(file)]) == 0
    assert "exact: not feasible (" in capsys.readouterr().out


def test_cap_3000_exact_equals_decomposition():
    """The O(cap)-memory recursion: a cap of 3,000 with retrigger, exact = decomposition."""
    data = _free_spins(spins={"1": 2}, retrigger=True, max_spins=3000)
    data["free_spins"]["strips"] = [["S", "A", "A", "A", "A"], ["A", "B"], ["A", "B"]]
    tables = compile_machine(machine(data))
    exact = compute_exact(tables).levels[0].rtp
    assert mean_return(tables, tables.levels[0]) == pytest.approx(exact, rel=1e-10)


def test_bounds_of_shipped_models():
    """The shipped models pass every bound and the exact calculator takes them all."""
    for path in sorted(MACHINES.glob("*.toml")):
        limits = machine_limits(load_machine(path))
        assert not limits.problems and not limits.exact, path
        assert all(0 < w < 1 << 43 for w in limits.max_spin_win)


def test_limits_report_every_level():
    m = load_machine(MACHINES / "ref-5x3-20.toml")
    limits = machine_limits(m)
    assert len(limits.max_spin_win) == len(m.bet_levels)
    assert np.all(np.diff(limits.max_spin_win) >= 0)


def test_certify_rests_on_simulation_with_the_reason():
    """certify: the exact calculator's located refusal becomes the exact_infeasible finding."""
    from testpaths import JURISDICTIONS

    from certify.batch import certify_machine
    from certify.model import load_jurisdiction

    m = machine(three_reels(AB, [[3_000_000_000] * 2] * 3, pays=[(["A", "A", "A"], 7)]))
    cert = certify_machine(m, load_jurisdiction(JURISDICTIONS / "pt.toml"), 1 << 16, 1)
    found = [f for f in cert.findings if f.code == "exact_infeasible"]
    assert found and "m.toml: reels.weights:" in found[0].message
    assert cert.levels[0].exact is None and cert.levels[0].simulation is not None
