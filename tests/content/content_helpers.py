"""Helpers shared by the content tests (imported as ``content_helpers``)."""

from __future__ import annotations

from pathlib import Path

from tokdrill.content.loader import load_library
from tokdrill.content.model import Library

FIXTURES = Path(__file__).parent / "fixtures"


def load_only(*paths: Path) -> Library:
    """Load just ``paths`` (no shipped content)."""
    return load_library(list(paths), include_shipped=False)


def triples(library: Library, base: Path = FIXTURES) -> list[tuple[str, int, str]]:
    """Each error as ``(file relative to base, line, field)``."""
    return [(e.path.relative_to(base).as_posix(), e.line, e.field) for e in library.errors]


def drill_yaml(drill_id: str, hidden: str = "test_user_drill.py", symbols: str = "[count_pairs]") -> str:
    """A valid drill file's text."""
    return (
        f"id: {drill_id}\ntitle: Drill {drill_id}\nsymbols: {symbols}\ntarget_seconds: 300\n"
        f"difficulty: easy\ntags: [user]\nhidden_tests: [{hidden}]\nprompt: Count pairs.\n"
        "starter: |\n  def count_pairs(word_freqs): ...\n"
    )


def deck_yaml(deck_id: str, *card_ids: str) -> str:
    """A valid deck file's text with one simple card per id."""
    cards = "".join(
        f"  - id: {c}\n    question: Q {c}?\n    answer: A {c}.\n    key_points: [one, two]\n" for c in card_ids
    )
    return f"deck: {deck_id}\ntitle: Deck {deck_id}\ndescription: User deck.\ncards:\n{cards}"
