"""Hidden tests for the `bpe-encode` drill: apply_merges, BPETokenizer.train, BPETokenizer.tokenize.

``BPETokenizer.train`` must leave ``merges`` (list of pairs in learned order), ``ranks`` (pair ->
position in ``merges``) and ``vocab``/``inv_vocab`` behind; ``tokenize`` returns the pieces.
"""

from __future__ import annotations

import random

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


def apply(impl, symbols, ranks) -> tuple[str, ...]:
    return tuple(impl.apply_merges(tuple(symbols), ranks))


def trained(impl, corpus: str, vocab_size: int, **kwargs):
    tok = impl.BPETokenizer(**kwargs)
    tok.train(corpus, vocab_size)
    return tok


def random_corpus(rng: random.Random, alphabet: str) -> str:
    words = ["".join(rng.choice(alphabet) for _ in range(rng.randint(1, 7))) for _ in range(rng.randint(1, 9))]
    return " ".join(rng.choice(words) for _ in range(rng.randint(0, 40)))


# ---------------------------------------------------------------- apply_merges


def test_apply_merges_takes_lowest_rank_first_not_leftmost(impl):
    ranks = {("a", "b"): 1, ("b", "c"): 0}
    got = apply(impl, ("a", "b", "c"), ranks)
    assert got == ("a", "bc"), f"(b, c) has rank 0: expected ('a', 'bc'), got {got}"


def test_apply_merges_takes_lowest_rank_first_not_highest(impl):
    ranks = {("b", "c"): 1, ("a", "b"): 0}
    got = apply(impl, ("a", "b", "c"), ranks)
    assert got == ("ab", "c"), f"(a, b) has rank 0: expected ('ab', 'c'), got {got}"


def test_apply_merges_ignores_dict_insertion_order(impl):
    ranks = {("x", "y"): 2, ("c", "d"): 1, ("b", "c"): 0, ("a", "b"): 3}
    got = apply(impl, ("a", "b", "c", "d"), ranks)
    assert got == ("a", "bc", "d"), f"expected ('a', 'bc', 'd'), got {got}"


def test_apply_merges_replays_the_dependency_chain(impl):
    for word, expected in [
        ("newest", ("newest</w>",)),
        ("widest", ("widest</w>",)),
        ("lowest", ("lo", "west</w>")),  # never seen in training
        ("lower", ("lower</w>",)),
        ("slow", ("s", "low</w>")),
    ]:
        symbols = (*word[:-1], word[-1] + "</w>")
        got = apply(impl, symbols, SENNRICH_RANKS)
        assert got == expected, f"{word!r} with the Sennrich merges: expected {expected}, got {got}"


def test_apply_merges_revisits_a_lower_rank_pair_formed_late(impl):
    # (abc, d) has a lower rank than (ab, c), but only exists once (ab, c) has been applied.
    ranks = {("a", "b"): 0, ("b", "c"): 1, ("a", "bc"): 2, ("abc", "d"): 3, ("ab", "c"): 4}
    got = apply(impl, ("a", "b", "c", "d"), ranks)
    assert got == ("abcd",), f"expected ('abcd',), got {got}"


def test_apply_merges_handles_overlapping_pairs_left_to_right(impl):
    cases = [
        (("a", "a", "a"), {("a", "a"): 0}, ("aa", "a")),
        (("a", "a", "a"), {("a", "a"): 0, ("aa", "a"): 1}, ("aaa",)),
        (("a", "a", "a", "a", "a"), {("a", "a"): 0, ("aa", "aa"): 1}, ("aaaa", "a")),
    ]
    for symbols, ranks, expected in cases:
        got = apply(impl, symbols, ranks)
        assert got == expected, f"apply_merges({symbols}, {ranks}): expected {expected}, got {got}"


def test_apply_merges_matches_whole_symbols_only(impl):
    ranks = {("a", "b"): 0}
    for symbols in [("ca", "b"), ("a", "bc"), ("ab", "b")]:
        got = apply(impl, symbols, ranks)
        assert got == symbols, f"apply_merges({symbols}, {ranks}): expected {symbols}, got {got}"


def test_apply_merges_without_applicable_ranks_returns_input(impl):
    for symbols, ranks in [
        ((), {("a", "b"): 0}),
        (("a",), {("a", "b"): 0}),
        (("a", "b"), {}),
        (("b", "a"), {("a", "b"): 0}),
    ]:
        got = apply(impl, symbols, ranks)
        assert got == symbols, f"apply_merges({symbols}, {ranks}): expected {symbols}, got {got}"


def apply_merges_cases(ref) -> list[tuple[dict[tuple[str, str], int], list[tuple[tuple[str, ...], tuple[str, ...]]]]]:
    """Merge tables the reference learned on random words, each with words to encode."""
    rng = random.Random(404)
    cases = []
    for _ in range(60):
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
            words.append((symbols, tuple(ref.apply_merges(symbols, ranks))))
        cases.append((ranks, words))
    return cases


def test_apply_merges_matches_reference_on_random_trained_tables(impl, reference_cases):
    for case, (ranks, words) in enumerate(reference_cases(apply_merges_cases)):
        for symbols, expected in words:
            got = apply(impl, symbols, dict(ranks))
            assert got == expected, (
                f"case {case}, apply_merges({symbols}, {ranks}):\nexpected {expected}\ngot      {got}"
            )


# ---------------------------------------------------------------- BPETokenizer.train


def test_train_learns_the_sennrich_merges_and_ranks(impl):
    tok = trained(impl, SENNRICH_CORPUS, len(SENNRICH_ALPHABET) + 6)
    got = [tuple(p) for p in tok.merges]
    assert got == SENNRICH_MERGES[:6], f"expected merges {SENNRICH_MERGES[:6]}, got {got}"
    expected_ranks = {pair: r for r, pair in enumerate(SENNRICH_MERGES[:6])}
    assert dict(tok.ranks) == expected_ranks, f"expected ranks {expected_ranks}, got {tok.ranks}"


def test_train_vocab_is_unk_then_characters_then_marked_characters_then_merges(impl):
    tok = trained(impl, SENNRICH_CORPUS, len(SENNRICH_ALPHABET) + 3)
    tokens = [*SENNRICH_ALPHABET, "st</w>", "est</w>", "lo"]
    expected = {t: i for i, t in enumerate(tokens)}
    assert dict(tok.vocab) == expected, f"expected vocab {expected}\ngot {tok.vocab}"
    expected_inv = {i: t for t, i in expected.items()}
    assert dict(tok.inv_vocab) == expected_inv, f"expected inv_vocab {expected_inv}\ngot {tok.inv_vocab}"


def test_train_with_vocab_size_below_alphabet_learns_no_merges(impl):
    tok = trained(impl, SENNRICH_CORPUS, 5)
    assert list(tok.merges) == [], f"expected no merges, got {tok.merges}"
    assert sorted(tok.vocab) == sorted(SENNRICH_ALPHABET), (
        f"expected the alphabet {SENNRICH_ALPHABET}, got {sorted(tok.vocab)}"
    )


def test_train_splits_the_corpus_on_any_whitespace(impl):
    messy = "low\tlow\n\nlow  low low\r\nlower lower newest newest newest newest newest newest"
    clean = " ".join(messy.split())
    a, b = trained(impl, messy, 40), trained(impl, clean, 40)
    got, expected = [tuple(p) for p in a.merges], [tuple(p) for p in b.merges]
    assert got == expected, f"tabs and newlines separate words too: expected {expected}, got {got}"


def test_train_on_empty_corpus_keeps_only_the_unknown_token(impl):
    tok = trained(impl, "", 10)
    assert list(tok.merges) == [], f"expected no merges, got {tok.merges}"
    assert dict(tok.vocab) == {"<unk>": 0}, f"expected {{'<unk>': 0}}, got {tok.vocab}"


def test_train_stops_when_every_word_is_one_symbol(impl):
    tok = trained(impl, "ab ab cd", 1000)
    got = [tuple(p) for p in tok.merges]
    assert got == [("a", "b</w>"), ("c", "d</w>")], f"expected [('a', 'b</w>'), ('c', 'd</w>')], got {got}"


def test_training_again_replaces_the_first_training(impl):
    tok = trained(impl, "xyz xyz qq", 30)
    tok.train(SENNRICH_CORPUS, 30)
    fresh = trained(impl, SENNRICH_CORPUS, 30)
    assert dict(tok.vocab) == dict(fresh.vocab), f"expected the fresh vocab {fresh.vocab}\ngot {tok.vocab}"
    assert [tuple(p) for p in tok.merges] == [tuple(p) for p in fresh.merges], (
        f"expected {fresh.merges}, got {tok.merges}"
    )


# ---------------------------------------------------------------- BPETokenizer.tokenize


def test_tokenize_puts_the_marker_on_the_last_character(impl):
    tok = trained(impl, "", 10)
    got = list(tok.tokenize("low a"))
    assert got == ["l", "o", "w</w>", "a</w>"], f"expected ['l', 'o', 'w</w>', 'a</w>'], got {got}"


def test_tokenize_uses_a_custom_end_of_word_marker(impl):
    tok = trained(impl, "ab ab ab", 100, end_of_word="_")
    got = list(tok.tokenize("ab ba"))
    assert got == ["ab_", "b", "a_"], f"marker '_': expected ['ab_', 'b', 'a_'], got {got}"


def test_tokenize_segments_unseen_words_with_learned_pieces(impl):
    tok = trained(impl, SENNRICH_CORPUS, 1000)
    got = list(tok.tokenize("lowest newest  slow\nwidest"))
    expected = ["lo", "west</w>", "newest</w>", "s", "low</w>", "widest</w>"]
    assert got == expected, f"expected {expected}, got {got}"


def test_tokenize_single_character_words_and_empty_text(impl):
    tok = trained(impl, "a b a", 100)
    assert list(tok.tokenize("a")) == ["a</w>"], f"expected ['a</w>'], got {tok.tokenize('a')}"
    assert list(tok.tokenize("   ")) == [], f"expected [], got {tok.tokenize('   ')}"


def test_tokenize_keeps_characters_never_seen_in_training(impl):
    tok = trained(impl, SENNRICH_CORPUS, 1000)
    got = list(tok.tokenize("zlow"))
    assert got == ["z", "low</w>"], f"expected ['z', 'low</w>'], got {got}"


def train_and_tokenize_cases(ref) -> list[dict[str, object]]:
    """Random corpora, what the reference learns from each, and how it tokenizes a random text."""
    rng = random.Random(505)
    cases = []
    for _ in range(30):
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
                "vocab": set(want.vocab),
                "text": text,
                "pieces": list(want.tokenize(text)),
            }
        )
    return cases


def test_train_and_tokenize_match_reference_on_random_corpora(impl, reference_cases):
    for case, want in enumerate(reference_cases(train_and_tokenize_cases)):
        corpus, vocab_size, text = want["corpus"], want["vocab_size"], want["text"]
        got = trained(impl, corpus, vocab_size)
        where = f"case {case}, train({corpus!r}, {vocab_size})"
        assert [tuple(p) for p in got.merges] == want["merges"], (
            f"{where}: expected merges {want['merges']}, got {got.merges}"
        )
        assert dict(got.ranks) == want["ranks"], f"{where}: expected ranks {want['ranks']}, got {got.ranks}"
        assert set(got.vocab) == want["vocab"], (
            f"{where}: expected vocab keys {sorted(want['vocab'])}, got {sorted(got.vocab)}"
        )
        pieces = list(got.tokenize(text))
        assert pieces == want["pieces"], f"{where}, tokenize({text!r}): expected {want['pieces']}, got {pieces}"


# Differential cases: built once per session with reference_impl (see conftest.py).
REFERENCE_CASES = (apply_merges_cases, train_and_tokenize_cases)
