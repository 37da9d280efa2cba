"""Every validation error, each from its own broken fixture, named as file:line: field."""

from __future__ import annotations

from pathlib import Path

import pytest
from content_helpers import FIXTURES, load_only, triples

# fixture file -> (line, field, a phrase the message must contain)
SINGLE_ERROR_FIXTURES = {
    "drill_unknown_key.yaml": (13, "hint", "unknown key"),
    "drill_missing_key.yaml": (1, "starter", "missing required key"),
    "drill_wrong_type.yaml": (2, "title", "expected a string, got a list"),
    "drill_empty_string.yaml": (8, "prompt", "must not be empty"),
    "drill_bad_id.yaml": (1, "id", "'BPE_Train' is not a valid id"),
    "drill_missing_hidden.yaml": (7, "hidden_tests[0]", "test_does_not_exist.py not found"),
    "drill_bad_hidden_name.yaml": (7, "hidden_tests[0]", "bare `test_*.py` name"),
    "drill_unknown_symbol.yaml": (3, "symbols[1]", "`not_a_function` is not in reference_impl.__all__"),
    "drill_unknown_method.yaml": (3, "symbols[0]", "class `BPETokenizer` has no method `fly`"),
    "drill_method_of_function.yaml": (3, "symbols[0]", "`count_pairs` is not a class"),
    "drill_zero_target.yaml": (4, "target_seconds", "must be positive, got 0"),
    "drill_float_target.yaml": (4, "target_seconds", "whole number of seconds"),
    "drill_bad_difficulty.yaml": (5, "difficulty", "must be one of easy, medium, hard"),
    "drill_repeated_symbol.yaml": (3, "symbols[1]", "listed twice"),
    "drill_duplicate_key.yaml": (3, "title", "duplicate key (first given on line 2)"),
    "drill_python_tag.yaml": (2, "title", "unsupported YAML tag"),
    "yaml_syntax.yaml": (4, "yaml", "started on line 3"),
    "empty.yaml": (1, "file", "empty"),
    "top_level_list.yaml": (1, "file", "got a list"),
    "neither.yaml": (1, "file", "not a deck"),
    "deck_unknown_card_key.yaml": (14, "cards[0].hint", "unknown key"),
    "deck_missing_card_answer.yaml": (4, "cards[0].answer", "missing required key"),
    "deck_bool_answer.yaml": (6, "cards[0].answer", "put it in quotes"),
    "deck_bad_card_id.yaml": (4, "cards[0].id", "'Card One' is not a valid id"),
    "deck_bad_id.yaml": (1, "deck", "'Bad Deck' is not a valid id"),
    "deck_follow_up.yaml": (8, "cards[0].follow_ups[0].answer", "missing required key"),
    "deck_reference.yaml": (8, "cards[0].references[0]", "give a `venue`"),
    "deck_source_key.yaml": (8, "cards[0].source", "use `references`"),
    "deck_empty_cards.yaml": (3, "cards", "must not be an empty list"),
    "deck_card_not_mapping.yaml": (4, "cards[0]", "expected a mapping, got a string"),
}


@pytest.mark.parametrize("name", sorted(SINGLE_ERROR_FIXTURES))
def test_each_broken_fixture_reports_its_file_line_and_field(name: str) -> None:
    line, field, phrase = SINGLE_ERROR_FIXTURES[name]
    library = load_only(FIXTURES / name)
    assert triples(library) == [(name, line, field)], [str(e) for e in library.errors]
    assert phrase in library.errors[0].message
    assert str(library.errors[0]).startswith(f"{FIXTURES / name}:{line}: {field}: ")


@pytest.mark.parametrize("name", sorted(n for n in SINGLE_ERROR_FIXTURES if n.startswith("drill_")))
def test_a_drill_with_an_error_is_left_out(name: str) -> None:
    assert load_only(FIXTURES / name).drills == {}


def test_valid_fixtures_load_without_errors() -> None:
    library = load_only(FIXTURES / "valid_drill.yaml", FIXTURES / "valid_deck.yaml")
    assert library.errors == ()
    drill = library.drill("fixture-valid")
    assert drill.symbols == ("count_pairs", "BPETokenizer.train")
    assert drill.hidden_tests == ((FIXTURES / "hidden" / "test_fixture_ok.py").resolve(),)
    assert drill.hidden_tests[0].is_absolute()
    assert drill.origin.line == 1 and drill.references[0].year == 2016
    assert str(drill.references[0]) == (
        "Rico Sennrich, Barry Haddow, Alexandra Birch (2016). Neural Machine Translation of Rare Words with "
        "Subword Units. ACL 2016. https://aclanthology.org/P16-1162/"
    )
    deck = library.deck("fixture-deck")
    assert [c.id for c in deck.cards] == ["fixture-card-one", "fixture-card-two"]
    first = deck.cards[0]
    assert first.deck == "fixture-deck" and first.follow_ups[0].answer == "est</w> needs es."
    assert first.origin.line == 5 and deck.cards[1].origin.line == 15
    assert first.references[0].venue == "ACL 2016" and first.concepts == ()
    assert deck.cards[1].follow_ups == () and deck.cards[1].tags == () and deck.cards[1].references == ()


def test_a_file_with_many_errors_reports_all_of_them_in_line_order() -> None:
    library = load_only(FIXTURES / "multi_error_drill.yaml")
    name = "multi_error_drill.yaml"
    assert triples(library) == [
        (name, 1, "starter"),
        (name, 1, "id"),
        (name, 2, "title"),
        (name, 3, "symbols[1]"),
        (name, 3, "symbols[2]"),
        (name, 4, "target_seconds"),
        (name, 6, "tags[1]"),
        (name, 7, "hidden_tests[0]"),
        (name, 8, "prompt"),
        (name, 9, "extra"),
        (name, 10, "references[0].url"),
    ]
    assert library.drills == {}


def test_a_deck_keeps_its_valid_cards_when_one_card_is_broken() -> None:
    library = load_only(FIXTURES / "deck_missing_card_answer.yaml")
    deck = library.deck("fixture-missing-answer")
    assert [c.id for c in deck.cards] == ["missing-answer-fine-card"]
    with pytest.raises(KeyError, match="missing-answer-card"):
        library.card("missing-answer-card")


def test_every_card_error_in_a_deck_is_reported() -> None:
    library = load_only(FIXTURES / "deck_key_points.yaml")
    assert triples(library) == [
        ("deck_key_points.yaml", 7, "cards[0].key_points"),
        ("deck_key_points.yaml", 11, "cards[1].key_points[1]"),
    ]
    assert "2 to 6" in library.errors[0].message
    assert library.decks == {}


def test_duplicate_drill_ids_across_files_name_both_places() -> None:
    library = load_only(FIXTURES / "dup_drills")
    assert triples(library) == [("dup_drills/b.yaml", 1, "id")]
    assert f"{FIXTURES / 'dup_drills' / 'a.yaml'}:1" in library.errors[0].message
    assert library.drill("fixture-valid").title == "A valid drill"  # the first definition wins


def test_duplicate_deck_ids_across_files_name_both_places() -> None:
    library = load_only(FIXTURES / "dup_decks")
    assert triples(library) == [("dup_decks/b.yaml", 1, "deck")]
    assert f"{FIXTURES / 'dup_decks' / 'a.yaml'}:1" in library.errors[0].message
    assert library.deck("fixture-dup-deck").title == "First"


def test_duplicate_card_ids_within_and_across_decks_name_both_places() -> None:
    library = load_only(FIXTURES / "dup_cards")
    assert triples(library) == [("dup_cards/a.yaml", 12, "cards[2].id"), ("dup_cards/b.yaml", 8, "cards[1].id")]
    assert f"{FIXTURES / 'dup_cards' / 'a.yaml'}:8" in library.errors[0].message
    assert f"{FIXTURES / 'dup_cards' / 'a.yaml'}:4" in library.errors[1].message
    assert [c.id for c in library.deck("fixture-dup-cards-a").cards] == ["shared-card", "only-in-a"]
    assert [c.id for c in library.deck("fixture-dup-cards-b").cards] == ["only-in-b"]
    assert library.card("shared-card").deck == "fixture-dup-cards-a"


def test_broken_files_next_to_valid_ones_do_not_stop_them_loading() -> None:
    library = load_only(FIXTURES / "mixed")
    assert triples(library) == [("mixed/broken_drill.yaml", 3, "symbols[1]"), ("mixed/broken_syntax.yaml", 4, "yaml")]
    assert list(library.drills) == ["fixture-valid"]
    assert len(library.deck("fixture-deck").cards) == 2


def test_a_missing_content_path_is_an_error_not_an_exception(tmp_path) -> None:
    library = load_only(tmp_path / "nowhere")
    assert [(e.line, e.field) for e in library.errors] == [(1, "content")]
    assert "no such file or folder" in library.errors[0].message


def test_unreadable_bytes_are_a_yaml_error(tmp_path) -> None:
    bad = tmp_path / "latin1.yaml"
    bad.write_bytes(b"deck: x\ntitle: caf\xe9\n")
    library = load_only(bad)
    assert [(e.line, e.field) for e in library.errors] == [(1, "yaml")]


def test_yaml_aliases_and_non_string_keys(tmp_path) -> None:
    path = tmp_path / "deck.yaml"
    path.write_text(
        "deck: aliases\ntitle: &t Shared title\ncards:\n"
        "  - id: alias-card\n    question: *t\n    answer: A.\n    key_points: [one, two]\n"
        "  - id: int-key-card\n    1: one\n    question: Q?\n    answer: A.\n    key_points: [one, two]\n",
        encoding="utf-8",
    )
    library = load_only(path)
    assert library.card("alias-card").question == "Shared title"
    assert [(e.line, e.field) for e in library.errors] == [(9, "cards[1]")]
    assert "keys must be plain names" in library.errors[0].message


def test_a_key_point_with_an_empty_alternative_is_reported(tmp_path) -> None:
    from content_helpers import deck_yaml

    path = tmp_path / "deck.yaml"
    path.write_text(deck_yaml("alt", "alt-card").replace("[one, two]", "[one, 'argmax ||most frequent']"))
    library = load_only(path)
    assert [(e.line, e.field) for e in library.errors] == [(8, "cards[0].key_points[1]")]
    assert "empty alternative" in library.errors[0].message


def test_a_duplicate_key_inside_a_follow_up_drops_the_card_with_its_line(tmp_path: Path) -> None:
    path = tmp_path / "d.yaml"
    path.write_text(
        "deck: d\ntitle: D\ncards:\n  - id: c\n    question: Q?\n    answer: A.\n    key_points: [one, two]\n"
        "    follow_ups:\n      - question: a\n        question: b\n        answer: x\n"
    )
    library = load_only(path)
    assert [(e.line, e.field) for e in library.errors] == [(10, "cards[0].follow_ups[0].question")]
    assert "duplicate key (first given on line 9)" in library.errors[0].message
