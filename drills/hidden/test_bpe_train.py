"""Hidden tests for the `bpe-train` drill: count_pairs, merge_pair, learn_merges.

Return types are the documented ones, checked exactly: ``count_pairs`` a dict (a ``Counter`` or
``defaultdict`` is a dict), ``merge_pair`` a tuple, ``learn_merges`` a list of tuples.
"""

from __future__ import annotations

import random

import pytest

# The Sennrich example with the end-of-word marker on each word's last character.
SENNRICH = {
    ("l", "o", "w</w>"): 5,
    ("l", "o", "w", "e", "r</w>"): 2,
    ("n", "e", "w", "e", "s", "t</w>"): 6,
    ("w", "i", "d", "e", "s", "t</w>"): 3,
}
# Derived by hand from the specified algorithm (the marker joined to the last character):
#  1 (s, t</w>) 9 ties (e, s) 9; "s" > "e" wins    2 (e, st</w>) 9
#  3 (l, o) 7                                       4 (w, est</w>) 6 ties (n, e), (e, w); "w" wins
#  5 (n, e) 6 beats (e, west</w>) 6                 6 (ne, west</w>) 6
#  7 (lo, w</w>) 5                                  8-10 (w, i), (wi, d), (wid, est</w>) 3 each
#  11 (w, e) 2 beats (lo, w), (e, r</w>)            12 (we, r</w>) 2, 13 (lo, wer</w>) 2, then none
SENNRICH_MERGES = [
    ("s", "t</w>"),
    ("e", "st</w>"),
    ("l", "o"),
    ("w", "est</w>"),
    ("n", "e"),
    ("ne", "west</w>"),
    ("lo", "w</w>"),
    ("w", "i"),
    ("wi", "d"),
    ("wid", "est</w>"),
    ("w", "e"),
    ("we", "r</w>"),
    ("lo", "wer</w>"),
]


def learned(impl, returns, word_freqs: dict[tuple[str, ...], int], num: int) -> list[tuple[str, str]]:
    """``impl.learn_merges(word_freqs, num)``, checked to be a list of tuples."""
    return returns(impl.learn_merges(word_freqs, num), list, f"learn_merges({word_freqs}, {num})", items=tuple)


def counted(impl, returns, word_freqs: dict[tuple[str, ...], int]) -> dict[tuple[str, str], int]:
    return returns(impl.count_pairs(word_freqs), dict, f"count_pairs({word_freqs})")


def merged(impl, returns, symbols: tuple[str, ...], pair: tuple[str, str]) -> tuple[str, ...]:
    return returns(impl.merge_pair(symbols, pair), tuple, f"merge_pair({symbols}, {pair})")


def random_word_freqs(rng: random.Random, alphabet: str = "abcde") -> dict[tuple[str, ...], int]:
    """Distinct random words, split into characters, some with the marker on the last one."""
    words: dict[tuple[str, ...], int] = {}
    for _ in range(rng.randint(0, 12)):
        word = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 8)))
        symbols = tuple(word[:-1]) + (word[-1] + "</w>",) if rng.random() < 0.7 else tuple(word)
        words[symbols] = rng.randint(1, 9)
    return words


@pytest.mark.concept("return-types")
def test_return_types_are_the_documented_ones(impl, returns):
    counted(impl, returns, {("a", "b"): 2})
    merged(impl, returns, ("a", "b", "c"), ("a", "b"))
    learned(impl, returns, {("a", "b"): 1}, 1)


# ---------------------------------------------------------------- count_pairs


@pytest.mark.concept("frequency-weighted-counts")
def test_count_pairs_weights_each_pair_by_word_frequency(impl, returns):
    got = counted(impl, returns, {("l", "o", "w</w>"): 5, ("l", "o", "w", "e", "r</w>"): 2})
    expected = {("l", "o"): 7, ("o", "w</w>"): 5, ("o", "w"): 2, ("w", "e"): 2, ("e", "r</w>"): 2}
    assert got == expected, f"count pairs weights each pair by word frequency: expected {expected}, got {got}"


@pytest.mark.concept("frequency-weighted-counts")
def test_count_pairs_counts_every_occurrence_inside_a_word(impl, returns):
    got = counted(impl, returns, {("a", "a", "a"): 3, ("x", "y", "x", "y"): 2})
    expected = {("a", "a"): 6, ("x", "y"): 4, ("y", "x"): 2}
    assert got == expected, f"count pairs counts every occurrence inside a word: expected {expected}, got {got}"


@pytest.mark.concept("empty-inputs")
def test_count_pairs_of_empty_input_and_one_symbol_words_is_empty(impl, returns):
    for word_freqs in ({}, {("x",): 4}, {("low</w>",): 1}):
        got = counted(impl, returns, word_freqs)
        assert got == {}, (
            f"no word has two symbols, so there is no pair: count_pairs({word_freqs}): expected {{}}, got {got}"
        )


COUNT_PAIRS_SEED = 101


def count_pairs_cases(ref) -> list[tuple[dict[tuple[str, ...], int], dict[tuple[str, str], int]]]:
    rng = random.Random(COUNT_PAIRS_SEED)
    cases = []
    for _ in range(50):
        word_freqs = random_word_freqs(rng)
        cases.append((word_freqs, dict(ref.count_pairs(dict(word_freqs)))))
    return cases


@pytest.mark.concept("frequency-weighted-counts")
def test_count_pairs_matches_reference_on_random_words(impl, returns, reference_cases):
    for case, (word_freqs, expected) in enumerate(reference_cases(count_pairs_cases)):
        got = counted(impl, returns, dict(word_freqs))
        assert got == expected, (
            f"each occurrence of a pair adds its word's frequency: random case {case} (seed {COUNT_PAIRS_SEED}), count_pairs({word_freqs}):\nexpected {expected}\ngot      {got}"
        )


# ---------------------------------------------------------------- merge_pair


@pytest.mark.concept("merge-no-overlap")
def test_merge_pair_joins_every_occurrence(impl, returns):
    for symbols, pair, expected in [
        (("a", "b", "c", "a", "b"), ("a", "b"), ("ab", "c", "ab")),
        (("n", "e", "w", "e", "s", "t</w>"), ("s", "t</w>"), ("n", "e", "w", "e", "st</w>")),
    ]:
        got = merged(impl, returns, symbols, pair)
        assert got == expected, f"merge_pair({symbols}, {pair}): expected {expected}, got {got}"


@pytest.mark.concept("merge-no-overlap")
def test_merge_pair_scans_left_to_right_without_overlap(impl, returns):
    for symbols, expected in [
        (("a", "a", "a"), ("aa", "a")),
        (("a", "a", "a", "a"), ("aa", "aa")),
        (("a", "a", "a", "a", "a"), ("aa", "aa", "a")),
        (("b", "a", "a", "a", "b"), ("b", "aa", "a", "b")),
    ]:
        got = merged(impl, returns, symbols, ("a", "a"))
        assert got == expected, f"merge_pair({symbols}, ('a', 'a')): expected {expected}, got {got}"


@pytest.mark.concept("whole-symbol-match")
def test_merge_pair_matches_whole_symbols_only(impl, returns):
    cases = [
        (("ca", "b"), ("a", "b"), ("ca", "b")),  # a symbol that merely ends with "a"
        (("a", "bc"), ("a", "b"), ("a", "bc")),  # ... or merely starts with "b"
        (("c", "a", "b"), ("a", "b"), ("c", "ab")),
        (("ab", "c"), ("a", "bc"), ("ab", "c")),  # same characters, different split
        (("a", "b c"), ("a", "b"), ("a", "b c")),
    ]
    for symbols, pair, expected in cases:
        got = merged(impl, returns, symbols, pair)
        assert got == expected, f"merge_pair({symbols}, {pair}): expected {expected}, got {got}"


@pytest.mark.concept("empty-inputs")
def test_merge_pair_without_occurrence_returns_symbols_unchanged(impl, returns):
    for symbols in [(), ("a",), ("b", "a"), ("a", "c", "b")]:
        got = merged(impl, returns, symbols, ("a", "b"))
        assert got == symbols, (
            f"a word without the pair (in this order) comes back unchanged: merge_pair({symbols}, ('a', 'b')): "
            f"expected {symbols}, got {got}"
        )


MERGE_PAIR_SEED = 202


def merge_pair_cases(ref) -> list[tuple[tuple[str, ...], tuple[str, str], tuple[str, ...]]]:
    rng = random.Random(MERGE_PAIR_SEED)
    pieces = ["a", "b", "ab", "ba", "a</w>", "b</w>", "aa"]
    cases = []
    for _ in range(150):
        symbols = tuple(rng.choice(pieces) for _ in range(rng.randint(0, 9)))
        pair = (rng.choice(pieces), rng.choice(pieces))
        if len(symbols) > 1 and rng.random() < 0.7:
            at = rng.randrange(len(symbols) - 1)
            pair = (symbols[at], symbols[at + 1])
        cases.append((symbols, pair, tuple(ref.merge_pair(symbols, pair))))
    return cases


@pytest.mark.concept("merge-no-overlap", "whole-symbol-match")
def test_merge_pair_matches_reference_on_random_symbols(impl, returns, reference_cases):
    for case, (symbols, pair, expected) in enumerate(reference_cases(merge_pair_cases)):
        got = merged(impl, returns, symbols, pair)
        assert got == expected, (
            f"every occurrence joined, left to right, no overlaps, whole symbols only: random case {case} (seed {MERGE_PAIR_SEED}), merge_pair({symbols}, {pair}): expected {expected}, got {got}"
        )


# ---------------------------------------------------------------- learn_merges


@pytest.mark.concept("frequency-weighted-counts", "tie-break")
def test_learn_merges_sennrich_example_with_marker_on_last_character(impl, returns):
    got = learned(impl, returns, dict(SENNRICH), 4)
    assert got == SENNRICH_MERGES[:4], (
        f"learn merges sennrich example with marker on last character: expected {SENNRICH_MERGES[:4]}, got {got}"
    )


@pytest.mark.concept("merge-budget", "frequency-weighted-counts", "tie-break")
def test_learn_merges_sennrich_example_runs_until_pairs_are_exhausted(impl, returns):
    got = learned(impl, returns, dict(SENNRICH), 100)
    assert got == SENNRICH_MERGES, (
        f"learn merges sennrich example runs until pairs are exhausted: expected {len(SENNRICH_MERGES)} merges {SENNRICH_MERGES}, got {len(got)}: {got}"
    )


@pytest.mark.concept("tie-break")
def test_learn_merges_breaks_count_ties_by_the_larger_pair(impl, returns):
    cases = [
        ({("a", "b"): 1, ("c", "d"): 1}, [("c", "d"), ("a", "b")]),
        ({("x", "a"): 2, ("x", "b"): 2}, [("x", "b"), ("x", "a")]),
        ({("a", "x"): 1, ("B", "x"): 1}, [("a", "x"), ("B", "x")]),  # "a" > "B" by code point
        ({("a", "bc"): 1, ("ab", "c"): 1}, [("ab", "c"), ("a", "bc")]),  # pairs compare as tuples, not joined strings
    ]
    for word_freqs, expected in cases:
        got = learned(impl, returns, word_freqs, 2)
        assert got == expected, f"learn_merges({word_freqs}, 2): expected {expected}, got {got}"


@pytest.mark.concept("frequency-weighted-counts", "merge-budget")
def test_learn_merges_weights_pairs_by_word_frequency(impl, returns):
    word_freqs = {("x", "y"): 10, ("c", "d", "e"): 1, ("c", "d", "f"): 1, ("c", "d", "g"): 1}
    got = learned(impl, returns, word_freqs, 1)
    assert got == [("x", "y")], f"(x, y) occurs 10 times, (c, d) 3 times: expected [('x', 'y')], got {got}"


@pytest.mark.concept("frequency-weighted-counts", "merge-budget")
def test_learn_merges_counts_repeated_pairs_inside_one_word(impl, returns):
    got = learned(impl, returns, {("a", "b", "a", "b"): 1, ("x", "y"): 1}, 1)
    assert got == [("a", "b")], f"(a, b) occurs twice, (x, y) once: expected [('a', 'b')], got {got}"


@pytest.mark.concept("recount-after-merge")
def test_learn_merges_recounts_after_each_merge(impl, returns):
    cases = [
        ({("a", "a", "a"): 1}, [("a", "a"), ("aa", "a")]),
        ({("a", "a", "a", "a"): 1}, [("a", "a"), ("aa", "aa")]),
        ({("a", "b", "c"): 4, ("b", "c", "d"): 3}, [("b", "c"), ("a", "bc"), ("bc", "d")]),
    ]
    for word_freqs, expected in cases:
        got = learned(impl, returns, word_freqs, 10)
        assert got == expected, f"learn_merges({word_freqs}, 10): expected {expected}, got {got}"


@pytest.mark.concept("whole-symbol-match", "frequency-weighted-counts", "recount-after-merge")
def test_learn_merges_never_joins_a_symbol_that_only_contains_the_pair(impl, returns):
    # After (c, a) one word is (ca, b); the next merge (a, b) must leave it alone, so (ca, b)
    # is still there to be learned third.
    word_freqs = {("c", "a", "b"): 1, ("c", "a"): 5, ("a", "b"): 4}
    expected = [("c", "a"), ("a", "b"), ("ca", "b")]
    got = learned(impl, returns, word_freqs, 10)
    assert got == expected, f"learn_merges({word_freqs}, 10): expected {expected}, got {got}"


@pytest.mark.concept("empty-inputs")
def test_learn_merges_with_nothing_to_merge_returns_no_merges(impl, returns):
    for word_freqs, num in [({}, 5), ({("a",): 3, ("b</w>",): 1}, 5), ({("a", "b"): 1}, 0)]:
        got = learned(impl, returns, word_freqs, num)
        assert got == [], (
            f"nothing to merge, or no merges asked for: learn_merges({word_freqs}, {num}): expected [], got {got}"
        )


@pytest.mark.concept("merge-budget")
def test_learn_merges_returns_exactly_num_merges_when_pairs_remain(impl, returns):
    word_freqs = {tuple("abcdefgh"): 1}
    for num in (1, 3, 7):
        got = learned(impl, returns, dict(word_freqs), num)
        assert len(got) == num, (
            f"while pairs remain, exactly num_merges merges: learn_merges(<one 8-letter word>, {num}): "
            f"expected {num} merges, got {got}"
        )


@pytest.mark.concept(
    "inputs-unchanged", "frequency-weighted-counts", "tie-break", "recount-after-merge", "merge-budget"
)
def test_learn_merges_and_count_pairs_leave_the_callers_dict_unchanged(impl, returns):
    # Five merges rewrite every word, so a trainer that rewrites the caller's dict in place (or
    # pops the old spelling of a word) leaves it visibly changed.
    word_freqs = dict(SENNRICH)
    got = learned(impl, returns, word_freqs, 5)
    assert got == SENNRICH_MERGES[:5], f"learn_merges(<Sennrich words>, 5): expected {SENNRICH_MERGES[:5]}, got {got}"
    assert word_freqs == SENNRICH, (
        f"learn_merges changed the caller's dict:\nexpected {SENNRICH}\ngot      {word_freqs}"
    )
    counts = counted(impl, returns, word_freqs)
    assert counts[("e", "s")] == 9, (
        f"count_pairs(<Sennrich words>)[('e', 's')]: expected 9, got {counts.get(('e', 's'))}"
    )
    assert word_freqs == SENNRICH, f"count_pairs changed the caller's dict:\nexpected {SENNRICH}\ngot      {word_freqs}"


LEARN_MERGES_SEED = 303


def learn_merges_cases(ref) -> list[tuple[dict[tuple[str, ...], int], int, list[tuple[str, str]]]]:
    rng = random.Random(LEARN_MERGES_SEED)
    cases = []
    for _ in range(20):
        word_freqs = random_word_freqs(rng, rng.choice(["ab", "abc", "abcdef"]))
        num = rng.randint(0, 25)
        cases.append((word_freqs, num, [tuple(p) for p in ref.learn_merges(dict(word_freqs), num)]))
    return cases


@pytest.mark.concept("frequency-weighted-counts", "tie-break", "recount-after-merge")
def test_learn_merges_matches_reference_on_random_corpora(impl, returns, reference_cases):
    for case, (word_freqs, num, expected) in enumerate(reference_cases(learn_merges_cases)):
        got = learned(impl, returns, dict(word_freqs), num)
        assert got == expected, (
            f"each round recounts and merges the largest count, ties to the larger pair: random case {case} (seed {LEARN_MERGES_SEED}), learn_merges({word_freqs}, {num}):\n"
            f"expected {expected}\ngot      {got}"
        )


@pytest.mark.concept("frequency-weighted-counts", "merge-budget")
def test_learn_merges_keeps_word_frequencies_after_a_merge(impl, returns):
    # (a, b) 5 goes first; afterwards (c, d) 3 must beat (e, f) 1 + 1. Frequencies that drift
    # during rewriting (each word +1, say) would make it 4 vs 4, a tie the larger (e, f) wins.
    word_freqs = {("a", "b"): 5, ("c", "d"): 3, ("e", "f"): 1, ("g", "e", "f"): 1}
    got = learned(impl, returns, word_freqs, 3)
    assert got == [("a", "b"), ("c", "d"), ("e", "f")], (
        f"learn merges keeps word frequencies after a merge: expected [(a, b), (c, d), (e, f)], got {got}"
    )


# Differential cases: built once per session with reference_impl (see conftest.py).
REFERENCE_CASES = (count_pairs_cases, merge_pair_cases, learn_merges_cases)
