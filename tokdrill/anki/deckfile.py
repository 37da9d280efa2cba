"""Imported cards -> a deck file in the user's content folder, checked before it replaces anything.

The file is plain deck YAML (docs/content.md, "Deck (one per file)") with Markdown in block
scalars, so it reads and edits like a hand-written deck. It is written to a temporary file beside
its final name, loaded back with tokdrill's own loader, and only renamed into place when that
load reports no problem: a failed import leaves the folder as it was.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from tokdrill.anki.convert import ImportedCard
from tokdrill.content import ContentError, load_library


class DeckFileError(Exception):
    """The deck file could not be written; ``problems`` lists what the loader found, if anything."""

    def __init__(self, message: str, problems: Sequence[ContentError] = ()) -> None:
        super().__init__(message)
        self.problems = tuple(problems)


@dataclass(frozen=True)
class DeckText:
    """A deck to write: its id, title, description, a comment for the top, and its cards."""

    deck_id: str
    title: str
    description: str
    comment: str
    cards: Sequence[ImportedCard]


class _Flow(list[Any]):
    """A short list written on one line (key points, tags)."""


class _Dumper(yaml.SafeDumper):
    """Block scalars for text with line breaks, flow style for :class:`_Flow` lists, and list
    items indented under their key (as the shipped decks are written)."""

    def increase_indent(self, flow: bool = False, indentless: bool = False) -> None:
        super().increase_indent(flow, False)


def _str(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    style = "|" if "\n" in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


def _flow(dumper: yaml.SafeDumper, value: _Flow) -> yaml.SequenceNode:
    return dumper.represent_sequence("tag:yaml.org,2002:seq", value, flow_style=True)


_Dumper.add_representer(str, _str)
_Dumper.add_representer(_Flow, _flow)


def deck_yaml(deck: DeckText) -> str:
    """The deck file's text."""
    cards = []
    for card in deck.cards:
        mapping = card.to_mapping()
        for key in ("key_points", "tags", "concepts"):
            value = mapping.get(key)
            if isinstance(value, list):
                mapping[key] = _Flow(value)
        cards.append(mapping)
    document: dict[str, object] = {"deck": deck.deck_id, "title": deck.title}
    if deck.description:
        document["description"] = deck.description
    document["cards"] = cards
    body = yaml.dump(document, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100, indent=2)
    comment = "".join(f"# {line}".rstrip() + "\n" for line in deck.comment.splitlines())
    return comment + body


def write_deck(deck: DeckText, target: Path, *, concept_files: Sequence[Path] = ()) -> None:
    """Write ``deck`` to ``target`` (replacing it): only if the written file loads with no
    problem next to the shipped content and ``concept_files`` (the vocabularies its cards may
    name), else :class:`DeckFileError` and ``target`` is left as it was."""
    folder = target.parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, partial_name = tempfile.mkstemp(prefix=f".{target.stem}.", suffix=".partial", dir=folder)
    except OSError as exc:
        raise DeckFileError(f"cannot write in {folder}: {exc.strerror or exc}") from None
    partial = Path(partial_name)
    try:
        try:
            with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
                fh.write(deck_yaml(deck))
        except OSError as exc:
            raise DeckFileError(f"cannot write {target}: {exc.strerror or exc}") from None
        # The file's own checks, its concepts against the vocabularies, its ids against the shipped
        # content (clashes with the user's other decks are the caller's to check first).
        library = load_library([*concept_files, partial], use_cache=False, check_symbols=False)
        problems = [error for error in library.errors if error.path == partial]
        if problems:
            raise DeckFileError(f"the deck written for {target} does not load; nothing was changed", problems)
        try:
            os.replace(partial, target)
        except OSError as exc:
            raise DeckFileError(f"cannot write {target}: {exc.strerror or exc}") from None
    finally:
        partial.unlink(missing_ok=True)
