"""Hidden tests for the `wordpiece-tokenize-word` drill: greedy longest-match WordPiece encoding.

Each test builds a tokenizer from ``impl`` and sets its ``vocab`` / ``inv_vocab`` dicts directly,
so only the encoding side is exercised. Conventions: pieces after the first carry the prefix,
the longest vocabulary match wins at each position, and any position without a match turns the
whole word into the unknown token. ``tokenize_word`` returns a list of str (checked exactly).
"""

from __future__ import annotations

import random
import types

import pytest

UNK = "[UNK]"


def make_tokenizer(impl: types.ModuleType, tokens: list[str], unk: str = UNK, prefix: str = "##") -> object:
    """A tokenizer of ``impl`` whose vocabulary is exactly ``tokens`` (ids in list order)."""
    tok = impl.WordPieceTokenizer(unk_token=unk, prefix=prefix)
    tok.vocab = {t: i for i, t in enumerate(tokens)}
    tok.inv_vocab = dict(enumerate(tokens))
    return tok


def pieces_of(tok: object, returns, word: str) -> list[str]:
    return returns(tok.tokenize_word(word), list, f"tokenize_word({word!r})", items=str)


def expect_pieces(tok: object, returns, word: str, expected: list[str]) -> None:
    got = pieces_of(tok, returns, word)
    assert got == expected, f"vocab {sorted(tok.vocab)}, tokenize_word({word!r}): expected {expected}, got {got}"


@pytest.mark.concept("return-types")
def test_returns_a_list_of_strings(impl, returns):
    tok = make_tokenizer(impl, [UNK, "a", "##b"])
    pieces_of(tok, returns, "ab")
    pieces_of(tok, returns, "x")


@pytest.mark.concept("continuation-prefix")
def test_playing_splits_into_stem_and_continuation(impl, returns):
    tok = make_tokenizer(impl, [UNK, "play", "##ing", "p", "##l", "##a", "##y"])
    expect_pieces(tok, returns, "playing", ["play", "##ing"])


@pytest.mark.concept("greedy-longest-match")
def test_word_in_vocabulary_is_a_single_piece(impl, returns):
    tok = make_tokenizer(impl, [UNK, "hug", "h", "##u", "##g", "##ug"])
    expect_pieces(tok, returns, "hug", ["hug"])


@pytest.mark.concept("empty-inputs", "continuation-prefix")
def test_single_character_word(impl, returns):
    tok = make_tokenizer(impl, [UNK, "a", "##a"])
    expect_pieces(tok, returns, "a", ["a"])


@pytest.mark.concept("whole-word-unk")
def test_untrained_tokenizer_gives_unk_for_every_word(impl, returns):
    tok = impl.WordPieceTokenizer()
    expect_pieces(tok, returns, "abc", [UNK])


@pytest.mark.concept("empty-inputs")
def test_empty_word_gives_no_pieces(impl, returns):
    tok = make_tokenizer(impl, [UNK, "a"])
    expect_pieces(tok, returns, "", [])


@pytest.mark.concept("greedy-longest-match")
def test_longest_match_wins_over_a_shorter_prefix(impl, returns):
    tok = make_tokenizer(impl, [UNK, "un", "unaff", "##aff", "##able", "##a", "##ble"])
    expect_pieces(tok, returns, "unaffable", ["unaff", "##able"])


@pytest.mark.concept("greedy-longest-match")
def test_longest_match_also_applies_to_continuation_pieces(impl, returns):
    tok = make_tokenizer(impl, [UNK, "x", "##a", "##ab", "##abc", "##b", "##c", "##bc"])
    expect_pieces(tok, returns, "xabcab", ["x", "##abc", "##ab"])


@pytest.mark.concept("greedy-longest-match")
def test_matching_starts_at_the_left_end_of_the_word(impl, returns):
    # From the right, "##bc" would be taken first, giving ["a", "##bc"].
    tok = make_tokenizer(impl, [UNK, "a", "ab", "##b", "##c", "##bc"])
    expect_pieces(tok, returns, "abc", ["ab", "##c"])


@pytest.mark.concept("greedy-longest-match", "whole-word-unk")
def test_greedy_match_is_not_undone_when_the_rest_fails(impl, returns):
    # "a" + "##bc" would cover the word, but greedy takes "ab" first and "##c" is missing:
    # WordPiece does not backtrack, so the whole word is unknown.
    tok = make_tokenizer(impl, [UNK, "a", "ab", "##bc", "##b"])
    expect_pieces(tok, returns, "abc", [UNK])


@pytest.mark.concept("whole-word-unk")
def test_unknown_character_makes_the_whole_word_unk(impl, returns):
    tok = make_tokenizer(impl, [UNK, "play", "##ing", "##s"])
    expect_pieces(tok, returns, "playingx", [UNK])


@pytest.mark.concept("whole-word-unk")
def test_unknown_first_character_makes_the_whole_word_unk(impl, returns):
    tok = make_tokenizer(impl, [UNK, "##a", "##b", "b"])
    expect_pieces(tok, returns, "xab", [UNK])


@pytest.mark.concept("continuation-prefix")
def test_first_piece_is_looked_up_without_the_prefix(impl, returns):
    tok = make_tokenizer(impl, [UNK, "##ab", "##c", "a", "##b"])
    expect_pieces(tok, returns, "abc", ["a", "##b", "##c"])


@pytest.mark.concept("continuation-prefix")
def test_prefixed_piece_cannot_start_a_word(impl, returns):
    tok = make_tokenizer(impl, [UNK, "##ab", "##c"])
    expect_pieces(tok, returns, "abc", [UNK])


@pytest.mark.concept("continuation-prefix")
def test_continuation_pieces_must_carry_the_prefix(impl, returns):
    tok = make_tokenizer(impl, [UNK, "ab", "c", "b"])
    expect_pieces(tok, returns, "abc", [UNK])
    tok = make_tokenizer(impl, [UNK, "ab", "c", "##c"])
    expect_pieces(tok, returns, "abc", ["ab", "##c"])


@pytest.mark.concept("continuation-prefix")
def test_same_string_with_and_without_prefix_are_different_pieces(impl, returns):
    tok = make_tokenizer(impl, [UNK, "ab", "##ab", "##a", "a"])
    expect_pieces(tok, returns, "ababa", ["ab", "##ab", "##a"])


@pytest.mark.concept("continuation-prefix", "whole-word-unk")
def test_custom_prefix_and_unk_token(impl, returns):
    tok = make_tokenizer(impl, ["<oov>", "lo", "@@w", "@@we", "@@st", "l", "@@o"], unk="<oov>", prefix="@@")
    expect_pieces(tok, returns, "lowest", ["lo", "@@we", "@@st"])
    expect_pieces(tok, returns, "lows", ["<oov>"])


@pytest.mark.concept("continuation-prefix")
def test_default_prefix_is_ignored_when_a_custom_one_is_set(impl, returns):
    tok = make_tokenizer(impl, [UNK, "a", "##b", "+b"], prefix="+")
    expect_pieces(tok, returns, "ab", ["a", "+b"])
    tok = make_tokenizer(impl, [UNK, "a", "##b"], prefix="+")
    expect_pieces(tok, returns, "ab", [UNK])


@pytest.mark.concept("greedy-longest-match")
def test_multi_character_unicode_word(impl, returns):
    tok = make_tokenizer(impl, [UNK, "na", "##ïve", "##ï", "##v", "##e", "日", "##本"])
    expect_pieces(tok, returns, "naïve", ["na", "##ïve"])
    expect_pieces(tok, returns, "日本", ["日", "##本"])


@pytest.mark.concept("greedy-longest-match")
def test_long_word_has_no_length_limit(impl, returns):
    tok = make_tokenizer(impl, [UNK, "a", "##a", "##aaa"])
    word = "a" * 211  # longer than both common limits, 100 (Hugging Face) and 200 (BERT)
    expect_pieces(tok, returns, word, ["a"] + ["##aaa"] * 70)


@pytest.mark.concept("whole-word-unk", "pre-tokenization", "continuation-prefix")
def test_tokenize_splits_on_whitespace_and_unks_words_independently(impl, returns):
    tok = make_tokenizer(impl, [UNK, "hug", "##s", "pun", "b", "##un"])
    got = returns(tok.tokenize("hugs  zzz\tbun pun\n"), list, "tokenize('hugs  zzz\\tbun pun\\n')")
    expected = ["hug", "##s", UNK, "b", "##un", "pun"]
    assert got == expected, f"tokenize: expected {expected}, got {got}"


@pytest.mark.concept("round-trip", "continuation-prefix")
def test_encode_and_decode_use_the_pieces(impl, returns):
    tokens = [UNK, "hug", "##s", "b", "##un"]
    tok = make_tokenizer(impl, tokens)
    ids = returns(tok.encode("hugs bun qq"), list, "encode('hugs bun qq')", items=int)
    assert ids == [1, 2, 3, 4, 0], f"encode: expected [1, 2, 3, 4, 0], got {ids}"
    text = tok.decode([1, 2, 3, 4])
    assert text == "hugs bun", f"decode: expected 'hugs bun', got {text!r}"


def _random_vocab(rng: random.Random, alphabet: str) -> list[str]:
    tokens = {UNK}
    for _ in range(rng.randint(3, 14)):
        piece = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 4)))
        tokens.add(piece if rng.random() < 0.4 else "##" + piece)
    return sorted(tokens)


def _expected_by_definition(word: str, tokens: set[str]) -> list[str]:
    """Greedy longest match written out as the definition: longest candidate at each position."""
    pieces: list[str] = []
    pos = 0
    while pos < len(word):
        marker = "##" if pos else ""
        lengths = [n for n in range(1, len(word) - pos + 1) if marker + word[pos : pos + n] in tokens]
        if not lengths:
            return [UNK]
        pieces.append(marker + word[pos : pos + max(lengths)])
        pos += max(lengths)
    return pieces


RANDOM_VOCABULARY_SEED = 20240611


def random_vocabulary_cases(ref) -> list[tuple[list[str], list[tuple[str, list[str]]]]]:
    """Random vocabularies, each with random words and their pieces by the definition above
    (checked against the reference too: a disagreement is a bug in this project)."""
    rng = random.Random(RANDOM_VOCABULARY_SEED)
    cases = []
    for _ in range(40):
        alphabet = rng.choice(["ab", "abc", "abcd", "aé"])
        tokens = _random_vocab(rng, alphabet)
        ref_tok = make_tokenizer(ref, tokens)
        words = []
        for _ in range(12):
            word = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 8)))
            expected = _expected_by_definition(word, set(tokens))
            assert ref_tok.tokenize_word(word) == expected, "project bug: reference_impl disagrees"
            words.append((word, expected))
        cases.append((tokens, words))
    return cases


@pytest.mark.concept("greedy-longest-match", "continuation-prefix")
def test_random_vocabularies_match_the_definition_and_the_reference(impl, returns, reference_cases):
    for case, (tokens, words) in enumerate(reference_cases(random_vocabulary_cases)):
        tok = make_tokenizer(impl, tokens)
        for word, expected in words:
            got = pieces_of(tok, returns, word)
            assert got == expected, (
                f"greedy longest match from the left, prefix on continuations, the whole word unknown when stuck: random case {case} (seed {RANDOM_VOCABULARY_SEED}), vocab {tokens}, tokenize_word({word!r}): "
                f"expected {expected}, got {got}"
            )


# Differential cases: built once per session with reference_impl (see conftest.py).
REFERENCE_CASES = (random_vocabulary_cases,)
