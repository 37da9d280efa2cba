# drills: tokenizer-metrics
# mistake: floor-divides the counts, so the ratios lose their fractions
# caught-by: test_bytes_per_token_divides_by_tokens, test_cl100k_metrics_across_languages
import math


def fertility(text, encode):
    words = text.split()
    if not words:
        raise ValueError("no words")
    return float(len(encode(text)) // len(words))


def bytes_per_token(text, encode):
    tokens = encode(text)
    if not tokens:
        raise ValueError("no tokens")
    return float(len(text.encode("utf-8")) // len(tokens))


def bits_per_byte(token_logprobs, text):
    size = len(text.encode("utf-8"))
    if not size:
        raise ValueError("empty text")
    return -sum(token_logprobs) / math.log(2) / size
