# drills: viterbi-segment
# mistake: minimises the number of pieces and only uses log-probs to break ties
# caught-by: test_more_pieces_win_when_they_score_higher, test_random_vocabularies_match_brute_force_enumeration
import math


def viterbi_segment(word: str, log_probs: dict[str, float]) -> tuple[list[str], float]:
    n = len(word)
    best = [(0, 0.0)] + [None] * n
    back = [0] * (n + 1)
    for i in range(1, n + 1):
        for j in range(i):
            if best[j] is None or word[j:i] not in log_probs:
                continue
            cand = (best[j][0] + 1, best[j][1] + log_probs[word[j:i]])
            if best[i] is None or (cand[0], -cand[1]) < (best[i][0], -best[i][1]):
                best[i], back[i] = cand, j
    if best[n] is None:
        return [], -math.inf
    pieces, i = [], n
    while i > 0:
        pieces.append(word[back[i]:i])
        i = back[i]
    return pieces[::-1], best[n][1]
