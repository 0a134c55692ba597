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
