# drills: viterbi-segment
# mistake: multiplies log-probabilities instead of adding them
# caught-by: test_returns_a_log_probability_not_a_probability, test_random_vocabularies_match_brute_force_enumeration
import math


def viterbi_segment(word: str, log_probs: dict[str, float]) -> tuple[list[str], float]:
    n = len(word)
    best, back = [1.0] + [-math.inf] * n, [0] * (n + 1)
    for i in range(1, n + 1):
        for j in range(i):
            lp = log_probs.get(word[j:i])
            if lp is not None and best[j] != -math.inf and best[j] * lp > best[i]:
                best[i], back[i] = best[j] * lp, j
    if best[n] == -math.inf:
        return [], -math.inf
    pieces, i = [], n
    while i > 0:
        pieces.append(word[back[i]:i])
        i = back[i]
    return pieces[::-1], best[n]
