"""Issue 31, the model side: one test per numbered item (1-6, 13-15).

Each of these failed on the code before the fix (run against it: see the
branch's report); the models are small edits of shipped or test models.
"""

from __future__ import annotations

import dataclasses
import time
from fractions import Fraction
from pathlib import Path

import pytest
from twins import hold, lines

import slotcert
from certify.checkpoint import CheckpointDir
from certify.cli import main
from certify.engine.limits import machine_limits
from certify.errors import ModelError, UsageError
from certify.exact import compute_exact
from certify.model import load_machine

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
MODELS = ROOT / "models" / "machines"
TINY = ROOT / "tests" / "data" / "tiny_lines.toml"
JURISDICTION = ROOT / "models" / "jurisdictions" / "nv.toml"


def edited(tmp_path: Path, source: Path, old: str, new: str, name: str = "m.toml") -> Path:
    """A copy of ``source`` with ``old`` replaced by ``new`` (which must be there)."""
    text = source.read_text(encoding="utf-8")
    assert old in text, old
    out = tmp_path / name
    out.write_text(text.replace(old, new), encoding="utf-8")
    return out


def appended(tmp_path: Path, source: Path, extra: str, name: str = "m.toml") -> Path:
    out = tmp_path / name
    out.write_text(source.read_text(encoding="utf-8") + "\n" + extra, encoding="utf-8")
    return out


def refused_at(path: Path, key: str, capsys) -> str:
    """``validate`` exits 2 naming ``key``; returns what it printed."""
    assert main(["validate", str(path)]) == 2
    err = capsys.readouterr().err
    assert f": {key}" in err, err
    assert "internal error" not in err
    return err


# -- item 1: a win cap over hold and spin is never an uncapped exact figure -----------------


def test_item1_capped_hold_game_is_refused_by_exact_not_uncapped():
    """``tests/refusals/hold_cap_3r.toml``: 3 reels x 1 row, one line, total bet 1, cap 5.

    Hand count. Reel 1 = [COIN, A, B, B], reel 2 = [COIN, COIN, A, A, B, B, B], reel 3 =
    [COIN x3, A, A, B, B, B]: 4 x 7 x 8 = 224 combinations. ``A A A`` pays 3 on
    1 x 2 x 2 = 4 of them, ``B B B`` pays 1 on 2 x 3 x 3 = 18. Two coins start the
    feature (1 respin, p = 1/2, every coin worth 2, a full window adds GRAND = 10):
    exactly two coins on 1x2x5 + 1x5x3 + 3x2x3 = 43 combinations (no line: the third
    reel cannot complete one), the one respin fills the last cell with 1/2 (award
    3 x 2 + 10 = 16) else ends (award 4); three coins on 1x2x3 = 6 combinations
    (full at once: award 16).

    * Uncapped: (4 x 3 + 18 x 1 + 43 x (16 + 4) / 2 + 6 x 16) / 224 = 556 / 224 = 2.4821...
      (what ``exact`` printed before the fix, the cap ignored).
    * Capped at 5: (12 + 18 + 43 x (5 + 4) / 2 + 6 x 5) / 224 = 253.5 / 224 = 1.1316964...

    The brute force (``twins.hold.capped_rtp``) enumerates the 224 combinations, every
    respin pattern and every coin value, and agrees with the hand count; ``exact`` must
    give that figure or none (here: none, with the located reason ``rules.win_cap``);
    the simulation (which caps) agrees with it within its interval, and ``certify
    --spins 0`` no longer passes the game on the uncapped figure.
    """
    m = load_machine(HERE / "hold_cap_3r.toml")
    assert hold.capped_rtp(m) == Fraction(507, 448)  # 253.5 / 224
    uncapped = dataclasses.replace(m, rules=dataclasses.replace(m.rules, win_cap=10**6))
    assert hold.capped_rtp(uncapped) == Fraction(556, 224)  # the cap never reached: 556 / 224
    ex = slotcert.exact(m).to_dict()
    assert ex["bet_levels"][0]["exact"] is None
    assert "rules.win_cap" in ex["machine"]["exact_infeasible"]
    assert compute_exact(m) is None
    run = slotcert.simulate(m, spins=1_000_000, seed=1)  # the engine caps: it agrees
    assert abs(run.rtp[1] - 507 / 448) < 5 * run.levels[0]["std_error"]
    cert = slotcert.certify(HERE / "hold_cap_3r.toml", JURISDICTION, spins=0, seed=1).machines[0]
    assert cert.verdict != "pass"  # nothing supports a verdict without the exact figure
    shipped = load_machine(MODELS / "hold-5x3-20.toml")
    capped = dataclasses.replace(shipped, rules=dataclasses.replace(shipped.rules, win_cap=10))
    assert compute_exact(capped) is None


# -- item 2: heights and expanding-symbol weights bounded ----------------------------------


def test_item2_scaled_height_weights_never_give_a_wrong_figure(tmp_path, capsys):
    """Every height weight x 1,048,583 (the same probabilities): the figure of the shipped
    game (its exact rtp, 0.918571...) or none; never the 2.05 exact printed before."""
    source = MODELS / "heights-4r.toml"
    text = source.read_text(encoding="utf-8")
    scaled = text.replace("weight = 1}", "weight = 1048583}").replace(
        "weight = 2}", "weight = 2097166}"
    )
    path = tmp_path / "h.toml"
    path.write_text(scaled, encoding="utf-8")
    truth = compute_exact(load_machine(source)).levels[0].rtp
    got = slotcert.exact(path).to_dict()
    for lvl in got["bet_levels"]:
        assert lvl["exact"] is None or lvl["exact"]["rtp"] == pytest.approx(truth, rel=1e-9)
    assert "reels.heights" in got["machine"]["exact_infeasible"]
    assert main(["validate", str(path)]) == 0
    for weight, key in (("4294967296", None), ("18446744073709551616", "reels.heights[0][0]")):
        big = tmp_path / f"h{weight}.toml"
        big.write_text(text.replace("weight = 1}", f"weight = {weight}}}"), encoding="utf-8")
        code = main(["validate", str(big)])
        err = capsys.readouterr().err
        assert "internal error" not in err and "Error" not in err
        if key:
            assert code == 2 and f": {key}" in err
        else:
            assert slotcert.exact(big).to_dict()["bet_levels"][0]["exact"] is None


def test_item2_expanding_symbol_weights_bounded(tmp_path, capsys):
    path = edited(
        tmp_path,
        MODELS / "book-5x3-10.toml",
        "expanding_symbol = {E = 1, P = 2, S = 3,",
        "expanding_symbol = {E = 4611686018427387904, P = 4611686018427387904, "
        "S = 4611686018427387904,",
    )
    err = refused_at(path, "free_spins.expanding_symbol", capsys)
    assert "weights total" in err  # 3 x 2^62: each fits 64 bits, their sum does not
    with pytest.raises(ModelError):
        slotcert.simulate(path, spins=1000, seed=1)


# -- item 3: free-spin options simulated and validated as options ---------------------------

OPTIONS = """
[free_spins]
trigger = {symbol = "S", count = 2}
retrigger = true
[[free_spins.options]]
spins = 2
[[free_spins.options]]
spins = SPINS
multiplier = 3
"""


def test_item3_options_validated_one_by_one(tmp_path, capsys):
    """Two S (1 in 16 on the free strips) retrigger: option 2's 30 spins add 30/16 = 1.875
    spins per spin (endless), option 1's 2 add 0.125: refused for option 2."""
    path = appended(tmp_path, TINY, OPTIONS.replace("SPINS", "30"))
    err = refused_at(path, "free_spins.retrigger", capsys)
    assert "option 2" in err and "option 1" not in err
    with pytest.raises(ModelError):
        slotcert.simulate(path, spins=1000, seed=1)


def test_item3_options_simulated_as_options(tmp_path, capsys):
    path = appended(tmp_path, TINY, OPTIONS.replace("SPINS", "5"))
    machine = load_machine(path)
    run = slotcert.simulate(path, spins=200_000, seed=3, chunk_spins=1 << 16)
    exact = {o["machine"]["option"]: o for o in slotcert.exact(path).to_dict()["free_spin_options"]}
    assert set(run.options) == {"option 1", "option 2"}
    for row in run.levels:
        ex = exact[row["option"]]["bet_levels"][machine.bet_levels.index(row["level"])]["exact"]
        assert abs(row["rtp"] - ex["rtp"]) < 5 * row["std_error"]
    assert run.rtp[1] == min(run.options["option 1"][1], run.options["option 2"][1])
    doc = run.to_dict()
    assert [o["option"] for o in doc["free_spin_options"]] == ["option 1", "option 2"]
    # the CLI: one line per option and level
    assert main(["simulate", str(path), "--spins", "1000", "--seed", "1", "--level", "1"]) == 0
    out = capsys.readouterr().out
    assert "option 1: level 1:" in out and "option 2: level 1:" in out
    # meters theory: the option certification judges by, never a mix
    from certify.exact.theory import theory

    lowest = min(float(o["bet_levels"][0]["exact"]["base_rtp"]) for o in exact.values())
    assert theory(machine, 0)[0] == pytest.approx(lowest, rel=1e-12)


# -- item 4: hold and spin work bounds ------------------------------------------------------

HOLD = MODELS / "hold-5x3-20.toml"


def test_item4_respins_bounded(tmp_path, capsys):
    """2^31 - 1 respins: killed for memory before; now a located error, at once."""
    path = edited(tmp_path, HOLD, "respins = 3", "respins = 2147483647")
    assert "above 1,000" in refused_at(path, "hold_and_spin.respins", capsys)
    with pytest.raises(ModelError):
        slotcert.simulate(path, spins=1000, seed=1)


def test_item4_hold_chain_judged_on_its_work(tmp_path, capsys):
    """1,000 respins: past 300 s of exact before (validate did not finish)."""
    path = edited(tmp_path, HOLD, "respins = 3", "respins = 1000")
    started = time.perf_counter()
    assert main(["validate", str(path)]) == 0
    err = capsys.readouterr().err
    assert "hold_and_spin.respins" in err and "exact chain would take" in err
    ex = slotcert.exact(path).to_dict()
    assert time.perf_counter() - started < 30
    assert ex["bet_levels"][0]["exact"] is None
    assert "hold_and_spin.respins" in ex["machine"]["exact_infeasible"]


def test_item4_tiny_cell_probability_chain_runs_once(tmp_path, capsys):
    """p = 1e-9 with 50 respins: up to 120 s of exact before, the chain rebuilt by every
    level and check; within its work bound it is built once (a few seconds)."""
    path = edited(tmp_path, HOLD, "respins = 3", "respins = 50", "a.toml")
    path = edited(tmp_path, path, '"0.03"', '"0.000000001"', "b.toml")
    started = time.perf_counter()
    assert main(["validate", str(path)]) == 0
    ex = slotcert.exact(path).to_dict()
    assert time.perf_counter() - started < 30
    assert ex["bet_levels"][0]["exact"] is not None or ex["machine"]["exact_infeasible"]


def test_item4_a_large_hold_grid_is_judged_on_its_work():
    """An 8 x 8 window (64 cells), 3 respins: 12 s of chain per call before (validate 50 s)."""
    m = load_machine(HOLD)
    strips = tuple(m.strips[r % m.reels] for r in range(8))
    grid = dataclasses.replace(m, rows=8, strips=strips, paylines=((0,) * 8,), lines=1)
    assert any(p.path == "hold_and_spin.respins" for p in machine_limits(grid).exact)
    assert not any(p.path == "hold_and_spin.respins" for p in machine_limits(m).exact)


# -- item 5: cascades bounded; a cascade longer than max_screens refused by every path ------

CASCADE = MODELS / "cascade-5x3-10.toml"


ALWAYS = """
schema = "slotcert/machine@1"
[machine]
id = "ALWAYS-PAYS"
name = "a cascade that always pays"
[bet]
denomination = "0.01"
currency = "EUR"
lines = 1
bet_levels = [1]
[symbols]
A = {kind = "regular"}
[reels]
rows = 1
strips = [["A"], ["A"], ["A"]]
paylines = [[0, 0, 0]]
[[pays]]
combo = ["A", "A", "A"]
pays = 2
[cascade]
refill = "REFILL"
max_screens = SCREENS
"""


def test_item5_max_screens_bounded(tmp_path, capsys):
    """Every screen pays: max_screens = 1e8 passed validate and simulate hung before."""
    for refill in ("random", "strip"):
        path = tmp_path / f"{refill}.toml"
        path.write_text(ALWAYS.replace("REFILL", refill).replace("SCREENS", "100000000"))
        refused_at(path, "cascade.max_screens", capsys)
        for argv in (["exact", str(path)], ["simulate", str(path), "--spins", "9", "--seed", "1"]):
            assert main(argv) == 2


def test_item5_a_cascade_that_always_pays_ends_at_max_screens(tmp_path, capsys):
    """At the bound (1,000 screens) every spin plays 1,000 screens paying 2: rtp 2,000."""
    path = tmp_path / "random.toml"
    path.write_text(ALWAYS.replace("REFILL", "random").replace("SCREENS", "1000"))
    run = slotcert.simulate(path, spins=1000, seed=1)
    assert run.rtp[1] == 2000.0
    strip = tmp_path / "strip.toml"  # its cycle never ends: longer than max_screens
    strip.write_text(ALWAYS.replace("REFILL", "strip").replace("SCREENS", "1000"))
    # refused, not hung: the probe's work is bounded (test_item5_the_probe_is_bounded_by_its_work);
    # no wall-clock bound here (a cold numba cache compiles the screen kernels first)
    err = refused_at(strip, "cascade.max_screens", capsys)
    assert "it may never end" in err


def test_item5_strip_cascade_longer_than_max_screens_refused_by_every_path(tmp_path, capsys):
    """Its cycle plays 10 screens; max_screens = 1: exact and simulate printed a return before."""
    path = edited(tmp_path, CASCADE, "max_screens = 50", "max_screens = 1")
    refused_at(path, "cascade.max_screens", capsys)
    for argv in (["exact", str(path)], ["simulate", str(path), "--spins", "100", "--seed", "1"]):
        assert main(argv) == 2
        assert "cascade.max_screens: a cycle of 10 screens exceeds 1" in capsys.readouterr().err


def test_item5_the_probe_is_bounded_by_its_work():
    """At the largest max_screens the check plays at most max_screens + 1 screens a
    combination (the worst case past CASCADE_PROBE_MAX); whether it runs at all is the
    measured work's call (``screen_work``), so the engine's bounds refuse nothing for it."""
    from certify.engine.limits import CASCADE_PROBE_MAX, MAX_SCREENS, cascade_probe

    m = load_machine(CASCADE)
    assert 50 + 1 <= cascade_probe(m) <= 10 * 50 + 100  # the shipped game: probed
    big = dataclasses.replace(m, cascade=dataclasses.replace(m.cascade, max_screens=MAX_SCREENS))
    combinations = 1
    for strip in m.strips:
        combinations *= len(strip)
    assert combinations * (MAX_SCREENS + 1) > CASCADE_PROBE_MAX
    assert cascade_probe(big) == MAX_SCREENS + 1
    assert not any(p.path == "cascade.max_screens" for p in machine_limits(big).exact)


# -- item 6: win_cap x total bet, trigger counts, 1e18 ----------------------------------------


def test_item6_win_cap_times_total_bet_bounded(tmp_path, capsys):
    path = appended(
        tmp_path, MODELS / "ref-5x3-20.toml", "[rules]\nwin_cap = 4611686018427387904\n"
    )
    refused_at(path, "rules.win_cap", capsys)
    with pytest.raises(ModelError):
        slotcert.simulate(path, spins=1000, seed=1)


def test_item6_trigger_count_of_128_is_a_located_error(tmp_path, capsys):
    path = edited(
        tmp_path,
        MODELS / "ref-5x3-20.toml",
        'trigger = {symbol = "SC", count = 3}',
        'trigger = {symbol = "SC", count = 128}',
    )
    refused_at(path, "free_spins.trigger.count", capsys)


def test_item6_1e18_in_a_cascade_game_refused_at_validate(tmp_path, capsys):
    path = appended(tmp_path, CASCADE, "[rules]\nwin_cap = 1000000000000000000\n")
    refused_at(path, "rules.win_cap", capsys)


# -- item 13: checkpoint folders keyed by fingerprint ---------------------------------------


def test_item13_checkpoint_folders_by_fingerprint(tmp_path):
    tiny = load_machine(TINY)
    a = dataclasses.replace(tiny, id="EGM/1")
    b = dataclasses.replace(tiny, id="EGM:1")
    options = load_machine(appended(tmp_path, TINY, OPTIONS.replace("SPINS", "5")))
    store = CheckpointDir(tmp_path / "ck", 1, 1 << 16)
    folders = {store.for_machine(m).path for m in (a, b, *options.option_variants())}
    assert len(folders) == 4  # one refused the others before (one folder, several models)


# -- item 14: retrigger = "once" without max_spins -------------------------------------------


def test_item14_retrigger_once_without_cap_is_accepted_and_exact(tmp_path, capsys):
    """20 spins on two S (1 in 16): 20/16 > 1 spin per spin, but "once" lasts at most two
    awards (40 spins); the exact figure equals the twin's brute force."""
    extra = '[free_spins]\ntrigger = {symbol = "S", count = 2}\nspins = 20\nretrigger = "once"\n'
    path = appended(tmp_path, TINY, extra)
    assert main(["validate", str(path)]) == 0
    m = load_machine(path)
    ex = compute_exact(m)
    assert ex is not None
    for li in range(len(m.bet_levels)):
        assert ex.levels[li].rtp == pytest.approx(float(lines.brute_force(m, li)["rtp"]), rel=1e-12)


# -- item 15: the API checks what the CLI checks ----------------------------------------------


@pytest.mark.parametrize(
    "kwargs",
    [
        {"chunk_spins": -1},
        {"chunk_spins": 0},
        {"seed": None},
        {"seed": -1},
        {"spins": 10**30},
        {"spins": 0},
    ],
)
def test_item15_api_simulate_checks_its_arguments(kwargs):
    args = {"spins": 1000, "seed": 1, **kwargs}
    with pytest.raises(UsageError) as info:
        slotcert.simulate(TINY, **args)
    assert next(iter(kwargs)) in str(info.value)


def test_item15_api_checkpoint_must_be_a_folder(tmp_path):
    file = tmp_path / "a-file"
    file.write_text("x")
    with pytest.raises(UsageError, match="not a folder"):
        slotcert.simulate(TINY, spins=1000, seed=1, checkpoint=file)


def test_item15_reconcile_meters_needs_a_dump_and_input_error_is_exported(tmp_path):
    with pytest.raises(UsageError, match="no meter dump"):
        slotcert.reconcile_meters([], tmp_path / "floor.csv")
    assert issubclass(slotcert.InputError, Exception)
    assert "InputError" in slotcert.__all__
