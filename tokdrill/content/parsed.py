"""What one content file yields on its own, before any check that looks at other files.

Parsing a file (YAML + field checks) gives a :class:`FileResult`: the file's own errors and,
when the file is a drill or a deck, a :class:`ParsedDrill` or :class:`ParsedDeck`. Those depend
on nothing but the file's bytes, which is what lets :mod:`tokdrill.content.cache` keep them
between runs. Everything that depends on other files (hidden tests exist, symbols exist in
``reference_impl``, ids unique across files) is checked by the loader on every load.

This module must not import PyYAML: a warm load unpickles these classes without parsing. They
are ``NamedTuple``s rather than dataclasses because defining one costs a tenth as much, and
`tokdrill stats` imports this module on every run.
"""

from __future__ import annotations

from typing import NamedTuple

from tokdrill.content.model import Concept, ContentError, Deck, Difficulty, Origin, Reference


class ParsedDrill(NamedTuple):
    """A drill file's fields as far as the file alone can check them.

    ``valid`` is True when the file-level checks passed (every field usable). ``symbols`` and
    ``hidden_tests`` are ``(index, name, line)`` for the entries still to be checked against
    other files: every symbol of a well-formed list, and every hidden test with a proper
    ``test_*.py`` name. ``id_line`` is where the id is written (for duplicate-id errors).
    """

    valid: bool
    id: str | None
    title: str | None
    symbols: tuple[tuple[int, str, int], ...]
    target_seconds: int | None
    difficulty: Difficulty | None
    tags: tuple[str, ...]
    hidden_tests: tuple[tuple[int, str, int], ...]
    prompt: str | None
    starter: str | None
    references: tuple[Reference, ...]
    origin: Origin
    id_line: int


class ParsedDeck(NamedTuple):
    """A deck file's valid cards, plus where each card's id and concepts are written.

    ``card_ids`` holds ``(index in the file's card list, line of its id)`` for each card of
    ``deck``, in order (for duplicate-id errors); ``id_line`` is where the deck id is written.
    ``concept_lines`` holds, per card of ``deck``, the line of each of its concepts (for
    unknown-concept errors, checked against the vocabulary of all files).
    """

    deck: Deck
    id_line: int
    card_ids: tuple[tuple[int, int], ...]
    concept_lines: tuple[tuple[int, ...], ...]


class ParsedConcepts(NamedTuple):
    """A concept file's valid concepts and the line where each id is written."""

    concepts: tuple[Concept, ...]
    id_lines: tuple[int, ...]


class FileResult(NamedTuple):
    """One file's own errors and, if it holds a usable drill, deck or concept list, that item."""

    errors: tuple[ContentError, ...]
    drill: ParsedDrill | None = None
    deck: ParsedDeck | None = None
    concepts: ParsedConcepts | None = None
