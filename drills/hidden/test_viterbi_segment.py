"""Hidden tests for the `viterbi-segment` drill: the most probable Unigram segmentation.

``viterbi_segment(word, log_probs)`` returns ``(pieces, log_prob)``: pieces in left-to-right order
that concatenate to ``word``, all in ``log_probs``, whose log-probabilities sum to the highest
possible total. Unsegmentable words give ``([], -math.inf)``; the empty word gives ``([], 0.0)``.
When several segmentations share the best score, any of them is accepted. The result is a tuple
of a list of str and a number; types are checked exactly.
"""

from __future__ import annotations

import math
import random
import types

import pytest


def log_probs_of(probs: dict[str, float]) -> dict[str, float]:
    return {piece: math.log(p) for piece, p in probs.items()}


def brute_force_best(word: str, log_probs: dict[str, float]) -> float:
    """Best total over every split of ``word`` (2 ** (len - 1) of them), or -inf if none."""
    if not word:
        return 0.0
    best = -math.inf
    for cut in range(1, len(word) + 1):
        head = word[:cut]
        if head in log_probs:
            best = max(best, log_probs[head] + brute_force_best(word[cut:], log_probs))
    return best


def segment(impl: types.ModuleType, returns, word: str, log_probs: dict[str, float]) -> tuple[list[str], float]:
    """``impl.viterbi_segment(word, log_probs)``, checked to be a ``(list of str, number)`` tuple."""
    call = f"viterbi_segment({word!r}, {log_probs})"
    result = returns(impl.viterbi_segment(word, log_probs), tuple, call)
    assert len(result) == 2, f"{call} must return a (pieces, log_prob) pair, got {result!r}"
    pieces, score = result
    returns(pieces, list, f"{call}[0]", items=str)
    assert isinstance(score, (int, float)) and not isinstance(score, bool), (
        f"{call}[1] must be a number (the log-probability), got {type(score).__name__}: {score!r}"
    )
    return pieces, score


def check_optimal(
    impl: types.ModuleType, returns, word: str, log_probs: dict[str, float], best: float | None = None
) -> list[str]:
    """Assert the result is a valid, optimal segmentation with the right score; return pieces.
    ``best`` is the brute-force optimum when the caller has it already."""
    pieces, score = segment(impl, returns, word, log_probs)
    if best is None:
        best = brute_force_best(word, log_probs)
    if best == -math.inf:
        assert pieces == [] and score == -math.inf, (
            f"{word!r} cannot be segmented: expected ([], -inf), got ({pieces}, {score})"
        )
        return pieces
    assert "".join(pieces) == word, f"pieces {pieces} do not spell {word!r} left to right"
    unknown = [p for p in pieces if p not in log_probs]
    assert not unknown, f"pieces {unknown} of {pieces} are not in the vocabulary"
    total = sum(log_probs[p] for p in pieces)
    assert math.isclose(score, total, rel_tol=1e-9, abs_tol=1e-9), (
        f"returned log_prob {score} is not the sum {total} of the pieces' log-probs {pieces}"
    )
    assert math.isclose(score, best, rel_tol=1e-9, abs_tol=1e-9), (
        f"{word!r}: best segmentation scores {best}, got {pieces} scoring {score}"
    )
    return pieces


UNSEGMENTABLE = "([], -inf)"


def expect_unsegmentable(impl, returns, word: str, log_probs: dict[str, float]) -> None:
    pieces, score = segment(impl, returns, word, log_probs)
    assert pieces == [] and score == -math.inf, (
        f"viterbi_segment({word!r}, {log_probs}): no segmentation exists, expected {UNSEGMENTABLE}, got ({pieces}, {score})"
    )


@pytest.mark.concept("return-types")
def test_returns_a_tuple_of_a_list_and_a_number(impl, returns):
    segment(impl, returns, "ab", log_probs_of({"a": 0.5, "b": 0.5}))
    segment(impl, returns, "ax", log_probs_of({"a": 0.5}))


@pytest.mark.concept("viterbi-not-greedy")
def test_picks_the_globally_best_split_not_the_greedy_one(impl, returns):
    # Greedy longest-first takes "ab" then "c" (0.3 * 0.01); "a" + "bc" scores 0.2 * 0.4.
    lp = log_probs_of({"a": 0.2, "b": 0.05, "c": 0.01, "ab": 0.3, "bc": 0.4})
    pieces = check_optimal(impl, returns, "abc", lp)
    assert pieces == ["a", "bc"], (
        f"picks the globally best split not the greedy one: expected ['a', 'bc'], got {pieces}"
    )


@pytest.mark.concept("viterbi-not-greedy")
def test_pieces_come_back_in_left_to_right_order(impl, returns):
    lp = log_probs_of({"h": 0.1, "e": 0.1, "l": 0.1, "o": 0.1, "he": 0.2, "llo": 0.3, "hel": 0.01, "lo": 0.05})
    pieces, score = segment(impl, returns, "hello", lp)
    assert pieces == ["he", "llo"], f"pieces come back in left to right order: expected ['he', 'llo'], got {pieces}"
    assert math.isclose(score, math.log(0.2) + math.log(0.3)), (
        f"pieces come back in left to right order: expected {math.log(0.06)}, got {score}"
    )


@pytest.mark.concept("log-space")
def test_returns_a_log_probability_not_a_probability(impl, returns):
    lp = log_probs_of({"a": 0.5, "b": 0.25})
    _pieces, score = segment(impl, returns, "ab", lp)
    expected = math.log(0.5) + math.log(0.25)
    assert math.isclose(score, expected), (
        f"returns a log probability not a probability: expected log-prob {expected}, got {score}"
    )


@pytest.mark.concept("viterbi-not-greedy")
def test_more_pieces_win_when_they_score_higher(impl, returns):
    lp = log_probs_of({"a": 0.6, "b": 0.6, "ab": 0.1})
    pieces = check_optimal(impl, returns, "abab", lp)
    assert pieces == ["a", "b", "a", "b"], (
        f"more pieces win when they score higher: expected ['a', 'b', 'a', 'b'], got {pieces}"
    )


@pytest.mark.concept("viterbi-not-greedy")
def test_whole_word_piece_wins_when_it_scores_higher(impl, returns):
    lp = log_probs_of({"a": 0.1, "b": 0.1, "ab": 0.05, "abab": 0.02})
    pieces = check_optimal(impl, returns, "abab", lp)
    assert pieces == ["abab"], f"whole word piece wins when it scores higher: expected ['abab'], got {pieces}"


@pytest.mark.concept("unsegmentable-word")
def test_word_with_an_unknown_character_is_unsegmentable(impl, returns):
    expect_unsegmentable(impl, returns, "abxab", log_probs_of({"a": 0.5, "b": 0.5}))


@pytest.mark.concept("unsegmentable-word")
def test_word_is_unsegmentable_when_pieces_cannot_reach_the_end(impl, returns):
    expect_unsegmentable(impl, returns, "abcde", log_probs_of({"ab": 0.5, "abc": 0.5, "cd": 0.5}))


@pytest.mark.concept("unsegmentable-word")
def test_unsegmentable_prefix_is_not_rescued_by_a_later_piece(impl, returns):
    expect_unsegmentable(impl, returns, "abc", log_probs_of({"b": 0.5, "c": 0.5, "bc": 0.9}))


@pytest.mark.concept("unsegmentable-word", "empty-inputs")
def test_empty_vocabulary(impl, returns):
    expect_unsegmentable(impl, returns, "a", {})


@pytest.mark.concept("empty-inputs", "log-space")
def test_empty_word_has_the_empty_segmentation(impl, returns):
    pieces, score = segment(impl, returns, "", log_probs_of({"a": 0.5}))
    assert pieces == [] and score == 0.0, f"viterbi_segment('', ...): expected ([], 0.0), got ({pieces}, {score})"


@pytest.mark.concept("empty-inputs", "log-space")
def test_single_character_word(impl, returns):
    pieces = check_optimal(impl, returns, "a", log_probs_of({"a": 0.3, "b": 0.7}))
    assert pieces == ["a"], f"single character word: expected ['a'], got {pieces}"


@pytest.mark.concept("viterbi-not-greedy")
def test_pieces_longer_than_the_word_are_harmless(impl, returns):
    pieces = check_optimal(impl, returns, "ab", log_probs_of({"a": 0.3, "b": 0.3, "abc": 0.4}))
    assert pieces == ["a", "b"], f"pieces longer than the word are harmless: expected ['a', 'b'], got {pieces}"


@pytest.mark.concept("viterbi-not-greedy")
def test_sentencepiece_style_word_boundary_symbol(impl, returns):
    lp = log_probs_of({"▁": 0.2, "▁th": 0.1, "e": 0.1, "▁the": 0.05, "t": 0.1, "h": 0.1, "▁t": 0.1})
    pieces = check_optimal(impl, returns, "▁the", lp)
    assert pieces == ["▁the"], f"sentencepiece style word boundary symbol: expected ['▁the'], got {pieces}"


@pytest.mark.concept("inputs-unchanged", "viterbi-not-greedy", "unsegmentable-word")
def test_the_vocabulary_is_left_unchanged(impl, returns):
    # Every substring of these words is looked up, most are missing, and "abxa" cannot be
    # segmented: an implementation that stores defaults (setdefault, a defaultdict built on the
    # caller's dict, -inf for missing pieces) or removes pieces leaves the caller's dict changed.
    lp = log_probs_of({"a": 0.3, "b": 0.3, "ab": 0.4})
    before = dict(lp)
    pieces = check_optimal(impl, returns, "abba", lp)
    assert pieces == ["ab", "b", "a"], f"the vocabulary is left unchanged: expected ['ab', 'b', 'a'], got {pieces}"
    expect_unsegmentable(impl, returns, "abxa", lp)
    assert lp == before, f"viterbi_segment changed the caller's log_probs:\nexpected {before}\ngot      {lp}"


def _random_log_probs(rng: random.Random, alphabet: str) -> dict[str, float]:
    pieces = {"".join(rng.choice(alphabet) for _ in range(rng.randint(1, 4))) for _ in range(rng.randint(2, 16))}
    if rng.random() < 0.7:
        pieces |= set(alphabet)  # usually every word is segmentable, sometimes not
    return {p: -rng.uniform(0.05, 6.0) for p in sorted(pieces)}


BRUTE_FORCE_SEED = 7


def brute_force_cases(ref) -> list[tuple[dict[str, float], list[tuple[str, float]]]]:
    """Random vocabularies, each with random words and their best score by enumeration (the
    reference is not consulted)."""
    rng = random.Random(BRUTE_FORCE_SEED)
    cases = []
    for _ in range(60):
        alphabet = rng.choice(["ab", "abc", "abcd"])
        lp = _random_log_probs(rng, alphabet)
        words = []
        for _ in range(6):
            word = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 9)))
            words.append((word, brute_force_best(word, lp)))
        cases.append((lp, words))
    return cases


@pytest.mark.concept("viterbi-not-greedy", "log-space")
def test_random_vocabularies_match_brute_force_enumeration(impl, returns, reference_cases):
    for case, (lp, words) in enumerate(reference_cases(brute_force_cases)):
        for word, best in words:
            try:
                check_optimal(impl, returns, word, dict(lp), best)
            except AssertionError as failure:
                raise AssertionError(
                    f"the best total log-probability over every segmentation: random case {case} (seed {BRUTE_FORCE_SEED}), viterbi_segment({word!r}, {lp}): {failure}"
                ) from None


@pytest.mark.concept("viterbi-not-greedy")
def test_ties_accept_any_best_segmentation(impl, returns):
    # "a" + "aa" and "aa" + "a" both score -4.0: either is right.
    lp = {"a": -2.0, "aa": -2.0}
    pieces = check_optimal(impl, returns, "aaa", lp)
    assert pieces in (["a", "aa"], ["aa", "a"]), (
        f"ties accept any best segmentation: expected ['a', 'aa'] or ['aa', 'a'], got {pieces}"
    )


REFERENCE_SCORE_SEED = 99


def reference_score_cases(ref) -> list[tuple[dict[str, float], list[tuple[str, list[str], float]]]]:
    """Random vocabularies over other alphabets, each with random words and the reference's answer."""
    rng = random.Random(REFERENCE_SCORE_SEED)
    cases = []
    for _ in range(40):
        alphabet = rng.choice(["xy", "xyz", "ñóp"])
        lp = _random_log_probs(rng, alphabet)
        words = []
        for _ in range(5):
            word = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 12)))
            want_pieces, want = ref.viterbi_segment(word, dict(lp))
            words.append((word, list(want_pieces), want))
        cases.append((lp, words))
    return cases


@pytest.mark.concept("viterbi-not-greedy", "unsegmentable-word")
def test_random_words_score_like_the_reference(impl, returns, reference_cases):
    for case, (lp, words) in enumerate(reference_cases(reference_score_cases)):
        for word, want_pieces, want in words:
            where = f"the best total log-probability over every segmentation: random case {case} (seed {REFERENCE_SCORE_SEED}), viterbi_segment({word!r}, {lp})"
            got_pieces, got = segment(impl, returns, word, dict(lp))
            if want == -math.inf:
                assert got_pieces == [] and got == -math.inf, (
                    f"{where}: expected {UNSEGMENTABLE}, got ({got_pieces}, {got})"
                )
                continue
            assert math.isclose(got, want, rel_tol=1e-9, abs_tol=1e-9), (
                f"{where}: expected best log-prob {want} ({want_pieces}), got {got} ({got_pieces})"
            )
            assert "".join(got_pieces) == word, f"{where}: pieces {got_pieces} do not spell {word!r}"


# Differential cases: built once per session (see conftest.py).
REFERENCE_CASES = (brute_force_cases, reference_score_cases)
