"""The first-divergence sentence: the first merge or step where a wrong answer leaves the
reference's, with the counts or ranks that decided it."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference_impl.bpe import apply_merges, count_pairs, learn_merges
from tokdrill.playground import divergence

CORPUS = {
    ("l", "o", "w</w>"): 5,
    ("l", "o", "w", "e", "r</w>"): 2,
    ("n", "e", "w", "e", "s", "t</w>"): 6,
    ("w", "i", "d", "e", "s", "t</w>"): 3,
}


def test_a_wrong_merge_is_named_with_both_counts() -> None:
    expected = learn_merges(CORPUS, 5)
    wrong = [*expected[:2], ("w", "e"), *expected[3:]]
    assert divergence.merges(CORPUS, wrong, expected) == (
        "merge 3: you merged ('w', 'e') (count 2); the reference merged ('l', 'o') (count 7)"
    )


def test_too_few_and_too_many_merges() -> None:
    expected = learn_merges(CORPUS, 5)
    assert divergence.merges(CORPUS, expected[:2], expected) == (
        "merge 3: you stopped after 2; the reference merged ('l', 'o') (count 7)"
    )
    assert divergence.merges(CORPUS, [*expected, ("x", "y")], expected) == (
        "merge 6: you merged ('x', 'y'); the reference made 5"
    )
    assert "you merged ('q', 'z') (not an adjacent pair then);" in str(
        divergence.merges(CORPUS, [("q", "z")], expected[:1])
    )


@settings(max_examples=50, deadline=None)
@given(st.lists(st.text(alphabet="abc", min_size=1, max_size=5), min_size=1, max_size=8), st.integers(1, 8))
def test_the_named_count_is_the_references_count_at_that_step(words: list[str], num: int) -> None:
    freqs = {tuple(w): i + 1 for i, w in enumerate(dict.fromkeys(words))}
    expected = learn_merges(freqs, num)
    if not expected:
        return
    wrong = list(reversed(expected)) if len(expected) > 1 else []
    found = divergence.merges(freqs, wrong, expected)
    assert (found is None) == (wrong == expected)
    if found and wrong and wrong[0] != expected[0]:
        assert f"(count {count_pairs(freqs)[expected[0]]})" in found


def test_correct_answers_have_no_divergence() -> None:
    expected = learn_merges(CORPUS, 6)
    assert divergence.merges(CORPUS, list(expected), expected) is None
    ranks = {p: r for r, p in enumerate(expected)}
    word = ("l", "o", "w", "e", "s", "t</w>")
    assert divergence.encoding(word, ranks, apply_merges(word, ranks)) is None
    assert divergence.sequence("token", [1, 2], [1, 2]) is None


def test_encoding_names_the_step_the_submission_stopped_at() -> None:
    expected = learn_merges(CORPUS, 5)
    ranks = {p: r for r, p in enumerate(expected)}
    word = ("l", "o", "w", "e", "s", "t</w>")
    assert divergence.encoding(word, ranks, ["l", "o", "w", "est</w>"]) == (
        "step 3: you stopped at ['l', 'o', 'w', 'est</w>']; the reference merged ('l', 'o') (rank 2) next"
    )


def test_sequences_and_the_marker_round_trip() -> None:
    found = divergence.sequence("piece", ["lo", "west"], ["low", "est"])
    assert found == "piece 1: you gave 'lo'; the reference gives 'low'"
    assert divergence.sequence("token", [1], [1, 2]) == "you gave 1 tokens; the reference gives 2"
    failure = "AssertionError: expected x\n" + divergence.sentence(found) + "\nassert ..."
    assert divergence.read(failure) == found
    assert divergence.read("no marker here") == ""


@pytest.mark.parametrize("name", sorted(divergence.EXPLAINERS))
def test_every_explainer_accepts_a_wrong_type_without_raising(name: str) -> None:
    args: tuple[object, ...] = (CORPUS, 3) if "learn" in name else (("a", "b"), {("a", "b"): 0})
    if name == "viterbi_segment":
        args = ("ab", {"a": -1.0, "b": -1.0})
    assert divergence.EXPLAINERS[name](args, 42, ([], 0.0) if name == "viterbi_segment" else []) is None
