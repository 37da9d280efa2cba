"""Hidden tests for the `byte-level-bpe` drill: ByteLevelBPE.train, .encode, .decode.

Contract: ``PRETOKENIZE`` chunks the text, each chunk's UTF-8 bytes are spelled with
``bytes_to_unicode`` symbols, ids 0..255 are the byte values, merged symbols follow in learned
order, training learns ``vocab_size - 256`` merges, no merge spans two chunks, and ``decode``
replaces invalid UTF-8 with U+FFFD. ``encode`` returns a list of ints, ``decode`` a str, and
``merges`` is a list of pair tuples; types are checked exactly.
"""

from __future__ import annotations

import random

import pytest

SAMPLES = [
    "hello world",
    "héllo wörld!",
    "日本語 テキスト",
    "  spaces  and\ttabs\n",
    "12345",
    "emoji 🙂🚀 ok",
    "",
    "a",
    "\x00\x7f\xff",
]


def trained(impl, corpus: str, vocab_size: int):
    tok = impl.ByteLevelBPE()
    tok.train(corpus, vocab_size)
    return tok


def encoded(tok, returns, text: str) -> list[int]:
    return returns(tok.encode(text), list, f"encode({text!r})", items=int)


def decoded(tok, returns, ids: list[int]) -> str:
    return returns(tok.decode(ids), str, f"decode({ids})")


def merges_of(tok, returns, where: str) -> list[tuple[str, str]]:
    return returns(tok.merges, list, f"{where}: self.merges", items=tuple)


def byte_symbols(ref) -> dict[int, str]:
    """GPT-2's byte -> symbol table, taken from the reference on the trusted side."""
    return dict(ref.bytes_to_unicode())


def random_text(rng: random.Random) -> str:
    pools = ["abc ", "the cat sat ", "0123 ", "é ü ß ", "日本 ", "🙂 ", "\n\t  ", "'s 're ", "!?., "]
    return "".join(rng.choice(rng.choice(pools)) for _ in range(rng.randint(0, 40)))


@pytest.mark.concept("return-types")
def test_return_types_are_the_documented_ones(impl, returns):
    tok = trained(impl, "aa aa", 258)
    merges_of(tok, returns, "after train('aa aa', 258)")
    returns(tok.vocab, dict, "after train: self.vocab")
    returns(tok.inv_vocab, dict, "after train: self.inv_vocab")
    decoded(tok, returns, encoded(tok, returns, "aa"))


@pytest.mark.concept("byte-table", "merge-budget")
def test_base_vocabulary_is_exactly_the_256_bytes(impl, returns, reference_cases):
    symbols = reference_cases(byte_symbols)
    tok = trained(impl, "some training text, some more text", 256)
    vocab = returns(tok.vocab, dict, "after train(..., 256): self.vocab")
    assert len(vocab) == 256, f"base vocabulary is exactly the 256 bytes: expected 256 entries, got {len(vocab)}"
    wrong = {b: vocab.get(symbols[b]) for b in range(256) if vocab.get(symbols[b]) != b}
    assert not wrong, (
        f"base vocabulary is exactly the 256 bytes: expected the symbol of byte b to have id b; differs for {wrong}"
    )


@pytest.mark.concept("byte-table")
def test_encode_without_merges_gives_the_utf8_bytes(impl, returns):
    tok = trained(impl, "", 256)
    for text in SAMPLES:
        got = encoded(tok, returns, text)
        assert got == list(text.encode("utf-8")), f"encode({text!r}): expected {list(text.encode('utf-8'))}, got {got}"


@pytest.mark.concept("pre-tokenization", "tie-break", "byte-table", "merge-budget")
def test_training_on_a_small_corpus(impl, returns):
    tok = trained(impl, "hello hello hello world", 261)
    # chunks: "hello" x1, " hello" x2, " world" x1 (space shown as Ġ); ties go to the larger pair
    expected = [("l", "o"), ("l", "lo"), ("h", "e"), ("he", "llo"), ("Ġ", "hello")]
    got = merges_of(tok, returns, "train('hello hello hello world', 261)")
    assert got == expected, f"training on a small corpus: expected {expected}, got {got}"
    assert tok.vocab.get("hello") == 259 and tok.vocab.get("Ġhello") == 260, (
        f"expected hello=259, Ġhello=260, got {tok.vocab.get('hello')}, {tok.vocab.get('Ġhello')}"
    )
    got_ids = encoded(tok, returns, "hello world")
    assert got_ids == [259, 32, 119, 111, 114, 108, 100], (
        f"training on a small corpus: expected [259, 32, 119, 111, 114, 108, 100], got {got_ids}"
    )


@pytest.mark.concept("merge-budget")
def test_vocab_size_below_256_learns_nothing(impl, returns, reference_cases):
    symbols = reference_cases(byte_symbols)
    tok = impl.ByteLevelBPE()
    fresh = (tok.merges, tok.ranks, tok.vocab, tok.inv_vocab)
    assert fresh == ([], {}, {}, {}), (
        f"vocab size below 256 learns nothing: expected empty merges, ranks, vocab, inv_vocab before train, got {fresh}"
    )
    tok.train("aaaa aaaa", 100)
    got = merges_of(tok, returns, "train('aaaa aaaa', 100)")
    assert got == [], f"train('aaaa aaaa', 100): expected no merges, got {got}"
    expected = {symbols[b]: b for b in range(256)}
    assert tok.vocab == expected, (
        f"train('aaaa aaaa', 100): expected exactly the 256 byte symbols, got {len(tok.vocab)} entries"
    )


@pytest.mark.concept("pre-tokenization")
def test_training_never_merges_across_chunks(impl, returns):
    # PRETOKENIZE cuts "a.a.a.a.b!b!b!" into one-character chunks: there is no pair to merge,
    # although (a, .) occurs four times in the raw text.
    tok = trained(impl, "a.a.a.a.b!b!b!", 300)
    got = merges_of(tok, returns, "train('a.a.a.a.b!b!b!', 300)")
    assert got == [], f"every chunk of 'a.a.a.a.b!b!b!' is one character: expected no merges, got {got}"
    assert len(tok.vocab) == 256, f"no merges, so the vocabulary is the 256 byte symbols: got {len(tok.vocab)} entries"


@pytest.mark.concept("pre-tokenization", "byte-table")
def test_encoding_never_merges_across_chunks(impl, returns):
    cases = [
        # ("'", "s") is learned inside the chunk "'s", but "!'s" is cut into "!'" and "s".
        ("it's it's it's", 262, "!'s", [33, 39, 115]),
        # (Ġ, Ġ) is learned from a run of spaces, but "a  b" is cut into "a", " ", " b".
        ("x    \n", 300, "a  b", [97, 32, 32, 98]),
    ]
    for corpus, vocab_size, text, expected in cases:
        tok = trained(impl, corpus, vocab_size)
        got = encoded(tok, returns, text)
        assert got == expected, (
            f"train({corpus!r}, {vocab_size}), encode({text!r}): chunks {text!r} are encoded one by one, "
            f"expected {expected}, got {got}"
        )


@pytest.mark.concept("round-trip")
def test_round_trip_of_any_unicode_after_ascii_training(impl, returns):
    tok = trained(impl, "the quick brown fox jumps over the lazy dog " * 5, 300)
    for text in SAMPLES:
        got = decoded(tok, returns, tok.encode(text))
        assert got == text, f"decode(encode({text!r})): expected {text!r}, got {got!r}"


CODE_POINTS_SEED = 707


@pytest.mark.concept("round-trip", "utf8-boundaries")
def test_round_trip_of_random_code_points(impl, returns):
    tok = trained(impl, "abc abd abe " * 4, 280)
    rng = random.Random(CODE_POINTS_SEED)
    for case in range(60):
        ranges = [(0, 0x7F), (0x80, 0x7FF), (0x800, 0xD7FF), (0xE000, 0x10FFFF)]
        text = "".join(chr(rng.randint(*rng.choice(ranges))) for _ in range(rng.randint(0, 12)))
        got = decoded(tok, returns, tok.encode(text))
        assert got == text, (
            f"every string round-trips through the byte-level encoder: random case {case} (seed {CODE_POINTS_SEED}): decode(encode({text!r})) gave {got!r}"
        )


@pytest.mark.concept("utf8-boundaries", "byte-table")
def test_decode_replaces_invalid_utf8(impl, returns):
    tok = trained(impl, "", 256)
    got = decoded(tok, returns, [0xE6, 0x97])  # first two bytes of a three-byte character
    assert got == "\ufffd", f"decode([0xE6, 0x97]): expected '\\ufffd', got {got!r}"


@pytest.mark.concept("inputs-unchanged", "byte-table")
def test_decode_leaves_the_callers_ids_unchanged(impl, returns):
    tok = trained(impl, "hello hello hello world", 261)
    ids = [259, 32, 119, 111, 114, 108, 100]
    got = decoded(tok, returns, ids)
    assert got == "hello world", f"decode({ids}): expected 'hello world', got {got!r}"
    assert ids == [259, 32, 119, 111, 114, 108, 100], f"decode changed the caller's list of ids: got {ids}"


RANDOM_CORPORA_SEED = 808


def random_corpus_cases(ref) -> list[dict[str, object]]:
    """Random corpora and texts, with what the reference learns and the pieces it encodes."""
    rng = random.Random(RANDOM_CORPORA_SEED)
    cases = []
    for _ in range(25):
        corpus = random_text(rng)
        vocab_size = rng.randint(250, 300)
        want = trained(ref, corpus, vocab_size)
        text = random_text(rng) + corpus[:15]
        pieces = [want.inv_vocab[i] for i in want.encode(text)]
        cases.append(
            {"corpus": corpus, "vocab_size": vocab_size, "merges": list(want.merges), "text": text, "pieces": pieces}
        )
    return cases


@pytest.mark.concept("pre-tokenization", "merge-order", "round-trip", "byte-table", "merge-budget")
def test_matches_reference_on_random_corpora(impl, returns, reference_cases):
    for case, want in enumerate(reference_cases(random_corpus_cases)):
        corpus, vocab_size, text = want["corpus"], want["vocab_size"], want["text"]
        got = trained(impl, corpus, vocab_size)
        where = f"byte b has id b, merges never cross chunks, as the reference learns and encodes: random case {case} (seed {RANDOM_CORPORA_SEED}), train({corpus!r}, {vocab_size})"
        merges = merges_of(got, returns, where)
        assert merges == want["merges"], f"{where}: expected merges {want['merges']}, got {merges}"
        ids = encoded(got, returns, text)
        pieces = [got.inv_vocab[i] for i in ids]
        assert pieces == want["pieces"], f"{where}, encode({text!r}): expected pieces {want['pieces']}, got {pieces}"
        back = decoded(got, returns, ids)
        assert back == text, f"{where}: round trip of {text!r} gave {back!r}"


# Differential cases: built once per session with reference_impl (see conftest.py).
REFERENCE_CASES = (byte_symbols, random_corpus_cases)
