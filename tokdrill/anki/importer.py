"""`tokdrill import-anki`: an Anki package or text export -> a deck in the user's content folder.

The deck is written to ``<content folder>/<deck id>.yaml`` (see
:func:`tokdrill.locations.user_content_dir`), which tokdrill loads by default. Importing again
over a deck imported before is refused unless the caller asks to replace it; card ids are stable
(:mod:`tokdrill.anki.convert`), so a replacement keeps the review history of every card that is
still there, the key points the deck file holds for it (the user may have refined them) and
the deck's title. Nothing is written when the file cannot be read, when no note gives a card,
when the deck or a card id is already used by other content, or when the result would not load.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from tokdrill.anki.convert import Conversion, convert_notes
from tokdrill.anki.deckfile import DeckFileError, DeckText, deck_yaml, write_deck
from tokdrill.anki.notes import AnkiFileError, AnkiNote, in_deck
from tokdrill.anki.package import read_package
from tokdrill.anki.textexport import read_text_export
from tokdrill.content import ContentError, Deck, Library, Origin
from tokdrill.content.model import printable

ZIP_MAGIC = b"PK\x03\x04"
PACKAGE_SUFFIXES = (".apkg", ".colpkg")


class ImportRefused(Exception):
    """The import wrote nothing; ``str()`` says why, ``problems`` lists loader findings if any."""

    def __init__(self, message: str, problems: Sequence[ContentError] = ()) -> None:
        super().__init__(message)
        self.problems = tuple(problems)


@dataclass(frozen=True)
class ImportResult:
    """What an import made (or, for a dry run, would make)."""

    target: Path
    deck_id: str
    title: str
    notes: int
    conversion: Conversion
    written: bool
    replaced: bool
    text: str
    """The deck file's text."""
    anki_cards: int | None = None
    """How many cards Anki had made from the notes (None when the file does not say)."""

    def to_json(self) -> dict[str, object]:
        c = self.conversion
        return {
            "file": str(self.target),
            "deck": self.deck_id,
            "title": self.title,
            "notes": self.notes,
            "cards": len(c.cards),
            "anki_cards": self.anki_cards,
            "written": self.written,
            "replaced": self.replaced,
            "drawn_key_points": sum(card.drawn_key_points for card in c.cards),
            "skipped": list(c.skipped),
            "media": [{"card": card_id, "file": name} for card_id, name in c.media],
            "formatting_changed": sorted(set(c.changed)),
            "formatting_not_kept": list(c.formatting),
            "notices": list(c.notices),
        }


def _is_package(path: Path) -> bool:
    try:
        with path.open("rb") as fh:
            return fh.read(len(ZIP_MAGIC)) == ZIP_MAGIC
    except OSError:
        return False


def read_notes(path: Path) -> list[AnkiNote]:
    """The notes in ``path``: an Anki package (recognised by content, not name) or a text export."""
    try:
        with path.open("rb") as fh:
            magic = fh.read(len(ZIP_MAGIC))
    except IsADirectoryError:
        raise AnkiFileError(f"{path}: is a folder, not an Anki package or text export") from None
    except OSError as exc:
        raise AnkiFileError(f"{path}: cannot read: {exc.strerror or exc}") from None
    if magic == ZIP_MAGIC:
        return read_package(path)
    if path.suffix.lower() in PACKAGE_SUFFIXES:
        raise AnkiFileError(f"{path}: not an Anki package (it is not a zip archive)")
    return read_text_export(path)


def default_title(notes: Sequence[AnkiNote], source: Path) -> str:
    """The deck title when none is given: the name (last level) of the Anki deck that holds
    every note, subdecks included, else the file's name."""
    paths = [[level.strip() for level in note.deck.split("::")] for note in notes if note.deck.strip()]
    common: list[str] = []
    if paths and len(paths) == len(notes):
        for levels in zip(*paths):
            if len({level.casefold() for level in levels}) != 1 or not levels[0]:
                break
            common.append(levels[0])
    return common[-1] if common else printable(source.stem) or "Imported from Anki"


def import_anki(
    source: Path,
    deck_id: str,
    *,
    library: Library,
    folder: Path,
    now: datetime,
    title: str | None = None,
    from_deck: str | None = None,
    replace: bool = False,
    dry_run: bool = False,
) -> ImportResult:
    """Import ``source`` as deck ``deck_id`` into ``folder`` (see the module docstring).

    ``library`` is the content loaded now (to find clashes); ``from_deck`` keeps only the notes
    of that Anki deck and its subdecks. Raises :class:`ImportRefused` (or
    :class:`~tokdrill.anki.notes.AnkiFileError` for an unreadable file) and then writes nothing.
    """
    target = folder / f"{deck_id}.yaml"
    existing = library.decks.get(deck_id)
    if existing is not None and not _same_file(existing.origin.path, target):
        raise ImportRefused(f"deck id {deck_id!r} is already used by {existing.origin}; choose another --deck")
    replaced = target.exists()
    if replaced and not replace and not dry_run:
        raise ImportRefused(
            f"{target} already exists (deck {deck_id!r} was imported before); add --replace to overwrite it "
            "(card ids are stable: review history and edited key points are kept)"
        )
    notes = read_notes(source)
    if from_deck is not None:
        notes = [note for note in notes if in_deck(note, from_deck)]
        if not notes:
            raise ImportRefused(f"{source}: no note is in the Anki deck {from_deck!r}")
    conversion = convert_notes(notes, deck_id, known_concepts=set(library.concepts))
    if _is_package(source):
        conversion.notices.append("review history and due dates stay in Anki: every imported card starts new")
    if not conversion.cards:
        reasons = "; ".join(conversion.skipped[:3])
        raise ImportRefused(f"{source}: no note could be imported" + (f" ({reasons})" if reasons else ""))
    clashes = []
    for card in conversion.cards:
        other = _card_origin(library, card.id)
        if other is not None and not _same_file(other.path, target):
            clashes.append(f"card id {card.id!r} is already used at {other}")
    if clashes:
        raise ImportRefused("; ".join(clashes[:3]) + ("" if len(clashes) <= 3 else f" (and {len(clashes) - 3} more)"))
    if existing is not None:
        _keep_refined_key_points(conversion, existing)
    deck_title = title or (existing.title if existing is not None else default_title(notes, source))
    deck = DeckText(
        deck_id=deck_id,
        title=deck_title,
        description=f"Imported from {printable(source.name)} on {now.date().isoformat()}.",
        comment=_comment(source, conversion),
        cards=conversion.cards,
    )
    if not dry_run:
        try:
            write_deck(deck, target, concept_files=sorted({c.origin.path for c in library.concepts.values()}))
        except DeckFileError as exc:
            raise ImportRefused(str(exc), exc.problems) from None
    counts = [note.anki_cards for note in notes]
    anki_cards = None if None in counts else sum(count or 0 for count in counts)
    return ImportResult(
        target, deck_id, deck_title, len(notes), conversion, not dry_run, replaced, deck_yaml(deck), anki_cards
    )


def _keep_refined_key_points(conversion: Conversion, previous: Deck) -> None:
    """Cards imported before keep the key points their deck file has now (the user may have
    refined them) instead of freshly drawn ones; key points a tokdrill note carries still win."""
    kept = {card.id: card.key_points for card in previous.cards}
    refreshed = 0
    for index, card in enumerate(conversion.cards):
        points = kept.get(card.id)
        if card.drawn_key_points and points is not None and points != card.key_points:
            conversion.cards[index] = dataclasses.replace(card, key_points=points, drawn_key_points=False)
            refreshed += 1
    if refreshed:
        conversion.notices.append(f"{refreshed} card(s) keep the key points their deck file already had")


def _comment(source: Path, conversion: Conversion) -> str:
    lines = [f"Imported from Anki ({printable(source.name)}) by `tokdrill import-anki`."]
    if any(card.drawn_key_points for card in conversion.cards):
        lines.append(
            "Key points were drawn from each answer (a typed answer is checked against them): edit them freely."
        )
    lines.append("Importing again with --replace rewrites this file; key points edited here are kept.")
    return "\n".join(lines)


def _card_origin(library: Library, card_id: str) -> Origin | None:
    try:
        return library.card(card_id).origin
    except KeyError:
        return None


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve()
    except OSError:
        return False
