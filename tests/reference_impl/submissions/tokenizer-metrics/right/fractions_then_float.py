# drills: tokenizer-metrics
# variant: exact fractions for the ratios, converted to float at the end; nats per byte divided by ln 2
from fractions import Fraction
import math


def _ratio(num, den, what):
    if den == 0:
        raise ValueError(f"{what}: nothing to divide by")
    return float(Fraction(num, den))


def fertility(text, encode):
    return _ratio(len(encode(text)), len(text.split()), "fertility")


def bytes_per_token(text, encode):
    return _ratio(len(text.encode()), len(encode(text)), "bytes per token")


def bits_per_byte(token_logprobs, text):
    size = len(text.encode())
    if size == 0:
        raise ValueError("bits per byte: empty text")
    nats_per_byte = -math.fsum(token_logprobs) / size
    return nats_per_byte / math.log(2)
