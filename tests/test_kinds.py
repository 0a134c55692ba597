"""File kinds: registered once (certify/kinds.py), dispatched once (certify/model/files.py)."""

import ast
import re
from pathlib import Path

import pytest

from certify.errors import UsageError
from certify.kinds import ALL_KINDS, KIND_OF_SCHEMA, MODEL_KIND_NAMES, model_kind, schema_of_kind
from certify.model.files import LOADERS, expect_kind, kind_of, load_model, machine_files

ROOT = Path(__file__).resolve().parents[1]
MODELS = ROOT / "models"
PACKAGES = ("certify", "reports", "meters", "slotcert")
SCHEMA = re.compile(r"slotcert/[a-z-]+@[0-9]+")


def test_every_schema_string_in_the_sources_is_registered():
    """Any ``slotcert/<kind>@<n>`` a module writes (code or docs) names a registered kind."""
    registered = {k.schema for k in ALL_KINDS}
    found = set()
    for pkg in PACKAGES:
        for path in sorted((ROOT / pkg).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Constant) and isinstance(node.value, str):
                    found |= set(SCHEMA.findall(node.value))
    assert found, "the scan finds the schema strings"
    assert sorted(found - registered) == []


def test_model_kinds_and_their_loaders():
    assert MODEL_KIND_NAMES == ("machine", "jurisdiction", "link", "table")
    assert set(LOADERS) == set(MODEL_KIND_NAMES)
    assert KIND_OF_SCHEMA["slotcert/table@1"] == "table"
    assert model_kind("slotcert/certificate@1") == ""  # an output, not a model
    assert schema_of_kind("checkpoint") == "slotcert/checkpoint@1"
    with pytest.raises(KeyError):
        schema_of_kind("nonsense")


@pytest.mark.parametrize(
    ("path", "kind"),
    [
        ("machines/ref-5x3-20.toml", "machine"),
        ("jurisdictions/pt.toml", "jurisdiction"),
        ("tables/fantan.toml", "table"),
    ],
)
def test_shipped_files_load_by_their_kind(path, kind):
    assert kind_of(MODELS / path)[0] == kind
    loaded = load_model(MODELS / path)
    assert type(loaded).__name__ == {"machine": "Machine", "jurisdiction": "Jurisdiction"}.get(
        kind, "Table"
    )


def test_wrong_kind_is_a_one_line_usage_error():
    wrong = r"is a table file \(slotcert/table@1\), expected a machine"
    with pytest.raises(UsageError, match=wrong):
        expect_kind(MODELS / "tables" / "fantan.toml", "machine")


def test_machine_files_of_a_folder_skip_the_other_kinds(tmp_path):
    (tmp_path / "a.toml").write_text('schema = "slotcert/machine@1"\n')
    (tmp_path / "b.toml").write_text('schema = "slotcert/table@1"\n')
    (tmp_path / "c.toml").write_text("not = [valid\n")  # unreadable: kept, reported invalid
    skipped = []
    got = machine_files([str(tmp_path)], lambda p, s: skipped.append((p.name, s)))
    assert [p.name for p in got] == ["a.toml", "c.toml"]
    assert skipped == [("b.toml", "slotcert/table@1")]
    named = machine_files([str(tmp_path / "b.toml")])  # a file named on purpose is kept
    assert [p.name for p in named] == ["b.toml"]
