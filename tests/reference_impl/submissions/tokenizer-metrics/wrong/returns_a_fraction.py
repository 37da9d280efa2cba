# drills: tokenizer-metrics
# mistake: returns exact Fraction objects where the prompt asks for float
# caught-by: test_fertility_is_tokens_per_word, test_bytes_per_token_divides_by_tokens
import math
from fractions import Fraction


def fertility(text, encode):
    words = text.split()
    if not words:
        raise ValueError("no words")
    return Fraction(len(encode(text)), len(words))


def bytes_per_token(text, encode):
    tokens = encode(text)
    if not tokens:
        raise ValueError("no tokens")
    return Fraction(len(text.encode("utf-8")), len(tokens))


def bits_per_byte(token_logprobs, text):
    size = len(text.encode("utf-8"))
    if not size:
        raise ValueError("empty text")
    return -sum(token_logprobs) / math.log(2) / size
