# drills: tokenizer-metrics
# variant: counts bytes character by character and converts nats with log2(e)
import math


def fertility(text, encode):
    n_words = len(text.split())
    if n_words == 0:
        raise ValueError("no words")
    return float(len(encode(text))) / n_words


def bytes_per_token(text, encode):
    n_tokens = len(encode(text))
    if n_tokens == 0:
        raise ValueError("no tokens")
    n_bytes = sum(len(ch.encode("utf-8")) for ch in text)
    return n_bytes / n_tokens


def bits_per_byte(token_logprobs, text):
    n_bytes = sum(len(ch.encode("utf-8")) for ch in text)
    if not n_bytes:
        raise ValueError("empty text")
    bits = 0.0
    for lp in token_logprobs:
        bits -= lp * math.log2(math.e)
    return bits / n_bytes
