"""The README's commands and .ci/run stay in step."""

from testpaths import ROOT


def test_ci_runs_the_readme_test_command():
    readme = (ROOT / "README.md").read_text()
    ci = (ROOT / ".ci" / "run").read_text()
    command = next(
        line
        for line in readme.splitlines()
        if line.startswith("python3 -m venv") and "pytest" in line
    )
    assert command in ci.splitlines()


def test_readme_first_command_certifies_the_shipped_models():
    readme = (ROOT / "README.md").read_text()
    first = next(line for line in readme.splitlines() if line.startswith("python3 -m venv"))
    assert "slotcert certify models/machines" in first


def test_readme_lists_every_shipped_game():
    """The "Models shipped" paragraph names each machine of models/machines (issue 29)."""
    readme = (ROOT / "README.md").read_text()
    shipped = readme.split("## Models shipped", 1)[1].split("\n## ", 1)[0]
    games = sorted(p.stem for p in (ROOT / "models" / "machines").glob("*.toml"))
    assert len(games) == 12
    assert [g for g in games if f"`{g}`" not in shipped] == []
