# drills: tokenizer-metrics
# mistake: returns 0.0 when there is nothing to divide by
# caught-by: test_fertility_of_a_text_without_words_raises, test_bytes_per_token_without_tokens_raises, test_bits_per_byte_of_an_empty_text_raises
import math
from collections.abc import Callable, Sequence


def fertility(text: str, encode: Callable[[str], Sequence[int]]) -> float:
    """Tokens per word: tokens of the whole ``text`` over its whitespace-separated words."""
    words = text.split()
    if not words:
        return 0.0
    return len(encode(text)) / len(words)


def bytes_per_token(text: str, encode: Callable[[str], Sequence[int]]) -> float:
    """UTF-8 bytes of ``text`` over the number of tokens ``encode`` gives it."""
    tokens = encode(text)
    if not tokens:
        return 0.0
    return len(text.encode("utf-8")) / len(tokens)


def bits_per_byte(token_logprobs: Sequence[float], text: str) -> float:
    """Bits per UTF-8 byte: the total negative log-likelihood (natural log, nats) in bits over the bytes."""
    num_bytes = len(text.encode("utf-8"))
    if num_bytes == 0:
        return 0.0
    return -math.fsum(token_logprobs) / math.log(2) / num_bytes
