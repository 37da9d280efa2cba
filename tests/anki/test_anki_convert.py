"""Anki notes -> tokdrill cards: field mapping, cloze cards, stable ids, what is skipped and why."""

from __future__ import annotations

import pytest

from tokdrill.anki import notetype as nt
from tokdrill.anki.cloze import cloze_card, cloze_numbers
from tokdrill.anki.convert import convert_notes
from tokdrill.anki.keyphrases import derive_key_points
from tokdrill.anki.notes import AnkiNote, NoteKind
from tokdrill.content.keypoints import match_key_points


def note(
    *fields: str,
    names: tuple[str, ...] = ("Front", "Back"),
    kind: NoteKind = "standard",
    guid: str | None = "g1",
    tags: tuple[str, ...] = (),
    where: str = "note 1",
) -> AnkiNote:
    return AnkiNote(guid, "Basic", kind, names[: len(fields)], tuple(fields), tags, "Deck", where)


def test_basic_note_becomes_a_card_with_a_stable_id() -> None:
    first = convert_notes([note("What is <b>BPE</b>?", "Byte-pair encoding, a greedy merge algorithm")], "mine")
    (card,) = first.cards
    assert card.question == "What is **BPE**?"
    assert card.answer == "Byte-pair encoding, a greedy merge algorithm"
    assert card.id.startswith("mine-") and len(card.id) == len("mine-") + 10
    assert card.drawn_key_points and 2 <= len(card.key_points) <= 6
    # the same GUID gives the same id, whatever the text now says; another GUID another id
    edited = convert_notes([note("What is BPE, again?", "Merges", guid="g1")], "mine").cards[0]
    other = convert_notes([note("What is BPE?", "Merges", guid="g2")], "mine").cards[0]
    assert edited.id == card.id != other.id


def test_without_a_guid_the_question_names_the_card() -> None:
    a = convert_notes([note("Q one", "answer text here", guid=None)], "d").cards[0]
    b = convert_notes([note("Q one", "another answer", guid=None)], "d").cards[0]
    assert a.id == b.id


def test_extra_fields_join_the_answer_and_switches_are_ignored() -> None:
    names = ("Front", "Back", "Example", "Add Reverse", "Empty")
    (card,) = convert_notes([note("Q", "A is the answer", "<i>an example</i>", "y", " ", names=names)], "d").cards
    assert card.answer == "A is the answer\n\n**Example**\n\n*an example*"


def test_cloze_note_gives_one_card_per_number_with_its_deletion_as_a_key_point() -> None:
    text = "{{c1::WordPiece}} is used by {{c2::BERT::a model}}"
    cards = convert_notes([note(text, "Back extra", names=("Text", "Back Extra"), kind="cloze")], "d").cards
    assert [c.id[-3:] for c in cards] == ["-c1", "-c2"]
    one, two = cards
    assert one.question == "[...] is used by BERT"
    assert one.answer == "**WordPiece** is used by BERT\n\n**Back Extra**\n\nBack extra"
    assert one.key_points[0] == "WordPiece"
    assert two.question == "WordPiece is used by [a model]"
    assert two.key_points[0] == "BERT"


def test_nested_cloze_deletions() -> None:
    text = "{{c1::a {{c2::nested}} one}} here"
    assert cloze_numbers(text) == [1, 2]
    assert cloze_card(text, 2) == ("a [...] one here", "a <b>nested</b> one here", ("nested",))
    assert cloze_card(text, 1) == ("[...] here", "<b>a nested one</b> here", ("a nested one",))


@pytest.mark.parametrize(
    ("notes", "reason"),
    [
        ([note("Q?", "<img src='x.png'>")], "no answer text (only media: x.png)"),
        ([note("", "A")], "no question text"),
        ([note("Q?")], "no answer text"),
        ([note("{{c1::x}}", kind="image-occlusion")], "image occlusion note"),
        ([note("no deletions here", kind="cloze")], "cloze note without a deletion"),
    ],
)
def test_notes_that_cannot_be_cards_are_skipped_with_a_reason(notes: list[AnkiNote], reason: str) -> None:
    result = convert_notes(notes, "d")
    assert result.cards == []
    (message,) = result.skipped
    assert message.startswith("note 1 (") and reason in message


def test_a_repeated_note_is_imported_once() -> None:
    result = convert_notes([note("Q", "A text"), note("Q", "A text", where="note 2")], "d")
    assert len(result.cards) == 1
    assert result.skipped == [f"note 2 ('Q'): the same note as note 1 (card {result.cards[0].id}); imported once"]


def test_media_are_listed_per_card() -> None:
    result = convert_notes([note('Q <img src="a.png">', "A [sound:b.mp3] text")], "d")
    card_id = result.cards[0].id
    assert result.media == [(card_id, "a.png"), (card_id, "b.mp3")]
    assert "[image: a.png]" in result.cards[0].question


def _tokdrill_note(**values: str) -> AnkiNote:
    fields = dict.fromkeys(nt.FIELDS, "") | values
    return AnkiNote(
        "g",
        nt.NOTE_TYPE_NAME,
        "standard",
        nt.FIELDS,
        tuple(fields[n] for n in nt.FIELDS),
        ("bpe", "concept::merge-order", "concept::unknown"),
        "tokdrill::X",
        "note 1",
    )


def test_tokdrill_notes_map_back_field_by_field() -> None:
    n = _tokdrill_note(
        **{
            nt.QUESTION: "Q <code>x</code>?",
            nt.ANSWER: "<p>Answer <strong>bold</strong>.</p>",
            nt.FOLLOW_UPS: '<details class="follow-up"><summary>Why?</summary><p>Because.</p></details>',
            nt.KEY_POINTS: '<ul class="key-points"><li>first | alt</li><li>second</li></ul>',
            nt.REFERENCES: '<ul class="references"><li><a class="title" href="https://aclanthology.org/P16-1162/">'
            'Neural Machine Translation of Rare Words</a>, <span class="authors">Rico Sennrich</span> '
            '(<span class="year">2016</span>). <span class="venue">ACL 2016</span></li>'
            '<li><span class="title">No venue, no link</span></li></ul>',
            nt.CARD_ID: "bpe-card",
        }
    )
    result = convert_notes([n], "mine", known_concepts={"merge-order"})
    (card,) = result.cards
    assert card.id == "mine-bpe-card"
    assert (card.question, card.answer) == ("Q `x`?", "Answer **bold**.")
    assert [(f.question, f.answer) for f in card.follow_ups] == [("Why?", "Because.")]
    assert card.key_points == ("first | alt", "second") and not card.drawn_key_points
    assert card.concepts == ("merge-order",)
    assert card.tags == ("bpe", "concept::unknown")
    (ref,) = card.references
    assert ref.to_json() == {
        "title": "Neural Machine Translation of Rare Words",
        "authors": "Rico Sennrich",
        "year": 2016,
        "venue": "ACL 2016",
        "url": "https://aclanthology.org/P16-1162/",
    }
    assert result.notices == ["note 1 ('Q x?'): reference 'No venue, no link' has no venue or web address; left out"]


def test_an_id_already_in_the_deck_is_kept_and_edits_made_in_anki_are_not_lost() -> None:
    n = _tokdrill_note(
        **{
            nt.QUESTION: "Q",
            nt.ANSWER: "A long enough answer",
            nt.FOLLOW_UPS: "<div>A note typed in Anki</div>",
            nt.KEY_POINTS: "just one",
            nt.CARD_ID: "mine-q",
        }
    )
    (card,) = convert_notes([n], "mine").cards
    assert card.id == "mine-q"
    assert card.answer == "A long enough answer\n\n**Follow-ups**\n\nA note typed in Anki"
    assert card.drawn_key_points  # one key point is not enough: drawn from the answer instead


@pytest.mark.parametrize(
    "answer",
    [
        "Paris",
        "42",
        "The **lowest rank** wins, not the highest count.",
        "- count pairs\n- merge the best\n- repeat until the vocabulary is full",
        "**Cost.** Quadratic per word; a heap makes it n log n.",
        "[image: x.png] text with words",
        "a | b | c are alternatives",
    ],
)
def test_drawn_key_points_are_two_to_six_phrases_the_answer_covers(answer: str) -> None:
    points = derive_key_points(answer)
    assert 2 <= len(points) <= 6
    assert all(match.covered for match in match_key_points(answer, points))
    assert not any("|" in p or "[image:" in p or p.startswith("Cost") for p in points)


def test_deeply_nested_notes_still_convert() -> None:
    deep_list = "<ul>" * 3000 + "<li>question</li>" + "</ul>" * 3000
    deep_cloze = "{{c1::" * 3000 + "deep" + "}}" * 3000
    result = convert_notes(
        [
            note(deep_list, "<i>" * 3000 + "an answer in many words" + "</i>" * 3000),
            note(deep_cloze, names=("Text",), kind="cloze", guid="g2", where="note 2"),
        ],
        "d",
    )
    assert result.cards[0].question == "question"
    assert result.cards[1].id.endswith("-c1") and result.cards[1].question.startswith("[...]")
    assert result.cards[0].id in result.changed  # its formatting could not be kept


def test_a_field_holding_only_a_picture_is_kept_as_its_placeholder_and_listed() -> None:
    converted = convert_notes(
        [
            note(
                "GPT-2 maps {{c1::bytes}} to characters",
                '<img src="table.png">',
                names=("Text", "Back Extra"),
                kind="cloze",
            )
        ],
        "mine",
    )
    (card,) = converted.cards
    assert card.answer.endswith("**Back Extra**\n\n[image: table.png]")
    assert converted.media == [(card.id, "table.png")]
    assert card.key_points == ("bytes", "bytes")
