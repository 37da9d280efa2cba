# drills: tokenizer-metrics
# mistake: divides bits by characters instead of UTF-8 bytes
# caught-by: test_bits_per_byte_divides_by_bytes_not_tokens
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
    num_bytes = len(text)
    if num_bytes == 0:
        raise ValueError("bits per byte needs a non-empty text")
    return -math.fsum(token_logprobs) / math.log(2) / num_bytes
