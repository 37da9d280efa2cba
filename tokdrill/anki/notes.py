"""Anki notes as read from a package or a text export, before they become tokdrill cards."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

NoteKind = Literal["standard", "cloze", "image-occlusion"]


class AnkiFileError(Exception):
    """A file that cannot be read as Anki notes; ``str()`` is a message for the user that
    names the file and what is wrong with it."""


@dataclass(frozen=True)
class AnkiNote:
    """One Anki note.

    ``fields`` hold HTML (a plain-text export's fields are escaped into HTML when read);
    ``field_names`` is empty when the source does not name them. ``deck`` is the Anki deck name
    with ``::`` between levels ('' when unknown). ``where`` locates the note for messages
    ("note 12", "line 7").
    """

    guid: str | None
    notetype: str
    kind: NoteKind
    field_names: tuple[str, ...]
    fields: tuple[str, ...]
    tags: tuple[str, ...]
    deck: str
    where: str


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
