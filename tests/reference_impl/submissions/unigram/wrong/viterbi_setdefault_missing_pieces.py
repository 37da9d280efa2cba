# drills: viterbi-segment
# mistake: looks pieces up with setdefault(..., -inf), writing every missing substring into the caller's log_probs
# caught-by: test_the_vocabulary_is_left_unchanged
import math


def viterbi_segment(word: str, log_probs: dict[str, float]) -> tuple[list[str], float]:
    n = len(word)
    score = [-math.inf] * (n + 1)
    prev = [-1] * (n + 1)
    score[0] = 0.0
    for start in range(n):
        if score[start] == -math.inf:
            continue
        for end in range(start + 1, n + 1):
            lp = log_probs.setdefault(word[start:end], -math.inf)
            if lp > -math.inf and score[start] + lp >= score[end]:
                score[end] = score[start] + lp
                prev[end] = start
    if score[n] == -math.inf:
        return [], -math.inf
    out: list[str] = []
    pos = n
    while pos:
        out.insert(0, word[prev[pos]:pos])
        pos = prev[pos]
    return out, score[n]
