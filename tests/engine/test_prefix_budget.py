"""The prefix depth follows the byte budget, and the fast path follows the depth."""

from __future__ import annotations

from testpaths import MACHINES

from certify.engine import compile_machine, prefix
from certify.engine.kernel_inputs import reel_sets
from certify.engine.simulate import fast_flag
from certify.model import load_machine


def _tables(monkeypatch, budget):
    monkeypatch.setattr(prefix, "MAX_PREFIX_BYTES", budget)
    t = compile_machine(load_machine(MACHINES / "ref-5x3-20.toml"))
    lt = t.levels[0]
    sets = [(s.window, s.length, s.counted) for s in reel_sets(t)]
    px = prefix.build_prefix_tables(
        sets, t.paylines, lt.trans, lt.live, lt.state_win, lt.state_entry, len(t.machine.pays)
    )
    return t, px


def test_budget_picks_the_deepest_table_that_fits(monkeypatch):
    """52-stop strips: reels 1-3 take 52^3 x 2 bytes = 281,216 bytes per reel set,
    reels 1-2 take 52^2 x 2 = 5,408 (hand calculation)."""
    t, px = _tables(monkeypatch, 281_216)
    assert px.depth.tolist() == [3, 3]
    assert fast_flag(t, px) == 1
    t, px = _tables(monkeypatch, 281_215)
    assert px.depth.tolist() == [2, 2]
    assert fast_flag(t, px) is None  # the two-draw path needs reels 1-3 on 5 reels
    t, px = _tables(monkeypatch, 5_407)
    assert px.depth.tolist() == [1, 1]


def test_more_counted_symbols_than_the_packed_counts_hold_is_a_located_error():
    """Sixteen counted symbols leave 4 bits a count (at most 15): a window that can
    show 18 of one is a located error; nine (7 bits, at most 127) on a 5x3 window play."""
    import dataclasses

    import pytest
    from bounds_models import machine as parsed
    from bounds_models import sixteen_counted

    from certify.errors import ModelError
    from certify.model.schema import ScatterPay

    with pytest.raises(ModelError, match=r"16 counted symbols .* 4 bits .* counts up to 15"):
        compile_machine(parsed(sixteen_counted()))
    ref = load_machine(MACHINES / "ref-5x3-20.toml")
    extra = tuple(ScatterPay(symbol=s.name, count=5, pays=1) for s in ref.symbols[:9])
    compile_machine(dataclasses.replace(ref, scatter_pays=extra))


def test_a_damaged_cache_file_is_rebuilt_not_trusted(monkeypatch, tmp_path):
    """The kernels do not check bounds: a cached table whose combo indices point
    past its combos is rebuilt, and the rebuilt one equals a fresh build."""
    import numpy as np

    monkeypatch.setenv("SLOTCERT_CACHE_DIR", str(tmp_path))
    t = compile_machine(load_machine(MACHINES / "ref-5x3-20.toml"))
    lt = t.levels[0]
    args = (
        [(s.window, s.length, s.counted) for s in reel_sets(t)],
        t.paylines,
        lt.trans,
        lt.live,
        lt.state_win,
        lt.state_entry,
        len(t.machine.pays),
    )
    fresh = prefix.cached_prefix_tables(*args)
    lengths = [s.length for s in reel_sets(t)]
    assert prefix.consistent(fresh, lengths, t.paylines.shape[0], lt.trans)
    (stored,) = tmp_path.glob("prefix-*.npz")
    with np.load(stored) as z:
        values = dict(z)
    values["head"] = values["head"] + np.uint16(40_000)  # past the 16,061 combos
    np.savez(stored, **values)
    assert not prefix.consistent(
        prefix.PrefixTables(**{**values, "alive_total": 0}), lengths, t.paylines.shape[0], lt.trans
    )
    again = prefix.cached_prefix_tables(*args)
    assert np.array_equal(again.head, fresh.head)
    assert np.array_equal(again.combos, fresh.combos)
