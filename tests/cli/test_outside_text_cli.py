"""The command line prints outside text as written: markup stays literal, and an escape sequence
in a file name is printed as a visible escape, never sent to the terminal."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hostile import ACTION, DRILL, ESCAPE, MARKUP, TITLE, write_anki_export, write_hostile_content

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


@pytest.mark.parametrize(
    "argv",
    [
        ["export", "{name}/out.json"],
        ["import", "{name}/in.json"],
        ["export-anki", "{name}/out.apkg"],
        ["import-anki", "{name}/in.apkg", "--deck", "x"],
        ["check", "bytes-to-unicode", "{name}/mine.py"],
        ["start", "bytes-to-unicode", "{name}/mine.py"],
    ],
)
def test_a_file_name_quoted_in_a_message_shows_its_escape_sequence(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    name = f"{ACTION}{ESCAPE}missing"
    assert main([word.format(name=name) for word in argv]) != 0
    err = capsys.readouterr().err
    assert f"{ACTION}\\x1b[31mmissing" in err and "\x1b" not in err, err


def test_an_anki_export_whose_name_holds_an_escape_sequence_imports_with_the_name_shown(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The file name becomes the deck's title and description as text (a control character
    written into a deck file would make it unreadable)."""
    monkeypatch.setenv("TOKDRILL_HOME", str(tmp_path / "home"))
    export = tmp_path / f"{ACTION}{ESCAPE}deck.txt"
    write_anki_export(export)
    assert main(["import-anki", str(export), "--deck", "named"]) == 0
    printed = capsys.readouterr()
    assert "\x1b" not in printed.out + printed.err
    assert main(["list", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    deck = next(d for d in listed["decks"] if d["id"] == "named")
    assert deck["title"] == f"{ACTION}\\x1b[31mdeck"


@pytest.mark.parametrize("argv", [["list"], ["show", "bidi-drill"], ["show", "bidi-drill", "--prompt"]])
def test_a_bidirectional_override_in_a_title_is_shown_not_obeyed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    """YAML lets a title carry U+202E (right-to-left override), which would make a terminal show
    the rest of the line reversed: it is printed as a visible escape."""
    folder = tmp_path / "bidi"
    folder.mkdir()
    (folder / "bidi.yaml").write_text(
        'id: bidi-drill\ntitle: "fast \\u202eevil"\nsymbols: [bytes_to_unicode]\ntarget_seconds: 480\n'
        'difficulty: easy\nhidden_tests: [test_bytes_to_unicode.py]\nprompt: "a \\u202eprompt"\n'
        "starter: |\n  def bytes_to_unicode():\n      ...\n",
        encoding="utf-8",
    )
    monkeypatch.setenv("TOKDRILL_CONTENT", str(folder))
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "\u202e" not in out and "\\u202e" in out, out[-500:]
