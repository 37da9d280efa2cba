"""tokdrill decks -> an Anki package (``.apkg``) built with genanki.

One note per card (fields: :data:`tokdrill.anki.notetype.FIELDS`), one Anki deck per tokdrill
deck, all in the note type :data:`~tokdrill.anki.notetype.NOTE_TYPE_NAME`. The file is written
whole or not at all: it is built beside the target and renamed over it at the end.
"""

from __future__ import annotations

import itertools
import json
import os
import sqlite3
import tempfile
import zipfile
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from html import escape
from pathlib import Path
from typing import Any

from tokdrill.anki import notetype as nt
from tokdrill.anki.render import markdown_to_html, plain_to_html
from tokdrill.content import Card, Deck, Reference


@dataclass(frozen=True)
class ExportSummary:
    """What was written: the file, and the number of notes per tokdrill deck id."""

    path: Path
    notes: dict[str, int]

    def to_json(self) -> dict[str, object]:
        return {"file": str(self.path), "decks": dict(self.notes), "notes": sum(self.notes.values())}


def question_html(text: str) -> str:
    """A question as HTML: one paragraph renders inline (so it can sit in a ``<summary>``)."""
    html = markdown_to_html(text)
    if html.startswith("<p>") and html.endswith("</p>") and html.count("<p>") == 1:
        return html[3:-4]
    return html


def follow_ups_html(card: Card) -> str:
    """Each follow-up as a ``<details>`` block: the question shows, a click reveals the answer."""
    return "".join(
        f'<details class="{nt.FOLLOW_UP_CLASS}"><summary>{question_html(f.question)}</summary>'
        f"{markdown_to_html(f.answer)}</details>"
        for f in card.follow_ups
    )


def key_points_html(points: Iterable[str]) -> str:
    items = "".join(f"<li>{plain_to_html(point)}</li>" for point in points)
    return f'<ul class="{nt.KEY_POINTS_CLASS}">{items}</ul>' if items else ""


def reference_html(ref: Reference) -> str:
    """One reference; each part sits in an element classed by its name, so it can be read back."""
    title = plain_to_html(ref.title)
    if ref.url:
        parts = [f'<a class="{nt.REF_TITLE}" href="{escape(ref.url, quote=True)}">{title}</a>']
    else:
        parts = [f'<span class="{nt.REF_TITLE}">{title}</span>']
    if ref.authors:
        parts.append(f', <span class="{nt.REF_AUTHORS}">{plain_to_html(ref.authors)}</span>')
    if ref.year is not None:
        parts.append(f' (<span class="{nt.REF_YEAR}">{ref.year}</span>)')
    if ref.venue:
        parts.append(f'. <span class="{nt.REF_VENUE}">{plain_to_html(ref.venue)}</span>')
    return "".join(parts)


def references_html(refs: Sequence[Reference]) -> str:
    items = "".join(f"<li>{reference_html(ref)}</li>" for ref in refs)
    return f'<ul class="{nt.REFERENCES_CLASS}">{items}</ul>' if items else ""


def note_fields(card: Card) -> list[str]:
    """The card as the note's field values, in :data:`~tokdrill.anki.notetype.FIELDS` order."""
    return [
        question_html(card.question),
        markdown_to_html(card.answer),
        follow_ups_html(card),
        key_points_html(card.key_points),
        references_html(card.references),
        plain_to_html(card.id),
    ]


def note_tags(card: Card) -> list[str]:
    """Anki tags: the card's tags (Anki forbids spaces in a tag), then its concepts."""
    tags = ["_".join(tag.split()) for tag in card.tags]
    tags += [f"{nt.CONCEPT_TAG_PREFIX}{concept}" for concept in card.concepts]
    return list(dict.fromkeys(tag for tag in tags if tag))


def _model() -> Any:
    import genanki

    return genanki.Model(
        nt.note_type_id(),
        nt.NOTE_TYPE_NAME,
        fields=[{"name": name} for name in nt.FIELDS],
        templates=[{"name": "Recall", "qfmt": nt.QUESTION_TEMPLATE, "afmt": nt.ANSWER_TEMPLATE}],
        css=nt.css(),
        sort_field_index=0,
    )


def build_package(decks: Sequence[Deck]) -> Any:
    """A ``genanki.Package`` with one Anki deck per tokdrill deck, cards in file order."""
    import genanki

    model = _model()
    titles = Counter(deck.title for deck in decks)
    anki_decks = []
    for deck in decks:
        # two decks with one title would merge into one Anki deck: the id tells them apart
        title = deck.title if titles[deck.title] == 1 else f"{deck.title} ({deck.id})"
        anki_deck = genanki.Deck(nt.deck_id(deck.id), nt.deck_name(title), markdown_to_html(deck.description))
        for position, card in enumerate(deck.cards):
            anki_deck.add_note(
                genanki.Note(
                    model=model,
                    fields=note_fields(card),
                    tags=note_tags(card),
                    guid=nt.note_guid(card.id),
                    due=position,
                )
            )
        anki_decks.append(anki_deck)
    return genanki.Package(anki_decks)


def write_package(decks: Sequence[Deck], path: Path, *, timestamp: float) -> ExportSummary:
    """Write ``decks`` to the Anki package ``path`` (replacing it whole, or leaving it as it was).

    ``timestamp`` (seconds since the epoch) stamps the notes: Anki updates a note it already has
    only from a newer one, so each export should pass the current time. ``OSError`` when the
    file cannot be written.
    """
    package = build_package(decks)
    folder = path.parent if str(path.parent) else Path(".")
    with tempfile.TemporaryDirectory(prefix="tokdrill-anki-") as scratch:
        collection = Path(scratch) / "collection.anki2"
        connection = sqlite3.connect(collection)
        try:
            cursor = connection.cursor()
            package.write_to_db(cursor, timestamp, itertools.count(int(timestamp * 1000)))
            connection.commit()
        finally:
            connection.close()
        fd, partial = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".partial", dir=folder)
        try:
            with os.fdopen(fd, "wb") as raw, zipfile.ZipFile(raw, "w", zipfile.ZIP_DEFLATED) as archive:
                archive.write(collection, "collection.anki2")
                archive.writestr("media", json.dumps({}))
            os.replace(partial, path)
        except BaseException:
            Path(partial).unlink(missing_ok=True)
            raise
    return ExportSummary(path, {deck.id: len(deck.cards) for deck in decks})
