"""Hidden tests for the `wordpiece-train` drill: WordPiece training, encoding and decoding.

Training conventions: the start vocabulary is the unknown token then the sorted initial symbols
(a word's first character bare, later characters with the continuation prefix); each step merges
the adjacent pair with the highest count(ab) / (count(a) * count(b)), every count weighted by word
frequency, ties going to the larger pair; ids follow the order tokens enter the vocabulary.
"""

from __future__ import annotations

import random
import types

UNK = "[UNK]"


def trained(impl: types.ModuleType, corpus: str, vocab_size: int, **kwargs: str) -> object:
    tok = impl.WordPieceTokenizer(**kwargs)
    tok.train(corpus, vocab_size)
    return tok


def tokens_in_id_order(tok: object) -> list[str]:
    return [t for t, _ in sorted(tok.vocab.items(), key=lambda item: item[1])]


def test_start_vocabulary_is_unk_then_sorted_initial_symbols(impl):
    tok = trained(impl, "hug pug hugs", 0)
    expected = [UNK, "##g", "##s", "##u", "h", "p"]
    got = tokens_in_id_order(tok)
    assert got == expected, f"expected {expected}, got {got}"
    assert tok.vocab == {t: i for i, t in enumerate(expected)}, f"ids must be 0..n-1, got {tok.vocab}"


def test_rare_pair_that_always_cooccurs_beats_a_frequent_pair(impl):
    # zq: 1 / (1 * 1) = 1 beats aa: 8 / (8 * 8) = 0.125, although aa is eight times more frequent.
    tok = trained(impl, "zq " + "aa " * 8, 6)
    expected = [UNK, "##a", "##q", "a", "z", "zq"]
    got = tokens_in_id_order(tok)
    assert got == expected, f"expected {expected}, got {got}"


def test_continuation_pairs_merge_into_one_prefixed_token_and_ties_take_the_larger_pair(impl):
    # First ##a+##b scores 2/(2*2); then x+##ab and y+##ab tie at 1/(2*2): y's pair is larger.
    tok = trained(impl, "xab yab x y", 8)
    expected = [UNK, "##a", "##b", "x", "y", "##ab", "yab", "xab"]
    got = tokens_in_id_order(tok)
    assert got == expected, f"expected {expected}, got {got}"


def test_tie_goes_to_the_larger_pair_by_first_symbol(impl):
    tok = trained(impl, "ab cd", 6)
    got = tokens_in_id_order(tok)[-1]
    assert got == "cd", f"ab and cd both score 1; expected 'cd' (larger pair) merged first, got {got!r}"


def test_tie_goes_to_the_larger_pair_by_second_symbol(impl):
    tok = trained(impl, "ab ac", 5)
    got = tokens_in_id_order(tok)[-1]
    assert got == "ac", f"ab and ac both score 1/2; expected 'ac' (larger pair) merged first, got {got!r}"


def test_symbol_counts_are_weighted_by_word_frequency(impl):
    # Weighted: a=3, ##a=2, ##b=1, so aa scores 2/6 and ab 1/3: a tie the larger pair (ab) wins.
    # Counting each distinct word once would give aa 2/2 and ab 1/2.
    tok = trained(impl, "aa aa ab", 5)
    got = tokens_in_id_order(tok)[-1]
    assert got == "ab", f"expected first merge 'ab', got {got!r}"


def test_symbol_counts_add_up_over_all_words(impl):
    # b occurs in two words (count 2): ba scores 1/(2*1), bc and ##c##c only 1/(2*2).
    tok = trained(impl, "ba bcc", 5)
    got = tokens_in_id_order(tok)[-1]
    assert got == "ba", f"expected first merge 'ba', got {got!r}"


def test_both_symbol_counts_divide_the_pair_count(impl):
    # y occurs three times, so ya, yb, yc score 1/3 each; xd scores 1/(1*1).
    tok = trained(impl, "ya yb yc xd", 8)
    got = tokens_in_id_order(tok)[-1]
    assert got == "xd", f"expected first merge 'xd', got {got!r}"


def test_merging_keeps_the_symbols_after_the_pair(impl):
    # All pairs tie at 1; a+##b is the largest, then ab+##c, then abc+##d.
    tok = trained(impl, "abcd", 100)
    expected = [UNK, "##b", "##c", "##d", "a", "ab", "abc", "abcd"]
    got = tokens_in_id_order(tok)
    assert got == expected, f"expected {expected}, got {got}"


def test_vocabulary_reaches_the_requested_size(impl):
    tok = trained(impl, "the cat sat on the mat with the hat", 20)
    assert len(tok.vocab) == 20, f"expected 20 tokens, got {len(tok.vocab)}: {tok.vocab}"


def test_training_stops_when_no_pair_is_left(impl):
    tok = trained(impl, "a b c b", 50)
    expected = [UNK, "a", "b", "c"]
    got = tokens_in_id_order(tok)
    assert got == expected, f"single-character words have no pairs: expected {expected}, got {got}"
    tok = trained(impl, "ab", 50)
    got = tokens_in_id_order(tok)
    assert got == [UNK, "##b", "a", "ab"], f"expected [UNK, '##b', 'a', 'ab'], got {got}"


def test_start_vocabulary_is_kept_whole_when_vocab_size_is_smaller(impl):
    tok = trained(impl, "abc", 2)
    expected = [UNK, "##b", "##c", "a"]
    got = tokens_in_id_order(tok)
    assert got == expected, f"expected {expected}, got {got}"


def test_empty_corpus_gives_only_the_unknown_token(impl):
    tok = trained(impl, "   ", 10)
    assert tok.vocab == {UNK: 0}, f"expected {{'[UNK]': 0}}, got {tok.vocab}"


def test_inv_vocab_is_the_inverse_of_vocab(impl):
    tok = trained(impl, "low lower lowest newer wider", 25)
    expected = {i: t for t, i in tok.vocab.items()}
    assert tok.inv_vocab == expected, f"expected {expected}, got {tok.inv_vocab}"


def test_training_again_replaces_the_old_vocabulary(impl):
    tok = trained(impl, "xyz xyz", 9)
    tok.train("ab", 4)
    expected = {UNK: 0, "##b": 1, "a": 2, "ab": 3}
    assert tok.vocab == expected, f"expected {expected}, got {tok.vocab}"


def test_custom_prefix_and_unknown_token(impl):
    tok = trained(impl, "xab yab x y", 8, unk_token="<unk>", prefix="@@")
    expected = ["<unk>", "@@a", "@@b", "x", "y", "@@ab", "yab", "xab"]
    got = tokens_in_id_order(tok)
    assert got == expected, f"expected {expected}, got {got}"


def test_train_encode_decode_round_trip(impl):
    corpus = "low lower lowest newer wider new wide low low"
    tok = trained(impl, corpus, 22)
    ids = tok.encode(corpus)
    assert all(isinstance(i, int) for i in ids), f"encode must return ints, got {ids}"
    text = tok.decode(ids)
    assert text == corpus, f"decode(encode(corpus)): expected {corpus!r}, got {text!r}"


def test_encode_gives_unk_id_for_a_word_with_an_unseen_character(impl):
    tok = trained(impl, "hug hugs", 8)
    ids = tok.encode("hugs hux")
    unk_id = tok.vocab[UNK]
    assert ids[-1] == unk_id and ids.count(unk_id) == 1, f"expected exactly one [UNK] id at the end, got {ids}"
    text = tok.decode(ids)
    assert text == "hugs [UNK]", f"expected 'hugs [UNK]', got {text!r}"


def test_decode_glues_continuations_and_spaces_words(impl):
    tok = impl.WordPieceTokenizer()
    tokens = [UNK, "un", "##aff", "##able", "cat", "##s"]
    tok.vocab = {t: i for i, t in enumerate(tokens)}
    tok.inv_vocab = dict(enumerate(tokens))
    got = tok.decode([1, 2, 3, 4, 5, 4])
    assert got == "unaffable cats cat", f"expected 'unaffable cats cat', got {got!r}"
    got = tok.decode([])
    assert got == "", f"decode([]): expected '', got {got!r}"


def _random_corpus(rng: random.Random) -> str:
    alphabet = rng.choice(["ab", "abc", "abcde", "xyzé"])
    words = ["".join(rng.choice(alphabet) for _ in range(rng.randint(1, 7))) for _ in range(rng.randint(1, 8))]
    parts = [w for w in words for _ in range(rng.randint(1, 5))]
    rng.shuffle(parts)
    return " ".join(parts)


def test_random_corpora_match_the_reference(impl, ref):
    rng = random.Random(4242)
    for case in range(30):
        corpus = _random_corpus(rng)
        vocab_size = rng.randint(3, 30)
        tok = trained(impl, corpus, vocab_size)
        want = trained(ref, corpus, vocab_size)
        got_order, want_order = tokens_in_id_order(tok), tokens_in_id_order(want)
        assert got_order == want_order, (
            f"case {case}: train({corpus!r}, {vocab_size}): expected tokens {want_order}, got {got_order}"
            " (if only equal-score merges come out in another order, compute each score exactly:"
            " one division count(ab) / (count(a) * count(b)), or fractions.Fraction)"
        )
        assert tok.vocab == want.vocab, f"case {case}: expected vocab {want.vocab}, got {tok.vocab}"
        text = " ".join(rng.sample(corpus.split(), k=min(4, len(corpus.split())))) + " q" + corpus[:3]
        got_ids, want_ids = tok.encode(text), want.encode(text)
        assert got_ids == want_ids, f"case {case}: encode({text!r}): expected {want_ids}, got {got_ids}"
        got_text, want_text = tok.decode(want_ids), want.decode(want_ids)
        assert got_text == want_text, f"case {case}: decode({want_ids}): expected {want_text!r}, got {got_text!r}"


def test_a_new_tokenizer_has_empty_vocabularies(impl):
    tok = impl.WordPieceTokenizer()
    got = (tok.vocab, tok.inv_vocab)
    assert got == ({}, {}), f"expected empty vocab and inv_vocab before train, got {got}"
