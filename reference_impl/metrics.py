"""Tokenizer metrics: fertility, bytes per token, and bits per byte.

Token counts alone cannot compare tokenizers, or models that use different tokenizers: a model
with a larger vocabulary sees fewer, longer tokens, so its loss per token is not comparable.
Normalising by the text itself is: bytes per token measures compression (of UTF-8 bytes, not
characters, so that scripts with multi-byte characters count fairly), and bits per byte turns
a model's total negative log-likelihood into a tokenizer-independent number. Fertility, tokens
per word, shows how hard a tokenizer splits a language's words (Rust et al., 2021).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence


def fertility(text: str, encode: Callable[[str], Sequence[int]]) -> float:
    """Tokens per word: tokens of the whole ``text`` over its whitespace-separated words."""
    words = text.split()
    if not words:
        raise ValueError("fertility needs a text with at least one word")
    return len(encode(text)) / len(words)


def bytes_per_token(text: str, encode: Callable[[str], Sequence[int]]) -> float:
    """UTF-8 bytes of ``text`` over the number of tokens ``encode`` gives it."""
    tokens = encode(text)
    if not tokens:
        raise ValueError("bytes per token needs a text that encodes to at least one token")
    return len(text.encode("utf-8")) / len(tokens)


def bits_per_byte(token_logprobs: Sequence[float], text: str) -> float:
    """Bits per UTF-8 byte: the total negative log-likelihood (natural log, nats) in bits over the bytes."""
    num_bytes = len(text.encode("utf-8"))
    if num_bytes == 0:
        raise ValueError("bits per byte needs a non-empty text")
    return -math.fsum(token_logprobs) / math.log(2) / num_bytes
