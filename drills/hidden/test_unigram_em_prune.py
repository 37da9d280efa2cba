"""Hidden tests for the `unigram-em-prune` drill: one hard-EM step and likelihood pruning.

``unigram_em_step(word_freqs, log_probs)`` counts the pieces of every word's Viterbi segmentation,
times the word's frequency, gives every single character that no segmentation uses a floor count of
1, and returns log(count / total) for each piece with a count (unused multi-character pieces drop
out). ``unigram_prune(word_freqs, log_probs, keep_fraction=0.8)`` keeps every single character plus
the ``int(n * keep_fraction)`` multi-character pieces (of ``n``) whose removal would cost the corpus
log-likelihood the most, with their log-probs unchanged. Both return a dict. The log-probs used
here have no ties between segmentations, and equal pruning losses may be broken either way.
"""

from __future__ import annotations

import math
import random
import types

import pytest


def log_probs_of(probs: dict[str, float]) -> dict[str, float]:
    return {piece: math.log(p) for piece, p in probs.items()}


def em_step(impl: types.ModuleType, returns, word_freqs: dict[str, int], lp: dict[str, float]) -> dict[str, float]:
    return returns(impl.unigram_em_step(word_freqs, lp), dict, f"unigram_em_step({word_freqs}, {lp})")


def prune(
    impl: types.ModuleType, returns, word_freqs: dict[str, int], lp: dict[str, float], keep: float
) -> dict[str, float]:
    return returns(impl.unigram_prune(word_freqs, lp, keep), dict, f"unigram_prune({word_freqs}, {lp}, {keep})")


def assert_close_dicts(got: dict[str, float], expected: dict[str, float], what: str) -> None:
    assert set(got) == set(expected), f"{what}: expected pieces {sorted(expected)}, got {sorted(got)}"
    for piece, value in expected.items():
        assert math.isclose(got[piece], value, rel_tol=1e-9, abs_tol=1e-12), (
            f"{what}: piece {piece!r}: expected {value}, got {got[piece]}"
        )


def segmentable(word: str, pieces: set[str]) -> bool:
    """Whether ``word`` splits into ``pieces`` at all (no scores involved)."""
    reachable = [True] + [False] * len(word)
    for end in range(1, len(word) + 1):
        reachable[end] = any(reachable[start] and word[start:end] in pieces for start in range(end))
    return reachable[-1]


# A small corpus whose Viterbi segmentations are easy to check by hand (probabilities, not logs):
#   abc: a*b*c = .006, ab*c = .025, a*bc = .045  -> a + bc      (x3)
#   ab:  a*b = .06, ab = .25                       -> ab          (x2)
#   ca:  c*a = .03, ca = .01                       -> c + a       (x1)
#   b:                                             -> b           (x1)
#   abx: no piece covers x                         -> nothing     (x5)
# Counts: a 4, bc 3, ab 2, c 1, b 1 (total 11); ca and zz are unused.
HAND_WORDS = {"abc": 3, "ab": 2, "ca": 1, "b": 1, "abx": 5}
HAND_PROBS = {"a": 0.3, "b": 0.2, "c": 0.1, "ab": 0.25, "bc": 0.15, "ca": 0.01, "zz": 0.5}
HAND_EXPECTED = {p: math.log(c / 11) for p, c in {"a": 4, "bc": 3, "ab": 2, "c": 1, "b": 1}.items()}


@pytest.mark.concept("return-types")
def test_both_functions_return_a_dict(impl, returns):
    lp = log_probs_of({"a": 0.5, "b": 0.3, "ab": 0.2})
    em_step(impl, returns, {"ab": 1}, dict(lp))
    prune(impl, returns, {"ab": 1}, dict(lp), 0.5)


@pytest.mark.concept("em-counts")
def test_em_step_counts_viterbi_pieces_weighted_by_word_frequency(impl, returns):
    got = em_step(impl, returns, dict(HAND_WORDS), log_probs_of(HAND_PROBS))
    assert_close_dicts(got, HAND_EXPECTED, "unigram_em_step on the hand-checked corpus (ca and zz unused)")


@pytest.mark.concept("em-counts")
def test_em_step_counts_a_piece_used_twice_in_one_word_twice(impl, returns):
    # "aa" splits as a + a (0.25 beats 0.01): a counts 2 x 3 = 6, b counts 1, total 7.
    got = em_step(impl, returns, {"aa": 3, "b": 1}, log_probs_of({"a": 0.5, "b": 0.5, "aa": 0.01}))
    assert_close_dicts(got, {"a": math.log(6 / 7), "b": math.log(1 / 7)}, "unigram_em_step({'aa': 3, 'b': 1}, ...)")


@pytest.mark.concept("em-counts")
def test_em_step_probabilities_sum_to_one(impl, returns):
    got = em_step(
        impl,
        returns,
        {"hello": 4, "help": 2, "hop": 1},
        log_probs_of(
            {"h": 0.1, "e": 0.1, "l": 0.1, "o": 0.1, "p": 0.1, "he": 0.15, "ll": 0.12, "hel": 0.08, "lo": 0.09}
        ),
    )
    total = sum(math.exp(v) for v in got.values())
    assert math.isclose(total, 1.0, rel_tol=1e-9), f"exp(log-probs) must sum to 1, got {total}"
    assert all(v <= 0.0 for v in got.values()), f"log-probabilities must be <= 0, got {got}"


@pytest.mark.concept("em-counts")
def test_em_step_with_one_piece_gives_log_one(impl, returns):
    got = em_step(impl, returns, {"aaa": 2}, {"a": -3.0})
    assert_close_dicts(got, {"a": 0.0}, "unigram_em_step({'aaa': 2}, {'a': -3.0})")


@pytest.mark.concept("keep-single-characters")
def test_em_step_keeps_unused_single_characters_with_a_floor_count(impl, returns):
    # {"ab": 10} splits as the piece ab, so a and b are never used: each keeps a count of 1.
    # Without them "ba" could no longer be segmented.
    lp = log_probs_of({"a": 0.1, "b": 0.1, "ab": 0.8})
    got = em_step(impl, returns, {"ab": 10}, lp)
    expected = {"a": math.log(1 / 12), "b": math.log(1 / 12), "ab": math.log(10 / 12)}
    assert_close_dicts(got, expected, "unigram_em_step({'ab': 10}, <a .1, b .1, ab .8>)")
    assert segmentable("ba", set(got)), f"'ba' must stay segmentable after the step, pieces left: {sorted(got)}"


@pytest.mark.concept("keep-single-characters", "empty-inputs")
def test_em_step_on_an_empty_corpus_keeps_only_the_single_characters(impl, returns):
    got = em_step(impl, returns, {}, {"a": -1.0, "b": -2.0, "ab": -0.5})
    assert_close_dicts(
        got, {"a": math.log(0.5), "b": math.log(0.5)}, "unigram_em_step({}, {'a': -1.0, 'b': -2.0, 'ab': -0.5})"
    )


@pytest.mark.concept("inputs-unchanged", "em-counts")
def test_em_step_leaves_its_arguments_unchanged(impl, returns):
    # The hand corpus has unused pieces (ca, zz) and an unsegmentable word (abx): writing -inf or
    # defaults into log_probs, dropping words from word_freqs, or updating log_probs in place all show.
    words, lp = dict(HAND_WORDS), log_probs_of(HAND_PROBS)
    before = (dict(words), dict(lp))
    got = em_step(impl, returns, words, lp)
    assert_close_dicts(got, HAND_EXPECTED, "unigram_em_step on the hand-checked corpus")
    assert words == before[0], f"unigram_em_step changed word_freqs:\nexpected {before[0]}\ngot      {words}"
    assert lp == before[1], f"unigram_em_step changed log_probs:\nexpected {before[1]}\ngot      {lp}"


def _random_words(rng: random.Random, alphabet: str) -> dict[str, int]:
    return {
        "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 8))): rng.randint(1, 20)
        for _ in range(rng.randint(1, 14))
    }


def _random_log_probs(rng: random.Random, alphabet: str, words: dict[str, int] | None = None) -> dict[str, float]:
    """Every single character, plus multi-character pieces: mostly substrings of ``words``."""
    pieces = set(alphabet)
    sources = [w for w in (words or {}) if len(w) > 1]
    for _ in range(rng.randint(2, 14)):
        if sources and rng.random() < 0.75:
            word = rng.choice(sources)
            start = rng.randrange(len(word) - 1)
            pieces.add(word[start : rng.randint(start + 2, min(len(word), start + 4))])
        else:
            pieces.add("".join(rng.choice(alphabet) for _ in range(rng.randint(2, 4))))
    return {p: -rng.uniform(0.1, 5.0) for p in sorted(pieces)}


EM_SEED = 2024


def em_step_cases(ref) -> list[tuple[dict[str, int], dict[str, float], dict[str, float]]]:
    rng = random.Random(EM_SEED)
    cases = []
    for _ in range(20):
        alphabet = rng.choice(["ab", "abc", "abcd"])
        words = _random_words(rng, alphabet + ("z" if rng.random() < 0.2 else ""))
        lp = _random_log_probs(rng, alphabet, words)
        cases.append((words, lp, ref.unigram_em_step(dict(words), dict(lp))))
    return cases


@pytest.mark.concept("em-counts", "keep-single-characters")
def test_em_step_matches_the_reference_on_random_inputs(impl, returns, reference_cases):
    for case, (words, lp, expected) in enumerate(reference_cases(em_step_cases)):
        got = em_step(impl, returns, dict(words), dict(lp))
        assert_close_dicts(
            got,
            expected,
            f"hard EM: Viterbi counts weighted by frequency, a floor of 1 for unused single characters, normalised: random case {case} (seed {EM_SEED}), unigram_em_step({words}, {lp})",
        )


# Pruning. Losses here: ab and cd are needed (positive loss), xy and abc are never used (zero).
PRUNE_WORDS = {"ab": 10, "cd": 3, "abcd": 1}
PRUNE_PROBS = {"a": 0.1, "b": 0.1, "c": 0.1, "d": 0.1, "xy": 0.4, "ab": 0.3, "abc": 0.001, "cd": 0.2}


@pytest.mark.concept("prune-by-loss")
def test_prune_keeps_the_pieces_the_likelihood_needs_not_the_most_probable(impl, returns):
    lp = log_probs_of(PRUNE_PROBS)
    got = prune(impl, returns, dict(PRUNE_WORDS), lp, 0.5)
    expected = {p: lp[p] for p in ("a", "b", "c", "d", "ab", "cd")}
    assert got == expected, (
        f"prune keeps the pieces the likelihood needs not the most probable: expected {expected}, got {got}"
    )


@pytest.mark.concept("prune-by-loss")
def test_prune_re_segments_the_corpus_without_the_piece(impl, returns):
    # "xab" (x10) splits as x + ab (.03); without ab its best is xa + b (.024), a small loss of
    # 10 * log(.03 / .024) = 2.2. "cd" (x1) without cd falls to c + d: log(.05 / .0001) = 6.2.
    # Estimating ab's loss from its own split a + b, from how often it is used, or from its
    # log-prob keeps ab; re-segmenting the words keeps cd.
    lp = log_probs_of({"x": 0.1, "a": 0.01, "b": 0.2, "c": 0.01, "d": 0.01, "ab": 0.3, "xa": 0.12, "cd": 0.05})
    got = prune(impl, returns, {"xab": 10, "cd": 1}, dict(lp), 0.5)
    kept = sorted(p for p in got if len(p) > 1)
    assert kept == ["cd"], f"losses: cd 6.2, ab 2.2 (xa + b replaces it), xa 0: expected to keep ['cd'], kept {kept}"


@pytest.mark.concept("prune-by-loss", "frequency-weighted-counts")
def test_prune_weights_each_words_loss_by_its_frequency(impl, returns):
    # Per occurrence, losing cd costs log(.05 / .01) = 1.6 and losing ab log(.08 / .04) = 0.7, but
    # "ab" occurs 10 times: ab's loss is 6.9, cd's 1.6.
    lp = log_probs_of({"a": 0.2, "b": 0.2, "c": 0.1, "d": 0.1, "ab": 0.08, "cd": 0.05})
    got = prune(impl, returns, {"ab": 10, "cd": 1}, dict(lp), 0.5)
    kept = sorted(p for p in got if len(p) > 1)
    assert kept == ["ab"], f"losses weighted by word frequency: ab 6.9, cd 1.6: expected to keep ['ab'], kept {kept}"


@pytest.mark.concept("prune-by-loss")
def test_prune_default_keep_fraction_is_point_eight(impl, returns):
    lp = log_probs_of(PRUNE_PROBS)
    got = returns(impl.unigram_prune(dict(PRUNE_WORDS), dict(lp)), dict, "unigram_prune(word_freqs, log_probs)")
    multi = sorted(p for p in got if len(p) > 1)
    assert len(multi) == 3 and {"ab", "cd"} <= set(multi), (
        f"int(4 * 0.8) = 3 pieces kept, ab and cd among them; got {multi}"
    )


@pytest.mark.concept("keep-single-characters")
def test_prune_never_drops_single_characters(impl, returns):
    lp = log_probs_of({"a": 0.01, "b": 0.01, "q": 0.01, "ab": 0.5, "ba": 0.4})
    got = prune(impl, returns, {"abab": 5, "ba": 2}, dict(lp), 0.0)
    expected = {p: lp[p] for p in ("a", "b", "q")}
    assert got == expected, f"keep_fraction=0 keeps exactly the single characters: expected {expected}, got {got}"


@pytest.mark.concept("prune-by-loss")
def test_prune_with_keep_fraction_one_keeps_everything(impl, returns):
    lp = log_probs_of(PRUNE_PROBS)
    got = prune(impl, returns, dict(PRUNE_WORDS), dict(lp), 1.0)
    assert got == lp, f"prune with keep fraction one keeps everything: expected every piece kept, got {got}"


@pytest.mark.concept("prune-by-loss")
def test_prune_rounds_the_kept_count_down(impl, returns):
    lp = log_probs_of({"a": 0.1, "b": 0.1, "ab": 0.3, "ba": 0.2, "aa": 0.05})
    got = prune(impl, returns, {"abba": 3, "aab": 2, "ab": 4}, dict(lp), 0.5)
    multi = [p for p in got if len(p) > 1]
    assert len(multi) == 1, f"int(3 * 0.5) = 1 multi-character piece kept, got {multi}"


@pytest.mark.concept("inputs-unchanged", "keep-single-characters")
def test_prune_leaves_its_arguments_unchanged(impl, returns):
    # keep_fraction 0.5 drops xy and abc: deleting them from the caller's log_probs (or removing
    # each piece to measure its loss without putting it back) shows.
    words, lp = dict(PRUNE_WORDS), log_probs_of(PRUNE_PROBS)
    before = (dict(words), dict(lp))
    got = prune(impl, returns, words, lp, 0.5)
    expected = {p: before[1][p] for p in ("a", "b", "c", "d", "ab", "cd")}
    assert got == expected, f"prune leaves its arguments unchanged: expected {expected}, got {got}"
    assert words == before[0], f"unigram_prune changed word_freqs:\nexpected {before[0]}\ngot      {words}"
    assert lp == before[1], f"unigram_prune changed log_probs:\nexpected {before[1]}\ngot      {lp}"


PRUNE_SEED = 31337


def prune_cases(ref) -> list[dict[str, object]]:
    """Random corpora and vocabularies with each multi-character piece's loss and the reference's
    result (the losses are computed by re-segmenting with the reference's Viterbi)."""
    rng = random.Random(PRUNE_SEED)
    cases = []
    for _ in range(12):
        alphabet = rng.choice(["ab", "abc", "abcd"])
        words = _random_words(rng, alphabet)
        lp = _random_log_probs(rng, alphabet, words)
        keep = rng.choice([0.25, 0.5, 0.75, 0.8])

        def likelihood(pieces: dict[str, float], words: dict[str, int] = words) -> float:
            return sum(f * ref.viterbi_segment(w, pieces)[1] for w, f in words.items())

        base = likelihood(lp)
        loss = {p: base - likelihood({q: v for q, v in lp.items() if q != p}) for p in lp if len(p) > 1}
        ranked = sorted(loss.values(), reverse=True)
        cut = int(len(loss) * keep)
        untied = 0 < cut < len(ranked) and ranked[cut - 1] - ranked[cut] > 1e-6
        expected = ref.unigram_prune(dict(words), dict(lp), keep) if untied else None
        cases.append({"words": words, "lp": lp, "keep": keep, "loss": loss, "expected": expected})
    return cases


@pytest.mark.concept("prune-by-loss")
def test_prune_keeps_the_highest_loss_pieces_on_random_inputs(impl, returns, reference_cases):
    for case, want in enumerate(reference_cases(prune_cases)):
        words, lp, keep, loss = want["words"], want["lp"], want["keep"], want["loss"]
        where = f"keep the multi-character pieces of largest likelihood loss, and every single character: random case {case} (seed {PRUNE_SEED}), unigram_prune({words}, {lp}, {keep})"
        got = prune(impl, returns, dict(words), dict(lp), keep)
        changed = {p: (lp.get(p), v) for p, v in got.items() if lp.get(p) != v}
        assert not changed, f"{where}: kept pieces must keep their log-probs (piece: (expected, got)): {changed}"
        missing = sorted(p for p in lp if len(p) == 1 and p not in got)
        assert not missing, f"{where}: single characters {missing} were dropped"
        kept = [p for p in got if len(p) > 1]
        dropped = [p for p in loss if p not in got]
        count = int(len(loss) * keep)
        assert len(kept) == count, (
            f"{where}: expected int({len(loss)} * {keep}) = {count} multi-character pieces, got {kept}"
        )
        if kept and dropped:
            worst_kept = min(kept, key=loss.__getitem__)
            best_dropped = max(dropped, key=loss.__getitem__)
            assert loss[worst_kept] >= loss[best_dropped] - 1e-9 * max(1.0, abs(loss[best_dropped])), (
                f"{where}: kept {worst_kept!r} (loss {loss[worst_kept]}) but dropped {best_dropped!r} (loss {loss[best_dropped]})"
            )
        if want["expected"] is not None:  # no tie at the cut: the result is fully determined
            assert got == want["expected"], f"{where}: expected {want['expected']}, got {got}"


SEGMENTABLE_SEED = 4711


@pytest.mark.concept("keep-single-characters")
def test_every_word_stays_segmentable_after_em_steps_and_pruning(impl, returns):
    rng = random.Random(SEGMENTABLE_SEED)
    for case in range(10):
        alphabet = rng.choice(["ab", "abc", "abcd"])
        words = _random_words(rng, alphabet)
        lp = _random_log_probs(rng, alphabet, words)
        probes = ["".join(reversed(w)) for w in words] + list(alphabet)
        where = f"every word stays segmentable after EM steps and pruning: random case {case} (seed {SEGMENTABLE_SEED}), words {words}, starting log_probs {lp}"
        for step in range(3):
            lp = em_step(impl, returns, dict(words), lp)
            lost = [w for w in [*words, *probes] if not segmentable(w, set(lp))]
            assert not lost, (
                f"{where}: after EM step {step + 1} these words cannot be segmented: {lost} (pieces {sorted(lp)})"
            )
        lp = prune(impl, returns, dict(words), lp, 0.5)
        lost = [w for w in [*words, *probes] if not segmentable(w, set(lp))]
        assert not lost, f"{where}: after pruning these words cannot be segmented: {lost} (pieces {sorted(lp)})"


# Differential cases: built once per session with reference_impl (see conftest.py).
REFERENCE_CASES = (em_step_cases, prune_cases)
