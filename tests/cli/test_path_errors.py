"""A path the system refuses (a 5,000-character name, a loop of symbolic links) gets a one-line
message naming the file from every command that takes a path, never a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

from tokdrill.cli import main

LONG = "n" * 5000

COMMANDS = {
    "validate": ["validate", LONG],
    "start": ["start", "bytes-to-unicode", LONG, "--force"],
    "check": ["check", "bytes-to-unicode", LONG, "--no-record"],
    "import": ["import", LONG],
    "export": ["export", LONG],
    "import-anki": ["import-anki", LONG, "--deck", "long"],
    "export-anki": ["export-anki", LONG + ".apkg"],
    "data folder": ["--data-dir", LONG, "stats"],
}


@pytest.mark.parametrize("name", list(COMMANDS))
def test_a_5000_character_file_name_is_one_line_naming_the_file(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    code = main(COMMANDS[name])
    err = capsys.readouterr().err
    assert code in (1, 2)
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err[:500]
    assert "n" * 60 in err and ("File name too long" in err or "5,000" in err or len(err) > 5000), err[:500]


def test_a_loop_of_symbolic_links_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("loop.yaml").symlink_to("loop.yaml")
    for argv in (["validate", "loop.yaml"], ["import-anki", "loop.yaml", "--deck", "loop"]):
        code = main(argv)
        err = capsys.readouterr().err
        assert code in (1, 2) and "Traceback" not in err and "loop.yaml" in err, err
        assert len(err.strip().splitlines()) == 1, err
