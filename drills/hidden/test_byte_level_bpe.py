"""Hidden tests for the `byte-level-bpe` drill: ByteLevelBPE.train, .encode, .decode.

Contract: ``PRETOKENIZE`` chunks the text, each chunk's UTF-8 bytes are spelled with
``bytes_to_unicode`` symbols, ids 0..255 are the byte values, merged symbols follow in learned
order, training learns ``vocab_size - 256`` merges, and ``decode`` replaces invalid UTF-8 with U+FFFD.
"""

from __future__ import annotations

import random

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


def random_text(rng: random.Random) -> str:
    pools = ["abc ", "the cat sat ", "0123 ", "é ü ß ", "日本 ", "🙂 ", "\n\t  ", "'s 're ", "!?., "]
    return "".join(rng.choice(rng.choice(pools)) for _ in range(rng.randint(0, 40)))


def test_base_vocabulary_is_exactly_the_256_bytes(impl, ref):
    tok = trained(impl, "some training text, some more text", 256)
    byte_symbols = ref.bytes_to_unicode()
    assert len(tok.vocab) == 256, f"expected 256 entries, got {len(tok.vocab)}"
    wrong = {b: tok.vocab.get(byte_symbols[b]) for b in range(256) if tok.vocab.get(byte_symbols[b]) != b}
    assert not wrong, f"expected the symbol of byte b to have id b; differs for {wrong}"


def test_encode_without_merges_gives_the_utf8_bytes(impl):
    tok = trained(impl, "", 256)
    for text in SAMPLES:
        got = list(tok.encode(text))
        assert got == list(text.encode("utf-8")), f"encode({text!r}): expected {list(text.encode('utf-8'))}, got {got}"


def test_training_on_a_small_corpus(impl):
    tok = trained(impl, "hello hello hello world", 261)
    # chunks: "hello" x1, " hello" x2, " world" x1 (space shown as Ġ); ties go to the larger pair
    expected = [("l", "o"), ("l", "lo"), ("h", "e"), ("he", "llo"), ("Ġ", "hello")]
    got = [tuple(p) for p in tok.merges]
    assert got == expected, f"expected {expected}, got {got}"
    assert tok.vocab["hello"] == 259 and tok.vocab["Ġhello"] == 260, (
        f"expected hello=259, Ġhello=260, got {tok.vocab.get('hello')}, {tok.vocab.get('Ġhello')}"
    )
    got_ids = list(tok.encode("hello world"))
    assert got_ids == [259, 32, 119, 111, 114, 108, 100], f"expected [259, 32, 119, 111, 114, 108, 100], got {got_ids}"


def test_vocab_size_below_256_learns_nothing(impl):
    tok = trained(impl, "aaaa aaaa", 100)
    assert list(tok.merges) == [], f"expected no merges, got {tok.merges}"


def test_round_trip_of_any_unicode_after_ascii_training(impl):
    tok = trained(impl, "the quick brown fox jumps over the lazy dog " * 5, 300)
    for text in SAMPLES:
        got = tok.decode(tok.encode(text))
        assert got == text, f"decode(encode({text!r})): expected {text!r}, got {got!r}"


def test_round_trip_of_random_code_points(impl):
    tok = trained(impl, "abc abd abe " * 4, 280)
    rng = random.Random(707)
    for case in range(60):
        chars = [
            chr(
                rng.choice(
                    [
                        rng.randint(0, 0x7F),
                        rng.randint(0x80, 0x7FF),
                        rng.randint(0x800, 0xD7FF),
                        rng.randint(0xE000, 0x10FFFF),
                    ]
                )
            )
            for _ in range(rng.randint(0, 12))
        ]
        text = "".join(chars)
        got = tok.decode(tok.encode(text))
        assert got == text, f"case {case}: decode(encode({text!r})) gave {got!r}"


def test_merges_never_cross_pretokenizer_chunks(impl, ref):
    corpus = "of the of the of the, it's 2024! " * 6
    tok = trained(impl, corpus, 320)
    text = "of the cat's 2024 tales, of the end"
    whole = list(tok.encode(text))
    by_chunk = [i for chunk in ref.PRETOKENIZE.findall(text) for i in tok.encode(chunk)]
    assert whole == by_chunk, f"expected the concatenation of each chunk's ids {by_chunk}, got {whole}"


def test_decode_replaces_invalid_utf8(impl):
    tok = trained(impl, "", 256)
    got = tok.decode([0xE6, 0x97])  # first two bytes of a three-byte character
    assert got == "\ufffd", f"expected '\\ufffd', got {got!r}"


def test_matches_reference_on_random_corpora(impl, ref):
    rng = random.Random(808)
    for case in range(25):
        corpus = random_text(rng)
        vocab_size = rng.randint(250, 300)
        want, got = trained(ref, corpus, vocab_size), trained(impl, corpus, vocab_size)
        where = f"case {case}, train({corpus!r}, {vocab_size})"
        assert [tuple(p) for p in got.merges] == list(want.merges), (
            f"{where}: expected merges {want.merges}, got {got.merges}"
        )
        text = random_text(rng) + corpus[:15]
        expected = [want.inv_vocab[i] for i in want.encode(text)]
        pieces = [got.inv_vocab[i] for i in got.encode(text)]
        assert pieces == expected, f"{where}, encode({text!r}): expected pieces {expected}, got {pieces}"
        assert got.decode(got.encode(text)) == text, (
            f"{where}: round trip of {text!r} gave {got.decode(got.encode(text))!r}"
        )


def test_a_new_tokenizer_has_empty_tables(impl):
    tok = impl.ByteLevelBPE()
    got = (tok.merges, tok.ranks, tok.vocab, tok.inv_vocab)
    assert got == ([], {}, {}, {}), f"expected empty merges, ranks, vocab, inv_vocab before train, got {got}"
