"""A multiplier reel written as pay entries: Novomatic Secret Elixir.

Lines are read on reels 1-4 and the number reel 5 shows on the line multiplies
the line's win. The format needs no key for it: each run and multiplier is one
entry (``[X, X, X, ANY, X5]`` pays 3-of-X x 5), and a line pays its highest
entry, so a run of 4 beats the run of 3 inside it (docs/MODELS.md, "Pay entries
of a multiplier reel").

References: slotopol/server's brute force printed at the head of the reel set
"96.001154" of ``game/slot/novomatic/secretelixir/secretelixir_data.yaml``
("symbols: 72.434(lined) + 3.9892(scatter) = 76.422949%; q = 0.084747;
RTP = 76.423(sym) + 0.084747*231.02(fg) = 96.001154%", the free spins' reels
"RTP = sq*rtp(sym) = 1.1125*207.66 = 231.019225%"), and a plain enumerator
written here from the rules of ``secretelixir_rule.go`` (not from our pay
entries).
"""

from __future__ import annotations

import tomllib

import numpy as np
import pytest
from testpaths import DATA

from certify.exact import compute_exact
from certify.model import load_machine

SECRET_ELIXIR = DATA / "real" / "novomatic_secret_elixir.toml"

# secretelixir_rule.go: LinePay (3 and 4 of a kind) by our symbol names.
RUN_PAYS = {
    "LOVER": (100, 1000),
    "WIFE": (40, 200),
    "HUSBAND": (40, 200),
    "OWL": (20, 80),
    "GARGOYLE1": (15, 60),
    "GARGOYLE2": (15, 60),
    "ACE": (10, 40),
    "KING": (10, 40),
    "QUEEN": (5, 20),
    "JACK": (5, 20),
    "TEN": (5, 20),
}


def _line_credits_per_spin(strips: list[list[str]], paylines: list[list[int]]) -> float:
    """Mean line credits of one spin, every stop combination enumerated (numpy).

    The rule of ``ScanLined``: on reels 1-4, the wild run from reel 1 (``numw``) and
    the run of the first other symbol with wilds standing in (``numl``); 3 or more
    pay; the larger of the two pays (``payl > payw``), x the number reel 5 shows
    on the line.
    """
    names = sorted({s for strip in strips[:4] for s in strip})
    code = {s: i for i, s in enumerate(names)}
    wild = code["LOVER"]
    table = np.zeros((len(names), 5), dtype=np.int64)
    for s, (p3, p4) in RUN_PAYS.items():
        table[code[s], 3], table[code[s], 4] = p3, p4
    coded = [np.array([code[s] for s in strip]) for strip in strips[:4]]
    mult = np.array([int(s[1:]) for s in strips[4]])
    stops = np.meshgrid(*[np.arange(len(s)) for s in strips[:4]], indexing="ij")
    stops = [a.ravel() for a in stops]
    total = 0
    for line in paylines:
        cells = [coded[r][(stops[r] + line[r]) % len(coded[r])] for r in range(4)]
        numw = np.zeros_like(cells[0])
        first = np.full_like(cells[0], -1)
        numl = np.full_like(cells[0], 4)
        alive = np.ones(cells[0].shape, dtype=bool)
        for x, cell in enumerate(cells, start=1):
            is_wild = cell == wild
            numw = np.where(is_wild & (first < 0), x, numw)
            starts = ~is_wild & (first < 0)
            breaks = ~is_wild & (first >= 0) & (cell != first) & alive
            numl = np.where(breaks, x - 1, numl)
            alive &= ~breaks
            first = np.where(starts, cell, first)
        payw = np.where(numw >= 3, table[wild, np.minimum(numw, 4)], 0)
        payl = np.where((numl >= 3) & (first >= 0), table[np.maximum(first, 0), numl], 0)
        best = np.maximum(payl, payw)
        # each stop of reels 1-4 meets every stop of reel 5, whose line cell then
        # shows every number of the strip once
        total += int(best.sum()) * int(mult.sum())
    n = np.prod([len(s) for s in strips])
    return total / n


def test_secret_elixir_reproduced():
    """Our exact figures equal the server's: lines 72.434%, scatters 3.9892%, free
    spins 0.084747 x 231.019225% and 96.001154% in all (each to its printed digits)."""
    m = load_machine(SECRET_ELIXIR)
    level = compute_exact(m).levels[0]
    assert level.line_rtp * 100 == pytest.approx(72.434, abs=5e-4)
    assert level.scatter_rtp * 100 == pytest.approx(3.9892, abs=5e-5)
    assert level.free_spins_rtp * 100 == pytest.approx(0.084747 * 231.019225, abs=1e-3)
    assert level.rtp * 100 == pytest.approx(96.001154, abs=5e-7)


def test_secret_elixir_lines_equal_a_plain_enumerator():
    """The base game's line return, by the rule code enumerated here, to 1e-12."""
    raw = tomllib.loads(SECRET_ELIXIR.read_text())
    strips, paylines = raw["reels"]["strips"], raw["reels"]["paylines"]
    mean = _line_credits_per_spin(strips, paylines)
    level = compute_exact(load_machine(SECRET_ELIXIR)).levels[0]
    assert level.line_rtp == pytest.approx(mean / len(paylines), rel=1e-12)


def test_a_number_on_the_free_strips_only_is_not_impossible():
    """x10 and x20 are on the free spins' reel 5 only: their entries can occur (no
    warning), while a number on neither strip set still warns."""
    from certify.codes import Code
    from certify.model.loader import parse_machine

    raw = tomllib.loads(SECRET_ELIXIR.read_text())
    _, problems = parse_machine(raw, "m.toml")
    assert not [p for p in problems if p.code == Code.IMPOSSIBLE_COMBO]
    raw["symbols"]["X50"] = {"kind": "regular"}
    raw["pays"].append({"combo": ["TEN", "TEN", "TEN", "ANY", "X50"], "pays": 250})
    _, problems = parse_machine(raw, "m.toml")
    assert [p.path for p in problems if p.code == Code.IMPOSSIBLE_COMBO] == ["pays[132].combo"]
