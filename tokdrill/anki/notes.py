"""Anki notes as read from a package or a text export, before they become tokdrill cards."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

NoteKind = Literal["standard", "cloze", "image-occlusion"]


class AnkiFileError(Exception):
    """A file that cannot be read as Anki notes; ``str()`` is a message for the user that
    names the file and what is wrong with it."""


@dataclass(frozen=True)
class CardTemplate:
    """One of a note type's card templates: its position (``ordinal``, 0-based), name, and the
    question and answer formats (``{{Front}}``, ``{{FrontSide}}<hr id=answer>{{Back}}``...)."""

    ordinal: int
    name: str
    question: str
    answer: str


@dataclass(frozen=True)
class AnkiNote:
    """One Anki note.

    ``fields`` hold HTML (a plain-text export's fields are escaped into HTML when read);
    ``field_names`` is empty when the source does not name them. ``deck`` is the Anki deck name
    with ``::`` between levels ('' when unknown). ``where`` locates the note for messages
    ("note 12", "line 7"). ``cards`` are the templates of the cards Anki made from the note
    (a Basic-and-reversed note has two), in order; empty when the source does not say.
    ``anki_cards`` is how many cards Anki had made from it (None when the source does not say).
    """

    guid: str | None
    notetype: str
    kind: NoteKind
    field_names: tuple[str, ...]
    fields: tuple[str, ...]
    tags: tuple[str, ...]
    deck: str
    where: str
    cards: tuple[CardTemplate, ...] = ()
    anki_cards: int | None = None


_FORWARD = CardTemplate(0, "Card 1", "{{Front}}", "{{FrontSide}}\n\n<hr id=answer>\n\n{{Back}}")
_REVERSE = CardTemplate(1, "Card 2", "{{Back}}", "{{FrontSide}}\n\n<hr id=answer>\n\n{{Front}}")
STOCK_FIELDS: dict[str, tuple[str, ...]] = {
    "basic": ("Front", "Back"),
    "basic (and reversed card)": ("Front", "Back"),
    "basic (optional reversed card)": ("Front", "Back", "Add Reverse"),
    "basic (type in the answer)": ("Front", "Back"),
    "cloze": ("Text", "Back Extra"),
}
"""The field names of Anki's stock note types, by lowercased name (a text export names only the
note type)."""


def stock_cards(notetype: str, fields: tuple[str, ...]) -> tuple[CardTemplate, ...]:
    """The cards Anki makes from a note of a stock reversible type named ``notetype`` with
    ``fields`` (for a source that names the type but lists no cards); () for other types."""
    name = notetype.casefold()
    optional_reverse = name == "basic (optional reversed card)" and len(fields) > 2 and fields[2].strip()
    if name == "basic (and reversed card)" or optional_reverse:
        return (_FORWARD, _REVERSE)
    return ()


def size_text(size: int) -> str:
    """A byte count as people read it ("256 MiB", "64 KiB", "900 bytes")."""
    for unit, shift in (("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if size >= 1 << shift:
            return f"{size / (1 << shift):.3g} {unit}"
    return f"{size} bytes"


def in_deck(note: AnkiNote, deck: str) -> bool:
    """True when ``note`` is in Anki deck ``deck`` or one of its subdecks (names compare
    without regard to case, as Anki's do)."""
    wanted = deck.strip().casefold()
    name = note.deck.casefold()
    return name == wanted or name.startswith(wanted + "::")
