"""The exact calculator against the twin on every rule of real games (SPEC 3.1a).

The games are the hand-counted ones of tests/test_twin_rules.py (the twin equals
the hand figure there) and the published ones of tests/test_published_twin.py.
Every exact figure -- return, hit frequency, variance, line award probabilities
-- must equal the twin's brute force to 1e-12 (Cleopatra: the twin's
decomposition, mean only).
"""

from __future__ import annotations

import sys

import pytest
import test_twin_rules as T
from twins import lines as twin

from certify.exact import compute_exact
from certify.model import load_machine

PUBLISHED = T.__file__.rsplit("/", 1)[0] + "/data/published/"
AS = 'strips = [["A", "S"], ["A", "S"], ["A", "S"]]'
AB = 'strips = [["A", "B"], ["A", "B"], ["A", "B"]]'
TWO_LEVELS = "lines = 1\nbet_levels = [1, 2]"

GAMES = {
    **{
        f"wild_multiplier={r}": dict(
            body=T.WILDS,
            reels='strips = [["A", "W2"], ["A", "W3"], ["A", "W2", "W1"]]',
            wild_multiplier=r,
        )
        for r in ("product", "max", "sum")
    },
    **{
        f"pure_wild_line={r}": dict(
            body=T.PURE, reels='strips = [["A", "W"], ["A", "W"], ["A", "W"]]', pure_wild_line=r
        )
        for r in ("highest", "wild_award")
    },
    **{
        f"anywhere,{r}": dict(
            body=T.ANYWHERE,
            reels='strips = [["CH", "B", "D"], ["CH", "B", "D"], ["CH", "B", "D"]]',
            pure_wild_line=r,
        )
        for r in ("highest", "wild_award")
    },
    "direction=both": dict(
        body=T.BOTH, reels='strips = [["A", "B"], ["A", "W"], ["A", "B"]]', direction="both"
    ),
    "scatter_unit=line_bet,ways": dict(
        body=T.WAYS,
        reels=AS + '\nevaluation = "ways"',
        bet="ways = 1\ncost = 10\nbet_levels = [1, 2]",
        scatter_unit="line_bet",
    ),
    "exclusive_scatters": dict(
        body=T.EXCLUSIVE, reels='strips = [["A", "S1", "S2"], ["A", "S1", "S2"], ["A", "S1", "S2"]]'
    ),
    "free_spins_multiplier=false": dict(body=T.FS_FIXED, reels=AS),
    "retrigger=once": dict(body=T.RETRIGGER, reels=AS),
    "win_cap": dict(body=T.CAP, reels=AB, bet=TWO_LEVELS, win_cap=50),
}


def _same(machine, exact_levels, refs):
    for li, ref in enumerate(refs):
        lvl = exact_levels[li]
        assert lvl.rtp == pytest.approx(float(ref["rtp"]), rel=1e-12)
        assert lvl.hit_frequency == pytest.approx(float(ref["hit_frequency"]), rel=1e-12)
        assert lvl.variance == pytest.approx(float(ref["variance"]), rel=1e-12)
        awards = [a.probability for a in lvl.awards[: len(machine.pays)]]
        assert awards == pytest.approx([float(x) for x in ref["awards"]], rel=1e-12, abs=1e-15)


@pytest.mark.parametrize("label", list(GAMES))
def test_rule_game_exact_equals_twin(tmp_path, label):
    spec = dict(GAMES[label])
    m = T.game(tmp_path, spec.pop("body"), spec.pop("reels"), **spec)
    _same(m, compute_exact(m).levels, [twin.brute_force(m, li) for li in range(len(m.bet_levels))])


def test_free_spin_options_exact_equals_twin(tmp_path):
    m = T.game(tmp_path, T.OPTIONS, AS)
    for variant, ref in zip(m.option_variants(), twin.brute_force_options(m, 0)):
        _same(variant, compute_exact(variant).levels, [ref])


def test_double_diamond_style_exact_equals_twin():
    m = load_machine(PUBLISHED + "double_diamond.toml")
    _same(m, compute_exact(m).levels, [twin.brute_force(m, 0)])


def test_cleopatra_exact_equals_twin_decomposition():
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    m = load_machine(PUBLISHED + "cleopatra.toml")
    exact = compute_exact(m)
    assert exact.levels[0].rtp == pytest.approx(
        float(twin.mean_by_decomposition(m, 0)["rtp"]), rel=1e-12
    )
