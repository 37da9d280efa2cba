"""Key-point matching of typed answers (tokdrill.content.keypoints)."""

from __future__ import annotations

from tokdrill.content.keypoints import coverage, match_key_points, significant_words


def test_point_covered_by_inflected_words_in_any_order() -> None:
    [match] = match_key_points("The merges are ranked and applied in order of rank.", ["rank order"])
    assert match.covered and match.missing == ()


def test_two_word_point_needs_both_words() -> None:
    [match] = match_key_points("You apply merges by frequency.", ["rank order"])
    assert not match.covered and set(match.missing) == {"rank", "order"}


def test_long_point_needs_most_of_its_words() -> None:
    point = "est</w> needs es merged first"
    assert match_key_points("est</w> only exists once es is merged", [point])[0].covered
    assert not match_key_points("est appears", [point])[0].covered


def test_numbers_match_exactly() -> None:
    assert match_key_points("about 100k tokens, 100277 exactly", ["100277 tokens"])[0].covered
    assert not match_key_points("about 100000 tokens", ["100277 tokens"])[0].covered


def test_coverage_and_stopwords() -> None:
    matches = match_key_points("bytes map to printable characters", ["printable characters", "no whitespace"])
    assert [m.covered for m in matches] == [True, False]
    assert coverage(matches) == 0.5 and coverage([]) == 0.0
    assert significant_words("the of a") == ["the", "of", "a"]  # nothing but stopwords: keep them
    assert significant_words("The rank of a merge") == ["rank", "merge"]


def test_word_forms_and_digit_groups_meet() -> None:
    matches = match_key_points(
        "Encoding replays merges; 2,500 tokens; scraped usernames.",
        ["encode in rank order", "2500 tokens", "reddit username"],
    )
    assert [m.covered for m in matches] == [False, True, False]
    assert matches[0].found == ("encode",)
    assert matches[2].found == ("username",)
    assert match_key_points("what encoding needs", ["order is what encoding needs"])[0].missing == ("order",)


def test_every_shipped_card_answer_covers_its_own_key_points() -> None:
    from tokdrill.content.loader import load_library

    library = load_library([], use_cache=False)
    uncovered = []
    for card in library.all_cards():
        model_answer = "\n".join([card.answer, *(f.answer for f in card.follow_ups)])
        uncovered += [f"{card.id}: {m.point}" for m in match_key_points(model_answer, card.key_points) if not m.covered]
    assert library.decks and not uncovered, uncovered
