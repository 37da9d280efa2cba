"""The content model: drills, flashcards, decks and the errors found while loading them.

Every object is a frozen dataclass built by :mod:`tokdrill.content.loader`; ids are stable
(progress is keyed by them), so editing wording never loses history.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

Difficulty = Literal["easy", "medium", "hard"]
DIFFICULTIES: tuple[Difficulty, ...] = ("easy", "medium", "hard")


@dataclass(frozen=True)
class ContentError:
    """One problem in a content file; ``str()`` gives ``path:line: field: message``.

    ``field`` is a dotted path into the file (``cards[2].answer``, ``source.seed``), or ``yaml`` /
    ``file`` for problems with the file as a whole. ``line`` is 1-based.
    """

    path: Path
    line: int
    field: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.field}: {self.message}"

    def to_json(self) -> dict[str, object]:
        return {"path": str(self.path), "line": self.line, "field": self.field, "message": self.message}


@dataclass(frozen=True)
class Origin:
    """Where an item was defined: its file and the 1-based line its mapping starts on."""

    path: Path
    line: int

    def __str__(self) -> str:
        return f"{self.path}:{self.line}"


@dataclass(frozen=True)
class Source:
    """The seed text a drill or card draws its facts from, and the section within it."""

    seed: str
    section: str


@dataclass(frozen=True)
class Drill:
    """A timed coding drill graded by hidden tests.

    ``symbols`` are names in ``reference_impl.__all__`` or ``Class.method``; ``hidden_tests``
    are resolved, existing absolute paths. The retype text is not stored here: it comes from
    :func:`tokdrill.content.reference.reference_source` (one source of truth).
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
    source: Source | None
    origin: Origin

    def to_json(self) -> dict[str, object]:
        return {
            "id": self.id,
            "title": self.title,
            "target_seconds": self.target_seconds,
            "symbols": list(self.symbols),
            "difficulty": self.difficulty,
            "tags": list(self.tags),
            "hidden_tests": [str(p) for p in self.hidden_tests],
            "source": None if self.source is None else {"seed": self.source.seed, "section": self.source.section},
            "origin": str(self.origin),
        }


@dataclass(frozen=True)
class FollowUp:
    """A deeper question asked after a card's main one, with its answer (Markdown)."""

    question: str
    answer: str


@dataclass(frozen=True)
class Card:
    """One flashcard. ``key_points`` are short phrases a good answer mentions."""

    id: str
    deck: str
    question: str
    answer: str
    follow_ups: tuple[FollowUp, ...]
    key_points: tuple[str, ...]
    tags: tuple[str, ...]
    source: Source | None
    origin: Origin


@dataclass(frozen=True)
class Deck:
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
    what was left out and why. ``files`` lists the content files read.
    """

    drills: dict[str, Drill]
    decks: dict[str, Deck]
    errors: tuple[ContentError, ...] = ()
    files: tuple[Path, ...] = ()
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

    def all_cards(self) -> tuple[Card, ...]:
        """Every card of every deck, decks in load order, cards in file order."""
        return tuple(self._cards.values())

    def tags(self) -> tuple[str, ...]:
        """Every tag used by a drill or a card, sorted."""
        found = {tag for drill in self.drills.values() for tag in drill.tags}
        found.update(tag for card in self._cards.values() for tag in card.tags)
        return tuple(sorted(found))
