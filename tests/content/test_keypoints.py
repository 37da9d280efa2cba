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


def test_a_point_may_list_alternatives_and_the_match_names_the_one_covered() -> None:
    [argmax, order] = match_key_points(
        "Pick the MOST-frequent pair; merges happen in rank order.", ["argmax | most frequent", "rank order | by rank"]
    )
    assert argmax.covered and argmax.matched == "most frequent"
    assert argmax.alternatives == ("argmax", "most frequent")
    assert order.covered and order.matched == "rank order"  # the first phrase that is covered
    [miss] = match_key_points("it takes the maximum", ["argmax | most frequent pair"])
    assert not miss.covered and miss.matched is None
    assert miss.found == () and miss.missing == ("argmax",)  # no phrase is closer: the first is shown
    [partial] = match_key_points("the frequent one", ["argmax | most frequent pair"])
    assert partial.missing == ("most", "pair") and partial.found == ("frequent",)  # the closer phrase


def test_case_plurals_word_forms_and_punctuation_never_matter() -> None:
    cases = [
        ("Unicode BYTES map to characters.", "byte | codepoint"),
        ("frequencies of pairs", "pair frequency"),
        ("vocabularies", "vocabulary"),
        ("it was tokenizing; merged!", "merge"),
        ("end-of-word marker", "end of word"),
        ("Ties: break them by the larger pair.", "tie break"),
    ]
    for answer, point in cases:
        [match] = match_key_points(answer, [point])
        assert match.covered, (answer, point, match)


def test_alternatives_split_only_on_the_bar_and_ignore_blank_parts() -> None:
    from tokdrill.content.keypoints import alternatives, empty_alternative

    assert alternatives(" argmax |most frequent ") == ("argmax", "most frequent")
    assert alternatives("rank order") == ("rank order",)
    assert empty_alternative("a || b") and empty_alternative("a |") and not empty_alternative("a | b")
