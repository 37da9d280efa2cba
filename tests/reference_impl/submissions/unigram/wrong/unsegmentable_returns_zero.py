# drills: viterbi-segment
# mistake: an unsegmentable word returns ([], 0.0) instead of ([], -inf)
# caught-by: test_word_with_an_unknown_character_is_unsegmentable, test_empty_vocabulary
import math


def viterbi_segment(word: str, log_probs: dict[str, float]) -> tuple[list[str], float]:
    n = len(word)
    best, back = [0.0] + [-math.inf] * n, [0] * (n + 1)
    for i in range(1, n + 1):
        for j in range(i):
            lp = log_probs.get(word[j:i])
            if lp is not None and best[j] + lp > best[i]:
                best[i], back[i] = best[j] + lp, j
    if best[n] == -math.inf:
        return [], 0.0
    pieces, i = [], n
    while i > 0:
        pieces.append(word[back[i]:i])
        i = back[i]
    return pieces[::-1], best[n]
