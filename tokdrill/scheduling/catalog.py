"""The ids scheduling works on, taken from the content library (or built by hand in tests)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import msgspec
from msgspec import Struct

from tokdrill.content.model import introduction_order


class Catalog(Struct, frozen=True):
    """Current content as plain ids: drills with their target seconds, decks with their cards
    (both in display order), optional titles by id, and the concepts each card teaches and each
    drill's hidden tests check."""

    drill_targets: Mapping[str, int]
    decks: Mapping[str, tuple[str, ...]]
    titles: Mapping[str, str] = msgspec.field(default_factory=dict)
    card_concepts: Mapping[str, tuple[str, ...]] = msgspec.field(default_factory=dict)
    drill_concepts: Mapping[str, tuple[str, ...]] = msgspec.field(default_factory=dict)

    def cards_teaching(self, concept: str) -> tuple[str, ...]:
        """The ids of the cards that teach ``concept``, in display order."""
        return tuple(c for c in self.card_ids if concept in self.card_concepts.get(c, ()))

    @property
    def drill_ids(self) -> tuple[str, ...]:
        """Every drill id, in order."""
        return tuple(self.drill_targets)

    @property
    def card_ids(self) -> tuple[str, ...]:
        """Every card id across decks, in order."""
        return tuple(c for cards in self.decks.values() for c in cards)


def catalog_from_library(library: Any) -> Catalog:
    """A Catalog from a ``tokdrill.content`` Library (``.drills`` and ``.decks`` mappings).

    Drills come easiest first (difficulty, then target time, then id), which is the order new
    drills are introduced in.
    """
    ordered = sorted(library.drills.values(), key=introduction_order)
    drills = {d.id: int(d.target_seconds) for d in ordered}
    decks = {deck.id: tuple(card.id for card in deck.cards) for deck in library.decks.values()}
    titles = {d.id: d.title for d in library.drills.values()}
    titles.update({deck.id: deck.title for deck in library.decks.values()})
    cards = [card for deck in library.decks.values() for card in deck.cards]
    card_concepts = {card.id: tuple(card.concepts) for card in cards if getattr(card, "concepts", ())}
    drill_concepts = {d.id: tuple(d.concepts) for d in ordered if getattr(d, "concepts", ())}
    return Catalog(drills, decks, titles, card_concepts, drill_concepts)
