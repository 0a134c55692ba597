"""JSON Schemas of the model kinds: shipped models pass, unknown keys fail, loaders agree.

The keys a loader accepts are read from its source: every ``Reader.table(...)``
and ``section(...)`` call lists the required and optional keys of one table.
Each key must be in the JSON Schema of its kind and in docs/MODELS.md, and
every key of the schema must be one a loader accepts. A key added to a loader
without the schema and the docs fails here, naming it.
"""

from __future__ import annotations

import ast
import copy
import re
import tomllib
from pathlib import Path

import jsonschema
import pytest
from testpaths import DATA, ROOT

from certify.errors import ModelError
from certify.model.jsonschema import KINDS, TABLE_SECTIONS, json_schema
from certify.model.loader import parse_machine

LOADERS = {
    "machine": [
        "certify/model/loader.py",
        "certify/model/rules.py",
        "certify/model/features.py",
        "certify/model/hold.py",
        "certify/model/screens.py",
        "certify/model/bonusgame.py",
        "certify/model/paint.py",
        "certify/model/big.py",
    ],
    "jurisdiction": ["certify/model/jurisdiction.py"],
    "link": ["certify/model/links.py"],
    "table": [
        "certify/tables/loader.py",
        "certify/tables/fields.py",
        "certify/tables/roulette.py",
        "certify/tables/fantan.py",
        "certify/tables/duel.py",
    ],
}
MODELS_DOC = ROOT / "docs" / "MODELS.md"


def _kind(data: dict) -> str:
    return str(data.get("schema", "")).removeprefix("slotcert/").removesuffix("@1")


def _shipped() -> list[Path]:
    return sorted((ROOT / "models").rglob("*.toml")) + sorted(DATA.rglob("*.toml"))


def _validator(kind: str) -> jsonschema.Draft202012Validator:
    schema = json_schema(kind)
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


@pytest.mark.parametrize("kind", KINDS)
def test_schemas_are_valid_draft_2020_12(kind):
    schema = json_schema(kind)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(schema)


@pytest.mark.parametrize("path", _shipped(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_shipped_model_matches_its_schema(path):
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    kind = _kind(data)
    assert kind in KINDS, path
    errors = [
        f"{'/'.join(map(str, e.absolute_path))}: {e.message}"
        for e in _validator(kind).iter_errors(data)
    ]
    assert errors == []


def test_every_kind_has_a_shipped_model():
    kinds = {_kind(tomllib.loads(p.read_text(encoding="utf-8"))) for p in _shipped()}
    assert kinds == set(KINDS)


REF = ROOT / "models" / "machines" / "ref-5x3-20.toml"


@pytest.mark.parametrize(
    "where",
    [
        lambda d: d.__setitem__("colour", "red"),
        lambda d: d["bet"].__setitem__("max_bet", 5),
        lambda d: d["pays"][0].__setitem__("pay", 3),
        lambda d: d["symbols"]["A"].__setitem__("wild", True),
        lambda d: d["free_spins"]["trigger"].__setitem__("anywhere", True),
    ],
    ids=["top", "bet", "pays[0]", "symbols.A", "free_spins.trigger"],
)
def test_an_unknown_key_is_rejected_by_schema_and_loader(where):
    data = tomllib.loads(REF.read_text(encoding="utf-8"))
    assert _validator("machine").is_valid(data)
    bad = copy.deepcopy(data)
    where(bad)
    assert not _validator("machine").is_valid(bad)
    with pytest.raises(ModelError, match="unknown key"):
        parse_machine(bad, "x.toml")


def test_wrong_types_and_choices_are_rejected():
    data = tomllib.loads(REF.read_text(encoding="utf-8"))
    for change in (
        lambda d: d["bet"].__setitem__("denomination", 0.01),  # money is a string
        lambda d: d["reels"].__setitem__("evaluation", "clusters"),
        lambda d: d["pays"][0].__setitem__("pays_by_level", [1, 2, 3]),  # both pays forms
        lambda d: d["free_spins"]["spins"].__setitem__("three", 10),
    ):
        bad = copy.deepcopy(data)
        change(bad)
        assert not _validator("machine").is_valid(bad)


def test_table_sections_follow_the_loader():
    from certify.tables.loader import _SECTIONS

    assert TABLE_SECTIONS == _SECTIONS


# -- the loaders' keys -----------------------------------------------------------------------


def _strings(node: ast.AST, constants: dict[str, set[str]]) -> set[str]:
    out: set[str] = set()
    for sub in ast.walk(node):
        if isinstance(sub, ast.Constant) and isinstance(sub.value, str):
            out.add(sub.value)
        elif isinstance(sub, ast.Name) and sub.id in constants:
            out |= constants[sub.id]
    return out


def loader_tables(kind: str) -> list[tuple[str, str | None, set[str], set[str]]]:
    """``(file, table path, required, optional)`` of every keyed table a kind's loaders read."""
    calls = []
    for rel in LOADERS[kind]:
        calls += table_calls((ROOT / rel).read_text(encoding="utf-8"), rel)
    return calls


def table_calls(source: str, rel: str) -> list[tuple[str, str | None, set[str], set[str]]]:
    """The keyed tables one loader module reads (see :func:`loader_tables`)."""
    calls = []
    tree = ast.parse(source)
    constants: dict[str, set[str]] = {}
    for node in tree.body:
        target = node.targets[0] if isinstance(node, ast.Assign) else None
        if isinstance(node, ast.AnnAssign):
            target = node.target
        value = getattr(node, "value", None)
        if isinstance(target, ast.Name) and isinstance(value, ast.Tuple):
            constants[target.id] = _strings(value, {})
        elif isinstance(target, ast.Name) and isinstance(value, ast.Dict):  # values only
            constants[target.id] = set().union(*(_strings(v, {}) for v in value.values))
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr == "table" and len(node.args) >= 3:
            path_arg, keys = node.args[1], node.args[2:4]
        elif isinstance(func, ast.Name) and func.id == "section" and len(node.args) >= 4:
            path_arg, keys = node.args[2], node.args[3:5]
        else:
            continue
        path = path_arg.value if isinstance(path_arg, ast.Constant) else None
        required = _strings(keys[0], constants)
        optional = _strings(keys[1], constants) if len(keys) > 1 else set()
        if required or optional:
            calls.append((rel, path, required, optional))
    if "_SECTIONS" in constants:  # the table loader's top-level sections per game kind
        calls.append((rel, "", set(), constants["_SECTIONS"]))
    return calls


def test_a_new_loader_table_is_seen():
    """What another engineer's new ``[rules]`` table would look like to these tests."""
    source = (
        '_RULES = ("wild_multiplyer", "win_kap")\n'
        "def _rules(rd, raw):\n"
        '    return rd.table(raw, "rules", (), _RULES)\n'
    )
    [(_, path, required, optional)] = table_calls(source, "x.py")
    assert (path, required, optional) == ("rules", set(), {"wild_multiplyer", "win_kap"})
    assert not {"wild_multiplyer", "win_kap"} <= _schema_keys("machine")


def _objects(schema: object):
    """Every sub-schema that lists ``properties``."""
    if isinstance(schema, dict):
        if isinstance(schema.get("properties"), dict):
            yield schema
        for value in schema.values():
            yield from _objects(value)
    elif isinstance(schema, list):
        for value in schema:
            yield from _objects(value)


def _dicts(schema: object):
    if isinstance(schema, dict):
        yield schema
        for value in schema.values():
            yield from _dicts(value)
    elif isinstance(schema, list):
        for value in schema:
            yield from _dicts(value)


def _schema_keys(kind: str) -> set[str]:
    return {k for obj in _objects(json_schema(kind)) for k in obj["properties"]}


@pytest.mark.parametrize("kind", KINDS)
def test_the_loaders_keys_are_read(kind):
    calls = loader_tables(kind)
    assert calls, f"no Reader.table calls found for {kind}: did the loader move?"
    keys = set().union(*(r | o for _, _, r, o in calls))
    assert {"machine": "combo", "jurisdiction": "min_rtp", "link": "members"}.get(
        kind, "bets"
    ) in keys


@pytest.mark.parametrize("kind", KINDS)
def test_every_key_a_loader_accepts_is_in_the_schema(kind):
    objects = [set(obj["properties"]) for obj in _objects(json_schema(kind))]
    musts = [set(d["required"]) for d in _dicts(json_schema(kind)) if "required" in d]
    missing = []
    for rel, path, required, optional in loader_tables(kind):
        keys = required | optional
        if not any(keys <= props for props in objects):
            best = max(objects, key=lambda props: len(keys & props))
            missing.append(f"{rel}: table {path!r}: {sorted(keys - best)}")
        elif path is not None and required and not any(required <= req for req in musts):
            missing.append(f"{rel}: table {path!r}: required {sorted(required)} not required")
    assert missing == [], "keys the loader accepts but the JSON Schema does not"


@pytest.mark.parametrize("kind", KINDS)
def test_the_schema_accepts_no_key_the_loaders_refuse(kind):
    from certify.tables.layout import BET_TYPES

    accepted = set().union(*(r | o for _, _, r, o in loader_tables(kind)))
    if kind == "table":
        accepted |= set(BET_TYPES)  # [limits] is keyed by bet type
    assert _schema_keys(kind) - accepted == set()


@pytest.mark.parametrize("kind", KINDS)
def test_every_key_of_the_schema_has_a_type(kind):
    untyped = [
        key
        for obj in _objects(json_schema(kind))
        for key, sub in obj["properties"].items()
        if sub == {}  # accepted, but with no type: a loader key the schema has not described
        and obj.get("additionalProperties") is False
    ]
    assert untyped == []


def _doc_sections() -> dict[str, str]:
    text = MODELS_DOC.read_text(encoding="utf-8")
    parts = re.split(r"^## ", text, flags=re.M)
    out = {}
    for part in parts[1:]:
        title = part.split("\n", 1)[0].lower()
        for kind in KINDS:
            if title.startswith(kind):
                out[kind] = part
    return out


@pytest.mark.parametrize("kind", KINDS)
def test_every_key_a_loader_accepts_is_documented(kind):
    section = _doc_sections().get(kind)
    assert section, f"docs/MODELS.md has no '## {kind.title()}...' section"
    prose = re.sub(r"^```.*?^```", "", section, flags=re.M | re.S)  # examples do not count
    spans = re.findall(r"`([^`\n]+)`", prose)
    documented = {word for span in spans for word in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", span)}
    keys = set().union(*(r | o for _, _, r, o in loader_tables(kind)))
    assert sorted(keys - documented) == []


def test_models_doc_is_linked_from_the_readme():
    assert "docs/MODELS.md" in (ROOT / "README.md").read_text(encoding="utf-8")
