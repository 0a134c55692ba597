"""A helper that writes edited copies of the shipped tables."""

from pathlib import Path

import pytest


@pytest.fixture
def variant(tmp_path):
    """Write a copy of a shipped table with text replacements; return its path."""
    def make(source: Path, *edits: tuple[str, str], name: str = "x.toml") -> Path:
        text = source.read_text(encoding="utf-8")
        for old, new in edits:
            assert old in text, old
            text = text.replace(old, new, 1)
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        return path
    return make
