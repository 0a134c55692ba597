"""Checks every rewritten-window feature test makes: the twin's figures, the replay.

``paints``, ``big_symbol``, ``retrigger_symbol`` and ``expands = {chance}`` are each
tested on random two-row games against a twin's brute force, and on a log of the
machine against the game without the rule; these are those steps, written once.
"""

from __future__ import annotations

import pytest
import test_twin_rules as T
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from certify.engine import compile_machine
from certify.exact import compute_exact
from certify.exact.decompose import mean_return
from certify.model import load_machine
from certify.model.schema import Machine
from certify.outcomes.record import record_outcomes
from certify.outcomes.verify import _machine_model, verify_outcomes

TWO_LINES = "\npaylines = [[0, 0, 0], [1, 0, 1]]\n"
RULE_SETTINGS = settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))
"""The random-game tests' settings: few examples (each a brute force), no deadline."""


def three_strips(symbols=("A", "B", "W", "S")):
    """Three random strips of 2 to 4 of ``symbols`` (the two-row games' reels)."""
    reel = st.lists(st.sampled_from(list(symbols)), min_size=2, max_size=4)
    return st.lists(reel, min_size=3, max_size=3)


def two_row_game(tmp_path_factory, strips: list[list[str]], body: str) -> Machine:
    """Three reels of ``strips``, two rows, two lines (the top row and a V), bet 1 a line."""
    head = T.HEAD.format(id="T", bet=T.LINES.replace("1", "2", 1), reels="").replace(
        "rows = 1", "rows = 2"
    )
    path = tmp_path_factory.mktemp("g") / "g.toml"
    path.write_text(head + "strips = " + str(strips).replace("'", '"') + TWO_LINES + body)
    return load_machine(path)


def assert_exact_equals_twin(m: Machine, ref: dict) -> None:
    """Return, variance and hit frequency equal the twin's ``ref`` to 1e-12, and the
    decomposition's mean the exact return."""
    ex = compute_exact(m)
    assert ex is not None
    lvl = ex.levels[0]
    assert lvl.rtp == pytest.approx(float(ref["rtp"]), rel=1e-12)
    assert lvl.variance == pytest.approx(float(ref["variance"]), rel=1e-12, abs=1e-12)
    assert lvl.hit_frequency == pytest.approx(float(ref["hit_frequency"]), rel=1e-12)
    tables = compile_machine(m)
    assert mean_return(tables, tables.levels[0]) == pytest.approx(lvl.rtp, rel=1e-12)


def assert_replay_tells_apart(tmp_path, on: str, off: str, reels: str) -> None:
    """A log of the game ``on`` passes against its model and fails against ``off``."""
    for name, body in (("on", on), ("off", off)):
        (tmp_path / name).mkdir()
        T.game(tmp_path / name, body, reels)
    replay_files_tell_apart(tmp_path, tmp_path / "on" / "g.toml", tmp_path / "off" / "g.toml")


def replay_files_tell_apart(tmp_path, on, off):
    """A log of the model file ``on`` passes against it and fails against ``off``;
    returns the failing verification (its mismatches)."""
    log = tmp_path / "log.jsonl"
    record_outcomes(_machine_model(on), 3000, 5, log)
    good = verify_outcomes(log, _machine_model(on))
    assert good.verdict == "pass" and good.mismatch_count == 0
    bad = verify_outcomes(log, _machine_model(off))
    assert bad.verdict == "fail"
    return bad
