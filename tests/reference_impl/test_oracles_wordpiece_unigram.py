"""Cross-checks of the reference WordPiece encoder and Unigram Viterbi against real tokenizers.

* ``WordPieceTokenizer.tokenize_word`` / ``encode`` against Hugging Face ``tokenizers.models.
  WordPiece`` on shared vocabularies (one trained by our reference, several random ones), words
  that need [UNK] included. HF's ``max_input_chars_per_word`` (100 by default, longer words become
  [UNK]) is set above every test word's length: our encoder has no such limit.
* ``viterbi_segment`` over the piece scores of a ``sentencepiece`` Unigram model trained here, on a
  generated corpus, against that model's own segmentation of held-out words. SentencePiece's
  scores are log-probabilities and it marks the word start with U+2581, so we segment
  ``"▁" + word``.

Both packages run offline. Each test asserts a full match and says the measured rate on failure.
"""

from __future__ import annotations

import math
import random
from pathlib import Path

import pytest

from reference_impl import WordPieceTokenizer, viterbi_segment

pytestmark = pytest.mark.oracle

SYLLABLES = ["ka", "ri", "to", "men", "sa", "lo", "pre", "un", "ing", "est", "qu", "ba", "zo", "ne", "ti", "ver"]


def _word(rng: random.Random, lo: int = 1, hi: int = 4) -> str:
    return "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(lo, hi)))


def _corpus(rng: random.Random, n_words: int) -> list[str]:
    """Words drawn with Zipf-like frequencies from a fixed pool of syllable words."""
    pool = sorted({_word(rng) for _ in range(600)})
    weights = [1.0 / (rank + 1) for rank in range(len(pool))]
    return rng.choices(pool, weights=weights, k=n_words)


def _hf_wordpiece(vocab: dict[str, int], unk: str = "[UNK]", prefix: str = "##"):
    from tokenizers.models import WordPiece

    return WordPiece(vocab, unk_token=unk, continuing_subword_prefix=prefix, max_input_chars_per_word=10_000)


def _compare_wordpiece(ours: WordPieceTokenizer, words: list[str]) -> tuple[int, list[str]]:
    hf = _hf_wordpiece(ours.vocab, ours.unk, ours.prefix)
    mismatches = []
    for word in words:
        theirs = [(t.value, t.id) for t in hf.tokenize(word)]
        mine = [(p, ours.vocab[p]) for p in ours.tokenize_word(word)]
        if theirs != mine:
            mismatches.append(f"{word!r}: hf {theirs} vs ours {mine}")
    return len(words) - len(mismatches), mismatches


def test_wordpiece_encoder_matches_hugging_face_on_a_trained_vocabulary():
    rng = random.Random(5)
    ours = WordPieceTokenizer()
    ours.train(" ".join(_corpus(rng, 3000)), 250)
    held_out = [_word(rng, 1, 6) for _ in range(1500)]
    held_out += [w[:3] + rng.choice("xyjw") + w[3:] for w in held_out[:300]]  # unseen letters -> [UNK]
    held_out += ["", "a" * 150, "ka" * 120]
    matched, mismatches = _compare_wordpiece(ours, held_out)
    unk_words = sum(ours.tokenize_word(w) == [ours.unk] for w in held_out)
    assert unk_words >= 300, f"the check must include whole-word [UNK] cases, got {unk_words}"
    assert not mismatches, f"match rate {matched}/{len(held_out)}; first mismatches: {mismatches[:5]}"


@pytest.mark.parametrize(("unk", "prefix"), [("[UNK]", "##"), ("<unk>", "@@")])
def test_wordpiece_encoder_matches_hugging_face_on_random_vocabularies(unk: str, prefix: str):
    rng = random.Random(17)
    total = matched = 0
    mismatches: list[str] = []
    for _ in range(40):
        alphabet = rng.choice(["ab", "abc", "abcd", "aéß"])
        tokens = {unk}
        for _ in range(rng.randint(3, 20)):
            piece = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 4)))
            tokens.add(piece if rng.random() < 0.4 else prefix + piece)
        ours = WordPieceTokenizer(unk_token=unk, prefix=prefix)
        ours.vocab = {t: i for i, t in enumerate(sorted(tokens))}
        ours.inv_vocab = {i: t for t, i in ours.vocab.items()}
        words = ["".join(rng.choice(alphabet) for _ in range(rng.randint(1, 10))) for _ in range(50)]
        ok, bad = _compare_wordpiece(ours, words)
        total, matched = total + len(words), matched + ok
        mismatches += bad
    assert not mismatches, f"match rate {matched}/{total}; first mismatches: {mismatches[:5]}"


def test_wordpiece_encode_ids_match_hugging_face_tokenizer_pipeline():
    from tokenizers import Tokenizer
    from tokenizers.pre_tokenizers import WhitespaceSplit

    rng = random.Random(23)
    ours = WordPieceTokenizer()
    ours.train(" ".join(_corpus(rng, 2000)), 200)
    hf = Tokenizer(_hf_wordpiece(ours.vocab))
    hf.pre_tokenizer = WhitespaceSplit()
    texts = [" ".join(_word(rng, 1, 5) + rng.choice(["", "", "", "x"]) for _ in range(12)) for _ in range(100)]
    bad = [t for t in texts if hf.encode(t).ids != ours.encode(t)]
    assert not bad, f"match rate {len(texts) - len(bad)}/{len(texts)}; first mismatch: {bad[:1]}"


@pytest.fixture(scope="module")
def sentencepiece_model(tmp_path_factory: pytest.TempPathFactory):
    spm = pytest.importorskip("sentencepiece")
    rng = random.Random(41)
    words = _corpus(rng, 40_000)
    folder: Path = tmp_path_factory.mktemp("spm")
    lines = [" ".join(words[i : i + 12]) for i in range(0, len(words), 12)]
    (folder / "corpus.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    spm.SentencePieceTrainer.train(
        input=str(folder / "corpus.txt"),
        model_prefix=str(folder / "uni"),
        vocab_size=400,
        model_type="unigram",
        character_coverage=1.0,
        normalization_rule_name="identity",
        num_threads=1,
        minloglevel=2,
    )
    processor = spm.SentencePieceProcessor(model_file=str(folder / "uni.model"))
    held_out = sorted({_word(rng, 1, 6) for _ in range(3000)} - set(words))
    return processor, held_out


def test_viterbi_reproduces_sentencepiece_unigram_segmentations(sentencepiece_model):
    processor, held_out = sentencepiece_model
    log_probs = {
        processor.id_to_piece(i): processor.get_score(i)
        for i in range(processor.get_piece_size())
        if not (processor.is_control(i) or processor.is_unknown(i) or processor.is_unused(i))
    }
    assert len(log_probs) > 300 and len(held_out) > 1000
    exact = tied = 0
    differing: list[str] = []
    for word in held_out:
        theirs = processor.encode(word, out_type=str)
        mine, score = viterbi_segment("\u2581" + word, log_probs)
        if mine == theirs:
            exact += 1
            continue
        their_score = sum(log_probs[p] for p in theirs) if all(p in log_probs for p in theirs) else -math.inf
        if math.isclose(score, their_score, rel_tol=0, abs_tol=1e-5):
            tied += 1  # an equally good segmentation: a tie broken the other way
        else:
            differing.append(f"{word!r}: spm {theirs} ({their_score:.4f}) vs ours {mine} ({score:.4f})")
    assert not differing, f"exact {exact}/{len(held_out)}, ties {tied}; first differences: {differing[:5]}"
    assert exact >= 0.99 * len(held_out), f"exact matches {exact}/{len(held_out)} (ties {tied})"
