"""The model objects: error text, and the Library's lookups."""

from __future__ import annotations

from pathlib import Path

import pytest
from content_helpers import FIXTURES, load_only

from tokdrill.content.model import ContentError


def test_content_error_reads_path_line_field_message() -> None:
    error = ContentError(Path("questions/bpe.yaml"), 12, "cards[3].answer", "must not be empty")
    assert str(error) == "questions/bpe.yaml:12: cards[3].answer: must not be empty"
    assert error.to_json() == {
        "path": "questions/bpe.yaml",
        "line": 12,
        "field": "cards[3].answer",
        "message": "must not be empty",
    }


def test_library_lookups_and_tags() -> None:
    library = load_only(FIXTURES / "valid_drill.yaml", FIXTURES / "valid_deck.yaml", FIXTURES / "dup_cards")
    assert library.ok is False  # dup_cards holds duplicates
    assert library.drill("fixture-valid").title == "A valid drill"
    assert [c.id for c in library.all_cards()] == [
        "fixture-card-one",
        "fixture-card-two",
        "shared-card",
        "only-in-a",
        "only-in-b",
    ]
    assert library.card("fixture-card-two").deck == "fixture-deck"
    assert library.tags() == ("bpe", "fixture")
    with pytest.raises(KeyError, match="no drill with id 'nope'"):
        library.drill("nope")
    with pytest.raises(KeyError, match="no card with id 'nope'"):
        library.card("nope")
    with pytest.raises(KeyError, match="no deck with id 'nope'"):
        library.deck("nope")


def test_model_objects_are_frozen() -> None:
    drill = load_only(FIXTURES / "valid_drill.yaml").drill("fixture-valid")
    with pytest.raises(AttributeError):
        drill.title = "changed"  # type: ignore[misc]
    assert drill.to_json()["symbols"] == ["count_pairs", "BPETokenizer.train"]
