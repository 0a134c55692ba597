"""Roulette: exact figures against the published single-zero edge, layout, validation."""

import re
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tables_support import AMERICAN, FRENCH, IX_FRENCH_AS_PRINTED, write_variant

from certify.errors import ModelError
from certify.tables import exact_results, layout, load_table
from certify.tables.roulette import permutation_problem

SEQUENCE_RE = re.compile(r"sequence = \[[^\]]*\]", re.S)


@pytest.mark.parametrize("path", [FRENCH, AMERICAN], ids=["french", "american"])
def test_every_bet_has_the_published_single_zero_edge(path):
    """Published figure: every single-zero bet returns 36/37, edge 1/37 = 2.7027%.

    Oracle: (n/37)(1 + pays) with the seed's pays (X.20) is 36/37 for every n.
    """
    results = exact_results(load_table(path))
    assert len(results) == 26
    for r in results:
        n = len(r.bet.win)
        assert r.probabilities == (1 - Fraction(n, 37), 0, Fraction(n, 37))
        assert r.rtp == Fraction(36, 37)
        assert abs(float(1 - r.rtp) - 0.027027027) < 1e-9


def _grid(n):
    return divmod(n - 1, 3)  # (row, column)


def test_layout_shapes_match_an_independent_geometry():
    """Counts from the standard layout: 57 splits + 3 with zero, 12 streets + 2,
    22 corners + first four, 11 six-lines; adjacency checked on (row, column)."""
    assert len(layout.shapes("cavalo")) == 60
    assert len(layout.shapes("rua")) == 14
    assert len(layout.shapes("quadro")) == 23
    assert len(layout.shapes("linha")) == 11
    for pair in layout.shapes("cavalo"):
        a, b = sorted(pair)
        if a == 0:
            assert b in (1, 2, 3)
            continue
        (ra, ca), (rb, cb) = _grid(a), _grid(b)
        assert abs(ra - rb) + abs(ca - cb) == 1
    for quad in layout.shapes("quadro"):
        if 0 in quad:
            continue
        cells = sorted(_grid(n) for n in quad)
        r0, c0 = cells[0]
        assert cells == [(r0, c0), (r0, c0 + 1), (r0 + 1, c0), (r0 + 1, c0 + 1)]


def errors_of(info):
    return [str(p) for p in info.value.problems if p.severity == "error"]


def test_seed_ix_french_numbering_is_rejected_naming_duplicate_and_missing(tmp_path):
    text = SEQUENCE_RE.sub(
        f"sequence = {IX_FRENCH_AS_PRINTED}", FRENCH.read_text(encoding="utf-8"), count=1
    )
    path = tmp_path / "x.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ModelError) as info:
        load_table(path)
    assert errors_of(info) == [f"{path}: wheel.sequence: 6 appears twice; missing 16"]


def test_every_wheel_problem_is_reported_at_once(tmp_path):
    path = write_variant(
        tmp_path,
        FRENCH,
        ("sequence = [0, 32, 15", "sequence = [0, 32, 32"),
        ("33, 1, 20, 14", "33, 1, 20, 20"),
        ("12, 14, 16, 18", "12, 14, 16, 17"),
    )
    with pytest.raises(ModelError) as info:
        load_table(path)
    assert errors_of(info) == [
        f"{path}: wheel.sequence: 20 appears twice, 32 appears twice; missing 14, 15",
        f"{path}: wheel.red: 17 is black on the standard layout; missing red 18",
    ]


def test_cavalo_on_non_adjacent_numbers_is_rejected(tmp_path):
    path = write_variant(tmp_path, FRENCH, ("numbers = [17, 20]", "numbers = [5, 9]"))
    with pytest.raises(ModelError) as info:
        load_table(path)
    assert errors_of(info) == [
        f"{path}: bets[4].numbers: [5, 9] is not a cavalo on the layout "
        "(a cavalo is two adjacent numbers, or 0 with 1, 2 or 3)"
    ]


def test_limits_breaking_a_seed_ratio_are_rejected(tmp_path):
    path = write_variant(
        tmp_path,
        FRENCH,
        ('cavalo = {min = "5", max = "100"}', 'cavalo = {min = "20", max = "600"}'),
    )
    with pytest.raises(ModelError) as info:
        load_table(path)
    assert errors_of(info) == [
        f'{path}: limits.cavalo: max "600" / min "20" = 30; Portaria 1441/95 X.27 requires 20'
    ]


def test_shipped_limits_keep_every_seed_ratio():
    """X.27 as read from the seed text: pleno 10, cavalo 20, rua 30, linha 60,
    dúzia/coluna 120, chances simples 180, cavalo de dúzia/coluna 240."""
    seed = {
        "pleno": 10,
        "cavalo": 20,
        "rua": 30,
        "linha": 60,
        "duzia": 120,
        "coluna": 120,
        "cavalo_de_duzia": 240,
        "cavalo_de_coluna": 240,
        **{k: 180 for k in ("par", "impar", "menor", "maior", "encarnado", "preto")},
    }
    table = load_table(FRENCH)
    checked = {lim.type: lim.max / lim.min for lim in table.limits if lim.type in seed}
    assert checked == seed


def test_american_numbering_is_a_permutation_with_a_colour_warning():
    table = load_table(AMERICAN)
    assert sorted(table.outcomes) == list(range(37))
    messages = [p.message for p in table.warnings if p.code == "colour_alternation"]
    assert messages == [
        "colours do not alternate: 27 and 1 are neighbours and both red (Portaria 1441/95 X.7)"
    ]


@pytest.mark.parametrize(
    "edit, message",
    [
        (("[wheel]", '[wheel]\ncolour = "red"'), "wheel.colour: unknown key 'colour'"),
        (
            ('pays = "35"', "pays = 35"),
            'bets[0].pays: must be a decimal or fraction string such as "0.5" or "1/3", got 35',
        ),
        (
            ('type = "rua"', 'type = "street"'),
            "bets[5].type: must be one of pleno, cavalo, rua, "
            "quadro, linha, duzia, coluna, cavalo_de_duzia, cavalo_de_coluna, par, impar, menor, "
            "maior, encarnado, preto, got 'street'",
        ),
        (
            ("numbers = [0, 1, 2]", "numbers = [0, 1, 37]"),
            "bets[5].numbers[2]: 37 is not a number 0–36",
        ),
        (
            ('name = "pleno 17"', 'name = "pleno 0"'),
            "bets[1].name: 'pleno 0' is already the name of bets[0]",
        ),
        (
            ('pleno = {min = "5", max = "50"}', 'pleno = {min = "5", max = 50}'),
            'limits.pleno.max: must be a decimal string such as "0.05", got 50',
        ),
    ],
)
def test_invalid_roulette_files_name_key_and_value(tmp_path, edit, message):
    path = write_variant(tmp_path, FRENCH, edit)
    with pytest.raises(ModelError) as info:
        load_table(path)
    assert f"{path}: {message}" in [str(p) for p in info.value.problems]


@settings(max_examples=100, deadline=None)
@given(st.permutations(list(range(37))), st.integers(0, 36), st.integers(0, 36))
def test_permutation_check_names_exactly_the_duplicate_and_the_missing(perm, i, j):
    assert permutation_problem(list(perm)) is None
    if perm[i] == perm[j]:
        return
    broken = list(perm)
    lost = broken[i]
    broken[i] = broken[j]
    assert permutation_problem(broken) == f"{broken[j]} appears twice; missing {lost}"
