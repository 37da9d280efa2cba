# drills: viterbi-segment
# mistake: the split point loop starts at 1, so no piece may start the word except single letters
# caught-by: test_whole_word_piece_wins_when_it_scores_higher, test_random_vocabularies_match_brute_force_enumeration
import math


def viterbi_segment(word: str, log_probs: dict[str, float]) -> tuple[list[str], float]:
    n = len(word)
    best, back = [0.0] + [-math.inf] * n, [0] * (n + 1)
    for i in range(1, n + 1):
        for j in range(1 if i > 1 else 0, i):
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
