"""The feature registry (``certify/features``) held against the code, and the tests it generates.

What a feature declares is checked where it can be wrong: every key of the
machine JSON Schema has exactly one owner and every declared key is in the
schema; every example uses its feature; its pay-glass keys are in all four
languages; its PAR sections are tables the PAR builds; the kernel branch and
the play path it declares are the ones the engine picks. Then, per feature
and generated from the registry: its first example simulates bit-identically
on 1 and 2 threads (oracle: the same run on one thread), inside the exact
interval (oracle: the exact calculator, z(0.999)), and, where the feature
names a twin model, its exact figures equal the twin's brute force to 1e-12
(oracle: the pure-Python twin written from the SPEC).
"""

from __future__ import annotations

import importlib
import math
import tomllib

import numba
import pytest
from sim_figures import figures
from testpaths import MACHINES, ROOT
from twins.check import assert_exact_equals_twin

from certify.engine import compile_machine, simulate
from certify.engine.simulate import extras_flag, ways_flag
from certify.exact import compute_exact
from certify.features import BY_NAME, REGISTRY, SCREENS, features_of, owner, play_path
from certify.features.base import EXTRAS, SCREEN_KERNEL, WAYS_KERNEL
from certify.model import load_machine
from certify.model.jsonschema import machine_schema
from certify.model.screens import is_screen_game
from certify.stats import z_value

NAMES = [f.name for f in REGISTRY]
LANGUAGES = sorted((ROOT / "reports" / "i18n").glob("*.toml"))
SPINS = 40_000
CHUNK = 2048


def schema_keys(node: dict, path: str = "") -> list[str]:
    """Every key path of a JSON Schema: ``a.b``, ``symbols.*.kind``, ``pays[].combo``."""
    out: list[str] = []
    for key, sub in node.get("properties", {}).items():
        here = f"{path}.{key}" if path else key
        out += [here, *schema_keys(sub, here)]
    if isinstance(node.get("additionalProperties"), dict):
        out += schema_keys(node["additionalProperties"], path + ".*")
    if isinstance(node.get("items"), dict):
        out += schema_keys(node["items"], path + "[]")
    for alternative in node.get("oneOf", []):
        out += schema_keys(alternative, path)
    return list(dict.fromkeys(out))


def test_every_schema_key_has_an_owner():
    keys = schema_keys(machine_schema())
    assert len(keys) > 100
    assert [k for k in keys if owner(k) is None] == []


def test_every_declared_key_is_in_the_schema():
    keys = set(schema_keys(machine_schema()))
    stale = [(f.name, k) for f in REGISTRY for k in f.keys if k not in keys]
    assert stale == []


def test_a_key_belongs_to_the_longest_declared_prefix():
    assert owner("free_spins.big_symbol.reels") is BY_NAME["big_symbol"]
    assert owner("free_spins.spins") is BY_NAME["free_spins"]
    assert owner("symbols.*.sticky") is BY_NAME["sticky"]
    assert owner("symbols.*.kind") is BY_NAME["base_game"]
    assert owner("cascade.refill") is BY_NAME["cascade"]
    assert owner("nothing") is None


def test_names_are_the_modules():
    assert len(set(NAMES)) == len(NAMES)
    for f in REGISTRY:
        assert importlib.import_module(f"certify.features.{f.name}").FEATURE is f


@pytest.mark.parametrize("name", NAMES)
def test_the_declaration_is_whole(name):
    f = BY_NAME[name]
    assert f.keys and f.examples and f.exact and f.glass, name
    assert (ROOT / "tests" / "twins" / f"{f.twin}.py").exists()
    assert (ROOT / f.prebuilt).exists()
    for example in f.examples:
        assert f.used(load_machine(ROOT / example)), (name, example)


def test_a_plain_game_uses_only_the_base_features():
    used = [f.name for f in features_of(load_machine(ROOT / "models/machines/edge-3r-1.toml"))]
    assert used == ["base_game"]


@pytest.mark.parametrize("language", LANGUAGES, ids=lambda p: p.stem)
def test_every_glass_key_is_translated(language):
    text = tomllib.loads(language.read_text(encoding="utf-8"))["text"]
    missing = [(f.name, k) for f in REGISTRY for k in f.glass if k not in text]
    assert missing == []


def test_every_par_section_is_built():
    source = (ROOT / "certify" / "exact" / "parfeatures.py").read_text(encoding="utf-8")
    missing = [(f.name, s) for f in REGISTRY for s in f.par if f'"{s}"' not in source]
    assert missing == []


def test_the_prebuilt_models_are_the_ones_the_bundle_certifies():
    from certify.prebuilt_build import CAPPED, COVERAGE

    certified = {p.relative_to(ROOT).as_posix() for p in (*MACHINES.glob("*.toml"), *COVERAGE)}
    certified.add(CAPPED.relative_to(ROOT).as_posix())
    assert {f.prebuilt for f in REGISTRY} <= certified


def _example(name: str):
    return load_machine(ROOT / BY_NAME[name].examples[0])


@pytest.mark.parametrize("name", NAMES)
def test_the_declared_path_and_kernel_are_the_engines(name):
    """Every example: the screen path exactly for the games SPEC 3.1b plays screen by screen
    (a cascade, cluster pays, a sticky wild: read from the model, not from the registry) and
    the screen kernel then; the ways kernel iff the ways feature; the extras branch only when
    a feature of it declares it."""
    for example in BY_NAME[name].examples:
        machine = load_machine(ROOT / example)
        used = features_of(machine)
        kept = (
            machine.cascade is not None
            or machine.evaluation == "cluster"
            or any(s.sticky for s in machine.symbols)
        )
        assert (play_path(machine) == SCREENS) == kept == is_screen_game(machine)
        assert kept == any(f.simulation == SCREEN_KERNEL for f in used)
        if is_screen_game(machine):
            continue
        tables = compile_machine(machine)
        assert (ways_flag(tables) is not None) == any(f.simulation == WAYS_KERNEL for f in used)
        if extras_flag(tables) is not None:
            assert any(f.simulation == EXTRAS for f in used), example


@pytest.mark.skipif(numba.config.NUMBA_NUM_THREADS < 2, reason="needs 2 numba threads")
@pytest.mark.parametrize("name", NAMES)
def test_one_and_two_threads_give_the_same_bits(name):
    tables = compile_machine(_example(name))
    before = numba.get_num_threads()
    runs = []
    try:
        for threads in (1, 2):
            numba.set_num_threads(threads)
            runs.append(simulate(tables, 0, 20 * CHUNK + 77, 2026, chunk_spins=CHUNK, stream=1))
    finally:
        numba.set_num_threads(before)
    assert runs[0].spins == 20 * CHUNK + 77
    assert figures(runs[0]) == figures(runs[1])


@pytest.mark.parametrize("name", NAMES)
def test_simulation_inside_the_exact_interval(name):
    tables = compile_machine(_example(name))
    exact = compute_exact(tables)
    if exact is None:
        assert BY_NAME[name].examples[0] == "models/machines/cluster-7x7.toml"  # 8e9 screens
        pytest.skip("simulation only: no exact figure to compare")
    lvl = exact.levels[0]
    sim = simulate(tables, 0, SPINS, seed=41, stream=3)
    z = z_value(0.999)
    assert abs(sim.rtp - lvl.rtp) < z * lvl.sigma / math.sqrt(SPINS)
    p = lvl.hit_frequency
    assert abs(sim.hits - SPINS * p) < z * math.sqrt(SPINS * p * (1 - p)) + 1e-9


TWINNED = [f.name for f in REGISTRY if f.twin_model]


@pytest.mark.parametrize("name", TWINNED)
def test_exact_equals_the_twin(name):
    f = BY_NAME[name]
    machine = load_machine(ROOT / f.twin_model)
    assert f.used(machine)
    twin = importlib.import_module(f"twins.{f.twin}")
    assert_exact_equals_twin(machine, twin.brute_force)
