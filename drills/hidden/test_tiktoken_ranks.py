"""Hidden tests for the `tiktoken-cl100k` drill: TiktokenEncoder.encode_piece and .encode.

Contract: ``encode_piece(piece: bytes)`` starts from single bytes and, one join at a time, joins
the adjacent pair whose concatenated bytes have the lowest rank (the leftmost on a tie), until no
adjacent concatenation has a rank; it returns the parts' ranks. ``encode(text)`` splits the text
with ``self.pattern`` (the `regex` module) and encodes each piece's UTF-8 bytes.
"""

from __future__ import annotations

import random

import pytest

TEXT = (
    "Hello world! It's 2024: naïve café, Straße, ÅNGSTRÖM.\n"
    "def f(x):\n    return x ** 2  # square\n\n\n"
    "日本語のテキスト、中文文本。 😀🚀👍🏽 tabs\tand   spaces   \r\n"
    "1234567890 3.14159 I'LL we've they're DON'T\n"
)


def toy(impl, ranks: dict[bytes, int]):
    return impl.TiktokenEncoder(ranks, r"\S+|\s+")


def with_bytes(extra: dict[bytes, int], letters: bytes = b"abcd") -> dict[bytes, int]:
    ranks = {bytes([b]): 100 + b for b in letters}
    ranks.update(extra)
    return ranks


@pytest.fixture(scope="module")
def cl100k(impl):
    return impl.TiktokenEncoder.from_name("cl100k_base")


@pytest.fixture(scope="module")
def cl100k_ref(ref):
    return ref.TiktokenEncoder.from_name("cl100k_base")


def test_single_bytes_encode_to_their_own_ranks(impl):
    enc = toy(impl, with_bytes({}))
    got = list(enc.encode_piece(b"abca"))
    assert got == [197, 198, 199, 197], f"no pair has a rank: expected [197, 198, 199, 197], got {got}"


def test_empty_piece_gives_no_ids(impl):
    got = list(toy(impl, with_bytes({})).encode_piece(b""))
    assert got == [], f"expected [], got {got}"


def test_lowest_rank_joins_first_not_leftmost(impl):
    enc = toy(impl, with_bytes({b"bc": 1, b"ab": 2}))
    got = list(enc.encode_piece(b"abc"))
    assert got == [197, 1], f"b'bc' has the lower rank: expected [197, 1] (a, bc), got {got}"


def test_lowest_rank_joins_first_not_highest(impl):
    enc = toy(impl, with_bytes({b"ab": 1, b"bc": 2}))
    got = list(enc.encode_piece(b"abc"))
    assert got == [1, 199], f"b'ab' has the lower rank: expected [1, 199] (ab, c), got {got}"


def test_joins_build_on_earlier_joins(impl):
    enc = toy(impl, with_bytes({b"ab": 1, b"cd": 2, b"abcd": 3}))
    got = list(enc.encode_piece(b"abcdab"))
    assert got == [3, 1], f"expected [3, 1] (abcd, ab), got {got}"


def test_tie_between_equal_pairs_goes_to_the_leftmost(impl):
    enc = toy(impl, with_bytes({b"aa": 1}))
    got = list(enc.encode_piece(b"aaa"))
    assert got == [1, 197], f"expected [1, 197] (aa, a), got {got}"


def test_joins_happen_one_at_a_time(impl):
    # After the leftmost "ab" joins, "aba" (rank 5) beats the second "ab" (rank 10).
    enc = toy(impl, with_bytes({b"ab": 10, b"aba": 5}))
    got = list(enc.encode_piece(b"abab"))
    assert got == [5, 198], f"expected [5, 198] (aba, b), got {got}"


def test_encode_splits_with_the_pattern_first(impl):
    enc = toy(impl, with_bytes({b"b ": 0, b"ab": 1, b" ": 7}, letters=b"abc"))
    got = list(enc.encode("ab c"))  # pieces "ab", " ", "c": b"b " (rank 0) must not form across them
    assert got == [1, 7, 199], f"expected [1, 7, 199], got {got}"


def test_cl100k_known_ids(cl100k):
    got = list(cl100k.encode("hello world"))
    assert got == [15339, 1917], f"expected [15339, 1917], got {got}"


def test_cl100k_matches_reference_on_varied_text(cl100k, cl100k_ref):
    for line in TEXT.splitlines(keepends=True):
        expected, got = cl100k_ref.encode(line), list(cl100k.encode(line))
        assert got == expected, f"encode({line!r}):\nexpected {expected}\ngot      {got}"


def test_cl100k_round_trip(cl100k):
    got = cl100k.decode(cl100k.encode(TEXT))
    assert got == TEXT, f"expected {TEXT!r}, got {got!r}"


def test_cl100k_encode_piece_matches_reference_on_random_bytes(cl100k, cl100k_ref):
    rng = random.Random(1111)
    alphabet = list(b"etaoin shr") + list("éü日🙂".encode())
    for case in range(300):
        piece = bytes(rng.choice(alphabet) for _ in range(rng.randint(1, 14)))
        expected, got = cl100k_ref.encode_piece(piece), list(cl100k.encode_piece(piece))
        assert got == expected, f"case {case}, encode_piece({piece!r}): expected {expected}, got {got}"


def test_decode_replaces_a_split_character(cl100k):
    ids = cl100k.encode_piece("日".encode()[:2])
    text = cl100k.decode(ids)
    assert text == "\ufffd", f"two bytes of a three-byte character (ids {ids}): expected '\\ufffd', got {text!r}"


def test_from_name_defaults_to_cl100k(impl):
    got = list(impl.TiktokenEncoder.from_name().encode("hello world"))
    assert got == [15339, 1917], f"from_name() should load cl100k_base: expected [15339, 1917], got {got}"
