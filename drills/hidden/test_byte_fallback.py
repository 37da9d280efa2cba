"""Hidden tests for the `byte-fallback` drill: byte_fallback_encode(pieces, vocab), byte_fallback_decode(ids, pieces).

Contract: encoding maps each piece to its id; a piece missing from ``vocab`` becomes the ids of
``<0xNN>`` pieces (two uppercase hex digits), one per UTF-8 byte. Decoding (``pieces[i]`` is the
piece with id i; every id names a normal piece or a byte piece) gathers each run of consecutive
byte pieces into bytes and decodes it as UTF-8 with one U+FFFD per byte that is not part of a
well-formed character (as SentencePiece does); in normal pieces ``▁`` becomes a space, and if the
first piece is a normal piece starting with ``▁``, that one space is dropped. Both return exact
types (list of int, str) and modify no argument.
"""

from __future__ import annotations

import random

import pytest

META = "\u2581"
NORMAL = [META, f"{META}the", f"{META}cat", "s", f"{META}日", "a", "t", "e", f"{META}{META}", "é", "ing", f"{META}is"]
PIECES = ["<unk>", "<s>", "</s>", *(f"<0x{b:02X}>" for b in range(256)), *NORMAL]
VOCAB = {piece: i for i, piece in enumerate(PIECES)}


def byte_id(value: int) -> int:
    return 3 + value


def nid(piece: str) -> int:
    return VOCAB[piece]


def encode(impl, pieces: list[str]) -> list[int]:
    got = impl.byte_fallback_encode(list(pieces), dict(VOCAB))
    assert type(got) is list, f"byte_fallback_encode({pieces}) must return a list, got {type(got).__name__}: {got!r}"
    assert all(type(i) is int for i in got), f"byte_fallback_encode({pieces}) must return ints, got {got!r}"
    return got


def decode(impl, ids: list[int]) -> str:
    got = impl.byte_fallback_decode(list(ids), list(PIECES))
    assert type(got) is str, f"byte_fallback_decode({ids}) must return a str, got {type(got).__name__}: {got!r}"
    return got


def shown(ids: list[int]) -> list[str]:
    return [PIECES[i] for i in ids]


def check_encode(impl, pieces: list[str], expected: list[int], rule: str) -> None:
    got = encode(impl, pieces)
    assert got == expected, (
        f"{rule}\nbyte_fallback_encode({pieces})\nexpected {expected} {shown(expected)}\ngot      {got}"
    )


def check_decode(impl, ids: list[int], expected: str, rule: str) -> None:
    got = decode(impl, ids)
    assert got == expected, (
        f"{rule}\nbyte_fallback_decode({ids}) (pieces {shown(ids)})\nexpected {expected!r}\ngot      {got!r}"
    )


# ---------------------------------------------------------------- encode


@pytest.mark.concept("byte-fallback")
def test_known_pieces_map_to_their_ids(impl):
    pieces = [f"{META}the", f"{META}cat", "s"]
    check_encode(impl, pieces, [nid(p) for p in pieces], "pieces in the vocabulary are looked up")


@pytest.mark.concept("byte-fallback")
def test_unknown_piece_becomes_its_utf8_bytes(impl):
    expected = [nid(f"{META}the"), byte_id(0xE2), byte_id(0x98), byte_id(0x83), nid("s")]
    check_encode(
        impl, [f"{META}the", "☃", "s"], expected, "'☃' (U+2603) is E2 98 83 in UTF-8: three byte pieces, in order"
    )


@pytest.mark.concept("byte-fallback")
def test_byte_pieces_have_two_uppercase_hex_digits(impl):
    check_encode(impl, ["\n"], [byte_id(0x0A)], "a newline is <0x0A>: two digits, uppercase")
    check_encode(impl, ["ÿ"], [byte_id(0xC3), byte_id(0xBF)], "'ÿ' is C3 BF: <0xC3><0xBF>")


@pytest.mark.concept("byte-fallback")
def test_fallback_uses_utf8_bytes_not_the_code_point(impl):
    check_encode(impl, ["ñ"], [byte_id(0xC3), byte_id(0xB1)], "'ñ' is U+00F1 but its UTF-8 bytes are C3 B1")


@pytest.mark.concept("byte-fallback")
def test_a_missing_piece_of_several_characters_falls_back_as_a_whole(impl):
    check_encode(
        impl,
        ["até", "s"],
        [byte_id(0x61), byte_id(0x74), byte_id(0xC3), byte_id(0xA9), nid("s")],
        "'até' is missing: all its bytes become byte pieces, though 'a', 't' and 'é' are pieces of their own",
    )
    check_encode(
        impl,
        [f"{META}cats"],
        [byte_id(0xE2), byte_id(0x96), byte_id(0x81), *(byte_id(b) for b in b"cats")],
        "'▁cats' is missing: its bytes (▁ is E2 96 81), not '▁cat' + 's'",
    )


@pytest.mark.concept("byte-fallback")
def test_a_known_piece_is_never_split_into_bytes(impl):
    check_encode(impl, ["é", f"{META}日"], [nid("é"), nid(f"{META}日")], "'é' and '▁日' are in the vocabulary")


@pytest.mark.concept("inputs-unchanged")
def test_encode_does_not_modify_its_arguments(impl):
    pieces, vocab = ["t", "☃", "a"], dict(VOCAB)
    got = impl.byte_fallback_encode(pieces, vocab)
    assert got == [nid("t"), byte_id(0xE2), byte_id(0x98), byte_id(0x83), nid("a")], f"wrong ids: {got}"
    assert pieces == ["t", "☃", "a"], f"byte_fallback_encode must not modify pieces: now {pieces}"
    assert vocab == VOCAB, "byte_fallback_encode must not modify vocab (no byte pieces added, none removed)"


# ---------------------------------------------------------------- decode


@pytest.mark.concept("meta-space")
def test_meta_symbol_becomes_a_space_and_the_leading_one_is_dropped(impl):
    check_decode(
        impl,
        [nid(f"{META}the"), nid(f"{META}cat"), nid("s")],
        "the cats",
        "'▁' is a space; the first piece's leading one goes",
    )


@pytest.mark.concept("meta-space")
def test_only_one_leading_space_is_dropped(impl):
    check_decode(impl, [nid(META), nid(f"{META}the")], " the", "two leading '▁': drop one, keep the other")
    check_decode(impl, [nid(f"{META}{META}"), nid("a")], " a", "'▁▁' first: drop one space")


@pytest.mark.concept("meta-space")
def test_only_the_first_piece_loses_its_space(impl):
    check_decode(impl, [nid("a"), nid(f"{META}is")], "a is", "the second piece keeps its space")
    check_decode(impl, [byte_id(0x41), nid(f"{META}is")], "A is", "a byte piece first: nothing is dropped")


@pytest.mark.concept("byte-run-decoding")
def test_a_byte_run_is_decoded_as_one_utf8_string(impl):
    ids = [nid(f"{META}the"), byte_id(0xE6), byte_id(0x97), byte_id(0xA5)]
    check_decode(impl, ids, "the日", "E6 97 A5 together are '日'")


@pytest.mark.concept("replacement-character", "byte-run-decoding")
def test_each_invalid_byte_becomes_one_replacement_character(impl):
    check_decode(
        impl,
        [byte_id(0xE6), byte_id(0x97), nid(f"{META}cat")],
        "\ufffd\ufffd cat",
        "E6 97 is cut off: one U+FFFD per byte (SentencePiece), not one for the sequence",
    )
    check_decode(
        impl,
        [byte_id(0xF0), byte_id(0x9F), byte_id(0x98), byte_id(0x41)],
        "\ufffd\ufffd\ufffdA",
        "three bytes of a four-byte character, then 'A'",
    )
    check_decode(impl, [byte_id(0xFF)], "\ufffd", "0xFF is never UTF-8")
    check_decode(impl, [byte_id(0x80)], "\ufffd", "a lone continuation byte 80 is one U+FFFD")


@pytest.mark.concept("byte-run-decoding")
def test_byte_pieces_are_taken_literally(impl):
    check_decode(impl, [byte_id(0x20), nid(f"{META}the")], "  the", "<0x20> is a space that is never dropped")
    check_decode(
        impl,
        [byte_id(0xE2), byte_id(0x96), byte_id(0x81), nid("a")],
        "▁a",
        "bytes E2 96 81 spell '▁' itself, which stays '▁'",
    )


@pytest.mark.concept("byte-run-decoding")
def test_a_piece_between_byte_runs_separates_them(impl):
    ids = [byte_id(0xE6), nid("a"), byte_id(0x97), byte_id(0xA5)]
    check_decode(impl, ids, "\ufffda\ufffd\ufffd", "the runs E6 and 97 A5 are decoded apart: neither is a character")


@pytest.mark.concept("inputs-unchanged")
def test_decode_does_not_modify_its_arguments(impl):
    # ids in an order that sorting either way or reversing would change
    ids, pieces = [byte_id(0xC3), byte_id(0xA9), nid("a")], list(PIECES)
    got = impl.byte_fallback_decode(ids, pieces)
    assert got == "éa", f"decode does not modify its arguments: expected 'éa', got {got!r}"
    assert ids == [byte_id(0xC3), byte_id(0xA9), nid("a")], f"byte_fallback_decode must not modify ids: now {ids}"
    assert pieces == PIECES, "byte_fallback_decode must not modify pieces"


# ---------------------------------------------------------------- random round trips and sequences

CHARS = [
    "a",
    "t",
    "e",
    "s",
    "é",
    "日",
    "☃",
    "ñ",
    "😀",
    "\n",
    " ",
    "Z",
    "até",
    "s☃",
    "日本",
]  # no missing ▁: its bytes decode to ▁ itself


def random_cases(ref) -> dict:
    seed = 31337
    rng = random.Random(seed)
    encodes, decodes = [], []
    for _ in range(300):
        pieces = [rng.choice(NORMAL) if rng.random() < 0.6 else rng.choice(CHARS) for _ in range(rng.randint(0, 8))]
        encodes.append((pieces, ref.byte_fallback_encode(pieces, VOCAB)))
        ids = [
            rng.randrange(3, len(PIECES))
            if rng.random() < 0.3
            else rng.choice([byte_id(b) for b in "日😀é".encode()] + [byte_id(0x80), byte_id(0x41)])
            for _ in range(rng.randint(0, 10))
        ]
        decodes.append((ids, ref.byte_fallback_decode(ids, PIECES)))
    return {"seed": seed, "encodes": encodes, "decodes": decodes}


REFERENCE_CASES = (random_cases,)


@pytest.mark.concept("byte-fallback")
def test_random_pieces_encode_like_the_reference(impl, reference_cases):
    data = reference_cases(random_cases)
    for number, (pieces, expected) in enumerate(data["encodes"]):
        got = encode(impl, pieces)
        assert got == expected, (
            f"known pieces by id, a missing piece as the byte pieces of its UTF-8 bytes: random case {number} (seed {data['seed']}): byte_fallback_encode({pieces})\nexpected {expected}\ngot      {got}"
        )


@pytest.mark.concept("byte-run-decoding", "meta-space")
def test_random_ids_decode_like_the_reference(impl, reference_cases):
    data = reference_cases(random_cases)
    for number, (ids, expected) in enumerate(data["decodes"]):
        got = decode(impl, ids)
        assert got == expected, (
            f"byte runs decoded together (one U+FFFD per bad byte), ▁ as a space, the first one dropped: random case {number} (seed {data['seed']}): byte_fallback_decode({ids}) (pieces {shown(ids)})\n"
            f"expected {expected!r}\ngot      {got!r}"
        )


@pytest.mark.concept("byte-fallback", "byte-run-decoding", "meta-space", "round-trip")
def test_decoding_the_encoding_gives_the_text_back(impl, reference_cases):
    for number, (pieces, _) in enumerate(reference_cases(random_cases)["encodes"]):
        text = "".join(pieces).replace(META, " ")
        text = text[1:] if pieces and pieces[0].startswith(META) else text
        got = decode(impl, encode(impl, pieces))
        assert got == text, (
            f"decoding the encoding gives the text back: round trip {number}: pieces {pieces}\nexpected {text!r}\ngot      {got!r}"
        )
