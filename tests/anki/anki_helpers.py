"""Helpers for the Anki tests (imported by name: tests have no packages).

Anki's own library (the `anki` package, Anki's Rust backend) makes the packages and text exports
the importer reads and imports the packages the exporter writes, so both directions are checked
against the real program rather than against this project's idea of the format.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from tokdrill.anki.render import markdown_to_html

# A user deck whose cards hold what tends to break conversions: tokenizer notation that looks like
# HTML, code spans with edge spaces and backticks, underscores, a table, fenced code inside a
# list, a backslash before punctuation, non-ASCII, and follow-ups with code.
TRICKY_DECK = r"""deck: tricky
title: Conversions that must survive
description: Cards whose text is easy to damage on the way to Anki and back.
cards:
  - id: tricky-markers
    question: Why does `est</w>` differ from `est` in a word-level BPE vocabulary?
    answer: |
      The marker `</w>` fuses with the last symbol, so est</w> ends a word while est does not.
      GPT-2 writes the space *before* the word instead: ` lowest` is one token, `lowest` is two.
      A literal backtick in code: `` a`b ``; MathJax such as \\(x\\) and byte_fallback stay as written,
      and so do \_\_init\_\_, 2\*3\*4, \[x\](y) and <https://example.org>.

      | piece | id |
      |---|---|
      | `a\|b` | 7 |
      | ▁low | 8 |
    key_points: ["marker fuses with last symbol", "space before the word"]
    tags: [bpe, word boundary]
    concepts: [word-boundary-marker]
    references:
      - title: Neural Machine Translation of Rare Words with Subword Units
        authors: Rico Sennrich, Barry Haddow, Alexandra Birch
        year: 2016
        venue: ACL 2016
        url: https://aclanthology.org/P16-1162/
      - title: "Language Models are Unsupervised Multitask Learners"
        venue: OpenAI technical report
  - id: tricky-code
    question: |
      Given

      ```python
      merges = {("a", "b"): 0}
      ```

      what does `encode("ab")` return?
    answer: |
      1. Split into symbols:
         ```python
         symbols = ["a", "b"]
         ```
      2. Apply the lowest-ranked pair; **one** token remains.

      > Ranks, not counts, decide.
    follow_ups:
      - question: 'And with `{("b", "c"): 0}`?'
        answer: |
          Nothing merges:

          ```
          ["a", "b"]
          ```
    key_points: ["split into symbols", "lowest-ranked pair", "one token"]
"""


# The concept vocabulary the tricky deck's cards name (a user content folder may define its own).
TRICKY_CONCEPTS = """\
concepts:
  - id: word-boundary-marker
    title: Where a word ends is part of the vocabulary
    lesson: A marker (</w> at the end, or a space before the word) decides which pieces can match.
"""


def write_tricky_content(folder: Path) -> Path:
    """The tricky deck and its concept file in content folder ``folder``; returns the deck file."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "tricky-concepts.yaml").write_text(TRICKY_CONCEPTS, encoding="utf-8")
    deck = folder / "tricky.yaml"
    deck.write_text(TRICKY_DECK, encoding="utf-8")
    return deck


def normalised_html(markdown: str) -> str:
    """A card text's rendering with layout whitespace removed, to compare two Markdown sources."""
    html = markdown_to_html(markdown)
    return re.sub(r">\s+<", "><", re.sub(r"\s+", " ", html)).strip()


@contextmanager
def anki_collection(folder: Path) -> Iterator[Any]:
    """A new, empty Anki collection in ``folder`` (closed afterwards)."""
    from anki.collection import Collection

    col = Collection(str(folder / "collection.anki2"))
    try:
        yield col
    finally:
        col.close()


def add_note(
    col: Any, notetype: str, fields: dict[str, str], *, deck: str = "Default", tags: Sequence[str] = ()
) -> Any:
    """Add a note of the stock note type ``notetype`` to ``deck``; return it."""
    note = col.new_note(col.models.by_name(notetype))
    for name, value in fields.items():
        note[name] = value
    note.tags = list(tags)
    col.add_note(note, col.decks.id(deck))
    return note


def export_package(col: Any, path: Path, *, legacy: bool = False) -> Path:
    """Export the whole collection as Anki's "Anki Deck Package" (current or legacy format)."""
    from anki.collection import ExportAnkiPackageOptions

    options = ExportAnkiPackageOptions(with_scheduling=False, with_media=True, legacy=legacy)
    col.export_anki_package(out_path=str(path), options=options, limit=None)
    return path


def export_notes_text(col: Any, path: Path, **columns: bool) -> Path:
    """Anki's "Notes in Plain Text" export (HTML, tags, deck, note type and GUID columns by default)."""
    options = {"with_html": True, "with_tags": True, "with_deck": True, "with_notetype": True, "with_guid": True}
    options.update(columns)
    col.export_note_csv(out_path=str(path), limit=None, **options)
    return path


def export_cards_text(col: Any, path: Path, *, with_html: bool = True) -> Path:
    """Anki's "Cards in Plain Text" export (each card's rendered question and answer)."""
    col.export_card_csv(out_path=str(path), limit=None, with_html=with_html)
    return path


def import_into_anki(col: Any, package: Path) -> Any:
    """Import ``package`` with Anki's own importer; returns its log (new, updated, duplicate)."""
    from anki.collection import ImportAnkiPackageRequest

    return col.import_anki_package(ImportAnkiPackageRequest(package_path=str(package))).log


def folder_snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` and its bytes, to prove a failed command changed nothing."""
    if not folder.exists():
        return {}
    return {
        str(p.relative_to(folder)): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and not os.path.islink(p)
    }
