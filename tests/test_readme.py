"""README's first commands are the ones CI runs."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _readme_commands() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```bash\n(.*?)```", text, re.S)
    assert block, "README.md must open with a bash block of commands"
    return [line.split("#")[0].strip() for line in block.group(1).splitlines() if line.strip()]


def test_readme_opens_with_install_and_test_commands() -> None:
    commands = _readme_commands()
    assert len(commands) == 2, commands
    assert commands[0].endswith("tokdrill"), "first command installs and opens the app"
    assert "pytest" in commands[1], "second command installs and runs the tests"


def test_ci_runs_the_readme_test_command() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert _readme_commands()[1] in ci.splitlines()
