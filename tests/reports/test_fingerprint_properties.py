"""Property tests: any re-serialisation keeps the fingerprint; any one edit is named exactly."""

from __future__ import annotations

import json
import random
import tomllib
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from certify.model.fingerprint import canonical_form, diff_canonical, fingerprint
from certify.model.loader import parse_machine

SMALL = Path(__file__).parent / "data" / "small.toml"
DATA = tomllib.loads(SMALL.read_text(encoding="utf-8"))
BASE = parse_machine(DATA, "small.toml")[0]


def _value(v, rnd: random.Random) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int | str):
        return json.dumps(v)
    sep = rnd.choice([", ", ",", " , ", ",\n  "])
    if isinstance(v, list):
        return "[" + sep.join(_value(x, rnd) for x in v) + rnd.choice(["", ","]) * bool(v) + "]"
    items = list(v.items())
    rnd.shuffle(items)
    return "{" + ", ".join(f"{_key(k)} = {_value(x, rnd)}" for k, x in items) + "}"


def _key(k: str) -> str:
    return k if k.replace("_", "").replace("-", "").isalnum() else json.dumps(k)


def _body(table: dict, rnd: random.Random) -> list[str]:
    items = list(table.items())
    rnd.shuffle(items)
    pad = rnd.choice([" = ", "=", "   =  "])
    comment = rnd.choice(["", "  # note", " #"])
    return [
        f"{_key(k)}{pad}{_value(v, rnd)}{comment if rnd.random() < 0.3 else ''}" for k, v in items
    ]


def to_toml(data: dict, rnd: random.Random) -> str:
    """Write ``data`` back as TOML with shuffled keys, random spacing and comments."""
    lines = ["# regenerated"] if rnd.random() < 0.5 else []
    scalars = {
        k: v
        for k, v in data.items()
        if not isinstance(v, dict | list)
        or (isinstance(v, list) and not all(isinstance(x, dict) for x in v))
    }
    lines += _body(scalars, rnd)
    sections = [k for k in data if k not in scalars]
    rnd.shuffle(sections)
    for name in sections:
        value = data[name]
        if isinstance(value, dict):
            lines += ["", f"[{name}]"] + _body(value, rnd)
        else:
            for entry in value:
                lines += [rnd.choice(["", "# entry"]), f"[[{name}]]"] + _body(entry, rnd)
    return "\n".join(lines) + "\n"


@settings(max_examples=40, deadline=None)
@given(st.randoms(use_true_random=False))
def test_any_serialisation_has_the_same_fingerprint(rnd):
    text = to_toml(DATA, rnd)
    machine, _ = parse_machine(tomllib.loads(text), "regenerated.toml")
    assert fingerprint(machine) == fingerprint(BASE)


_SYMBOLS = ["A", "K", "Q", "CH", "W", "SC", "BN"]


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_one_edit_is_named_by_its_key_path(data):
    edited = json.loads(json.dumps(DATA))
    kind = data.draw(st.sampled_from(["strip", "weight", "pay"]))
    reel = data.draw(st.integers(0, 2))
    stop = data.draw(st.integers(0, 11))
    if kind == "strip":
        old = edited["reels"]["strips"][reel][stop]
        new = data.draw(st.sampled_from([s for s in _SYMBOLS if s != old]))
        edited["reels"]["strips"][reel][stop] = new
        expected = f'reels.strips[{reel}][{stop}]: "{old}" -> "{new}"'
    elif kind == "weight":
        old = edited["reels"]["weights"][reel][stop]
        new = old + data.draw(st.integers(1, 5))
        edited["reels"]["weights"][reel][stop] = new
        expected = f"reels.weights[{reel}][{stop}]: {old} -> {new}"
    else:
        index = data.draw(st.integers(0, 5))
        old = edited["pays"][index]["pays"]
        new = old + data.draw(st.integers(1, 100))
        edited["pays"][index]["pays"] = new
        expected = f"pays[{index}].pays: {old} -> {new}"
    machine, _ = parse_machine(edited, "edited.toml")
    assert fingerprint(machine) != fingerprint(BASE)
    assert diff_canonical(canonical_form(BASE), canonical_form(machine)) == [expected]
