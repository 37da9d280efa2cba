"""Hidden tests for the `tiktoken-cl100k` drill: TiktokenEncoder.encode_piece and .encode.

Contract: ``encode_piece(piece: bytes)`` starts from single bytes and, one join at a time, joins
the adjacent pair whose concatenated bytes have the lowest rank (the leftmost on a tie), until no
adjacent concatenation has a rank; it returns the parts' ranks as a list. ``encode(text)`` splits
the text with ``self.pattern`` (the `regex` module) and encodes each piece's UTF-8 bytes, returning
a list of ints. Types are checked exactly.
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


def piece_ids(enc, returns, piece: bytes) -> list[int]:
    return returns(enc.encode_piece(piece), list, f"encode_piece({piece!r})", items=int)


def text_ids(enc, returns, text: str) -> list[int]:
    return returns(enc.encode(text), list, f"encode({text!r})", items=int)


@pytest.fixture(scope="module")
def cl100k(impl):
    return impl.TiktokenEncoder.from_name("cl100k_base")


@pytest.mark.concept("return-types")
def test_return_types_are_the_documented_ones(impl, returns):
    enc = toy(impl, with_bytes({b"ab": 1}, letters=b"abc "))
    piece_ids(enc, returns, b"abc")
    text_ids(enc, returns, "ab c")


@pytest.mark.concept("merge-order")
def test_single_bytes_encode_to_their_own_ranks(impl, returns):
    got = piece_ids(toy(impl, with_bytes({})), returns, b"abca")
    assert got == [197, 198, 199, 197], f"no pair has a rank: expected [197, 198, 199, 197], got {got}"


@pytest.mark.concept("empty-inputs")
def test_empty_piece_gives_no_ids(impl, returns):
    got = piece_ids(toy(impl, with_bytes({})), returns, b"")
    assert got == [], f"empty piece gives no ids: expected [], got {got}"


@pytest.mark.concept("merge-order")
def test_lowest_rank_joins_first_not_leftmost(impl, returns):
    got = piece_ids(toy(impl, with_bytes({b"bc": 1, b"ab": 2})), returns, b"abc")
    assert got == [197, 1], f"b'bc' has the lower rank: expected [197, 1] (a, bc), got {got}"


@pytest.mark.concept("merge-order")
def test_lowest_rank_joins_first_not_highest(impl, returns):
    got = piece_ids(toy(impl, with_bytes({b"ab": 1, b"bc": 2})), returns, b"abc")
    assert got == [1, 199], f"b'ab' has the lower rank: expected [1, 199] (ab, c), got {got}"


@pytest.mark.concept("recount-after-merge")
def test_joins_build_on_earlier_joins(impl, returns):
    got = piece_ids(toy(impl, with_bytes({b"ab": 1, b"cd": 2, b"abcd": 3})), returns, b"abcdab")
    assert got == [3, 1], f"joins build on earlier joins: expected [3, 1] (abcd, ab), got {got}"


@pytest.mark.concept("tie-break", "merge-order")
def test_tie_between_equal_pairs_goes_to_the_leftmost(impl, returns):
    got = piece_ids(toy(impl, with_bytes({b"aa": 1})), returns, b"aaa")
    assert got == [1, 197], f"tie between equal pairs goes to the leftmost: expected [1, 197] (aa, a), got {got}"


@pytest.mark.concept("recount-after-merge")
def test_joins_happen_one_at_a_time(impl, returns):
    # After the leftmost "ab" joins, "aba" (rank 5) beats the second "ab" (rank 10).
    got = piece_ids(toy(impl, with_bytes({b"ab": 10, b"aba": 5})), returns, b"abab")
    assert got == [5, 198], f"joins happen one at a time: expected [5, 198] (aba, b), got {got}"


@pytest.mark.concept("pre-tokenization")
def test_encode_splits_with_the_pattern_first(impl, returns):
    enc = toy(impl, with_bytes({b"b ": 0, b"ab": 1, b" ": 7}, letters=b"abc"))
    got = text_ids(enc, returns, "ab c")  # pieces "ab", " ", "c": b"b " (rank 0) must not form across them
    assert got == [1, 7, 199], f"encode splits with the pattern first: expected [1, 7, 199], got {got}"


@pytest.mark.concept("merge-order", "pre-tokenization")
def test_cl100k_known_ids(impl, cl100k, returns):
    got = text_ids(cl100k, returns, "hello world")
    assert got == [15339, 1917], f"cl100k known ids: expected [15339, 1917], got {got}"
    got = text_ids(impl.TiktokenEncoder.from_name(), returns, "hello world")
    assert got == [15339, 1917], f"from_name() loads cl100k_base: expected [15339, 1917], got {got}"


def cl100k_text_cases(ref) -> list[tuple[str, list[int]]]:
    """The reference's cl100k ids for each line of TEXT."""
    enc = ref.TiktokenEncoder.from_name("cl100k_base")
    return [(line, list(enc.encode(line))) for line in TEXT.splitlines(keepends=True)]


@pytest.mark.concept("merge-order", "pre-tokenization")
def test_cl100k_matches_reference_on_varied_text(cl100k, returns, reference_cases):
    for line, expected in reference_cases(cl100k_text_cases):
        got = text_ids(cl100k, returns, line)
        assert got == expected, f"encode({line!r}):\nexpected {expected}\ngot      {got}"


@pytest.mark.concept("round-trip")
def test_cl100k_round_trip(cl100k, returns):
    got = cl100k.decode(text_ids(cl100k, returns, TEXT))
    assert got == TEXT, f"decode(encode(text)): expected {TEXT!r}, got {got!r}"


RANDOM_PIECES_SEED = 1111


def cl100k_piece_cases(ref) -> list[tuple[bytes, list[int]]]:
    """Random byte strings and the reference's cl100k ids for each."""
    enc = ref.TiktokenEncoder.from_name("cl100k_base")
    rng = random.Random(RANDOM_PIECES_SEED)
    alphabet = list(b"etaoin shr") + list("éü日🙂".encode())
    cases = []
    for _ in range(300):
        piece = bytes(rng.choice(alphabet) for _ in range(rng.randint(1, 14)))
        cases.append((piece, list(enc.encode_piece(piece))))
    return cases


@pytest.mark.concept("merge-order", "tie-break", "utf8-boundaries")
def test_cl100k_encode_piece_matches_reference_on_random_bytes(cl100k, returns, reference_cases):
    for case, (piece, expected) in enumerate(reference_cases(cl100k_piece_cases)):
        got = piece_ids(cl100k, returns, piece)
        assert got == expected, (
            f"lowest rank first, leftmost on a tie, one join at a time: random case {case} (seed {RANDOM_PIECES_SEED}), cl100k_base encode_piece({piece!r}): expected {expected}, got {got}"
        )


@pytest.mark.concept("utf8-boundaries")
def test_decode_replaces_a_split_character(cl100k, returns):
    ids = piece_ids(cl100k, returns, "日".encode()[:2])
    text = cl100k.decode(ids)
    assert text == "\ufffd", f"two bytes of a three-byte character (ids {ids}): expected '\\ufffd', got {text!r}"


# Differential cases: built once per session with reference_impl (see conftest.py).
REFERENCE_CASES = (cl100k_text_cases, cl100k_piece_cases)
