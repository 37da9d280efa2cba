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


def test_introduction_order_is_easier_then_shorter_then_id(content_dir: Path) -> None:
    from content_helpers import drill_yaml

    from tokdrill.content.model import DIFFICULTIES, introduction_order

    specs = [("hard-short", "hard", 60), ("easy-long", "easy", 900), ("easy-b", "easy", 300), ("easy-a", "easy", 300)]
    for drill_id, difficulty, target in specs:
        text = drill_yaml(drill_id).replace("difficulty: easy", f"difficulty: {difficulty}")
        (content_dir / f"{drill_id}.yaml").write_text(text.replace("300", str(target)), encoding="utf-8")
    library = load_only(content_dir)
    assert library.errors == ()
    ordered = sorted(library.drills.values(), key=introduction_order)
    assert [d.id for d in ordered] == ["easy-a", "easy-b", "easy-long", "hard-short"]
    assert DIFFICULTIES == ("easy", "medium", "hard")


def test_errors_never_print_terminal_escapes_or_unprintable_characters() -> None:
    error = ContentError(Path("x\x1b[2J.yaml"), 3, "key\x07", "got '\ud800' and \x9b")
    assert str(error) == "x\\x1b[2J.yaml:3: key\\x07: got '\\ud800' and \\x9b"
    assert error.display() == str(error)
    str(error).encode("utf-8")  # printable to any UTF-8 terminal


def test_the_package_exports_exactly_its_lazy_names() -> None:
    import tokdrill.content as content

    assert sorted(content.__all__) == sorted(content._EXPORTS)
    assert all(getattr(content, name) is not None for name in content.__all__)
