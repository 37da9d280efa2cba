"""The benchmark's generated content (tokdrill.bench.content) is valid content, at a small scale."""

from __future__ import annotations

from pathlib import Path

from content_helpers import load_only

from tokdrill.bench.content import write_synthetic_content


def test_generated_content_loads_cleanly_with_the_requested_counts(tmp_path: Path) -> None:
    write_synthetic_content(tmp_path, drills=7, cards=250)
    library = load_only(tmp_path)
    assert library.errors == ()
    assert len(library.drills) == 7
    assert [len(deck.cards) for deck in library.decks.values()] == [100, 100, 50]
    card = library.card("synthetic-card-00249")
    assert card.key_points == ("rank order", "dependency chain", "est</w> needs es")
    assert card.follow_ups[0].question.startswith("What breaks")
