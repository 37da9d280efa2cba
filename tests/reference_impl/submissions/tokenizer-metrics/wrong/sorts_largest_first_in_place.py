# drills: tokenizer-metrics
# mistake: sorts the caller's log-probabilities in place, largest first, before summing
# caught-by: test_arguments_are_not_modified
import math


def fertility(text, encode):
    words = text.split()
    if not words:
        raise ValueError("no words")
    return len(encode(text)) / len(words)


def bytes_per_token(text, encode):
    tokens = encode(text)
    if not tokens:
        raise ValueError("no tokens")
    return len(text.encode("utf-8")) / len(tokens)


def bits_per_byte(token_logprobs, text):
    size = len(text.encode("utf-8"))
    if size == 0:
        raise ValueError("empty text")
    token_logprobs.sort(reverse=True)
    return -math.fsum(token_logprobs) / math.log(2) / size
