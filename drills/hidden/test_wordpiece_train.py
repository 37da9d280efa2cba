"""Hidden tests for the `wordpiece-train` drill: WordPiece training, encoding and decoding.

Training conventions: the start vocabulary is the unknown token then the sorted initial symbols
(a word's first character bare, later characters with the continuation prefix); each step merges
the adjacent pair with the highest count(ab) / (count(a) * count(b)), every count weighted by word
frequency, ties going to the larger pair; ids follow the order tokens enter the vocabulary, and a
merge whose token is already in the vocabulary keeps that token's id. ``vocab`` and ``inv_vocab``
are dicts, ``encode`` returns a list of ints and ``decode`` a str; types are checked exactly.
"""

from __future__ import annotations

import random
import types

import pytest

UNK = "[UNK]"


def trained(impl: types.ModuleType, corpus: str, vocab_size: int, **kwargs: str) -> object:
    tok = impl.WordPieceTokenizer(**kwargs)
    tok.train(corpus, vocab_size)
    return tok


def tokens_in_id_order(tok: object) -> list[str]:
    return [t for t, _ in sorted(tok.vocab.items(), key=lambda item: item[1])]


def encoded(tok, returns, text: str) -> list[int]:
    return returns(tok.encode(text), list, f"encode({text!r})", items=int)


def decoded(tok, returns, ids: list[int]) -> str:
    return returns(tok.decode(ids), str, f"decode({ids})")


def first_merge(impl, corpus: str) -> str:
    """The token the first merge adds: train up to the start vocabulary plus one token."""
    start = {word[0] for word in corpus.split()} | {"##" + ch for word in corpus.split() for ch in word[1:]}
    tok = trained(impl, corpus, len(start) + 2)
    return tokens_in_id_order(tok)[-1]


@pytest.mark.concept("return-types")
def test_return_types_are_the_documented_ones(impl, returns):
    tok = trained(impl, "hug hugs", 8)
    returns(tok.vocab, dict, "after train('hug hugs', 8): self.vocab")
    returns(tok.inv_vocab, dict, "after train('hug hugs', 8): self.inv_vocab")
    decoded(tok, returns, encoded(tok, returns, "hugs"))


@pytest.mark.concept("vocab-id-layout")
def test_start_vocabulary_is_unk_then_sorted_initial_symbols(impl):
    tok = trained(impl, "hug pug hugs", 0)
    expected = [UNK, "##g", "##s", "##u", "h", "p"]
    got = tokens_in_id_order(tok)
    assert got == expected, f"start vocabulary is unk then sorted initial symbols: expected {expected}, got {got}"
    assert tok.vocab == {t: i for i, t in enumerate(expected)}, f"ids must be 0..n-1, got {tok.vocab}"


@pytest.mark.concept("wordpiece-score", "merge-budget")
def test_rare_pair_that_always_cooccurs_beats_a_frequent_pair(impl):
    # zq: 1 / (1 * 1) = 1 beats aa: 8 / (8 * 8) = 0.125, although aa is eight times more frequent.
    tok = trained(impl, "zq " + "aa " * 8, 6)
    expected = [UNK, "##a", "##q", "a", "z", "zq"]
    got = tokens_in_id_order(tok)
    assert got == expected, f"rare pair that always cooccurs beats a frequent pair: expected {expected}, got {got}"


@pytest.mark.concept("continuation-prefix", "tie-break", "frequency-weighted-counts", "merge-budget")
def test_continuation_pairs_merge_into_one_prefixed_token_and_ties_take_the_larger_pair(impl):
    # First ##a+##b scores 2/(2*2); then x+##ab and y+##ab tie at 1/(2*2): y's pair is larger.
    tok = trained(impl, "xab yab x y", 8)
    expected = [UNK, "##a", "##b", "x", "y", "##ab", "yab", "xab"]
    got = tokens_in_id_order(tok)
    assert got == expected, (
        f"continuation pairs merge into one prefixed token and ties take the larger pair: expected {expected}, got {got}"
    )


@pytest.mark.concept("tie-break")
def test_tie_goes_to_the_larger_pair_by_first_symbol(impl):
    got = first_merge(impl, "ab cd")
    assert got == "cd", f"ab and cd both score 1; expected 'cd' (larger pair) merged first, got {got!r}"


@pytest.mark.concept("tie-break")
def test_tie_goes_to_the_larger_pair_by_second_symbol(impl):
    got = first_merge(impl, "ab ac")
    assert got == "ac", f"ab and ac both score 1/2; expected 'ac' (larger pair) merged first, got {got!r}"


@pytest.mark.concept("frequency-weighted-counts")
def test_symbol_counts_are_weighted_by_word_frequency(impl):
    # Weighted: a=3, ##a=2, ##b=1, so aa scores 2/6 and ab 1/3: a tie the larger pair (ab) wins.
    # Counting each distinct word once would give aa 2/2 and ab 1/2.
    got = first_merge(impl, "aa aa ab")
    assert got == "ab", f"symbol counts are weighted by word frequency: expected first merge 'ab', got {got!r}"


@pytest.mark.concept("frequency-weighted-counts")
def test_pair_counts_are_weighted_by_word_frequency(impl):
    # Weighted: ab = 3 / (3 * 3) = 1/3 beats cd = 1 / (4 * 1) = 1/4. Counting the pair ab once
    # per distinct word would give 1 / (3 * 3) = 1/9, and cd would win.
    got = first_merge(impl, "ab ab ab cd c c c")
    assert got == "ab", f"'ab ab ab cd c c c': expected first merge 'ab' (1/3 beats 1/4), got {got!r}"


@pytest.mark.concept("frequency-weighted-counts")
def test_symbol_counts_add_up_over_all_words(impl):
    # b occurs in two words (count 2): ba scores 1/(2*1), bc and ##c##c only 1/(2*2).
    got = first_merge(impl, "ba bcc")
    assert got == "ba", f"symbol counts add up over all words: expected first merge 'ba', got {got!r}"


@pytest.mark.concept("wordpiece-score")
def test_both_symbol_counts_divide_the_pair_count(impl):
    # y occurs three times, so ya, yb, yc score 1/3 each; xd scores 1/(1*1).
    tok = trained(impl, "ya yb yc xd", 8)
    got = tokens_in_id_order(tok)[-1]
    assert got == "xd", f"both symbol counts divide the pair count: expected first merge 'xd', got {got!r}"


@pytest.mark.concept("exact-score-ties", "frequency-weighted-counts")
def test_equal_scores_tie_exactly_so_the_larger_pair_wins(impl):
    # Each corpus has two pairs with exactly the same ratio; the larger pair must win. Two
    # divisions in a row (count(ab) / count(a) / count(b)), logarithms or reciprocals round
    # the two ratios differently and pick the other pair.
    cases = [
        ("acc acc acb acb acb acb acb", "ac"),  # a+##c = 7/(7*9), ##c+##b = 5/(9*5): both 1/9
        ("baa baa bac", "ba"),  # b+##a = 3/(3*5), ##a+##c = 1/(5*1): both 1/5
        ("ab ab ab ab ab ac ac", "ac"),  # a+##b = 5/(7*5), a+##c = 2/(7*2): both 1/7
    ]
    for corpus, expected in cases:
        got = first_merge(impl, corpus)
        assert got == expected, (
            f"{corpus!r}: two pairs score exactly the same, so the larger pair wins: expected {expected!r}, got {got!r}"
            " (compute count(ab) / (count(a) * count(b)) with one division, or with fractions.Fraction)"
        )


@pytest.mark.concept("exact-score-ties", "frequency-weighted-counts")
def test_scores_are_compared_exactly_never_rounded(impl):
    # a+##b scores 1/1501 and c+##d 1/1502: different in the seventh digit. Rounding the scores
    # makes them tie, and the tie rule would then pick the larger pair, c+##d.
    corpus = "ab " + "a " * 1500 + "cd " + "c " * 1501
    got = first_merge(impl, corpus)
    assert got == "ab", f"'ab' + 1500 x 'a' + 'cd' + 1501 x 'c': 1/1501 beats 1/1502, expected 'ab' first, got {got!r}"


@pytest.mark.concept("merge-no-overlap", "frequency-weighted-counts", "merge-budget")
def test_merging_keeps_the_symbols_after_the_pair(impl):
    # All pairs tie at 1; a+##b is the largest, then ab+##c, then abc+##d.
    tok = trained(impl, "abcd", 100)
    expected = [UNK, "##b", "##c", "##d", "a", "ab", "abc", "abcd"]
    got = tokens_in_id_order(tok)
    assert got == expected, f"merging keeps the symbols after the pair: expected {expected}, got {got}"


@pytest.mark.concept("merge-budget", "vocab-id-layout")
def test_vocabulary_reaches_the_requested_size(impl, returns):
    tok = trained(impl, "the cat sat on the mat with the hat", 20)
    vocab = returns(tok.vocab, dict, "self.vocab")
    assert len(vocab) == 20, f"vocabulary reaches the requested size: expected 20 tokens, got {len(vocab)}: {vocab}"
    assert sorted(vocab.values()) == list(range(20)), f"ids must be 0..19, got {sorted(vocab.values())}"
    expected = {i: t for t, i in vocab.items()}
    assert tok.inv_vocab == expected, (
        f"inv_vocab must be the inverse of vocab: expected {expected}, got {tok.inv_vocab}"
    )


@pytest.mark.concept("merge-budget")
def test_training_stops_when_no_pair_is_left(impl):
    tok = trained(impl, "a b c b", 50)
    expected = [UNK, "a", "b", "c"]
    got = tokens_in_id_order(tok)
    assert got == expected, f"single-character words have no pairs: expected {expected}, got {got}"
    tok = trained(impl, "ab", 50)
    got = tokens_in_id_order(tok)
    assert got == [UNK, "##b", "a", "ab"], (
        f"training stops when no pair is left: expected [UNK, '##b', 'a', 'ab'], got {got}"
    )


@pytest.mark.concept("merge-budget")
def test_start_vocabulary_is_kept_whole_when_vocab_size_is_smaller(impl):
    tok = trained(impl, "abc", 2)
    expected = [UNK, "##b", "##c", "a"]
    got = tokens_in_id_order(tok)
    assert got == expected, f"start vocabulary is kept whole when vocab size is smaller: expected {expected}, got {got}"


@pytest.mark.concept("empty-inputs")
def test_empty_corpus_gives_only_the_unknown_token(impl):
    tok = impl.WordPieceTokenizer()
    fresh = (tok.vocab, tok.inv_vocab)
    assert fresh == ({}, {}), (
        f"empty corpus gives only the unknown token: expected empty vocab and inv_vocab before train, got {fresh}"
    )
    tok.train("   ", 10)
    assert tok.vocab == {UNK: 0}, f"train('   ', 10): expected {{'[UNK]': 0}}, got {tok.vocab}"
    assert tok.inv_vocab == {0: UNK}, f"train('   ', 10): expected inv_vocab {{0: '[UNK]'}}, got {tok.inv_vocab}"


@pytest.mark.concept("vocab-id-layout")
def test_training_again_replaces_the_old_vocabulary(impl):
    tok = trained(impl, "xyz xyz", 9)
    tok.train("ab", 4)
    expected = {UNK: 0, "##b": 1, "a": 2, "ab": 3}
    assert tok.vocab == expected, f"training again replaces the old vocabulary: expected {expected}, got {tok.vocab}"


@pytest.mark.concept("duplicate-merge-token", "merge-budget", "frequency-weighted-counts")
def test_a_merge_that_spells_an_existing_token_keeps_its_first_id(impl):
    # A corpus holding the text "[UNK]" merges its pieces back into "[UNK]", which is already the
    # unknown token (id 0): it keeps id 0 and nothing is added, so the ids stay 0..8.
    tok = trained(impl, "[UNK] [UNK]", 100)
    expected = {UNK: 0, "##K": 1, "##N": 2, "##U": 3, "##]": 4, "[": 5, "[U": 6, "[UN": 7, "[UNK": 8}
    assert tok.vocab == expected, f"train('[UNK] [UNK]', 100): expected {expected}\ngot {tok.vocab}"
    assert tok.inv_vocab == {i: t for t, i in expected.items()}, (
        f"inv_vocab is not the inverse of vocab: {tok.inv_vocab}"
    )


@pytest.mark.concept("continuation-prefix", "frequency-weighted-counts", "vocab-id-layout")
def test_custom_prefix_and_unknown_token(impl):
    tok = trained(impl, "xab yab x y", 8, unk_token="<unk>", prefix="@@")
    expected = ["<unk>", "@@a", "@@b", "x", "y", "@@ab", "yab", "xab"]
    got = tokens_in_id_order(tok)
    assert got == expected, f"custom prefix and unknown token: expected {expected}, got {got}"


@pytest.mark.concept("round-trip")
def test_train_encode_decode_round_trip(impl, returns):
    corpus = "low lower lowest newer wider new wide low low"
    tok = trained(impl, corpus, 22)
    ids = encoded(tok, returns, corpus)
    text = decoded(tok, returns, ids)
    assert text == corpus, f"decode(encode(corpus)): expected {corpus!r}, got {text!r}"


@pytest.mark.concept("whole-word-unk")
def test_encode_gives_unk_id_for_a_word_with_an_unseen_character(impl, returns):
    tok = trained(impl, "hug hugs", 8)
    ids = encoded(tok, returns, "hugs hux")
    unk_id = tok.vocab[UNK]
    assert ids[-1] == unk_id and ids.count(unk_id) == 1, (
        f"encode gives unk id for a word with an unseen character: expected exactly one [UNK] id at the end, got {ids}"
    )
    text = decoded(tok, returns, ids)
    assert text == "hugs [UNK]", (
        f"encode gives unk id for a word with an unseen character: expected 'hugs [UNK]', got {text!r}"
    )


@pytest.mark.concept("round-trip")
def test_decode_glues_continuations_and_spaces_words(impl, returns):
    tok = impl.WordPieceTokenizer()
    tokens = [UNK, "un", "##aff", "##able", "cat", "##s"]
    tok.vocab = {t: i for i, t in enumerate(tokens)}
    tok.inv_vocab = dict(enumerate(tokens))
    got = decoded(tok, returns, [1, 2, 3, 4, 5, 4])
    assert got == "unaffable cats cat", (
        f"decode glues continuations and spaces words: expected 'unaffable cats cat', got {got!r}"
    )
    got = decoded(tok, returns, [])
    assert got == "", f"decode([]): expected '', got {got!r}"


@pytest.mark.concept("inputs-unchanged", "round-trip")
def test_decode_leaves_the_callers_ids_unchanged(impl, returns):
    tok = impl.WordPieceTokenizer()
    tokens = [UNK, "cat", "##aff", "##s", "un", "##able"]
    tok.vocab = {t: i for i, t in enumerate(tokens)}
    tok.inv_vocab = dict(enumerate(tokens))
    ids = [4, 2, 5, 1, 3]  # an order that sorting either way or reversing would change
    got = decoded(tok, returns, ids)
    assert got == "unaffable cats", f"decode([4, 2, 5, 1, 3]): expected 'unaffable cats', got {got!r}"
    assert ids == [4, 2, 5, 1, 3], f"decode changed the caller's list of ids: got {ids}"


def _random_corpus(rng: random.Random) -> str:
    alphabet = rng.choice(["ab", "abc", "abcde", "xyzé"])
    words = ["".join(rng.choice(alphabet) for _ in range(rng.randint(1, 7))) for _ in range(rng.randint(1, 8))]
    parts = [w for w in words for _ in range(rng.randint(1, 5))]
    rng.shuffle(parts)
    return " ".join(parts)


RANDOM_CORPORA_SEED = 4242


def random_corpus_cases(ref) -> list[dict[str, object]]:
    """Random corpora with the reference's vocabulary, and a text with its ids and decoding."""
    rng = random.Random(RANDOM_CORPORA_SEED)
    cases = []
    for _ in range(30):
        corpus = _random_corpus(rng)
        vocab_size = rng.randint(3, 30)
        want = trained(ref, corpus, vocab_size)
        text = " ".join(rng.sample(corpus.split(), k=min(4, len(corpus.split())))) + " q" + corpus[:3]
        ids = want.encode(text)
        cases.append(
            {
                "corpus": corpus,
                "vocab_size": vocab_size,
                "vocab": dict(want.vocab),
                "text": text,
                "ids": ids,
                "decoded": want.decode(ids),
            }
        )
    return cases


@pytest.mark.concept("wordpiece-score", "tie-break")
def test_random_corpora_match_the_reference(impl, returns, reference_cases):
    for case, want in enumerate(reference_cases(random_corpus_cases)):
        corpus, vocab_size, text = want["corpus"], want["vocab_size"], want["text"]
        where = f"merge by count(ab) / (count(a) count(b)), ties to the larger pair, as the reference: random case {case} (seed {RANDOM_CORPORA_SEED}), train({corpus!r}, {vocab_size})"
        tok = trained(impl, corpus, vocab_size)
        want_order = [t for t, _ in sorted(want["vocab"].items(), key=lambda item: item[1])]
        got_order = tokens_in_id_order(tok)
        assert got_order == want_order, (
            f"{where}: expected tokens {want_order}, got {got_order}"
            " (if only equal-score merges come out in another order, compute each score exactly:"
            " one division count(ab) / (count(a) * count(b)), or fractions.Fraction)"
        )
        assert tok.vocab == want["vocab"], f"{where}: expected vocab {want['vocab']}, got {tok.vocab}"
        got_ids = encoded(tok, returns, text)
        assert got_ids == want["ids"], f"{where}, encode({text!r}): expected {want['ids']}, got {got_ids}"
        got_text = decoded(tok, returns, want["ids"])
        assert got_text == want["decoded"], (
            f"{where}, decode({want['ids']}): expected {want['decoded']!r}, got {got_text!r}"
        )


# Differential cases: built once per session with reference_impl (see conftest.py).
REFERENCE_CASES = (random_corpus_cases,)
