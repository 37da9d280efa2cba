# drills: viterbi-segment
# mistake: the empty word returns ([], -inf) instead of the empty segmentation ([], 0.0)
# caught-by: test_empty_word_has_the_empty_segmentation
import math


def viterbi_segment(word: str, log_probs: dict[str, float]) -> tuple[list[str], float]:
    n = len(word)
    if n == 0:
        return [], -math.inf
    best, back = [0.0] + [-math.inf] * n, [0] * (n + 1)
    for i in range(1, n + 1):
        for j in range(i):
            lp = log_probs.get(word[j:i])
            if lp is not None and best[j] + lp > best[i]:
                best[i], back[i] = best[j] + lp, j
    if best[n] == -math.inf:
        return [], -math.inf
    pieces, i = [], n
    while i > 0:
        pieces.append(word[back[i]:i])
        i = back[i]
    return pieces[::-1], best[n]
