"""Hidden tests for the `unigram-em-prune` drill: one hard-EM step and likelihood-based pruning.

``unigram_em_step(word_freqs, log_probs)`` counts the pieces of every word's Viterbi segmentation,
times the word's frequency, and returns log(count / total) for each piece that was used.
``unigram_prune(word_freqs, log_probs, keep_fraction=0.8)`` keeps every single character plus the
``int(n * keep_fraction)`` multi-character pieces (of ``n``) whose removal would cost the corpus
log-likelihood the most, with their log-probs unchanged. The log-probs used here have no ties
between segmentations, and equal pruning losses may be broken either way.
"""

from __future__ import annotations

import copy
import math
import random
import types


def log_probs_of(probs: dict[str, float]) -> dict[str, float]:
    return {piece: math.log(p) for piece, p in probs.items()}


def corpus_log_likelihood(ref: types.ModuleType, word_freqs: dict[str, int], lp: dict[str, float]) -> float:
    return sum(f * ref.viterbi_segment(w, lp)[1] for w, f in word_freqs.items())


def removal_losses(ref: types.ModuleType, word_freqs: dict[str, int], lp: dict[str, float]) -> dict[str, float]:
    """For each multi-character piece: corpus log-likelihood with it minus without it."""
    base = corpus_log_likelihood(ref, word_freqs, lp)
    return {
        piece: base - corpus_log_likelihood(ref, word_freqs, {p: v for p, v in lp.items() if p != piece})
        for piece in lp
        if len(piece) > 1
    }


def assert_close_dicts(got: dict[str, float], expected: dict[str, float], what: str) -> None:
    assert isinstance(got, dict), f"{what}: expected a dict, got {type(got).__name__}"
    assert set(got) == set(expected), f"{what}: expected pieces {sorted(expected)}, got {sorted(got)}"
    for piece, value in expected.items():
        assert math.isclose(got[piece], value, rel_tol=1e-9, abs_tol=1e-12), (
            f"{what}: piece {piece!r}: expected {value}, got {got[piece]}"
        )


# A small corpus whose Viterbi segmentations are easy to check by hand (probabilities, not logs):
#   abc: a*b*c = .006, ab*c = .025, a*bc = .045  -> a + bc      (x3)
#   ab:  a*b = .06, ab = .25                       -> ab          (x2)
#   ca:  c*a = .03, ca = .01                       -> c + a       (x1)
#   b:                                             -> b           (x1)
#   abx: no piece covers x                         -> nothing     (x5)
HAND_WORDS = {"abc": 3, "ab": 2, "ca": 1, "b": 1, "abx": 5}
HAND_PROBS = {"a": 0.3, "b": 0.2, "c": 0.1, "ab": 0.25, "bc": 0.15, "ca": 0.01, "zz": 0.5}


def test_em_step_counts_viterbi_pieces_weighted_by_word_frequency(impl):
    got = impl.unigram_em_step(dict(HAND_WORDS), log_probs_of(HAND_PROBS))
    counts = {"a": 4, "bc": 3, "ab": 2, "c": 1, "b": 1}  # total 11
    expected = {p: math.log(c / 11) for p, c in counts.items()}
    assert_close_dicts(got, expected, "unigram_em_step")


def test_em_step_drops_pieces_no_segmentation_uses(impl):
    got = impl.unigram_em_step(dict(HAND_WORDS), log_probs_of(HAND_PROBS))
    assert "ca" not in got and "zz" not in got, f"unused pieces 'ca' and 'zz' must be left out, got {sorted(got)}"


def test_em_step_probabilities_sum_to_one(impl):
    got = impl.unigram_em_step(
        {"hello": 4, "help": 2, "hop": 1},
        log_probs_of(
            {"h": 0.1, "e": 0.1, "l": 0.1, "o": 0.1, "p": 0.1, "he": 0.15, "ll": 0.12, "hel": 0.08, "lo": 0.09}
        ),
    )
    total = sum(math.exp(v) for v in got.values())
    assert math.isclose(total, 1.0, rel_tol=1e-9), f"exp(log-probs) must sum to 1, got {total}"
    assert all(v <= 0.0 for v in got.values()), f"log-probabilities must be <= 0, got {got}"


def test_em_step_with_one_piece_gives_log_one(impl):
    got = impl.unigram_em_step({"aaa": 2}, {"a": -3.0})
    assert_close_dicts(got, {"a": 0.0}, "unigram_em_step")


def test_em_step_on_an_empty_corpus_is_empty(impl):
    got = impl.unigram_em_step({}, {"a": -1.0})
    assert got == {}, f"expected {{}}, got {got}"


def test_em_step_does_not_modify_its_arguments(impl):
    words, lp = dict(HAND_WORDS), log_probs_of(HAND_PROBS)
    before = (copy.deepcopy(words), copy.deepcopy(lp))
    impl.unigram_em_step(words, lp)
    assert (words, lp) == before, "unigram_em_step changed word_freqs or log_probs"


def test_em_steps_never_lower_the_viterbi_likelihood(impl, ref):
    rng = random.Random(11)
    words = {"".join(rng.choice("abc") for _ in range(rng.randint(1, 7))): rng.randint(1, 9) for _ in range(12)}
    lp = _random_log_probs(rng, "abc", words)
    norm = math.log(sum(math.exp(v) for v in lp.values()))
    lp = {p: v - norm for p, v in lp.items()}  # a proper distribution: hard EM can only improve on it
    previous = corpus_log_likelihood(ref, words, lp)
    for step in range(6):
        lp = impl.unigram_em_step(words, lp)
        current = corpus_log_likelihood(ref, words, lp)
        assert current >= previous - 1e-9, f"step {step}: log-likelihood fell from {previous} to {current}"
        previous = current


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


def test_em_step_matches_the_reference_on_random_inputs(impl, ref):
    rng = random.Random(2024)
    for case in range(40):
        alphabet = rng.choice(["ab", "abc", "abcd"])
        words = _random_words(rng, alphabet + ("z" if rng.random() < 0.2 else ""))
        lp = _random_log_probs(rng, alphabet, words)
        assert_close_dicts(impl.unigram_em_step(words, lp), ref.unigram_em_step(words, lp), f"case {case}")


# Pruning. Losses here: ab and cd are needed (positive loss), xy and abc are never used (zero).
PRUNE_WORDS = {"ab": 10, "cd": 3, "abcd": 1}
PRUNE_PROBS = {"a": 0.1, "b": 0.1, "c": 0.1, "d": 0.1, "xy": 0.4, "ab": 0.3, "abc": 0.001, "cd": 0.2}


def test_prune_keeps_the_pieces_the_likelihood_needs_not_the_most_probable(impl):
    lp = log_probs_of(PRUNE_PROBS)
    got = impl.unigram_prune(dict(PRUNE_WORDS), lp, keep_fraction=0.5)
    expected = {p: lp[p] for p in ("a", "b", "c", "d", "ab", "cd")}
    assert got == expected, f"expected {expected}, got {got}"


def test_prune_default_keep_fraction_is_point_eight(impl):
    lp = log_probs_of(PRUNE_PROBS)
    got = impl.unigram_prune(dict(PRUNE_WORDS), lp)
    multi = sorted(p for p in got if len(p) > 1)
    assert len(multi) == 3 and {"ab", "cd"} <= set(multi), (
        f"int(4 * 0.8) = 3 pieces kept, ab and cd among them; got {multi}"
    )


def test_prune_never_drops_single_characters(impl):
    lp = log_probs_of({"a": 0.01, "b": 0.01, "q": 0.01, "ab": 0.5, "ba": 0.4})
    got = impl.unigram_prune({"abab": 5, "ba": 2}, lp, keep_fraction=0.0)
    expected = {p: lp[p] for p in ("a", "b", "q")}
    assert got == expected, f"keep_fraction=0 keeps exactly the single characters: expected {expected}, got {got}"


def test_prune_with_keep_fraction_one_keeps_everything(impl):
    lp = log_probs_of(PRUNE_PROBS)
    got = impl.unigram_prune(dict(PRUNE_WORDS), lp, keep_fraction=1.0)
    assert got == lp, f"expected every piece kept, got {got}"


def test_prune_rounds_the_kept_count_down(impl):
    lp = log_probs_of({"a": 0.1, "b": 0.1, "ab": 0.3, "ba": 0.2, "aa": 0.05})
    got = impl.unigram_prune({"abba": 3, "aab": 2, "ab": 4}, lp, keep_fraction=0.5)
    multi = [p for p in got if len(p) > 1]
    assert len(multi) == 1, f"int(3 * 0.5) = 1 multi-character piece kept, got {multi}"


def test_prune_does_not_modify_its_arguments(impl):
    words, lp = dict(PRUNE_WORDS), log_probs_of(PRUNE_PROBS)
    before = (copy.deepcopy(words), copy.deepcopy(lp))
    impl.unigram_prune(words, lp, keep_fraction=0.5)
    assert (words, lp) == before, "unigram_prune changed word_freqs or log_probs"


def check_prune(
    impl: types.ModuleType, ref: types.ModuleType, words: dict[str, int], lp: dict[str, float], keep: float
) -> dict[str, float]:
    got = impl.unigram_prune(words, lp, keep_fraction=keep)
    assert isinstance(got, dict), f"expected a dict, got {type(got).__name__}"
    changed = {p: (lp.get(p), v) for p, v in got.items() if lp.get(p) != v}
    assert not changed, f"kept pieces must keep their log-probs (piece: (expected, got)): {changed}"
    singles = {p for p in lp if len(p) == 1}
    assert singles <= set(got), f"single characters {sorted(singles - set(got))} were dropped"
    loss = removal_losses(ref, words, lp)
    kept = [p for p in got if len(p) > 1]
    dropped = [p for p in loss if p not in got]
    want = int(len(loss) * keep)
    assert len(kept) == want, (
        f"expected int({len(loss)} * {keep}) = {want} multi-character pieces, got {len(kept)}: {kept}"
    )
    if kept and dropped:
        worst_kept = min(kept, key=loss.__getitem__)
        best_dropped = max(dropped, key=loss.__getitem__)
        assert loss[worst_kept] >= loss[best_dropped] - 1e-9 * max(1.0, abs(loss[best_dropped])), (
            f"kept {worst_kept!r} (loss {loss[worst_kept]}) but dropped {best_dropped!r} (loss {loss[best_dropped]})"
        )
    return got


def test_prune_keeps_the_highest_loss_pieces_on_random_inputs(impl, ref):
    rng = random.Random(31337)
    for _ in range(25):
        alphabet = rng.choice(["ab", "abc", "abcd"])
        words = _random_words(rng, alphabet)
        lp = _random_log_probs(rng, alphabet, words)
        keep = rng.choice([0.25, 0.5, 0.75, 0.8])
        got = check_prune(impl, ref, words, lp, keep)
        loss = removal_losses(ref, words, lp)
        ranked = sorted(loss.values(), reverse=True)
        cut = int(len(loss) * keep)
        if 0 < cut < len(ranked) and ranked[cut - 1] - ranked[cut] > 1e-6:  # no tie at the cut
            want = ref.unigram_prune(words, lp, keep_fraction=keep)
            assert got == want, f"expected {want}, got {got}"
