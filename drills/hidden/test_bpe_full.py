"""Hidden tests for the `bpe-full` drill: the word-level pipeline end to end (with the
`bpe-train` and `bpe-encode` modules, which the drill also runs): encode ids, decode, round trips.

``encode`` returns a list of ints and ``decode`` a str; types are checked exactly.
"""

from __future__ import annotations

import random

import pytest

SENNRICH_CORPUS = " ".join(["low"] * 5 + ["lower"] * 2 + ["newest"] * 6 + ["widest"] * 3)


def trained(impl, corpus: str, vocab_size: int, **kwargs):
    tok = impl.BPETokenizer(**kwargs)
    tok.train(corpus, vocab_size)
    return tok


def encoded(tok, returns, text: str) -> list[int]:
    return returns(tok.encode(text), list, f"encode({text!r})", items=int)


def decoded(tok, returns, ids: list[int]) -> str:
    return returns(tok.decode(ids), str, f"decode({ids})")


@pytest.mark.concept("return-types")
def test_return_types_are_the_documented_ones(impl, returns):
    tok = trained(impl, "ab ab", 6)
    ids = encoded(tok, returns, "ab")
    decoded(tok, returns, ids)


@pytest.mark.concept("vocab-id-layout")
def test_encode_gives_the_vocab_id_of_each_piece(impl, returns):
    tok = trained(impl, SENNRICH_CORPUS, 1000)
    text = "lowest newest slow"
    ids = encoded(tok, returns, text)
    pieces = tok.tokenize(text)
    expected = [tok.vocab[p] for p in pieces]
    assert ids == expected, (
        f"encode gives the vocab id of each piece: expected ids {expected} for pieces {pieces}, got {ids}"
    )


@pytest.mark.concept("vocab-id-layout")
def test_encode_ids_follow_the_vocabulary_layout(impl, returns):
    tok = trained(impl, "ab ab", 6)  # alphabet: <unk> a b a</w> b</w>, then the merge a+b</w>
    got = encoded(tok, returns, "ab a b")
    assert got == [5, 3, 4], f"vocab <unk>=0 a=1 b=2 a</w>=3 b</w>=4 ab</w>=5: expected [5, 3, 4], got {got}"


@pytest.mark.concept("unknown-token", "end-of-word-marker")
def test_encode_maps_unseen_characters_to_the_unknown_id(impl, returns):
    tok = trained(impl, SENNRICH_CORPUS, 1000)
    unk = tok.vocab["<unk>"]
    got = encoded(tok, returns, "zlow q")
    expected = [unk, tok.vocab["low</w>"], unk]
    assert got == expected, f"encode maps unseen characters to the unknown id: expected {expected}, got {got}"


@pytest.mark.concept("unknown-token", "vocab-id-layout")
def test_encode_uses_a_custom_unknown_token(impl, returns):
    tok = trained(impl, "ab", 5, unk_token="[?]")
    assert "[?]" in tok.vocab, (
        f"encode uses a custom unknown token: expected '[?]' in the vocabulary, got {sorted(tok.vocab)}"
    )
    got = encoded(tok, returns, "x")
    assert got == [tok.vocab["[?]"]], f"encode uses a custom unknown token: expected [{tok.vocab['[?]']}], got {got}"


@pytest.mark.concept("round-trip", "vocab-id-layout")
def test_decode_turns_markers_into_spaces(impl, returns):
    tok = trained(impl, SENNRICH_CORPUS, 1000)
    ids = [tok.vocab[t] for t in ["lo", "west</w>", "newest</w>"]]
    got = decoded(tok, returns, ids)
    assert got == "lowest newest", f"decode({ids}): expected 'lowest newest', got {got!r}"


@pytest.mark.concept("inputs-unchanged", "vocab-id-layout")
def test_decode_leaves_the_callers_ids_unchanged(impl, returns):
    # A decoder that pops ids off the front (or reverses the list to pop from the end) empties
    # the caller's list; the caller may still need it.
    tok = trained(impl, SENNRICH_CORPUS, 1000)
    ids = [tok.vocab[t] for t in ["lo", "west</w>", "newest</w>", "s", "low</w>"]]
    before = list(ids)
    got = decoded(tok, returns, ids)
    assert got == "lowest newest slow", f"decode({before}): expected 'lowest newest slow', got {got!r}"
    assert ids == before, f"decode changed the caller's list of ids: expected {before}, got {ids}"


@pytest.mark.concept("round-trip", "end-of-word-marker")
def test_round_trip_of_seen_and_unseen_words(impl, returns):
    tok = trained(impl, SENNRICH_CORPUS, 1000)
    for text in ["low lower newest widest", "lowest", "wider  slowest\tnew", "s t w"]:
        expected = " ".join(text.split())
        got = decoded(tok, returns, tok.encode(text))
        assert got == expected, f"decode(encode({text!r})): expected {expected!r}, got {got!r}"


@pytest.mark.concept("round-trip")
def test_round_trip_with_a_custom_marker(impl, returns):
    tok = trained(impl, "hello hello help", 100, end_of_word="|")
    got = decoded(tok, returns, tok.encode("help hello"))
    assert got == "help hello", f"marker '|': decode(encode('help hello')): expected 'help hello', got {got!r}"


PIPELINE_SEED = 606


def pipeline_cases(ref) -> list[dict[str, object]]:
    """Random corpora and texts, with the pieces behind the reference's ids for each text."""
    rng = random.Random(PIPELINE_SEED)
    cases = []
    for _ in range(15):
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
                "round_trip": set(text) <= set(corpus) | {" "},
            }
        )
    return cases


@pytest.mark.concept("merge-order", "tie-break", "round-trip")
def test_pipeline_matches_reference_on_random_corpora(impl, returns, reference_cases):
    for case, want in enumerate(reference_cases(pipeline_cases)):
        corpus, vocab_size, text = want["corpus"], want["vocab_size"], want["text"]
        got = trained(impl, corpus, vocab_size)
        where = f"counts, ties to the larger pair, rank-order encoding, the unknown id and decode agree with the reference: random case {case} (seed {PIPELINE_SEED}), train({corpus!r}, {vocab_size}), text {text!r}"
        ids = encoded(got, returns, text)
        got_pieces = [got.inv_vocab[i] for i in ids]
        assert got_pieces == want["pieces"], f"{where}: expected pieces {want['pieces']}, got {got_pieces}"
        if want["round_trip"]:
            back = decoded(got, returns, ids)
            assert back == text, f"{where}: decode(encode(text)) gave {back!r}"


@pytest.mark.concept("empty-inputs")
def test_a_new_tokenizer_has_empty_tables(impl):
    tok = impl.BPETokenizer()
    got = (tok.merges, tok.ranks, tok.vocab, tok.inv_vocab)
    assert got == ([], {}, {}, {}), (
        f"a new tokenizer has empty tables: expected empty merges, ranks, vocab, inv_vocab before train, got {got}"
    )


# Differential cases: built once per session with reference_impl (see conftest.py).
REFERENCE_CASES = (pipeline_cases,)
