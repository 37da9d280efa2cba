"""The content shipped with tokdrill validates cleanly and follows the documented layout."""

from __future__ import annotations

import ast

from tokdrill import locations
from tokdrill.content.loader import load_library
from tokdrill.content.reference import reference_source


def test_shipped_content_has_no_errors() -> None:
    library = load_library([])
    assert [str(e) for e in library.errors] == []
    assert library.drills and library.decks


def test_shipped_items_follow_the_layout() -> None:
    library = load_library([])
    for drill in library.drills.values():
        assert drill.origin.path.parent == locations.drills_dir(), drill.id
        assert drill.origin.path.stem == drill.id, f"drills/<id>.yaml: {drill.origin}"
        assert all(p.parent == locations.hidden_tests_dir().resolve() for p in drill.hidden_tests), drill.id
    for deck in library.decks.values():
        assert deck.origin.path.parent == locations.questions_dir(), deck.id


def test_every_shipped_drill_has_retype_text_that_parses() -> None:
    for drill in load_library([]).drills.values():
        text = reference_source(drill.symbols)
        ast.parse(text)  # a SyntaxError here names the drill in the traceback
        assert text.strip(), drill.id


def test_every_concept_a_shipped_hidden_test_checks_is_taught_by_a_shipped_card() -> None:
    library = load_library([])
    checked = {concept for drill in library.drills.values() for concept in drill.concepts}
    untaught = sorted(checked - {concept for card in library.all_cards() for concept in card.concepts})
    assert untaught == [], f"concepts checked by hidden tests but taught by no card: {untaught}"
    assert checked <= set(library.concepts)


def test_every_shipped_concept_is_taught_by_a_shipped_card() -> None:
    library = load_library([])
    taught = {concept for card in library.all_cards() for concept in card.concepts}
    untaught = sorted(set(library.concepts) - taught)
    assert untaught == [], f"concepts that no card teaches: {untaught}"
