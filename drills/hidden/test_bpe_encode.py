"""Hidden tests for the `bpe-encode` drill: apply_merges, BPETokenizer.train, BPETokenizer.tokenize.

``BPETokenizer.train`` must leave ``merges`` (list of pair tuples in learned order), ``ranks`` (dict
pair -> position in ``merges``) and ``vocab``/``inv_vocab`` (dicts) behind; ``apply_merges`` returns
a tuple and ``tokenize`` a list of pieces. Types are checked exactly, nothing is converted.
"""

from __future__ import annotations

import random

import pytest

SENNRICH_CORPUS = " ".join(["low"] * 5 + ["lower"] * 2 + ["newest"] * 6 + ["widest"] * 3)
# learn_merges on the Sennrich words, marker on the last character, ties to the larger pair.
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
SENNRICH_RANKS = {pair: rank for rank, pair in enumerate(SENNRICH_MERGES)}
SENNRICH_CHARS = sorted("lowernstid")  # d e i l n o r s t w
SENNRICH_ALPHABET = ["<unk>", *SENNRICH_CHARS, *(c + "</w>" for c in SENNRICH_CHARS)]


def apply(impl, returns, symbols: tuple[str, ...], ranks: dict[tuple[str, str], int]) -> tuple[str, ...]:
    return returns(impl.apply_merges(symbols, ranks), tuple, f"apply_merges({symbols}, {ranks})")


def trained(impl, corpus: str, vocab_size: int, **kwargs):
    tok = impl.BPETokenizer(**kwargs)
    tok.train(corpus, vocab_size)
    return tok


def merges_of(tok, returns, where: str) -> list[tuple[str, str]]:
    return returns(tok.merges, list, f"{where}: self.merges", items=tuple)


def vocab_of(tok, returns, where: str) -> dict[str, int]:
    return returns(tok.vocab, dict, f"{where}: self.vocab")


def pieces_of(tok, returns, text: str) -> list[str]:
    return returns(tok.tokenize(text), list, f"tokenize({text!r})", items=str)


def random_corpus(rng: random.Random, alphabet: str) -> str:
    words = ["".join(rng.choice(alphabet) for _ in range(rng.randint(1, 7))) for _ in range(rng.randint(1, 9))]
    return " ".join(rng.choice(words) for _ in range(rng.randint(0, 40)))


@pytest.mark.concept("return-types")
def test_return_types_are_the_documented_ones(impl, returns):
    apply(impl, returns, ("a", "b"), {("a", "b"): 0})
    tok = trained(impl, "ab ab", 10)
    where = "after train('ab ab', 10)"
    merges_of(tok, returns, where)
    returns(tok.ranks, dict, f"{where}: self.ranks")
    vocab_of(tok, returns, where)
    returns(tok.inv_vocab, dict, f"{where}: self.inv_vocab")
    pieces_of(tok, returns, "ab")


# ---------------------------------------------------------------- apply_merges


@pytest.mark.concept("merge-order")
def test_apply_merges_takes_lowest_rank_first_not_leftmost(impl, returns):
    ranks = {("a", "b"): 1, ("b", "c"): 0}
    got = apply(impl, returns, ("a", "b", "c"), ranks)
    assert got == ("a", "bc"), f"(b, c) has rank 0: expected ('a', 'bc'), got {got}"


@pytest.mark.concept("merge-order")
def test_apply_merges_takes_lowest_rank_first_not_highest(impl, returns):
    ranks = {("b", "c"): 1, ("a", "b"): 0}
    got = apply(impl, returns, ("a", "b", "c"), ranks)
    assert got == ("ab", "c"), f"(a, b) has rank 0: expected ('ab', 'c'), got {got}"


@pytest.mark.concept("merge-order")
def test_apply_merges_ignores_dict_insertion_order(impl, returns):
    ranks = {("x", "y"): 2, ("c", "d"): 1, ("b", "c"): 0, ("a", "b"): 3}
    got = apply(impl, returns, ("a", "b", "c", "d"), ranks)
    assert got == ("a", "bc", "d"), f"apply_merges(('a', 'b', 'c', 'd'), {ranks}): expected ('a', 'bc', 'd'), got {got}"


@pytest.mark.concept("merge-order")
def test_apply_merges_replays_the_dependency_chain(impl, returns):
    for word, expected in [
        ("newest", ("newest</w>",)),
        ("widest", ("widest</w>",)),
        ("lowest", ("lo", "west</w>")),  # never seen in training
        ("lower", ("lower</w>",)),
        ("slow", ("s", "low</w>")),
    ]:
        symbols = (*word[:-1], word[-1] + "</w>")
        got = apply(impl, returns, symbols, dict(SENNRICH_RANKS))
        assert got == expected, f"{word!r} with the Sennrich merges: expected {expected}, got {got}"


@pytest.mark.concept("recount-after-merge")
def test_apply_merges_revisits_a_lower_rank_pair_formed_late(impl, returns):
    # (abc, d) has a lower rank than (ab, c), but only exists once (ab, c) has been applied.
    ranks = {("a", "b"): 0, ("b", "c"): 1, ("a", "bc"): 2, ("abc", "d"): 3, ("ab", "c"): 4}
    got = apply(impl, returns, ("a", "b", "c", "d"), ranks)
    assert got == ("abcd",), f"apply_merges(('a', 'b', 'c', 'd'), {ranks}): expected ('abcd',), got {got}"


@pytest.mark.concept("merge-no-overlap")
def test_apply_merges_handles_overlapping_pairs_left_to_right(impl, returns):
    cases = [
        (("a", "a", "a"), {("a", "a"): 0}, ("aa", "a")),
        (("a", "a", "a"), {("a", "a"): 0, ("aa", "a"): 1}, ("aaa",)),
        (("a", "a", "a", "a", "a"), {("a", "a"): 0, ("aa", "aa"): 1}, ("aaaa", "a")),
    ]
    for symbols, ranks, expected in cases:
        got = apply(impl, returns, symbols, ranks)
        assert got == expected, f"apply_merges({symbols}, {ranks}): expected {expected}, got {got}"


@pytest.mark.concept("whole-symbol-match")
def test_apply_merges_matches_whole_symbols_only(impl, returns):
    ranks = {("a", "b"): 0}
    for symbols in [("ca", "b"), ("a", "bc"), ("ab", "b")]:
        got = apply(impl, returns, symbols, ranks)
        assert got == symbols, (
            "a word with no ranked pair (empty, one symbol, or its pairs unranked in this order) comes back "
            f"unchanged\napply_merges({symbols}, {ranks}): expected {symbols}, got {got}"
        )


@pytest.mark.concept("empty-inputs")
def test_apply_merges_without_applicable_ranks_returns_input(impl, returns):
    for symbols, ranks in [
        ((), {("a", "b"): 0}),
        (("a",), {("a", "b"): 0}),
        (("a", "b"), {}),
        (("b", "a"), {("a", "b"): 0}),
    ]:
        got = apply(impl, returns, symbols, ranks)
        assert got == symbols, (
            "a word with no ranked pair (empty, one symbol, or its pairs unranked in this order) comes back "
            f"unchanged\napply_merges({symbols}, {ranks}): expected {symbols}, got {got}"
        )


@pytest.mark.concept("inputs-unchanged", "merge-order")
def test_apply_merges_leaves_the_ranks_unchanged_for_the_next_word(impl, returns):
    # A tokenizer encodes word after word with one ranks table: an encoder that deletes (or
    # re-ranks) the pairs it has used breaks every later word.
    ranks = dict(SENNRICH_RANKS)
    for word, expected in [("newest", ("newest</w>",)), ("widest", ("widest</w>",)), ("newest", ("newest</w>",))]:
        symbols = (*word[:-1], word[-1] + "</w>")
        got = apply(impl, returns, symbols, ranks)
        assert got == expected, (
            f"{word!r} encoded after earlier words with the same ranks: expected {expected}, got {got}"
        )
    assert ranks == SENNRICH_RANKS, (
        f"apply_merges changed the caller's ranks:\nexpected {SENNRICH_RANKS}\ngot      {ranks}"
    )


APPLY_MERGES_SEED = 404


def apply_merges_cases(ref) -> list[tuple[dict[tuple[str, str], int], list[tuple[tuple[str, ...], tuple[str, ...]]]]]:
    """Merge tables the reference learned on random words, each with words to encode."""
    rng = random.Random(APPLY_MERGES_SEED)
    cases = []
    for _ in range(30):
        alphabet = rng.choice(["ab", "abc", "abcd"])
        word_freqs: dict[tuple[str, ...], int] = {}
        for _ in range(rng.randint(1, 8)):
            word = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 8)))
            word_freqs[(*word[:-1], word[-1] + "</w>")] = rng.randint(1, 6)
        ranks = {pair: r for r, pair in enumerate(ref.learn_merges(word_freqs, rng.randint(1, 20)))}
        words = []
        for _ in range(6):
            word = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 10)))
            symbols = (*word[:-1], word[-1] + "</w>")
            words.append((symbols, tuple(ref.apply_merges(symbols, dict(ranks)))))
        cases.append((ranks, words))
    return cases


@pytest.mark.concept("merge-order", "whole-symbol-match")
def test_apply_merges_matches_reference_on_random_trained_tables(impl, returns, reference_cases):
    for case, (ranks, words) in enumerate(reference_cases(apply_merges_cases)):
        for symbols, expected in words:
            got = apply(impl, returns, symbols, dict(ranks))
            assert got == expected, (
                f"lowest rank first, again and again, until no ranked pair is left: random case {case} (seed {APPLY_MERGES_SEED}), apply_merges({symbols}, {ranks}):\n"
                f"expected {expected}\ngot      {got}"
            )


# ---------------------------------------------------------------- BPETokenizer.train


@pytest.mark.concept("end-of-word-marker")
def test_train_learns_the_sennrich_merges_and_ranks(impl, returns):
    tok = trained(impl, SENNRICH_CORPUS, len(SENNRICH_ALPHABET) + 6)
    got = merges_of(tok, returns, "Sennrich corpus")
    assert got == SENNRICH_MERGES[:6], (
        f"train learns the sennrich merges and ranks: expected merges {SENNRICH_MERGES[:6]}, got {got}"
    )
    expected_ranks = {pair: r for r, pair in enumerate(SENNRICH_MERGES[:6])}
    assert tok.ranks == expected_ranks, (
        f"train learns the sennrich merges and ranks: expected ranks {expected_ranks}, got {tok.ranks}"
    )


@pytest.mark.concept("vocab-id-layout", "end-of-word-marker")
def test_train_vocab_is_unk_then_characters_then_marked_characters_then_merges(impl, returns):
    tok = trained(impl, SENNRICH_CORPUS, len(SENNRICH_ALPHABET) + 3)
    tokens = [*SENNRICH_ALPHABET, "st</w>", "est</w>", "lo"]
    expected = {t: i for i, t in enumerate(tokens)}
    got = vocab_of(tok, returns, "Sennrich corpus")
    assert got == expected, (
        f"train vocab is unk then characters then marked characters then merges: expected vocab {expected}\ngot {got}"
    )
    expected_inv = {i: t for t, i in expected.items()}
    assert tok.inv_vocab == expected_inv, (
        f"train vocab is unk then characters then marked characters then merges: expected inv_vocab {expected_inv}\ngot {tok.inv_vocab}"
    )


@pytest.mark.concept("merge-budget", "end-of-word-marker")
def test_train_with_vocab_size_below_alphabet_learns_no_merges(impl, returns):
    tok = trained(impl, SENNRICH_CORPUS, 5)
    got = merges_of(tok, returns, "train(<Sennrich corpus>, 5)")
    assert got == [], f"train with vocab size below alphabet learns no merges: expected no merges, got {got}"
    vocab = vocab_of(tok, returns, "train(<Sennrich corpus>, 5)")
    assert sorted(vocab) == sorted(SENNRICH_ALPHABET), (
        f"train with vocab size below alphabet learns no merges: expected the alphabet {SENNRICH_ALPHABET}, got {sorted(vocab)}"
    )


MESSY_CORPUS = "low\tlow\n\nlow  low low\r\nlower lower newest newest newest newest newest newest"
MESSY_MERGES = [
    ("w", "e"),
    ("l", "o"),
    ("we", "s"),
    ("wes", "t</w>"),
    ("n", "e"),
    ("ne", "west</w>"),
    ("lo", "w</w>"),
    ("we", "r</w>"),
    ("lo", "wer</w>"),
]


@pytest.mark.concept("pre-tokenization", "end-of-word-marker")
def test_train_splits_the_corpus_on_any_whitespace(impl, returns):
    tok = trained(impl, MESSY_CORPUS, 40)
    got = merges_of(tok, returns, f"train({MESSY_CORPUS!r}, 40)")
    assert got == MESSY_MERGES, f"tabs and newlines separate words too: expected {MESSY_MERGES}, got {got}"


@pytest.mark.concept("empty-inputs")
def test_train_on_empty_corpus_keeps_only_the_unknown_token(impl, returns):
    tok = trained(impl, "", 10)
    got = merges_of(tok, returns, "train('', 10)")
    assert got == [], f"train on empty corpus keeps only the unknown token: expected no merges, got {got}"
    vocab = vocab_of(tok, returns, "train('', 10)")
    assert vocab == {"<unk>": 0}, (
        f"train on empty corpus keeps only the unknown token: expected {{'<unk>': 0}}, got {vocab}"
    )


@pytest.mark.concept("merge-budget", "end-of-word-marker")
def test_train_stops_when_every_word_is_one_symbol(impl, returns):
    tok = trained(impl, "ab ab cd", 1000)
    got = merges_of(tok, returns, "train('ab ab cd', 1000)")
    assert got == [("a", "b</w>"), ("c", "d</w>")], (
        f"train stops when every word is one symbol: expected [('a', 'b</w>'), ('c', 'd</w>')], got {got}"
    )


@pytest.mark.concept("vocab-id-layout")
def test_training_again_replaces_the_first_training(impl, returns):
    tok = trained(impl, "xyz xyz qq", 30)
    tok.train(SENNRICH_CORPUS, 30)
    where = "train('xyz xyz qq', 30) then train(<Sennrich corpus>, 30)"
    expected_merges = SENNRICH_MERGES[: 30 - len(SENNRICH_ALPHABET)]
    got = merges_of(tok, returns, where)
    assert got == expected_merges, f"{where}: expected merges {expected_merges}, got {got}"
    tokens = [*SENNRICH_ALPHABET, *(a + b for a, b in expected_merges)]
    expected = {t: i for i, t in enumerate(tokens)}
    vocab = vocab_of(tok, returns, where)
    assert vocab == expected, f"{where}: expected vocab {expected}\ngot {vocab}"


@pytest.mark.concept("duplicate-merge-token", "end-of-word-marker")
def test_a_merge_that_spells_an_existing_token_keeps_its_first_id(impl, returns):
    # With "_" as the marker, the word "a_b" is (a, _, b_). The first merge (a, _) spells "a_",
    # which the alphabet already holds (the character a with the marker): it keeps id 5 and no
    # entry is added, so the next merge's token gets id 7 and the ids stay 0..7.
    tok = trained(impl, "a_b", 100, end_of_word="_")
    where = "BPETokenizer(end_of_word='_').train('a_b', 100)"
    got = merges_of(tok, returns, where)
    assert got == [("a", "_"), ("a_", "b_")], f"{where}: expected merges [('a', '_'), ('a_', 'b_')], got {got}"
    expected = {"<unk>": 0, "_": 1, "a": 2, "b": 3, "__": 4, "a_": 5, "b_": 6, "a_b_": 7}
    vocab = vocab_of(tok, returns, where)
    assert vocab == expected, f"{where}: expected vocab {expected}\ngot {vocab}"
    assert tok.inv_vocab == {i: t for t, i in expected.items()}, (
        f"{where}: inv_vocab is not the inverse: {tok.inv_vocab}"
    )


# ---------------------------------------------------------------- BPETokenizer.tokenize


@pytest.mark.concept("end-of-word-marker")
def test_tokenize_puts_the_marker_on_the_last_character(impl, returns):
    tok = trained(impl, "", 10)
    got = pieces_of(tok, returns, "low a")
    assert got == ["l", "o", "w</w>", "a</w>"], (
        f"tokenize puts the marker on the last character: expected ['l', 'o', 'w</w>', 'a</w>'], got {got}"
    )


@pytest.mark.concept("end-of-word-marker")
def test_tokenize_uses_a_custom_end_of_word_marker(impl, returns):
    tok = trained(impl, "ab ab ab", 100, end_of_word="_")
    got = pieces_of(tok, returns, "ab ba")
    assert got == ["ab_", "b", "a_"], f"marker '_': expected ['ab_', 'b', 'a_'], got {got}"


@pytest.mark.concept("merge-order", "end-of-word-marker")
def test_tokenize_segments_unseen_words_with_learned_pieces(impl, returns):
    tok = trained(impl, SENNRICH_CORPUS, 1000)
    got = pieces_of(tok, returns, "lowest newest  slow\nwidest")
    expected = ["lo", "west</w>", "newest</w>", "s", "low</w>", "widest</w>"]
    assert got == expected, f"tokenize segments unseen words with learned pieces: expected {expected}, got {got}"


@pytest.mark.concept("empty-inputs", "end-of-word-marker")
def test_tokenize_single_character_words_and_empty_text(impl, returns):
    tok = trained(impl, "a b a", 100)
    for text, expected in [("a", ["a</w>"]), ("   ", []), ("", [])]:
        got = pieces_of(tok, returns, text)
        assert got == expected, f"tokenize({text!r}): expected {expected}, got {got}"


@pytest.mark.concept("unknown-token", "end-of-word-marker")
def test_tokenize_keeps_characters_never_seen_in_training(impl, returns):
    tok = trained(impl, SENNRICH_CORPUS, 1000)
    got = pieces_of(tok, returns, "zlow")
    assert got == ["z", "low</w>"], (
        f"tokenize keeps characters never seen in training: expected ['z', 'low</w>'], got {got}"
    )


TRAIN_AND_TOKENIZE_SEED = 505


def train_and_tokenize_cases(ref) -> list[dict[str, object]]:
    """Random corpora, what the reference learns from each, and how it tokenizes a random text."""
    rng = random.Random(TRAIN_AND_TOKENIZE_SEED)
    cases = []
    for _ in range(15):
        alphabet = rng.choice(["ab", "abc", "abcdé"])
        corpus = random_corpus(rng, alphabet)
        vocab_size = rng.randint(0, 40)
        want = trained(ref, corpus, vocab_size)
        text = random_corpus(rng, alphabet + "z")
        cases.append(
            {
                "corpus": corpus,
                "vocab_size": vocab_size,
                "merges": [tuple(p) for p in want.merges],
                "ranks": dict(want.ranks),
                "vocab": dict(want.vocab),
                "text": text,
                "pieces": list(want.tokenize(text)),
            }
        )
    return cases


@pytest.mark.concept("merge-order", "vocab-id-layout")
def test_train_and_tokenize_match_reference_on_random_corpora(impl, returns, reference_cases):
    for case, want in enumerate(reference_cases(train_and_tokenize_cases)):
        corpus, vocab_size, text = want["corpus"], want["vocab_size"], want["text"]
        got = trained(impl, corpus, vocab_size)
        where = f"train learns the reference's merges and vocabulary; tokenize applies them in rank order: random case {case} (seed {TRAIN_AND_TOKENIZE_SEED}), train({corpus!r}, {vocab_size})"
        merges = merges_of(got, returns, where)
        assert merges == want["merges"], f"{where}: expected merges {want['merges']}, got {merges}"
        assert got.ranks == want["ranks"], f"{where}: expected ranks {want['ranks']}, got {got.ranks}"
        vocab = vocab_of(got, returns, where)
        assert vocab == want["vocab"], f"{where}: expected vocab {want['vocab']}\ngot {vocab}"
        pieces = pieces_of(got, returns, text)
        assert pieces == want["pieces"], f"{where}, tokenize({text!r}): expected {want['pieces']}, got {pieces}"


# Differential cases: built once per session with reference_impl (see conftest.py).
REFERENCE_CASES = (apply_merges_cases, train_and_tokenize_cases)
