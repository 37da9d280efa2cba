"""Hidden tests for the `bpe-full` drill: the word-level pipeline end to end (with the
`bpe-train` and `bpe-encode` modules, which the drill also runs): encode ids, decode, round trips.
"""

from __future__ import annotations

import random

SENNRICH_CORPUS = " ".join(["low"] * 5 + ["lower"] * 2 + ["newest"] * 6 + ["widest"] * 3)


def trained(impl, corpus: str, vocab_size: int, **kwargs):
    tok = impl.BPETokenizer(**kwargs)
    tok.train(corpus, vocab_size)
    return tok


def test_encode_gives_the_vocab_id_of_each_piece(impl):
    tok = trained(impl, SENNRICH_CORPUS, 1000)
    text = "lowest newest slow"
    ids = list(tok.encode(text))
    pieces = list(tok.tokenize(text))
    expected = [tok.vocab[p] for p in pieces]
    assert ids == expected, f"expected ids {expected} for pieces {pieces}, got {ids}"


def test_encode_ids_follow_the_vocabulary_layout(impl):
    tok = trained(impl, "ab ab", 6)  # alphabet: <unk> a b a</w> b</w>, then the merge a+b</w>
    got = list(tok.encode("ab a b"))
    assert got == [5, 3, 4], f"vocab <unk>=0 a=1 b=2 a</w>=3 b</w>=4 ab</w>=5: expected [5, 3, 4], got {got}"


def test_encode_maps_unseen_characters_to_the_unknown_id(impl):
    tok = trained(impl, SENNRICH_CORPUS, 1000)
    unk = tok.vocab["<unk>"]
    got = list(tok.encode("zlow q"))
    expected = [unk, tok.vocab["low</w>"], unk]
    assert got == expected, f"expected {expected}, got {got}"


def test_encode_uses_a_custom_unknown_token(impl):
    tok = trained(impl, "ab", 5, unk_token="[?]")
    assert "[?]" in tok.vocab, f"expected '[?]' in the vocabulary, got {sorted(tok.vocab)}"
    got = list(tok.encode("x"))
    assert got == [tok.vocab["[?]"]], f"expected [{tok.vocab['[?]']}], got {got}"


def test_decode_turns_markers_into_spaces(impl):
    tok = trained(impl, SENNRICH_CORPUS, 1000)
    ids = [tok.vocab[t] for t in ["lo", "west</w>", "newest</w>"]]
    got = tok.decode(ids)
    assert got == "lowest newest", f"expected 'lowest newest', got {got!r}"


def test_round_trip_of_seen_and_unseen_words(impl):
    tok = trained(impl, SENNRICH_CORPUS, 1000)
    for text in ["low lower newest widest", "lowest", "wider  slowest\tnew", "s t w"]:
        expected = " ".join(text.split())
        got = tok.decode(tok.encode(text))
        assert got == expected, f"decode(encode({text!r})): expected {expected!r}, got {got!r}"


def test_round_trip_with_a_custom_marker(impl):
    tok = trained(impl, "hello hello help", 100, end_of_word="|")
    got = tok.decode(tok.encode("help hello"))
    assert got == "help hello", f"expected 'help hello', got {got!r}"


def pipeline_cases(ref) -> list[dict[str, object]]:
    """Random corpora and texts, with the pieces behind the reference's ids for each text."""
    rng = random.Random(606)
    cases = []
    for _ in range(30):
        alphabet = rng.choice(["ab", "abc", "abcxyz"])
        words = ["".join(rng.choice(alphabet) for _ in range(rng.randint(1, 6))) for _ in range(8)]
        corpus = " ".join(rng.choice(words) for _ in range(rng.randint(1, 40)))
        vocab_size = rng.randint(5, 50)
        want = trained(ref, corpus, vocab_size)
        text = " ".join(rng.choice(words + ["q" + words[0]]) for _ in range(6))
        cases.append(
            {
                "corpus": corpus,
                "vocab_size": vocab_size,
                "text": text,
                "pieces": [want.inv_vocab[i] for i in want.encode(text)],
            }
        )
    return cases


def test_pipeline_matches_reference_on_random_corpora(impl, reference_cases):
    for case, want in enumerate(reference_cases(pipeline_cases)):
        corpus, vocab_size, text = want["corpus"], want["vocab_size"], want["text"]
        got = trained(impl, corpus, vocab_size)
        where = f"case {case}, train({corpus!r}, {vocab_size}), text {text!r}"
        got_pieces = [got.inv_vocab[i] for i in got.encode(text)]
        assert got_pieces == want["pieces"], f"{where}: expected pieces {want['pieces']}, got {got_pieces}"
        if set(text) <= set(corpus) | {" "}:
            assert got.decode(got.encode(text)) == text, f"{where}: round trip gave {got.decode(got.encode(text))!r}"


def test_a_new_tokenizer_has_empty_tables(impl):
    tok = impl.BPETokenizer()
    got = (tok.merges, tok.ranks, tok.vocab, tok.inv_vocab)
    assert got == ([], {}, {}, {}), f"expected empty merges, ranks, vocab, inv_vocab before train, got {got}"


# Differential cases: built once per session with reference_impl (see conftest.py).
REFERENCE_CASES = (pipeline_cases,)
