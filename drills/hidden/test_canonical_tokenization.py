"""Hidden tests for the `canonical-tokenization` drill: CanonicalChecker.canonical_ids(ids) and
CanonicalChecker.first_non_canonical(ids), over the real cl100k_base vocabulary.

Contract: ``canonical_ids`` decodes the tokens' bytes as strict UTF-8 and re-encodes the text
(pattern split, rank BPE per piece); an unknown id or bytes that are not UTF-8 raise ValueError.
``first_non_canonical`` is None for a canonical sequence, else the first index where the
sequence and its canonical encoding differ. Neither modifies ``ids``; both return new values.
"""

from __future__ import annotations

import pytest

HELLO, HEL, LO, WORLD = 15339, 50222, 385, 1917
E_ACUTE, E_ACUTE_LEAD, E_ACUTE_TRAIL = 978, 127, 102  # "é", b"\xc3", b"\xa9"
A, B, SPACE, TWO_SPACES, THREE_SPACES, SPACE_B = 64, 65, 220, 256, 262, 293
DIGITS_123, DIGIT_4, DIGITS_12, DIGITS_34 = 4513, 19, 717, 1958
TAB, TAB_SPACE = 197, 3762


PROSE = "The café's owner said: \"We've sold 1,234 croissants!\"\n\n\tdef f(x):  return x"


def prose_ids(ref) -> list[int]:
    """The reference encoder's ids of PROSE; building them loads cl100k_base in the grader's
    trusted process, so that a submission's run finds the table loaded."""
    return ref.CanonicalChecker.from_name("cl100k_base").encode(PROSE)


REFERENCE_CASES = (prose_ids,)


@pytest.fixture(scope="module")
def checker(impl):
    return impl.CanonicalChecker.from_name("cl100k_base")


def canonical(checker, ids: list[int]) -> list[int]:
    given = list(ids)
    got = checker.canonical_ids(given)
    assert type(got) is list, f"canonical_ids({ids}) must return a list, got {type(got).__name__}: {got!r}"
    assert all(type(i) is int for i in got), f"canonical_ids({ids}) must return ids (int), got {got!r}"
    assert given == ids, f"canonical_ids({ids}) modified its argument to {given}"
    return got


def first(checker, ids: list[int]) -> int | None:
    given = list(ids)
    got = checker.first_non_canonical(given)
    assert got is None or type(got) is int, f"first_non_canonical({ids}) must return an int or None, got {got!r}"
    assert given == ids, f"first_non_canonical({ids}) modified its argument to {given}"
    return got


def check(checker, ids: list[int], expected: list[int], at: int | None, rule: str) -> None:
    text = checker.decode_bytes(ids)
    got = canonical(checker, ids)
    assert got == expected, f"{rule}\ncanonical_ids({ids}) (the bytes {text!r})\nexpected {expected}\ngot      {got}"
    where = first(checker, ids)
    assert where == at, f"{rule}\nfirst_non_canonical({ids}) (canonical: {expected})\nexpected {at}\ngot      {where}"


@pytest.mark.concept("canonical-tokenization", "return-types")
def test_canonical_sequences_are_recognised(checker):
    check(checker, [HELLO, WORLD], [HELLO, WORLD], None, "'hello world' as the encoder writes it is canonical")
    check(checker, [E_ACUTE], [E_ACUTE], None, "'é' as one token is canonical")
    check(checker, [A, TWO_SPACES, SPACE_B], [A, TWO_SPACES, SPACE_B], None, "'a   b' as 'a', '  ', ' b'")


@pytest.mark.concept("canonical-tokenization", "merge-order")
def test_a_word_split_into_smaller_tokens_is_not_canonical(checker):
    check(checker, [HEL, LO, WORLD], [HELLO, WORLD], 0, "'hel' + 'lo' spells 'hello', whose canonical token is one")
    check(checker, [HELLO, HEL, LO], [HELLO, HELLO], 1, "the first difference is where the split word starts")


@pytest.mark.concept("canonical-tokenization", "utf8-boundaries")
def test_a_character_split_into_byte_tokens_is_not_canonical(checker):
    check(checker, [A, E_ACUTE_LEAD, E_ACUTE_TRAIL], [A, E_ACUTE], 1, "the two byte tokens of 'é' join into one")


@pytest.mark.concept("canonical-tokenization", "digit-groups")
def test_digit_groups_cut_elsewhere_are_not_canonical(checker):
    check(checker, [DIGITS_12, DIGITS_34], [DIGITS_123, DIGIT_4], 0, "'1234' is '123' + '4', threes from the left")


@pytest.mark.concept("canonical-tokenization", "pre-tokenization")
def test_a_token_across_a_pre_tokenizer_boundary_is_not_canonical(checker):
    check(
        checker,
        [A, THREE_SPACES, B],
        [A, TWO_SPACES, SPACE_B],
        1,
        "'a   b' is cut 'a', '  ', ' b' before BPE: '   ' spans two pieces, though it is a token",
    )
    check(checker, [A, TAB_SPACE, B], [A, TAB, SPACE_B], 1, "'a\\t b' is cut 'a', '\\t', ' b': '\\t ' spans two pieces")
    check(
        checker,
        [A, SPACE, TWO_SPACES, B],
        [A, TWO_SPACES, SPACE_B],
        1,
        "every token is a canonical piece on its own, yet the sequence is not: re-encode the whole text",
    )


@pytest.mark.concept("canonical-tokenization", "unknown-token")
def test_an_unknown_id_raises_value_error(checker):
    for method in ("canonical_ids", "first_non_canonical"):
        with pytest.raises(ValueError):
            getattr(checker, method)([HELLO, 10**9])
        with pytest.raises(ValueError):
            getattr(checker, method)([-1])


@pytest.mark.concept("canonical-tokenization", "utf8-boundaries")
def test_bytes_that_are_not_utf8_raise_value_error(checker):
    for ids in ([E_ACUTE_LEAD], [HELLO, E_ACUTE_TRAIL], [E_ACUTE_TRAIL, E_ACUTE_LEAD]):
        for method in ("canonical_ids", "first_non_canonical"):
            with pytest.raises(ValueError):
                getattr(checker, method)(list(ids))


@pytest.mark.concept("canonical-tokenization", "empty-inputs")
def test_the_empty_sequence_is_canonical(checker):
    check(checker, [], [], None, "[] spells the empty text, whose encoding is []")


@pytest.mark.concept("inputs-unchanged")
def test_a_new_list_every_time(checker):
    ids = [HELLO, WORLD]
    got = checker.canonical_ids(ids)
    assert got == ids and got is not ids, "canonical_ids must return a new list, even for a canonical sequence"
    ids = [HEL, LO, DIGITS_12, DIGITS_34]
    checker.canonical_ids(ids)
    checker.first_non_canonical(ids)
    assert ids == [HEL, LO, DIGITS_12, DIGITS_34], f"a non-canonical argument was modified in place: {ids}"


@pytest.mark.concept("canonical-tokenization")
def test_real_prose_round_trips_and_a_token_spelled_in_bytes_is_found(checker, reference_cases):
    ids = list(reference_cases(prose_ids))
    check(checker, ids, ids, None, "the encoder's own output is canonical")
    at = 1  # " café"
    spelled = [checker.ranks[bytes([byte])] for byte in checker.decode_bytes([ids[at]])]
    mangled = [*ids[:at], *spelled, *ids[at + 1 :]]
    check(checker, mangled, ids, at, "' café' spelled byte by byte: the first difference is where it starts")
