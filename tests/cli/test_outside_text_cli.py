"""The command line prints outside text as written: markup stays literal, and an escape sequence
in a file name is printed as a visible escape, never sent to the terminal."""

from __future__ import annotations

from pathlib import Path

import pytest
from hostile import ACTION, DRILL, MARKUP, TITLE, write_hostile_content

from tokdrill.cli import main


@pytest.fixture
def content(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "content"
    write_hostile_content(folder)
    monkeypatch.setenv("TOKDRILL_CONTENT", str(folder))
    return folder


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["list"], TITLE),
        (["list", "--json"], TITLE),
        (["show", DRILL], MARKUP + " prompt"),
        (["show", DRILL, "--prompt"], MARKUP + " prompt"),
        (["validate"], f"{ACTION} \\x1b[31m.yaml:2: yaml:"),
    ],
)
def test_commands_print_outside_text_literally(
    content: Path, capsys: pytest.CaptureFixture[str], argv: list[str], expected: str
) -> None:
    main(argv)
    printed = capsys.readouterr()
    both = printed.out + printed.err
    assert expected in both or expected.replace("\\", "\\\\") in both, both[-2000:]
    assert "\x1b" not in both
