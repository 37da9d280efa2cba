"""Round trips: tokdrill -> Anki package -> tokdrill keeps every card's text, and decks made from
Anki's own exports validate."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from anki_helpers import (
    add_note,
    anki_collection,
    export_cards_text,
    export_notes_text,
    export_package,
    import_into_anki,
    normalised_html,
    write_tricky_content,
)

from tokdrill import locations
from tokdrill.anki.export import write_package
from tokdrill.cli import main
from tokdrill.content import Card, Deck, load_library


def _import(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, object]:
    code = main(["import-anki", *argv, "--json"])
    out = capsys.readouterr()
    assert code == 0, out.err
    return json.loads(out.out)  # type: ignore[no-any-return]


def _validate(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["validate", str(path)])
    out = capsys.readouterr().out
    assert code == 0, out
    assert out.startswith("ok: 1 file(s), 0 drill(s), 1 deck(s)")


def assert_same_text(original: Card, imported: Card) -> None:
    """Every text of the card renders the same; lists and references come back exactly."""
    assert normalised_html(imported.question) == normalised_html(original.question), original.id
    assert normalised_html(imported.answer) == normalised_html(original.answer), original.id
    assert len(imported.follow_ups) == len(original.follow_ups), original.id
    for mine, theirs in zip(imported.follow_ups, original.follow_ups):
        assert normalised_html(mine.question) == normalised_html(theirs.question), original.id
        assert normalised_html(mine.answer) == normalised_html(theirs.answer), original.id
    assert imported.key_points == original.key_points
    assert imported.tags == tuple("_".join(tag.split()) for tag in original.tags)
    assert imported.references == original.references
    assert imported.concepts == original.concepts


def _by_original_id(deck: Deck, prefix: str) -> dict[str, Card]:
    cards = {}
    for card in deck.cards:
        assert card.id.startswith(prefix + "-")
        cards[card.id[len(prefix) + 1 :]] = card
    return cards


@pytest.mark.slow
def test_every_shipped_card_survives_a_round_trip(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    shipped = load_library([])
    package = tmp_path / "shipped.apkg"
    assert main(["export-anki", str(package)]) == 0
    capsys.readouterr()
    report = _import(capsys, str(package), "--deck", "round-trip")
    assert report["cards"] == len(shipped.all_cards()) and report["skipped"] == []
    assert report["formatting_changed"] == [] and report["media"] == []
    target = locations.user_content_dir() / "round-trip.yaml"
    assert report["file"] == str(target)
    _validate(target, capsys)
    imported = _by_original_id(load_library([target], use_cache=False).deck("round-trip"), "round-trip")
    assert set(imported) == {card.id for card in shipped.all_cards()}
    for card in shipped.all_cards():
        assert_same_text(card, imported[card.id])


def test_a_user_deck_survives_a_round_trip_and_a_second_import_keeps_its_ids(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    content = tmp_path / "mine"
    write_tricky_content(content)
    original = load_library([content], use_cache=False).deck("tricky")
    package = tmp_path / "tricky.apkg"
    assert main(["export-anki", "--content", str(content), "--deck", "tricky", str(package)]) == 0
    capsys.readouterr()
    report = _import(capsys, "--content", str(content), str(package), "--deck", "tricky-again")
    assert report["title"] == original.title  # the Anki deck's name, tokdrill::<title>
    target = Path(str(report["file"]))
    first = load_library([content, target], use_cache=False).deck("tricky-again")
    cards = _by_original_id(first, "tricky-again")
    for card in original.cards:
        assert_same_text(card, cards[card.id])
    # the imported deck exported and imported again over itself: the same ids, the same text
    again = tmp_path / "again.apkg"
    assert main(["export-anki", "--content", str(content), "--deck", "tricky-again", str(again)]) == 0
    capsys.readouterr()
    _import(capsys, "--content", str(content), str(again), "--deck", "tricky-again", "--replace")
    second = load_library([content, target], use_cache=False).deck("tricky-again")
    assert [c.id for c in second.cards] == [c.id for c in first.cards]
    for before, after in zip(first.cards, second.cards):
        assert_same_text(before, after)


def test_a_round_trip_through_anki_itself_keeps_the_text(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Into Anki with Anki's importer, out again with Anki's current exporter (zstd, schema 18)."""
    content = tmp_path / "mine"
    write_tricky_content(content)
    original = load_library([content], use_cache=False).deck("tricky")
    ours = tmp_path / "ours.apkg"
    write_package([original], ours, timestamp=1_700_000_000)
    with anki_collection(tmp_path) as col:
        import_into_anki(col, ours)
        from_anki = export_package(col, tmp_path / "from-anki.apkg")
    _import(capsys, "--content", str(content), str(from_anki), "--deck", "via-anki")
    deck = load_library([content, locations.user_content_dir()], use_cache=False).deck("via-anki")
    cards = _by_original_id(deck, "via-anki")
    for card in original.cards:
        assert_same_text(card, cards[card.id])


@pytest.fixture
def anki_notes(tmp_path: Path):  # type: ignore[no-untyped-def]
    """A real Anki collection with the kinds of notes people keep."""
    with anki_collection(tmp_path) as col:
        add_note(
            col,
            "Basic",
            {
                "Front": "Which pair does BPE merge <b>first</b>?",
                "Back": "The most frequent one,<br>counted over the corpus.",
            },
            deck="Interview::Tokenizers",
            tags=["bpe"],
        )
        add_note(
            col,
            "Basic (and reversed card)",
            {"Front": "1. What is ##ing?", "Back": "A WordPiece <i>continuation</i> piece <img src='wp.png'>"},
            deck="Interview::Tokenizers",
        )
        add_note(
            col, "Cloze", {"Text": "{{c1::SentencePiece}} treats the input as a raw {{c2::stream}}"}, deck="Interview"
        )
        add_note(col, "Basic", {"Front": "Only a picture", "Back": "<img src='only.png'>"}, deck="Interview")
        yield col


@pytest.mark.parametrize("export", ["notes", "cards", "package"])
def test_a_deck_from_an_anki_export_validates_and_shows_up_without_configuration(
    anki_notes, export: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    if export == "notes":
        source = export_notes_text(anki_notes, tmp_path / "notes.txt")
    elif export == "cards":
        source = export_cards_text(anki_notes, tmp_path / "cards.txt")
    else:
        source = export_package(anki_notes, tmp_path / "deck.apkg")
    report = _import(capsys, str(source), "--deck", "from-anki")
    target = Path(str(report["file"]))
    _validate(target, capsys)
    cards_made = 5  # the reversed note gives two cards from every kind of export
    assert report["cards"] == cards_made
    assert len(report["skipped"]) == 1 and "only media: only.png" in report["skipped"][0]  # type: ignore[index]
    assert [m["file"] for m in report["media"]] == ["wp.png"] * 2  # type: ignore[union-attr]  # on both sides
    assert main(["list", "--json"]) == 0
    decks = {d["id"]: d for d in json.loads(capsys.readouterr().out)["decks"]}
    assert decks["from-anki"]["cards"] == cards_made
    questions = {c.question for c in load_library([target], use_cache=False).deck("from-anki").cards}
    assert "Which pair does BPE merge **first**?" in questions
    assert "1\\. What is ##ing?" in questions  # Markdown would have read "1." as a list
