"""Any malformed value anywhere in a machine file is a ModelError, never a crash."""

from __future__ import annotations

import copy
import tomllib

from hypothesis import example, given, settings
from hypothesis import strategies as st
from testpaths import DATA

from certify.errors import ModelError
from certify.model.loader import parse_machine

BASE = tomllib.loads((DATA / "small_features.toml").read_text())


def _paths(node, prefix=()):
    yield prefix
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _paths(value, (*prefix, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _paths(value, (*prefix, i))


PATHS = [p for p in _paths(BASE) if p]
VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-5, 10**12)
    | st.floats(allow_nan=True)
    | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3)
    ),
    max_leaves=6,
)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(PATHS), VALUES)
@example(path=("free_spins", "spins"), value={"²": None})  # isdigit() but not int(): found here
def test_any_bad_value_is_a_model_error(path, value):
    data = copy.deepcopy(BASE)
    node = data
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    try:
        parse_machine(data, "m.toml")
    except ModelError:
        pass
