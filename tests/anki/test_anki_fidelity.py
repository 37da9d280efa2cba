"""Packages and text exports made by Anki itself keep what their notes hold: each stock note type
(Basic, Basic and reversed, Cloze with Back Extra), pictures and sounds, MathJax, coloured text,
links, non-breaking spaces and subdecks, compared field by field after `tokdrill import-anki`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from anki_helpers import add_note, anki_collection, export_notes_text, export_package

from tokdrill import locations
from tokdrill.cli import main
from tokdrill.content import load_library
from tokdrill.content.keypoints import coverage, match_key_points

NOTES: list[tuple[str, dict[str, str], str]] = [
    ("Basic", {"Front": "Why byte-level BPE?", "Back": "No unknown token: every byte is in the alphabet."}, "Tok"),
    ("Basic (and reversed card)", {"Front": "merges", "Back": "the learned pair list"}, "Tok::Sub"),
    (
        "Cloze",
        {
            "Text": "GPT-2 maps every byte to a {{c1::printable}} character; {{c2::U+0120}} stands for a space.",
            "Back Extra": "Back extra: see bytes_to_unicode",
        },
        "Tok",
    ),
    ("Basic", {"Front": 'Diagram <img src="merge.png">', "Back": "Listen [sound:bpe.mp3] then answer"}, "Tok::Sub"),
    ("Basic", {"Front": r"What is \(\log_2 e\)?", "Back": r"About 1.4427, and \[e = \sum 1/n!\]"}, "Tok"),
    (
        "Basic",
        {
            "Front": "What does the tokenizer card say?",
            "Back": 'Merges are <span style="color: rgb(255, 0, 0);">ranked</span>, see '
            '<a href="https://aclanthology.org/P16-1162/">Sennrich</a>, 50&nbsp;000 merges.',
        },
        "Tok",
    ),
]

# (card id suffix, question, answer, key points) as the import must write them
EXPECTED: list[tuple[str, str, str, list[str] | None]] = [
    ("", "Why byte-level BPE?", "No unknown token: every byte is in the alphabet.", None),
    ("", "merges", "the learned pair list", None),
    ("-card2", "the learned pair list", "merges", ["merges", "merges"]),
    (
        "-c1",
        "GPT-2 maps every byte to a [...] character; U+0120 stands for a space.",
        "GPT-2 maps every byte to a **printable** character; U+0120 stands for a space.\n\n"
        "**Back Extra**\n\nBack extra: see bytes_to_unicode",
        ["printable", "printable"],
    ),
    (
        "-c2",
        "GPT-2 maps every byte to a printable character; [...] stands for a space.",
        "GPT-2 maps every byte to a printable character; **U+0120** stands for a space.\n\n"
        "**Back Extra**\n\nBack extra: see bytes_to_unicode",
        ["U+0120", "U+0120"],
    ),
    ("", "Diagram [image: merge.png]", "Listen [sound: bpe.mp3] then answer", None),
    ("", "What is \\\\(\\log_2 e\\\\)?", "About 1.4427, and \\\\[e = \\sum 1/n!\\\\]", None),
    (
        "",
        "What does the tokenizer card say?",
        "Merges are **ranked**, see [Sennrich](https://aclanthology.org/P16-1162/), 50&nbsp;000 merges.",
        None,
    ),
]


@pytest.fixture(scope="module")
def sources(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The same notes as Anki exports them: current and legacy packages, a whole-collection
    package, and "Notes in Plain Text"."""
    folder = tmp_path_factory.mktemp("fidelity")
    with anki_collection(folder) as col:
        for notetype, fields, deck in NOTES:
            add_note(col, notetype, fields, deck=deck)
        assert col.card_count() == 8  # the reversed note and the two-deletion cloze make two each
        made = {
            "apkg": export_package(col, folder / "tok.apkg"),
            "legacy-apkg": export_package(col, folder / "tok-legacy.apkg", legacy=True),
            "notes-txt": export_notes_text(col, folder / "tok.txt"),
        }
        col.export_collection_package(out_path=str(folder / "tok.colpkg"), include_media=True, legacy=False)
        made["colpkg"] = folder / "tok.colpkg"
    return made


def _import(capsys: pytest.CaptureFixture[str], source: Path) -> dict[str, object]:
    code = main(["import-anki", str(source), "--deck", "tok", "--json"])
    out = capsys.readouterr()
    assert code == 0, out.err
    return json.loads(out.out)  # type: ignore[no-any-return]


@pytest.mark.parametrize("kind", ["apkg", "legacy-apkg", "colpkg", "notes-txt"])
def test_every_field_of_every_note_comes_through(
    sources: dict[str, Path], kind: str, capsys: pytest.CaptureFixture[str]
) -> None:
    report = _import(capsys, sources[kind])
    assert report["cards"] == 8 and report["skipped"] == []
    assert report["anki_cards"] == (None if kind == "notes-txt" else 8)  # a text export does not say
    assert report["title"] == "Tok"  # the Anki deck holding every note, not the file's name
    deck = load_library([locations.user_content_dir()], use_cache=False).deck("tok")
    cards = list(deck.cards)
    assert len(cards) == len(EXPECTED)
    base_ids = [card.id[: len("tok-") + 10] for card in cards]  # the note's part of the id
    for card, base, (suffix, question, answer, points) in zip(cards, base_ids, EXPECTED, strict=True):
        assert card.id == base + suffix
        assert (card.question, card.answer) == (question, answer)
        if points is not None:
            assert list(card.key_points) == points
    assert base_ids[1] == base_ids[2] and base_ids[3] == base_ids[4]  # one note, two cards
    assert [m["file"] for m in report["media"]] == ["merge.png", "bpe.mp3"]  # type: ignore[index]
    assert report["formatting_not_kept"] == [f"{cards[7].id}: answer: colour rgb(255, 0, 0) on 'ranked' shown as bold"]


def test_typing_exactly_what_a_cloze_hides_covers_every_key_point(
    sources: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    _import(capsys, sources["apkg"])
    deck = load_library([locations.user_content_dir()], use_cache=False).deck("tok")
    first, second = (card for card in deck.cards if card.id.endswith(("-c1", "-c2")))
    assert coverage(match_key_points("printable", first.key_points)) == 1.0
    assert coverage(match_key_points("U+0120", second.key_points)) == 1.0
    for card in (first, second):  # nothing from Back Extra, nor a word the deletion does not hide
        assert not any("back" in point.casefold() or "extra" in point.casefold() for point in card.key_points)


def test_the_summary_says_what_stayed_behind(sources: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["import-anki", str(sources["apkg"]), "--deck", "tok"])
    out = capsys.readouterr().out
    assert code == 0
    assert out.startswith("imported 8 card(s) from 6 note(s) (8 card(s) in Anki): deck 'tok' (Tok)\n")
    assert "2 media reference(s) not imported" in out and ": merge.png" in out and ": bpe.mp3" in out
    assert "review history and due dates stay in Anki" in out
    assert "1 coloured passage(s) (Markdown has no colours):" in out and "'ranked' shown as bold" in out
