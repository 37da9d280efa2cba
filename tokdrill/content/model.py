"""The content model: drills, flashcards, decks, concepts and the errors found while loading them.

Every object is frozen and built by :mod:`tokdrill.content.loader`: msgspec Structs, except
:class:`Drill` and :class:`Library`, dataclasses with fields left out of hashing or ``__init__``.
Ids are stable (progress is keyed by them), so editing wording never loses history.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from msgspec import Struct

Difficulty = Literal["easy", "medium", "hard"]
DIFFICULTIES: tuple[Difficulty, ...] = ("easy", "medium", "hard")
"""Every difficulty, easiest first (the order new drills are introduced in)."""


def printable(text: str) -> str:
    """``text`` with every character a terminal would act on or fail to print (control
    characters, unpaired surrogates) written as a visible escape such as ``\\x1b``."""
    if text.isprintable():
        return text
    return "".join(
        c if c.isprintable() else c.encode("unicode_escape", "backslashreplace").decode("ascii") for c in text
    )


def display_path(path: Path | str) -> str:
    """``path`` relative to the working directory when it lies inside it, else as given."""
    path = Path(path)
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except (ValueError, OSError, RuntimeError):
        return os.fspath(path)


class ContentError(Struct, frozen=True):
    """One problem in a content file; ``str()`` gives ``path:line: field: message``.

    ``field`` is a dotted path into the file (``cards[2].answer``, ``references[0].url``), or
    ``yaml`` / ``file`` for problems with the file as a whole. ``line`` is 1-based.
    """

    path: Path
    line: int
    field: str
    message: str

    def __str__(self) -> str:
        return printable(f"{self.path}:{self.line}: {self.field}: {self.message}")

    def display(self) -> str:
        """``str()`` with the file named relative to the working directory where it lies inside."""
        return printable(f"{display_path(self.path)}:{self.line}: {self.field}: {self.message}")

    def to_json(self) -> dict[str, object]:
        return {"path": str(self.path), "line": self.line, "field": self.field, "message": self.message}


class Origin(Struct, frozen=True):
    """Where an item was defined: its file and the 1-based line its mapping starts on."""

    path: Path
    line: int

    def __str__(self) -> str:
        return f"{self.path}:{self.line}"


class Reference(Struct, frozen=True):
    """A paper or library document a drill or card rests on, for the user to follow.

    ``title`` is always given, and at least one of ``venue`` (``ACL 2016``,
    ``arXiv:1508.07909``) and ``url`` (http or https).
    """

    title: str
    authors: str | None = None
    year: int | None = None
    venue: str | None = None
    url: str | None = None

    def __str__(self) -> str:
        """One line: ``Authors (year). Title. Venue. URL``, leaving out what is not given."""
        head = self.authors or ""
        if self.year is not None:
            head = f"{head} ({self.year})" if head else f"({self.year})"
        return ". ".join(part for part in (head, self.title, self.venue, self.url) if part)

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        """Unpickled as the one shared copy (see :func:`shared_reference`)."""
        return _shared_reference, (self.title, self.authors, self.year, self.venue, self.url)

    def to_json(self) -> dict[str, object]:
        """``title`` plus each optional field that is given."""
        document: dict[str, object] = {"title": self.title}
        optional = {"authors": self.authors, "year": self.year, "venue": self.venue, "url": self.url}
        document.update((key, value) for key, value in optional.items() if value is not None)
        return document


_REFERENCES: dict[Reference, Reference] = {}


def shared_reference(reference: Reference) -> Reference:
    """The one copy of an equal reference made before (else ``reference`` itself): the same paper
    is cited by many cards and drills, in many files."""
    return _REFERENCES.setdefault(reference, reference)


def _shared_reference(
    title: str, authors: str | None, year: int | None, venue: str | None, url: str | None
) -> Reference:
    return shared_reference(Reference(title, authors, year, venue, url))


class Concept(Struct, frozen=True):
    """One idea that hidden tests check and cards teach (``merge-order``, ``tie-break``...).

    ``lesson`` is the one sentence to remember; ``origin`` is where the concept is defined.
    """

    id: str
    title: str
    lesson: str
    origin: Origin

    def to_json(self) -> dict[str, object]:
        return {"id": self.id, "title": self.title, "lesson": self.lesson, "origin": str(self.origin)}


def bare_test_name(name: str) -> str:
    """A hidden test's name without pytest's parameter suffix: ``f.py::test_x[3]`` -> ``f.py::test_x``."""
    return name.split("[", 1)[0]


@dataclass(frozen=True, slots=True)
class Drill:
    """A timed coding drill graded by hidden tests.

    ``symbols`` are names in ``reference_impl.__all__`` or ``Class.method``; ``hidden_tests``
    are resolved, existing absolute paths. ``test_concepts`` maps each hidden test, named
    ``file.py::test`` or ``file.py::Class::test`` as the grader names them (without parameters),
    to the concepts its ``@pytest.mark.concept`` markers declare. The retype text is not stored
    here: it comes from :func:`tokdrill.content.reference.reference_source` (one source of truth).
    """

    id: str
    title: str
    symbols: tuple[str, ...]
    target_seconds: int
    difficulty: Difficulty
    tags: tuple[str, ...]
    hidden_tests: tuple[Path, ...]
    prompt: str
    starter: str
    references: tuple[Reference, ...]
    origin: Origin
    test_concepts: Mapping[str, tuple[str, ...]] = field(default_factory=dict, hash=False)

    @property
    def concepts(self) -> tuple[str, ...]:
        """Every concept the drill's hidden tests check, in first-seen order."""
        return tuple(dict.fromkeys(c for names in self.test_concepts.values() for c in names))

    def concepts_of(self, test_name: str) -> tuple[str, ...]:
        """The concepts hidden test ``test_name`` checks (its parameters, if any, are ignored)."""
        return self.test_concepts.get(bare_test_name(test_name), ())

    def to_json(self) -> dict[str, object]:
        return {
            "id": self.id,
            "title": self.title,
            "target_seconds": self.target_seconds,
            "symbols": list(self.symbols),
            "difficulty": self.difficulty,
            "tags": list(self.tags),
            "hidden_tests": [str(p) for p in self.hidden_tests],
            "references": [r.to_json() for r in self.references],
            "concepts": list(self.concepts),
            "origin": str(self.origin),
        }


def introduction_order(drill: Drill) -> tuple[int, int, str]:
    """Sort key putting drills in the order a newcomer meets them: easier difficulty first, then
    the shorter target time, then id."""
    return (DIFFICULTIES.index(drill.difficulty), drill.target_seconds, drill.id)


class FollowUp(Struct, frozen=True):
    """A deeper question asked after a card's main one, with its answer (Markdown)."""

    question: str
    answer: str


class SeeIt(Struct, frozen=True):
    """A text a card or drill opens in the Playground ("see it"), with the encodings to compare
    and a line saying what to look at."""

    text: str
    encodings: tuple[str, ...]
    note: str = ""


class Card(Struct, frozen=True):
    """One flashcard. ``key_points`` are short phrases a good answer mentions (a point may list
    alternatives, ``argmax | most frequent``); ``concepts`` are the concept ids it teaches."""

    id: str
    deck: str
    question: str
    answer: str
    follow_ups: tuple[FollowUp, ...]
    key_points: tuple[str, ...]
    tags: tuple[str, ...]
    references: tuple[Reference, ...]
    origin: Origin
    concepts: tuple[str, ...] = ()
    see_it: SeeIt | None = None


class Deck(Struct, frozen=True):
    """A themed group of cards, loaded from one file."""

    id: str
    title: str
    description: str
    cards: tuple[Card, ...]
    origin: Origin

    def to_json(self) -> dict[str, object]:
        return {
            "id": self.id,
            "title": self.title,
            "description": self.description,
            "cards": len(self.cards),
            "origin": str(self.origin),
        }


@dataclass(frozen=True)
class Library:
    """Everything that loaded, keyed by id in load order, plus every error found on the way.

    Invalid items are left out (a broken card drops that card, not its deck); ``errors`` says
    what was left out and why. ``files`` lists the content files read; ``concepts`` is the
    concept vocabulary (every concept file's entries).
    """

    drills: dict[str, Drill]
    decks: dict[str, Deck]
    errors: tuple[ContentError, ...] = ()
    files: tuple[Path, ...] = ()
    concepts: dict[str, Concept] = field(default_factory=dict)
    _cards: dict[str, Card] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_cards", {card.id: card for deck in self.decks.values() for card in deck.cards})

    @property
    def ok(self) -> bool:
        """True when no error was found."""
        return not self.errors

    def drill(self, drill_id: str) -> Drill:
        """The drill with this id; ``KeyError`` naming the id if there is none."""
        try:
            return self.drills[drill_id]
        except KeyError:
            raise KeyError(f"no drill with id {drill_id!r}") from None

    def deck(self, deck_id: str) -> Deck:
        """The deck with this id; ``KeyError`` naming the id if there is none."""
        try:
            return self.decks[deck_id]
        except KeyError:
            raise KeyError(f"no deck with id {deck_id!r}") from None

    def card(self, card_id: str) -> Card:
        """The card with this id, whatever its deck; ``KeyError`` if there is none."""
        try:
            return self._cards[card_id]
        except KeyError:
            raise KeyError(f"no card with id {card_id!r}") from None

    def concept(self, concept_id: str) -> Concept:
        """The concept with this id; ``KeyError`` naming the id if there is none."""
        try:
            return self.concepts[concept_id]
        except KeyError:
            raise KeyError(f"no concept with id {concept_id!r}") from None

    def all_cards(self) -> tuple[Card, ...]:
        """Every card of every deck, decks in load order, cards in file order."""
        return tuple(self._cards.values())

    def cards_teaching(self, concept_id: str) -> tuple[Card, ...]:
        """The cards that name ``concept_id`` among their concepts, in load order."""
        return tuple(card for card in self._cards.values() if concept_id in card.concepts)

    def drills_checking(self, concept_id: str) -> tuple[Drill, ...]:
        """The drills with a hidden test that checks ``concept_id``, in load order."""
        return tuple(drill for drill in self.drills.values() if concept_id in drill.concepts)

    def untaught_concepts(self) -> tuple[Concept, ...]:
        """Concepts of the vocabulary that no card teaches."""
        taught = {c for card in self._cards.values() for c in card.concepts}
        return tuple(concept for concept in self.concepts.values() if concept.id not in taught)

    def untested_concepts(self) -> tuple[Concept, ...]:
        """Concepts of the vocabulary that no hidden test checks."""
        tested = {c for drill in self.drills.values() for c in drill.concepts}
        return tuple(concept for concept in self.concepts.values() if concept.id not in tested)

    def tags(self) -> tuple[str, ...]:
        """Every tag used by a drill or a card, sorted."""
        found = {tag for drill in self.drills.values() for tag in drill.tags}
        found.update(tag for card in self._cards.values() for tag in card.tags)
        return tuple(sorted(found))
